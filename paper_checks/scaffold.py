"""``paper-checks init NAME``: scaffold a claims package for your own paper.

The package it writes is the smallest complete example of the contract
(:doc:`/checking_your_own_paper`)::

    NAME/
        pyproject.toml      # the entry point: [project.entry-points."paper_checks.papers"]
        README.md           # three commands: install, paper-checks --paper KEY, pytest
        <package>/__init__.py
        <package>/claims.py # register_paper + one claim of each verdict
        tests/test_claims.py  # the claims as pytest items (no conftest.py needed)

``claims.py`` holds one ``holds`` (with its :class:`~paper_checks.perturbation.Perturbed`
statement and a certificate the independent checker re-checks), one ``erratum`` (with its
:class:`~paper_checks.defence.Defence`, the corrected statement and an independent
recomputation) and one ``unproven`` (a proof step refuted by a counterexample), each with its
``basis``.  The example paper is a made-up note about matrix ranks: replace it with yours.

Examples
--------
>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     root = scaffold("my-paper-claims", directory=tmp)
...     sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
['README.md', 'my_paper_claims/__init__.py', 'my_paper_claims/claims.py', 'pyproject.toml',
 'tests/test_claims.py']
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main", "scaffold"]

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,60}$")

_PYPROJECT = '''\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = "Executable checks of the printed statements of {key} (paper_checks)"
requires-python = ">=3.11"
dependencies = ["seprank-identifiability"]

# The door every paper goes through: importing {package}.claims registers the paper and its
# claims.  The entry point's name is the paper key.
[project.entry-points."paper_checks.papers"]
{key} = "{package}.claims"

[tool.setuptools]
packages = ["{package}"]

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

_README = '''\
# {name}

Executable checks of the printed statements of paper `{key}`, with
[paper_checks](https://github.com/) (seprank-identifiability): each statement is a registered
claim with the verdict we expect, checked by code that could say no.

```bash
pip install -e .                 # registers paper {key} (entry point paper_checks.papers)
paper-checks --paper {key}       # the verdicts, a report in paper_checks_report.md
pytest                           # the same claims as test items
```
'''

_INIT = '''\
"""Claims of paper {key}: see :mod:`{package}.claims`."""
'''

_CLAIMS = '''\
"""The claims of paper {key}: one registered check per printed statement.

Importing this module registers the paper and its claims (the entry point in pyproject.toml
names it).  Each claim declares what the paper printed, the verdict we expect, and the basis of
that verdict; ``paper-checks --paper {key}`` and ``pytest`` run them.

The paper below is a made-up note about matrix ranks, there to show one claim of each verdict:
replace it with yours.
"""

from __future__ import annotations

from fractions import Fraction

from paper_checks import (
    Attack,
    ClaimResult,
    Defence,
    Independent,
    Perturbed,
    Proves,
    claim,
    register_paper,
)
from paper_checks.compare import exact_result
from seprank import matrix_rank
from seprank.certificates import matrix_certificate

PAPER = "{key}"
register_paper(
    key=PAPER,
    title="A note on matrix ranks (example; replace with your paper)",
    authors=["A. Author", "B. Author"],
    year=2024,
    identifier="arXiv:0000.00000v1",
)

#: Example 1's matrix, as printed.
M = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]


def _exact_rank(rows: list[list[int]]) -> int:
    """Rank by fraction-exact Gaussian elimination, written here: the independent route."""
    a = [[Fraction(x) for x in row] for row in rows]
    rank, cols = 0, len(a[0]) if a else 0
    for c in range(cols):
        pivot = next((r for r in range(rank, len(a)) if a[r][c] != 0), None)
        if pivot is None:
            continue
        a[rank], a[pivot] = a[pivot], a[rank]
        for r in range(len(a)):
            if r != rank and a[r][c] != 0:
                f = a[r][c] / a[rank][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[rank], strict=True)]
        rank += 1
    return rank


# 1. holds: a statement about a stated instance, checked exactly, with a certificate the
#    independent checker re-checks (basis 'certified' under --certificates, 'exact' otherwise).
#    The perturbed statement (rank 3) is fixed here, before anything is measured: the check
#    must reject it, or it could not have rejected anything.
@claim(
    id="{prefix}-Ex1-rank",
    paper=PAPER,
    reference="Example 1",
    statement="The matrix [[1,2,3],[4,5,6],[7,8,9]] has rank 2",
    perturbation=Perturbed("rank 3 instead of 2", rank=3),
    basis="certified",
    certifies=True,
    proves=Proves("matrix_rank", "=", 2, subject={{"matrix": {{"shape": [3, 3]}}}}),
)
def {snake}_ex1_rank(rank: int = 2) -> ClaimResult:
    result = matrix_rank(M, method="exact")
    return exact_result(result.rank, rank, what="exact rank",
                        certificates={{"M rank": matrix_certificate(M, result, seed=0)}})


# 2. erratum: the printed statement is wrong, a corrected one holds; the counterexample is
#    exact (basis 'exact'), recomputed independently, and the defence says why no reading of
#    the paper saves the printed form.
@claim(
    id="{prefix}-Lemma2-sum",
    paper=PAPER,
    reference="Lemma 2",
    statement="rank(A + B) = rank(A) + rank(B) for all square A, B",
    expected_verdict="erratum",
    basis="exact",
    defence=Defence(
        version="The note has one version (arXiv v1).",
        regime="An exact identity; no asymptotic regime is involved.",
        convention="Ranks over the reals; the counterexample is the same over every field.",
        definitions="rank as the note defines it (dimension of the column space).",
        parameters="No experimental parameter.",
        extraction="'=' versus '<=': the proof after the lemma proves only '<=', so the "
                   "printed '=' is not an extraction loss.",
        attack=Attack("independent reviewer (document and verdict only)", "2024-01-01",
                      "upheld", "A = B = I_2 gives rank 2 on the left, 4 on the right."),
    ),
)
def {snake}_lemma2_sum() -> ClaimResult:
    a = [[1, 0], [0, 1]]
    s = [[2, 0], [0, 2]]
    left, right = matrix_rank(s, method="exact").rank, 2 * matrix_rank(a, method="exact").rank
    return exact_result(
        left, right, what="rank(A+B) vs rank A + rank B at A = B = I_2", corrected=left <= right,
        kind="statement",
        details={{"printed": f"{{left}} = {{right}}: false",
                 "corrected": f"{{left}} <= {{right}}"}},
        independent=Independent("fraction-exact elimination written in the check",
                                _exact_rank(s), agrees=_exact_rank(s) == left))


# 3. unproven: a step of a proof is false (a counterexample), so the theorem is left without
#    proof; nothing is said about whether the theorem is true.
@claim(
    id="{prefix}-Thm3-proof",
    paper=PAPER,
    reference="Theorem 3, proof, step (ii)",
    statement="Step (ii): rank(AB) = rank(A) for every B",
    expected_verdict="unproven",
    basis="exact",
    defence=Defence(
        version="The note has one version (arXiv v1).",
        regime="An exact step; no regime.",
        convention="Ranks over the reals.",
        definitions="B ranges over all matrices, as step (ii) says; B invertible would save it "
                    "but the theorem does not assume it.",
        parameters="No experimental parameter.",
        extraction="No symbol of the step could have been lost.",
    ),
)
def {snake}_thm3_proof() -> ClaimResult:
    a = [[1, 0], [0, 1]]
    b = [[0, 0], [0, 0]]
    ab = b
    r_ab, r_a = matrix_rank(ab, method="exact").rank, matrix_rank(a, method="exact").rank
    return ClaimResult(
        r_ab, r_a, "unproven", kind="proof",
        details={{"counterexample": "A = I_2, B = 0: rank(AB) = 0, rank(A) = 2"}},
        independent=Independent("fraction-exact elimination written in the check",
                                _exact_rank(ab), agrees=_exact_rank(ab) == r_ab))
'''

_TEST = '''\
"""The claims of paper {key} as pytest items: the paper_checks plugin (installed with
seprank-identifiability) collects every registered claim function imported here, one item per
claim, passing when its verdict is the registered one and its perturbed statement is rejected.
No conftest.py is needed."""

from {package}.claims import (  # noqa: F401  (collected as claim items)
    {snake}_ex1_rank,
    {snake}_lemma2_sum,
    {snake}_thm3_proof,
)


def test_an_ordinary_test_is_collected_as_usual() -> None:
    assert 1 + 1 == 2
'''


def scaffold(name: str, *, key: str | None = None, directory: str | Path = ".") -> Path:
    """Write a claims package ``NAME`` (see the module docstring) and return its folder.

    Parameters
    ----------
    name : str
        The distribution name, e.g. ``"kruskal-claims"`` (letters, digits, ``-``, ``_``); the
        import package is its ``-`` replaced by ``_``.
    key : str, optional
        The paper key (default: the import package's name).
    directory : str or Path
        Where to create ``NAME/`` (default: the current directory).

    Returns
    -------
    Path
        The new package's folder.

    Raises
    ------
    ValueError
        A malformed name or key, or ``NAME/`` already exists and is not empty.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     root = scaffold("kruskal-claims", key="kruskal77", directory=tmp)
    ...     'kruskal77 = "kruskal_claims.claims"' in (root / "pyproject.toml").read_text()
    True
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"NAME must start with a letter and hold letters, digits, '-', '_' "
                         f"(at most 61 characters), got {name!r}")
    package = name.replace("-", "_").lower()
    key = package if key is None else key
    from paper_checks.papers import _KEY

    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(f"--key must be one word of letters, digits, '.', '_', '-', got {key!r}")
    root = Path(directory) / name
    if root.exists() and any(root.iterdir()):
        raise ValueError(f"{root} exists and is not empty; choose another NAME or folder")
    snake = re.sub(r"[^0-9a-z]+", "_", key.lower()).strip("_") or "paper"
    if snake[0].isdigit():
        snake = f"p{snake}"
    prefix = re.sub(r"[^0-9A-Za-z]+", "-", key).strip("-").upper() or "PAPER"
    fields = {"name": name, "package": package, "key": key, "snake": snake, "prefix": prefix}
    files = {"pyproject.toml": _PYPROJECT, "README.md": _README,
             f"{package}/__init__.py": _INIT, f"{package}/claims.py": _CLAIMS,
             "tests/test_claims.py": _TEST}
    for rel, template in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**fields), encoding="utf-8")
    return root


def main(argv: Sequence[str] | None = None) -> int:
    """``paper-checks init NAME [--key KEY] [--dir DIR]``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after ``init``.

    Returns
    -------
    int
        0 on success, 2 for a bad name, key or an existing folder.

    Examples
    --------
    >>> main(["1-not-a-name"])
    2
    """
    p = argparse.ArgumentParser(prog="paper-checks init",
                                description="Scaffold a claims package for your own paper.")
    p.add_argument("name", metavar="NAME", help="distribution name, e.g. kruskal-claims")
    p.add_argument("--key", help="the paper key (default: NAME with '-' -> '_')")
    p.add_argument("--dir", default=".", help="where to create NAME/ (default: here)")
    args = p.parse_args(argv)
    try:
        root = scaffold(args.name, key=args.key, directory=args.dir)
    except ValueError as err:
        print(f"paper-checks init: {err}", file=sys.stderr)
        return 2
    key = args.key or args.name.replace("-", "_").lower()
    print(f"created {root}\nnext:\n  cd {root}\n  pip install -e .\n"
          f"  paper-checks --paper {key}\n  pytest")
    return 0
