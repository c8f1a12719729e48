r"""Building certificates: a certified rank and the data that proves it, as JSON.

A certificate (schema :data:`~seprank.certificates.verify.SCHEMA`, version
:data:`~seprank.certificates.verify.SCHEMA_VERSION`) says what is claimed -- ``rank(M) >= r``,
``rank(M) = r``, ``sep_(A,B)(f) >= r``, ``k-rank = k`` -- and carries what proves it: the
prime and the row and column indices of a non-zero r x r minor with its entries, the integer
templates and the function's integer parameters (network weights, embeddings, the output
entry's ``position`` and ``coordinate``) or the whole matrix (packed when large) so that every
entry can be recomputed, kernel vectors for the upper side -- and, in ``claim.subject``, what
the claim is about (:func:`bind_subject`: the function's type, digest and parameters, the
partition, or the matrix's shape and digest).  Numbers are JSON integers, rationals (and
integers beyond 4000 digits) are strings ``"a/b"``.
:func:`seprank.certificates.verify.verify` checks them without this library.

Where the witness comes from: :func:`seprank.core.minors.nonzero_minor` (one echelon form of
the matrix mod p plus one of an r x m matrix), :func:`seprank.core.minors.kernel_basis`
(flint's nullspace) and, for separation ranks
(:meth:`~seprank.separation.result.SeparationRankResult.certificate`), the
result's :class:`~seprank.separation.result.GridEvidence` (kept during the computation with
``keep_witness=True``, or found by re-evaluating the last grid).  This module holds the
shared pieces (header, subject, exact JSON numbers, function descriptions, files) and the
matrix certificates.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import numbers
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from seprank.certificates.verify import SCHEMA, SCHEMA_VERSION, subject_of
from seprank.certificates.verify.exact import decimal, parse_decimal
from seprank.certificates.verify.packed import pack_matrix
from seprank.core.inputs import as_exact_matrix, to_rational
from seprank.core.minors import kernel_basis, nonzero_minor
from seprank.core.random import SeedLike, as_generator, random_prime
from seprank.core.rank import RankResult

__all__ = [
    "MATRIX_ENTRIES_LIMIT",
    "bind_subject",
    "certificate_header",
    "certify",
    "circuit_function",
    "exact_json",
    "function_spec",
    "json_array",
    "load_certificate",
    "matrix_certificate",
    "matrix_fields",
    "network_spec",
    "polynomial_function",
    "save_certificate",
]

#: Matrix certificates write the matrix as a nested list up to this many entries and packed
#: (zlib + base64 of its canonical text, :mod:`seprank.certificates.verify.packed`) beyond.
MATRIX_ENTRIES_LIMIT = 250_000
_PRIME_ATTEMPTS = 8


def exact_json(x: Any) -> int | str:
    """An exact number as JSON: an ``int``, or the string ``"a/b"`` for a non-integer rational.

    Parameters
    ----------
    x : int, fractions.Fraction or other exact rational
        The number (floats are refused).

    Returns
    -------
    int or str
        The integer, or ``"a/b"``.

    Examples
    --------
    >>> exact_json(np.int64(3)), exact_json(Fraction(-1, 2)), exact_json(Fraction(4, 2))
    (3, '-1/2', 2)
    """
    q = to_rational(x)
    if isinstance(q, Fraction):
        return q.numerator if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
    return int(q)


def json_array(a: Any) -> Any:
    """An array of exact numbers as nested JSON lists (:func:`exact_json` entries).

    Parameters
    ----------
    a : array_like
        Exact numbers (nested lists or an array).

    Returns
    -------
    list
        Nested lists of :func:`exact_json` entries (a scalar for a 0-d input).

    Examples
    --------
    >>> json_array(np.array([[1, 2], [3, 4]]))
    [[1, 2], [3, 4]]
    """
    if isinstance(a, str | bytes):
        raise TypeError(f"a must be an array of exact numbers, got the string {a!r}")
    arr = np.asarray(a, dtype=object)
    if arr.ndim == 0:
        try:
            return exact_json(arr.item())
        except (TypeError, ValueError) as err:
            raise type(err)(f"a must hold exact numbers: {err}") from None
    return [json_array(v) for v in arr]


def certificate_header(kind: str, claim: Mapping[str, Any], **provenance: Any) -> dict[str, Any]:
    """The fields every certificate starts with: schema, version, kind, claim, provenance.

    Parameters
    ----------
    kind : str
        The certificate kind (``'matrix_rank'``, ``'grid_rank'``, ...).
    claim : Mapping
        What it claims (``statement``, ``relation``, ``value``, ...).
    **provenance
        Where it comes from (function, seed, version ...), filed under ``provenance``.

    Returns
    -------
    dict
        The header fields.

    Examples
    --------
    >>> h = certificate_header("matrix_rank", {"relation": ">=", "value": 2})
    >>> h["schema"], h["version"], h["kind"]
    ('seprank.certificate', 2, 'matrix_rank')
    """
    from seprank.certificates.verify.kinds import KINDS

    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"kind must be a certificate kind the checker knows, one of "
                         f"{sorted(KINDS)}; got {kind!r}")
    if not isinstance(claim, Mapping):
        raise TypeError(f"claim must be a mapping (what is claimed), got {claim!r}")
    try:
        version = importlib.metadata.version("seprank-identifiability")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - source checkout
        version = "unknown"
    return {"schema": SCHEMA, "version": SCHEMA_VERSION, "kind": kind, "claim": dict(claim),
            "provenance": {"library": f"seprank {version}", **provenance}}


def bind_subject(cert: dict[str, Any]) -> dict[str, Any]:
    """File in ``cert['claim']['subject']`` what the claim is about, derived from the
    certificate's data by the checker's own reading
    (:func:`~seprank.certificates.verify.subject_of`): the function's type, digest and
    parameters, the partition, or the matrix's shape and digest.  The checker derives it again
    and rejects a certificate whose claim names another subject.  Returns ``cert``.

    Parameters
    ----------
    cert : dict
        A certificate (modified in place).

    Returns
    -------
    dict
        ``cert``, with ``claim.subject`` filled in.

    Examples
    --------
    >>> cert = certificate_header("matrix_rank", {"relation": ">=", "value": 0})
    >>> cert.update({"shape": [1, 1], "matrix": [[0]]})
    >>> bind_subject(cert)["claim"]["subject"]["matrix"]["shape"]
    [1, 1]
    """
    if not isinstance(cert, dict) or not isinstance(cert.get("claim"), dict):
        raise TypeError(f"cert must be a certificate dict with a 'claim' dict, got "
                        f"{type(cert).__name__}; build one with certificate_header()")
    claim = cert["claim"]
    claim["subject"] = None
    claim["subject"] = subject_of(cert)
    return cert


def matrix_fields(values: Any, *, packed: bool | None = None) -> dict[str, Any]:
    """A matrix of exact numbers as a certificate's ``matrix`` (nested list) or, beyond
    :data:`MATRIX_ENTRIES_LIMIT` entries (or with ``packed=True``), ``matrix_packed``.

    Parameters
    ----------
    values : array_like
        The matrix of exact numbers.
    packed : bool, optional, keyword-only
        Force (True) or forbid (False) the packed form; default: packed beyond
        :data:`MATRIX_ENTRIES_LIMIT` entries.

    Returns
    -------
    dict
        ``{'matrix': rows}`` or ``{'matrix_packed': {...}}``.

    Examples
    --------
    >>> matrix_fields([[1, 2]])
    {'matrix': [[1, 2]]}
    >>> sorted(matrix_fields([[1, 2]], packed=True)["matrix_packed"])
    ['data', 'encoding', 'entries', 'raw_bytes', 'sha256']
    """
    arr = np.asarray(values, dtype=object)
    if arr.ndim != 2:
        raise ValueError(f"values must be a 2-D matrix (nested lists or an array), got "
                         f"{arr.ndim} dimension(s) from {type(values).__name__}")
    if packed is None:
        packed = arr.size > MATRIX_ENTRIES_LIMIT
    if packed:
        rows = [[to_rational(v) for v in row] for row in arr]
        return {"matrix_packed": pack_matrix(rows)}
    return {"matrix": json_array(arr)}


def _exact_object(M: Any) -> Any:
    """M as an object array of ints and Fractions (row denominators put back)."""
    exact = as_exact_matrix(M, "M")
    m, n = exact.shape
    out = np.empty((m, n), dtype=object)
    for i in range(m):
        den = exact.row_denominators[i]
        for j in range(n):
            v = int(exact.numerators[i, j])
            out[i, j] = v if den == 1 else Fraction(v, den)
    return out


def matrix_certificate(M: Any, result: RankResult, *, seed: SeedLike = None,
                       packed: bool | None = None) -> dict[str, Any]:
    r"""The certificate of a certified matrix rank (``matrix_rank`` exact or modular,
    ``rank_mod_p``).

    Lower side: a prime p (the one that reached the rank for ``'modular'``, a fresh 62-bit
    prime for ``'exact'``) and the rows I and columns J of a non-zero minor
    (:func:`~seprank.core.minors.nonzero_minor`).  Upper side of an exact rank below
    min(m, n): a kernel basis of dimension n - r on the right (or m - r on the left, the
    smaller).  The whole matrix always goes in (the checker checks that the minor is M's):
    as a nested list, or packed beyond :data:`MATRIX_ENTRIES_LIMIT` entries.

    Parameters
    ----------
    M : array_like
        The matrix the result was computed from.
    result : RankResult
        Its certified rank (``certifies`` 'exact' or 'lower_bound').
    seed : int or Generator, optional, keyword-only
        Seeds the prime of an exact rank.
    packed : bool, optional, keyword-only
        Write the matrix packed (zlib + base64 of its canonical text); default beyond
        :data:`MATRIX_ENTRIES_LIMIT` entries.

    Returns
    -------
    dict
        The ``matrix_rank`` certificate (JSON-serialisable).

    Examples
    --------
    >>> from seprank import matrix_rank
    >>> from seprank.certificates import verify
    >>> M = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    >>> cert = matrix_certificate(M, matrix_rank(M, method="exact"), seed=0)
    >>> cert["claim"]["relation"], cert["claim"]["value"], cert["upper"]["vectors"]
    ('=', 2, [[-1, -1, 1]])
    >>> verify(cert).ok
    True
    """
    if not isinstance(result, RankResult):
        raise TypeError(f"result must be a RankResult (from seprank.matrix_rank), got "
                        f"{type(result).__name__}")
    if result.certifies not in ("exact", "lower_bound"):
        raise ValueError("an SVD rank certifies nothing: use method='modular' or 'exact'")
    exact = as_exact_matrix(M, "M")
    m, n = exact.shape
    if (m, n) != tuple(result.details.get("shape", (m, n))):
        raise ValueError(f"M has shape {(m, n)} but the result is of a "
                         f"{result.details['shape']} matrix")
    r = result.rank
    relation = "=" if result.certifies == "exact" else ">="
    p, rows, cols = _minor_prime(M, exact, result, seed)
    if len(rows) != r:
        raise ValueError(f"M has rank {len(rows)} modulo {p}, not the result's {r}: is this "
                         "the matrix the result was computed from?")
    values = _exact_object(M)
    need_kernel = relation == "=" and r < min(m, n)
    cert = certificate_header("matrix_rank", {"quantity": "rank(M)", "relation": relation,
                                              "value": r},
                              method=result.method, summary=result.summary())
    cert["shape"] = [m, n]
    cert.update(matrix_fields(values, packed=packed))
    if r:
        cert["lower"] = {"prime": int(p), "rows": list(rows), "cols": list(cols),
                         "entries": json_array(values[np.ix_(rows, cols)])}
    if need_kernel:
        side = "right" if n <= m else "left"
        basis = kernel_basis(values if side == "right" else values.T)
        cert["upper"] = {"side": side, "vectors": basis}
    return bind_subject(cert)


def _minor_prime(M: Any, exact: Any, result: RankResult,
                 seed: SeedLike) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    if result.method == "modular":
        primes = result.details.get("primes", ())
        ranks = result.details.get("ranks_per_prime", ())
        p = next((q for q, rk in zip(primes, ranks, strict=True) if rk == result.rank), None)
        if p is None:
            raise ValueError("the modular result records no prime that reached its rank")
        return (p, *nonzero_minor(exact.numerators, p))
    rng = as_generator(seed)
    for _ in range(_PRIME_ATTEMPTS):
        p = random_prime(rng, 62)
        if exact.denominators_divisible_by(p):
            continue
        rows, cols = nonzero_minor(exact.numerators, p)
        if len(rows) == result.rank:
            return p, rows, cols
    raise ValueError(f"no prime in {_PRIME_ATTEMPTS} kept the rank {result.rank}: is this "
                     "the matrix the result was computed from?")


def network_spec(net: Any) -> dict[str, Any]:
    """A :class:`~seprank.LinearAttention` as a certificate's ``network``: its four weight
    tensors as exact JSON numbers (:func:`json_array`) and ``residual``, from which the
    checker's own evaluator recomputes the network.  Float weights are refused.

    Parameters
    ----------
    net : LinearAttention
        A network with exact (integer or rational) weights.

    Returns
    -------
    dict
        Its weight tensors as exact JSON numbers and ``residual``.

    Examples
    --------
    >>> from seprank import LinearAttention
    >>> network_spec(LinearAttention.random(depth=1, width=1, seed=0))["query"]
    [[[[35]]]]
    """
    if not all(hasattr(net, a) for a in ("query", "key", "value", "output", "residual",
                                          "weight_kind", "batch_shape")):
        raise TypeError(f"net must be a seprank.LinearAttention, got {type(net).__name__}")
    if net.batch_shape:
        raise ValueError(f"a certificate describes one network; this one has batch axes "
                         f"{net.batch_shape}")
    if net.weight_kind != "exact":
        raise TypeError(f"a certificate needs exact weights; this network has "
                        f"{net.weight_kind} weights")
    out: dict[str, Any] = {name: json_array(getattr(net, name))
                           for name in ("query", "key", "value", "output")}
    out["residual"] = bool(net.residual)
    return out


def function_spec(f: Any) -> dict[str, Any]:
    """A certificate's description of a batch function: ``f.certificate_function()`` when f
    has it (network entries, the in-context representation), else ``{'type': 'opaque'}``
    (arbitrary code: the verifier cannot recompute its values).

    Parameters
    ----------
    f : callable
        The batch function.

    Returns
    -------
    dict
        Its description (``{'type': 'opaque'}`` for arbitrary code).

    Examples
    --------
    >>> from seprank import LinearAttention
    >>> net = LinearAttention.random(depth=1, width=2, seed=0, low=-2, high=2)
    >>> function_spec(net.entry(0, 1))["type"]
    'linear_attention'
    >>> function_spec(lambda X: X[:, 0, 0])["type"]
    'opaque'
    """
    spec = getattr(f, "certificate_function", None)
    if callable(spec):
        return dict(spec())
    return {"type": "opaque", "description": repr(f)[:200]}


def circuit_function(program: Mapping[str, Any], *, name: str = "") -> dict[str, Any]:
    """A circuit's program (:meth:`seprank.circuits.Circuit.to_json`) as a certificate's
    function, kind ``'circuit'``: the nodes (input, const, einsum, power, add, prod, take,
    reshape) with every constant as exact JSON numbers (:func:`exact_json`), from which the
    independent checker's own interpreter recomputes every grid entry, bounds the cost of an
    evaluation before it starts and proves homogeneity node by node.

    Parameters
    ----------
    program : Mapping
        The program as :meth:`seprank.circuits.Circuit.to_json` returns it: exactly the keys
        ``n_inputs``, ``dim``, ``nodes`` and ``output``.
    name : str, default ""
        The circuit's name, recorded in the certificate for the reader (empty if not given).

    Returns
    -------
    dict
        The certificate's ``function`` entry: ``type`` ``'circuit'``, the name and the
        program with exact constants.

    Examples
    --------
    >>> prog = {"n_inputs": 2, "dim": 1, "output": 2, "nodes": [
    ...     {"op": "input"}, {"op": "reshape", "arg": 0, "shape": [2]},
    ...     {"op": "einsum", "spec": "n,n->", "args": [1, 1]}]}
    >>> circuit_function(prog)["type"]
    'circuit'
    >>> circuit_function({"nodes": []})
    Traceback (most recent call last):
    ...
    ValueError: program must have the keys ['dim', 'n_inputs', 'nodes', 'output'] ...
    """
    keys = ["dim", "n_inputs", "nodes", "output"]
    if not isinstance(program, Mapping) or sorted(program) != keys:
        raise ValueError(f"program must have the keys {keys} (Circuit.to_json()), got "
                         f"{sorted(program) if isinstance(program, Mapping) else program!r}")
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {name!r}")
    nodes = []
    for node in program["nodes"]:
        if not isinstance(node, Mapping):
            raise TypeError(f"every node must be a mapping, got {node!r}")
        node = dict(node)
        if node.get("op") == "const":
            node["value"] = json_array(np.asarray(node["value"], dtype=object))
        nodes.append(node)
    spec = {"type": "circuit", "name": name,
            "program": {"n_inputs": program["n_inputs"], "dim": program["dim"],
                        "nodes": nodes, "output": program["output"]}}
    _check_json_data("function", spec)
    return spec


def polynomial_function(expr: Any, *, n_inputs: int, dim: int) -> dict[str, Any]:
    """A polynomial in the symbols ``x{j}_{k}`` (position j, coordinate k; the names of
    :meth:`seprank.LinearAttention.polynomial`) as a certificate's function: its monomials
    with rational coefficients.

    Parameters
    ----------
    expr : sympy.Expr
        A polynomial with rational coefficients in the symbols ``x{j}_{k}``.
    n_inputs : int, keyword-only
        N, the number of positions.
    dim : int, keyword-only
        The dimension of an input vector.

    Returns
    -------
    dict
        The function ``{'type': 'polynomial', 'terms': ...}``.

    Examples
    --------
    >>> import sympy
    >>> x00, x10 = sympy.symbols("x0_0 x1_0")
    >>> polynomial_function((x00 * x10) ** 5, n_inputs=2, dim=1)["terms"]
    [[1, [[0, 0, 5], [1, 0, 5]]]]
    """
    import sympy

    from seprank.core.memory import guard_memory
    from seprank.core.validation import check_int

    n_inputs, dim = check_int("n_inputs", n_inputs), check_int("dim", dim)
    guard_memory(n_inputs * dim * 1024, what=f"{n_inputs * dim} sympy symbols",
                 fix="lower n_inputs or dim")
    if isinstance(expr, str | bytes) or not isinstance(expr, sympy.Basic | int | Fraction):
        raise TypeError(f"expr must be a sympy polynomial in the symbols x{{j}}_{{k}}, got "
                        f"{expr!r} ({type(expr).__name__})")
    symbols = [sympy.Symbol(f"x{j}_{k}") for j in range(n_inputs) for k in range(dim)]
    extra = sympy.sympify(expr).free_symbols - set(symbols)
    if extra:
        raise ValueError(f"expr has symbols {sorted(map(str, extra))} outside x0_0 .. "
                         f"x{n_inputs - 1}_{dim - 1} (n_inputs = {n_inputs}, dim = {dim})")
    poly = sympy.Poly(sympy.expand(expr), *symbols)
    if not poly.domain.is_QQ and not poly.domain.is_ZZ:
        raise ValueError(f"the polynomial has coefficients in {poly.domain}, not Q; certificates "
                         "need rational coefficients")
    terms = []
    for monomial, coef in poly.terms():
        factors = [[idx // dim, idx % dim, int(e)] for idx, e in enumerate(monomial) if e]
        terms.append([exact_json(Fraction(int(coef.p), int(coef.q))), factors])
    return {"type": "polynomial", "terms": terms}


def save_certificate(cert: Mapping[str, Any], path: str | Path) -> Path:
    """Write a certificate as compact JSON (big integers exact); returns the path.

    Parameters
    ----------
    cert : Mapping
        The certificate.
    path : str or pathlib.Path
        Where to write it.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import tempfile, os
    >>> path = save_certificate({"schema": SCHEMA}, os.path.join(tempfile.mkdtemp(), "c.json"))
    >>> load_certificate(path)["schema"]
    'seprank.certificate'
    """
    _check_json_data("cert", cert)
    if not isinstance(path, str | Path) and not hasattr(path, "__fspath__"):
        raise TypeError(f"path must be a file path (str or pathlib.Path), got {path!r}")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(_writable(cert), separators=(",", ":")), encoding="utf-8")
    return out


def _check_json_data(where: str, value: Any, depth: int = 0) -> None:
    """Refuse what standard JSON cannot hold exactly, naming where it sits: a certificate is
    a mapping with string keys of mappings, lists, strings, integers (numpy integers too:
    written as exact integers), bools, None and finite floats -- no NaN or infinity (Python's
    json writes them as non-standard tokens), no numpy floats or other objects."""
    if depth == 0 and not isinstance(value, Mapping):
        raise TypeError(f"{where} must be a certificate (a mapping), got "
                        f"{type(value).__name__}")
    if depth > 200:
        raise ValueError(f"{where} is nested more than 200 levels deep")
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where} has the key {k!r} ({type(k).__name__}); JSON keys are "
                                "strings")
            _check_json_data(f"{where}[{k!r}]", v, depth + 1)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _check_json_data(f"{where}[{i}]", v, depth + 1)
    elif isinstance(value, float) and not isinstance(value, np.floating):
        if not math.isfinite(value):
            raise ValueError(f"{where} is {value!r}: standard JSON has no NaN or infinity")
    elif not (value is None or isinstance(value, str | bool)
              or (isinstance(value, numbers.Integral) and not isinstance(value, np.bool_))):
        raise TypeError(f"{where} is a {type(value).__name__} ({value!r}); a certificate holds "
                        "only JSON numbers, strings, bools, None, lists and mappings")


#: Integers above this many bits are written as decimal strings (JSON text of an int has no
#: size limit, but Python's int -> str conversion stops at 4300 digits).
_BIG_BITS = 13_000


def _writable(value: Any) -> Any:
    """``value`` with numpy integers as ints and integers beyond 4000 digits as decimal
    strings (the exact-number string form the checker reads)."""
    if isinstance(value, Mapping):
        return {str(k): _writable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_writable(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str | float):
        return value
    if isinstance(value, numbers.Integral):
        n = int(value)
        return decimal(n) if n.bit_length() > _BIG_BITS else n
    raise TypeError(f"a certificate holds only JSON numbers, strings and lists; got "
                    f"{type(value).__name__}")


def load_certificate(path: str | Path) -> dict[str, Any]:
    """Read a certificate written by :func:`save_certificate`.

    Parameters
    ----------
    path : str or pathlib.Path
        The JSON file.

    Returns
    -------
    dict
        The certificate, big integers exact.

    Examples
    --------
    >>> import tempfile, os
    >>> path = save_certificate({"kind": "matrix_rank"}, os.path.join(tempfile.mkdtemp(), "c"))
    >>> load_certificate(path)
    {'kind': 'matrix_rank'}
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"), parse_int=parse_decimal)
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a certificate (a JSON object)")
    return data


def certify(obj: Any, **kwargs: Any) -> dict[str, Any]:
    """The certificate of any certified result.

    A :class:`~seprank.core.rank.RankResult` does not keep its matrix: pass it
    (``certify(result, matrix=M)``, :func:`matrix_certificate`).  Every other certified result
    builds its own through its ``certificate(**kwargs)`` method:
    :class:`~seprank.separation.result.SeparationRankResult` (dense grid or degree blocks),
    :class:`~seprank.SeqSepResult`, :class:`~seprank.WitnessResult`,
    ``identifiability.masked.KruskalRankResult`` (with ``matrix=A``).

    Parameters
    ----------
    obj : object
        A certified result (``certifies`` 'exact' or 'lower_bound').
    **kwargs
        Passed to the result's ``certificate`` method (``matrix=M`` for a
        :class:`~seprank.core.rank.RankResult`).

    Returns
    -------
    dict
        The certificate (JSON-serialisable), checked by :func:`seprank.certificates.verify`.

    Examples
    --------
    >>> from seprank import matrix_rank
    >>> certify(matrix_rank([[1, 2], [3, 4]]), matrix=[[1, 2], [3, 4]])["claim"]["value"]
    2
    >>> certify(3)
    Traceback (most recent call last):
    ...
    TypeError: obj: int has no certificate: certify a RankResult (with matrix=M) or a ...
    """
    if isinstance(obj, RankResult):
        if "matrix" not in kwargs:
            raise TypeError("a RankResult does not keep its matrix: certify(result, matrix=M)")
        matrix = kwargs.pop("matrix")
        try:
            return matrix_certificate(matrix, obj, **kwargs)
        except (TypeError, ValueError) as err:
            raise type(err)(f"matrix: {err}") from err
    method = getattr(obj, "certificate", None)
    if callable(method):
        return dict(method(**kwargs))
    raise TypeError(f"obj: {type(obj).__name__} has no certificate: certify a RankResult (with "
                    "matrix=M) or a result with a certificate() method (SeparationRankResult, "
                    "SeqSepResult, WitnessResult, KruskalRankResult)")
