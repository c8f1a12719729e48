"""Every public result and model displays itself: a short repr and a bounded rich display.

One case per class: the Markdown (and HTML where defined) renders, opens with the object's
one-line summary, stays under :data:`seprank.core.display.MAX_DISPLAY` characters, and no
display or repr dumps a whole array.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import matplotlib
import numpy as np
import pytest

from seprank.core.display import MAX_DISPLAY, escape_markdown, summarize

matplotlib.use("Agg")

REPR_LIMIT = 400


def _rank_result() -> Any:
    import seprank
    return seprank.matrix_rank([[1, 2], [2, 4]], method="exact")


def _eps_rank() -> Any:
    from seprank.core import eps_rank
    return eps_rank(np.diag([1.0, 0.5, 1e-6]), 1e-3)


def _network() -> Any:
    from seprank import LinearAttention
    return LinearAttention.random(depth=2, width=2, seed=0)


def _block_result() -> Any:
    return _network().separation_rank(position=0, coordinate=0, partition=([0, 1], [2, 3]),
                                      n_inputs=4, seed=0)


def _dense_result() -> Any:
    return _network().separation_rank(position=0, coordinate=0, partition=([0, 1], [2, 3]),
                                      n_inputs=4, seed=0, structure="dense")


def _hadamard() -> Any:
    from seprank.d2w import hadamard_power_rank, paper_witness_V
    return hadamard_power_rank(paper_witness_V(3, 3, normalized=False), 3)


def _witness() -> Any:
    from seprank.d2w import lemma6_witness
    return lemma6_witness(5, 2, seed=0)


def _seq_sep() -> Any:
    from seprank.incontext import InContextRepresentation, incontext_seq_sep
    return incontext_seq_sep(InContextRepresentation.random(depth=1, width=2, seed=0), seed=0)


def _cut_rank() -> Any:
    from seprank.automata.bridge import cut_separation_rank
    from seprank.automata.examples import flip_flop
    return cut_separation_rank(flip_flop(), 1, 1, 6, ([0, 2, 4], [1, 3, 5]), seed=0)


def _bound() -> Any:
    from seprank.d2w import theorem1_lower
    return theorem1_lower(width=9, depth=2)            # outside its hypotheses: flagged


def _hmm() -> Any:
    from identifiability import HMM
    return HMM.random(12, 4, seed=0)


def _ghmm() -> Any:
    from identifiability import GaussianHMM
    return GaussianHMM.random(6, 3, seed=1)


def _masked_tensor() -> Any:
    from identifiability import masked_prediction_tensor
    return masked_prediction_tensor(_hmm(), "x2*x3|x1")


def _jacobian() -> Any:
    from identifiability import jacobian_deficiency
    return jacobian_deficiency(_hmm(), "x2|x1")


def _kruskal_rank() -> Any:
    from identifiability import kruskal_rank
    return kruskal_rank([[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]])


def _kruskal_condition() -> Any:
    from identifiability import kruskal_condition
    return kruskal_condition(_masked_tensor().factors, method="svd")


def _recovered() -> Any:
    from identifiability import optimal_predictor, recover_hmm
    return recover_hmm(optimal_predictor(_hmm(), "x2*x3|x1"), 4, seed=0)


def _cp() -> Any:
    return _recovered().cp


def _samples() -> Any:
    from identifiability import HMM
    truth = HMM.random(4, 2, seed=0)
    return truth, truth.sample(50, n_sequences=400, seed=1).observations


def _moments() -> Any:
    from identifiability import empirical_moments
    return empirical_moments(_samples()[1], 4)


def _estimate() -> Any:
    from identifiability import estimate_hmm
    return estimate_hmm(_samples()[1], 2, seed=2, check="report")


def _em() -> Any:
    from identifiability import refine_em
    return refine_em(_estimate(), _samples()[1], n_iter=3)


def _assumptions() -> Any:
    return _hmm().check_assumptions()


def _identifiability() -> Any:
    from identifiability import identifiable
    return identifiable(_hmm(), "x2*x3|x1", seed=0)


def _sweep() -> Any:
    from seprank.sweeps.run import sweep
    return sweep(_square, [{"n": n, "m": m} for n in range(1, 30) for m in (1, 2)],
                 executor="serial", progress=False)


def _square(n: int, m: int) -> dict[str, Any]:
    return {"value": n * n * m, "vector": np.arange(50.0)}


def _verification() -> Any:
    from seprank.certificates import verify
    return verify(_dense_result().certificate())


def _outcome() -> Any:
    from paper_checks import run_claims, select
    return run_claims(select(id="D2W-Lemma3-equality"), progress=False)[0]


def _claim() -> Any:
    return _outcome().claim


def _claim_result() -> Any:
    return _outcome().result


CASES: dict[str, Callable[[], Any]] = {
    "RankResult": _rank_result, "EpsRankResult": _eps_rank,
    "SeparationRankResult": _dense_result, "BlockSeparationRankResult": _block_result,
    "HadamardRankResult": _hadamard, "WitnessResult": _witness, "SeqSepResult": _seq_sep,
    "CutRankResult": _cut_rank, "Bound": _bound, "LinearAttention": _network,
    "HMM": _hmm, "GaussianHMM": _ghmm, "MaskedTensor": _masked_tensor,
    "JacobianDeficiency": _jacobian, "KruskalRankResult": _kruskal_rank,
    "KruskalCondition": _kruskal_condition, "RecoveredModel": _recovered, "CPResult": _cp,
    "TripleMoments": _moments, "MomentEstimate": _estimate, "EMRefinement": _em,
    "AssumptionReport": _assumptions, "Identifiability": _identifiability,
    "SweepResult": _sweep, "Verification": _verification, "Claim": _claim,
    "ClaimResult": _claim_result, "ClaimOutcome": _outcome,
}


def _dumps_an_array(text: str) -> bool:
    """More than 12 numbers in one bracketed run: a whole array printed."""
    return any(len(re.findall(r"-?\d+\.?\d*(?:e[-+]?\d+)?", run)) > 12
               for run in re.findall(r"\[[^\[\]]*\]", text))


@pytest.mark.parametrize("name", list(CASES))
def test_display_renders_and_is_bounded(name: str) -> None:
    obj = CASES[name]()
    assert type(obj).__name__ == name
    text = repr(obj)
    assert len(text) <= REPR_LIMIT and "\n" not in text, text
    assert not _dumps_an_array(text), text
    md = obj._repr_markdown_()
    assert isinstance(md, str) and md.startswith("**") and "|---|" in md
    assert len(md) <= MAX_DISPLAY and not _dumps_an_array(md), md
    if hasattr(obj, "summary"):              # the headline (escaped by markdown_table)
        head = obj.summary().splitlines()[0][:40]
        assert head in md or escape_markdown(head) in md
    if hasattr(obj, "_repr_html_"):
        page = obj._repr_html_()
        assert page.startswith("<div>") and "<table>" in page and len(page) <= 2 * MAX_DISPLAY


def test_summaries_of_values_are_short() -> None:
    from fractions import Fraction
    assert summarize(np.arange(10_000.0)) == "array(10000 float64: [0. 1. 2. 3. 4. 5. …])"
    big = Fraction(3**700, 2**1000 + 1)   # 3^700 / 2^1000 = 10^(700 log10 3 - 1000 log10 2)
    approx = 10 ** (700 * math.log10(3) - 1000 * math.log10(2))
    assert summarize(big) == (f"Fraction ≈ {approx:.3g} (334-digit numerator / 302-digit "
                              "denominator)")
    assert len(summarize("x" * 10_000)) == 120


def test_plots_return_their_axes() -> None:
    import matplotlib.pyplot as plt

    from seprank import d2w
    _, ax = plt.subplots()
    assert _bound().plot([3, 4], ax=ax) is ax
    sweep = _sweep()
    ax = sweep.plot("n", y="value", bound=lambda p: 2 * p["n"] ** 2)
    # one line of values and one of the bound per setting of m
    assert len(ax.get_lines()) == 4 and ax.get_xlabel() == "n"
    assert _outcome().plot().get_yscale() in ("linear", "log")
    truth, _ = _samples()
    assert _estimate().plot(truth).get_xlabel() == "true entry"
    type(_estimate()).plot_errors([_estimate()], truth)
    upper = d2w.theorem3_upper(width=2, depth=2)
    assert upper.plot([_block_result()]).get_yscale() == "log"
    plt.close("all")


# --- issue 35: bounded reprs and escaped tables ---------------------------------------------


def test_a_degree_structures_repr_is_bounded() -> None:
    """homogeneous(10**6) printed 17.8 MB: the repr shows the ends and counts the rest."""
    from seprank.separation.degree import DegreeStructure
    text = repr(DegreeStructure.homogeneous(10**5, source="003, eq. 12"))
    assert len(text) <= REPR_LIMIT and "\n" not in text, text
    assert "(0, 100000)" in text and "(100000, 0)" in text and "99,995 more" in text
    small = DegreeStructure(((1, 2), (3, 0)), source="s")
    assert repr(small) == "DegreeStructure(bidegrees=((1, 2), (3, 0)), source='s')"


def _balanced(page: str) -> bool:
    """Every opened tag of the fragment is closed, in order (no tag cut in half)."""
    stack: list[str] = []
    for closing, name in re.findall(r"<(/?)([a-z]+)[^<>]*>", page):
        if not closing:
            stack.append(name)
        elif not stack or stack.pop() != name:
            return False
    return not stack and page.count("<") == page.count(">")


def test_tables_escape_keys_and_headers_and_cut_between_rows() -> None:
    from seprank.core.display import MAX_DISPLAY, html_table, markdown_table
    md = markdown_table("t", {"a|b": 1, "![x](http://t/)": "<img src=x>"})
    rows = md.splitlines()[4:]
    assert all(row.count("|") == 3 for row in rows), md       # no key breaks its cell
    assert "[x]" not in md and "<img" not in md and "&lt;img" in md
    page = html_table("t", {"k": 1}, header=("<script>", "v&"))
    assert "<script>" not in page and "&lt;script&gt;" in page and "v&amp;" in page
    many = [(f"key {k} <b>&", "<" * 119) for k in range(24)]     # escapes lengthen cells
    page = html_table("t" * 500, many)
    assert len(page) <= MAX_DISPLAY and _balanced(page), page[-200:]
    assert page.endswith("</table></div>") and "more</td></tr>" in page
    md = markdown_table("t", many)
    assert len(md) <= MAX_DISPLAY and all(r.count("|") == 3 for r in md.splitlines()[2:])


def test_a_verifications_markdown_escapes_the_certificates_text() -> None:
    """A stranger's field name reaches the reason; the Markdown shows it as text."""
    from seprank.certificates import verify
    cert = {"schema": "seprank.certificate", "version": 2, "kind": "matrix_rank",
            "shape": [1, 1], "claim": {"relation": ">=", "value": 0, "subject": None},
            "![x](http://tracker/) <img src=x onerror=alert(1)> | **b**": 1}
    v = verify(cert)
    assert v.status == "refused" and "<img" in (v.reason or "")
    md = v._repr_markdown_()
    assert "<img" not in md and "[x]" not in md and "\\[x\\]" in md and "&lt;img" in md
    assert "**b**" not in md and "\\*\\*b\\*\\*" in md
    assert all(line.count("|") == 3 for line in md.splitlines()[2:]), md


def test_a_separation_rank_displays_the_answer_first() -> None:
    from seprank import LinearAttention
    from seprank.core.display import MAX_MAIN_FIELDS

    net = LinearAttention.random(depth=2, width=2, heads=1, seed=0)
    r = net.separation_rank(position=0, coordinate=0, partition=([0, 1], [2, 3]), n_inputs=4,
                            seed=0)
    md = r._repr_markdown_()
    opened, _, hidden = md.partition("<details>")
    # the value and what it certifies as math, right under the headline
    assert rf"\ge {r.rank}$" in opened.split("| field |")[0]
    fields = [line for line in opened.split("| bidegree |")[0].splitlines()
              if line.startswith("| ") and not line.startswith("| field")]
    assert len(fields) <= MAX_MAIN_FIELDS and fields[0] == f"| rank | {r.rank} |"
    assert "| bidegree | bound | rank | stop | matrix |" in opened      # the blocks as a table
    assert len(opened.split("| bidegree |")[1].strip().splitlines()) == 2 + len(r.blocks)
    assert "block\\_table" in hidden and "block\\_table" not in opened  # internals collapsed
    page = r._repr_html_()
    assert "\\(\\operatorname{sep}" in page and "<details>" in page and _balanced(page)
