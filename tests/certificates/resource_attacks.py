"""The checker's resource attacks (issue 35; design review certificate_attacks_3, F4-F6): small
certificates that made the independent checker build gigabytes of index plans or degree
integers, run minutes inside its operation budget, overrun a one-second deadline, or lose the
reason of a refusal to Python's 4300-digit ``str(int)`` limit.

Each :class:`Attack` builds its certificate with the standard library only (no engine), says
with which budget it is checked and what the answer must be; ``test_resources.py`` runs the
whole corpus in one process of the *copied* checker under an address-space cap.  The budgets
asserted are the operation, memory and deadline budgets -- never wall time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from seprank.certificates.verify import SCHEMA, subject_of

__all__ = ["ATTACKS", "Attack"]


@dataclass(frozen=True)
class Attack:
    """One resource attack.

    Parameters
    ----------
    name : str
        Its name (the review's id first).
    build : callable
        Returns the certificate (a dict).
    budget : dict
        ``VerifyBudget`` fields to check it with (empty: the default budget).
    status : tuple of str
        The statuses allowed (never ``'verified'`` for a false claim).
    words : tuple of str
        Words the reason must contain (the real reason, not a formatting failure).
    """

    name: str
    build: Callable[[], dict[str, Any]]
    budget: dict[str, Any] = field(default_factory=dict)
    status: tuple[str, ...] = ("refused",)
    words: tuple[str, ...] = ()


def _bind(cert: dict[str, Any]) -> dict[str, Any]:
    cert["claim"]["subject"] = subject_of(cert)
    return cert


def _circuit_grid(nodes: list[dict[str, Any]], output: int, *, arithmetic: str = "GF(p)",
                  n_inputs: int = 2, entry: Any = 0, bind: bool = True) -> dict[str, Any]:
    """A grid_rank certificate ``sep >= 1`` of a circuit over two scalar inputs."""
    cert: dict[str, Any] = {
        "schema": SCHEMA, "version": 2, "kind": "grid_rank",
        "claim": {"relation": ">=", "value": 1, "subject": None},
        "function": {"type": "circuit", "program": {"n_inputs": n_inputs, "dim": 1,
                                                    "nodes": nodes, "output": output}},
        "n_inputs": n_inputs, "dim": 1, "partition": [[0], list(range(1, n_inputs))],
        "arithmetic": arithmetic, "prime": 101, "templates": [[1], [2]],
        "rows": [[0]], "cols": [[1] * (n_inputs - 1)], "entries": [[entry]]}
    return _bind(cert) if bind else cert


def einsum_plan(length: int) -> dict[str, Any]:
    """R01/R02: ``take`` ``length`` entries, then ``'ab,cb->'`` over them: length^2 einsum
    terms, one index tuple each in the checker's plan (R02, length 5000: 2.5e7 terms, ~3.6 GB,
    from a 10.6 KB file)."""
    nodes: list[dict[str, Any]] = [
        {"op": "input"},
        {"op": "take", "arg": 0, "axis": 0, "indices": [0, 1] * (length // 2)},
        {"op": "einsum", "spec": "ab,cb->", "args": [1, 1]}]
    return _circuit_grid(nodes, 2)


@cache
def degree_powers(count: int) -> dict[str, Any]:
    """R04: a chain of ``count`` ``power`` nodes of exponent 2^20: node k has degree
    2^(20 k), which the degree proof kept exactly (50,000 nodes: ~3.1 GB); the block
    certificate declares D = 1 (false)."""
    nodes: list[dict[str, Any]] = [{"op": "input"}, {"op": "reshape", "arg": 0, "shape": [2]},
                                   {"op": "einsum", "spec": "a->", "args": [1]}]
    nodes += [{"op": "power", "arg": 2 + k, "exponent": 2**20} for k in range(count)]
    return _bind({
        "schema": SCHEMA, "version": 2, "kind": "grid_rank_blocks",
        "claim": {"relation": ">=", "value": 1, "subject": None},
        "function": {"type": "circuit", "program": {"n_inputs": 2, "dim": 1, "nodes": nodes,
                                                    "output": len(nodes) - 1}},
        "n_inputs": 2, "dim": 1, "partition": [[0], [1]], "arithmetic": "GF(p)",
        "prime": 101, "structure": {"total_degree": 1},
        "blocks": [{"bidegree": [1, 0], "rank": 1, "templates": [[1], [2]], "rows": [[0]],
                    "cols": [[1]], "entries": [[1]]}]})


def rational_sum(count: int, power: int | None = None) -> dict[str, Any]:
    """R03: over Q, ``sum_a c_a x_0`` with ``count`` constants ``1/(2^61 + a)`` (the sum's
    denominator is their product, ~61 * count bits) -- then, with ``power``, that sum to a
    power (R03c: count 10^4, power 2048: numbers of ~1.3e9 bits in one ``Fraction.__pow__``)."""
    consts = [f"1/{2**61 + a}" for a in range(count)]
    nodes: list[dict[str, Any]] = [
        {"op": "input"}, {"op": "reshape", "arg": 0, "shape": [2]},
        {"op": "const", "shape": [count], "value": consts},
        {"op": "take", "arg": 1, "axis": 0, "indices": [0] * count},
        {"op": "einsum", "spec": "a,a->", "args": [2, 3]},
        {"op": "take", "arg": 1, "axis": 0, "indices": [1]},
        {"op": "einsum", "spec": "a->", "args": [5]}]
    last = 4
    if power is not None:
        nodes.append({"op": "power", "arg": 4, "exponent": power})
        last = 7
    nodes.append({"op": "einsum", "spec": ",->", "args": [last, 6]})
    return _circuit_grid(nodes, len(nodes) - 1, arithmetic="Q")


def rational_polynomial(count: int) -> dict[str, Any]:
    """R03d: a polynomial over Q with ``count`` terms ``x0 x1 / (2^61 + k)``."""
    terms = [[f"1/{2**61 + k}", [[0, 0, 1], [1, 0, 1]]] for k in range(count)]
    return _bind({
        "schema": SCHEMA, "version": 2, "kind": "grid_rank",
        "claim": {"relation": ">=", "value": 1, "subject": None},
        "function": {"type": "polynomial", "terms": terms},
        "n_inputs": 2, "dim": 1, "partition": [[0], [1]], "arithmetic": "Q", "prime": 101,
        "templates": [[1], [2]], "rows": [[0]], "cols": [[1]], "entries": [[0]]})


def reshape_chain(count: int, size: int) -> dict[str, Any]:
    """R30: ``count`` reshape nodes (each nearly free by the arithmetic model) times a zero
    constant, checked on a ``size`` x ``size`` minor: size^2 evaluations of every node."""
    nodes: list[dict[str, Any]] = [{"op": "input"}]
    for k in range(count):
        nodes.append({"op": "reshape", "arg": k, "shape": [2] if k % 2 == 0 else [2, 1]})
    last = len(nodes) - 1
    if nodes[last]["shape"] != [2]:
        nodes.append({"op": "reshape", "arg": last, "shape": [2]})
        last += 1
    nodes.append({"op": "const", "shape": [2], "value": [0, 0]})
    nodes.append({"op": "einsum", "spec": "a,a->", "args": [last, last + 1]})
    cert = _circuit_grid(nodes, len(nodes) - 1, bind=False)
    cert["templates"] = [[t] for t in range(2 * size)]
    cert["rows"] = [[t] for t in range(size)]
    cert["cols"] = [[size + t] for t in range(size)]
    cert["entries"] = [[0] * size for _ in range(size)]
    cert["claim"]["value"] = size
    return _bind(cert)


def vandermonde_kruskal(n: int, k: int = 3, p: int = 1_000_003) -> dict[str, Any]:
    """R07: ``k-rank >= k`` of a k x n Vandermonde matrix (columns (1, t, t^2)): C(n, k)
    column sets (R07b, n = 580: 3.2e7 sets, ~370 s, inside the old budget)."""
    M = [[pow(t + 1, i) for t in range(n)] for i in range(k)]
    return _bind({
        "schema": SCHEMA, "version": 2, "kind": "kruskal_rank", "shape": [k, n],
        "claim": {"relation": ">=", "value": k, "subject": None}, "matrix": M,
        "lower": {"prime": p, "projection": [[int(a == b) for b in range(k)] for a in range(k)],
                  "exceptions": []}})


def monomial_blocks(D: int, p: int) -> dict[str, Any]:
    """R06: blocks of ``x y^(D-1)`` (579 bytes at D = 12000, p = 12007: 33.5 s)."""
    return _bind({
        "schema": SCHEMA, "version": 2, "kind": "grid_rank_blocks",
        "claim": {"relation": ">=", "value": 1, "subject": None}, "n_inputs": 2, "dim": 1,
        "partition": [[0], [1]], "arithmetic": "GF(p)", "prime": p,
        "function": {"type": "polynomial", "terms": [[1, [[0, 0, 1], [1, 0, D - 1]]]]},
        "structure": {"total_degree": D},
        "blocks": [{"bidegree": [1, D - 1], "rank": 1, "templates": [[3], [5]],
                    "rows": [[0]], "cols": [[1]], "entries": [[3 * pow(5, D - 1, p) % p]]}]})


def kernel_fractions(count: int) -> dict[str, Any]:
    """R05b: ``rank(0_{1 x count}) = 0`` with ``count`` kernel vectors, one entry of each with
    the denominator 2^61 - 1 (the fixed prime of the fast independence test): the old checker
    fell back to Fraction elimination (27 s at count 100)."""
    q = 2**61 - 1
    vectors = [[f"{(7 * i + 3 * j) % 1009 + 1}/{q}" if i == j else (i * j + 1) % 97
                for j in range(count)] for i in range(count)]
    return _bind({
        "schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [1, count],
        "claim": {"relation": "=", "value": 0, "subject": None},
        "matrix": [[0] * count], "upper": {"side": "right", "vectors": vectors}})


def huge_entry() -> dict[str, Any]:
    """R14: a matrix entry 10^5000 and a minor that says 1 (the rejection message printed the
    5001-digit entry)."""
    return _bind({
        "schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [1, 1],
        "claim": {"relation": ">=", "value": 1, "subject": None},
        "matrix": [[10**5000]],
        "lower": {"prime": 101, "rows": [0], "cols": [0], "entries": [[1]]}})


def huge_total_degree() -> dict[str, Any]:
    """R15: ``structure.total_degree`` = 10^5000."""
    cert = monomial_blocks(3, 101)
    cert["structure"]["total_degree"] = 10**5000
    return cert


def huge_claim() -> dict[str, Any]:
    """R16: a claim value of 5000 digits on a 1 x 1 matrix."""
    cert = huge_entry()
    cert["claim"]["value"] = 10**5000
    return cert


def huge_denominator() -> dict[str, Any]:
    """R18: a matrix and minor entry ``1/333...3`` (5000 digits) with p = 3."""
    q = "1/" + "3" * 5000
    return _bind({
        "schema": SCHEMA, "version": 2, "kind": "matrix_rank", "shape": [1, 1],
        "claim": {"relation": ">=", "value": 1, "subject": None}, "matrix": [[q]],
        "lower": {"prime": 3, "rows": [0], "cols": [0], "entries": [[q]]}})


ATTACKS: tuple[Attack, ...] = (
    # memory: refused by the memory estimate before any plan or degree is built
    Attack("R02 einsum plan of 2.5e7 terms (3.6 GB before)", lambda: einsum_plan(5000),
           words=("bytes of memory",)),
    Attack("R04b 50,000 powers: degree proof of 2^(20k) per node (3.1 GB before)",
           lambda: degree_powers(50_000), status=("rejected",), words=("above 2^90",)),
    Attack("R04a 800 powers: a 16,000-bit degree in the reason", lambda: degree_powers(800),
           status=("rejected",), words=("above 2^90",)),
    # operations the old model missed: interpreter work, denominators, column sets
    Attack("R30 100,000 reshape nodes x 1600 evaluations (159 s before)",
           lambda: reshape_chain(99_990, 40), words=("operations",)),
    Attack("R03c sum of 10^4 fractions to the power 2048 over Q (> 92 s before)",
           lambda: rational_sum(10_000, 2048), words=("operations",)),
    Attack("R03a sum of 10^4 distinct fractions over Q", lambda: rational_sum(10_000),
           words=("operations",)),
    Attack("R03d polynomial of 3000 terms x0 x1/(2^61+k) over Q (a 4300-digit error before)",
           lambda: rational_polynomial(3000), status=("rejected",),
           words=("the certificate says 0, recomputed a fraction",)),
    Attack("R07b Kruskal 3 x 580 Vandermonde: 3.2e7 column sets (~370 s before)",
           lambda: vandermonde_kruskal(580), words=("operations",)),
    Attack("R05b 100 kernel vectors with denominators 2^61 - 1 (27 s before)",
           lambda: kernel_fractions(100), status=("verified",)),
    # the deadline: VerifyBudget(seconds=1) inside loops the estimate admits
    # (its check now fits in about 1 s of CPU: on a quiet machine it may finish and reject the
    # false entry before the deadline -- either answer is right, neither verifies it)
    Attack("R33 einsum plan of 2.3e6 terms, 1 s deadline (7.7 s before)",
           lambda: einsum_plan(1500), {"seconds": 1.0}, status=("refused", "rejected"),
           words=("time budget",)),
    Attack("R06b blocks of x y^11999, p = 12007, 1 s deadline (33.5 s before)",
           lambda: monomial_blocks(12_000, 12_007), {"seconds": 1.0}, words=("time budget",)),
    Attack("R07a Kruskal 3 x 200 Vandermonde, 1 s deadline (15 s before)",
           lambda: vandermonde_kruskal(200), {"seconds": 1.0}, words=("time budget",)),
    Attack("R34 sum of 10^4 fractions, 1 s deadline (6.3 s and a 4300-digit error before)",
           lambda: rational_sum(10_000), {"seconds": 1.0}, words=("operations",)),
    Attack("R35 50,000 powers, 1 s deadline (3 GB before)", lambda: degree_powers(50_000),
           {"seconds": 1.0}, status=("rejected", "refused")),
    # messages with attacker-sized numbers keep their real reason
    Attack("R14 entry 10^5000, minor says 1", huge_entry, status=("rejected",),
           words=("the certificate says 1", "bits")),
    Attack("R15 total degree 10^5000", huge_total_degree, status=("rejected",),
           words=("must exceed the total degree",)),
    Attack("R16 claim value of 5000 digits", huge_claim, words=("claim.value", "10^18")),
    Attack("R18 denominator of 5000 threes, p = 3", huge_denominator, status=("rejected",),
           words=("divisible by p = 3",)),
)
