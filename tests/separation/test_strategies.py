"""The engine's request, budget and strategy table: the choice rules, a registered strategy, the
budget's fields and the 0.2 keywords it replaced."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace
from typing import Any

import numpy as np
import pytest

from seprank import Budget, LinearAttention, separation_rank
from seprank.incontext.representation import InContextRepresentation
from seprank.incontext.seq_sep import incontext_seq_sep
from seprank.separation import (
    STRATEGIES,
    BlockSeparationRankResult,
    DegreeStructure,
    SeparationRequest,
    choose_strategy,
    register_strategy,
)
from seprank.separation.dense import dense_separation_rank
from seprank.separation.strategies import unregister_strategy


def inner_power(k: int):  # type: ignore[no-untyped-def]
    def f(X: np.ndarray) -> np.ndarray:
        return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** k
    return f


def _request(f: Any = None, **kw: Any) -> SeparationRequest:
    kw.setdefault("n_inputs", 2)
    kw.setdefault("dim", 2)
    kw.setdefault("partition", ([0], [1]))
    return SeparationRequest(inner_power(2) if f is None else f, **kw)


# -- the budget -----------------------------------------------------------------------------------

def test_budget_defaults_are_the_documented_ones() -> None:
    b = Budget()
    assert (b.max_seconds, b.max_rounds, b.max_templates, b.max_bytes, b.patience) == (
        300.0, None, None, None, 2)
    with pytest.raises(FrozenInstanceError):
        b.patience = 3  # type: ignore[misc]


@pytest.mark.parametrize("budget", [
    Budget(), Budget(max_seconds=None), Budget(max_rounds=3, patience=4),
    Budget(max_bytes=8 * 2**30, max_templates=40), Budget(max_bytes=3 * 2**20 + 1),
    Budget(max_seconds=1.5, max_bytes=2**20)])
def test_budget_repr_reads_back_as_the_same_budget(budget: Budget) -> None:
    assert eval(repr(budget), {"Budget": Budget}) == budget


@pytest.mark.parametrize("field,value,fix", [
    ("max_seconds", 0, "None for no time limit"), ("max_seconds", float("nan"), "seconds > 0"),
    ("max_rounds", 0, "None for no limit"), ("max_templates", 2.5, "None for no cap"),
    ("max_bytes", True, "None for the process limit"), ("max_bytes", -1, "process limit"),
    ("patience", 0, "equal rounds >= 1"), ("patience", None, "equal rounds")])
def test_budget_refuses_a_bad_field_by_name_with_the_fix(field: str, value: Any,
                                                         fix: str) -> None:
    with pytest.raises(ValueError, match=rf"Budget\({field}=.*{field}.*{fix}"):
        Budget(**{field: value})


@pytest.mark.parametrize("call", [
    lambda: separation_rank(inner_power(1), n_inputs=2, dim=2, partition=([0], [1]),
                            max_seconds=60),
    lambda: LinearAttention.random(depth=1, width=2, seed=0).separation_rank(
        position=0, coordinate=0, partition=([0], [1]), n_inputs=2, patience=3),
    lambda: incontext_seq_sep(InContextRepresentation.random(depth=1, width=2, seed=0),
                              max_bytes=2**20, max_seconds=None),
], ids=["separation_rank", "LinearAttention.separation_rank", "incontext_seq_sep"])
def test_a_0_2_budget_keyword_is_a_type_error_naming_budget(call: Any) -> None:
    with pytest.raises(TypeError, match=r"takes budget=Budget\((max_seconds|patience|max_bytes)"):
        call()


def test_a_budget_that_is_not_a_budget_is_refused() -> None:
    with pytest.raises(TypeError, match=r"budget must be a seprank\.Budget"):
        separation_rank(inner_power(1), n_inputs=2, dim=2, partition=([0], [1]),
                        budget={"max_seconds": 60})  # type: ignore[arg-type]


def test_no_budget_is_the_default_budget() -> None:
    """budget=None and Budget() draw the same prime and templates and stop the same way."""
    kw: dict[str, Any] = dict(n_inputs=2, dim=3, partition=([0], [1]), seed=11)
    a = separation_rank(inner_power(3), **kw)
    b = separation_rank(inner_power(3), budget=Budget(), **kw)
    assert a.rank == b.rank == 10   # C(3 + 3 - 1, 3) monomials of degree 3 in 3 variables
    assert a.details["prime"] == b.details["prime"]
    assert [(h.n_templates, h.rank) for h in a.history] == [(h.n_templates, h.rank)
                                                             for h in b.history]
    assert a.evidence is not None and b.evidence is not None
    assert np.array_equal(a.evidence.templates, b.evidence.templates)


def test_the_budget_stops_every_degree_block() -> None:
    """max_templates caps each block's growth; the sum stays a certified lower bound."""
    net = LinearAttention.random(depth=2, width=2, seed=1)
    where = dict(position=0, coordinate=0, partition=([0, 1], [2, 3]), n_inputs=4, seed=1)
    full = net.separation_rank(**where)
    capped = net.separation_rank(**where, budget=Budget(max_templates=3))
    assert isinstance(capped, BlockSeparationRankResult)
    assert all(b.n_templates <= 3 for b in capped.blocks)
    assert capped.rank <= full.rank


# -- the strategy table ---------------------------------------------------------------------------

def test_the_three_built_in_strategies_are_registered_with_their_methods() -> None:
    assert {name: STRATEGIES[name].methods for name in ("symbolic", "degree", "dense")} == {
        "symbolic": ("symbolic",), "degree": ("modular",),
        "dense": ("modular", "exact", "svd")}


def test_the_choice_follows_the_method_then_the_structure() -> None:
    net = LinearAttention.random(depth=1, width=2, seed=0)
    entry = net.entry(0, 0)                         # declares its degree structure

    def chosen(f: Any = None, **kw: Any) -> str:
        return choose_strategy(_request(f, **kw))[0].name

    assert chosen(entry) == "degree"                # auto: declared, modular, free templates
    assert chosen(entry, method="exact") == "dense"
    assert chosen(entry, n_templates=4) == "dense"
    assert chosen(entry, structure="dense") == "dense"
    assert chosen() == "dense"                      # declares nothing
    assert chosen(structure=DegreeStructure.homogeneous(4)) == "degree"
    assert chosen(entry, method="symbolic", structure="degree") == "symbolic"
    _, runs = choose_strategy(_request(entry))
    assert runs.structure == entry.degree_structure((0,), (1,))   # resolved for the driver
    with pytest.raises(ValueError, match="needs method='modular'"):
        chosen(entry, method="svd", structure="degree")
    with pytest.raises(ValueError, match="drop templates= and n_templates="):
        chosen(entry, structure="degree", n_templates=4)
    with pytest.raises(ValueError, match=r"registered strategy.*'dense'"):
        chosen(structure="positions")
    with pytest.raises(TypeError, match="request must be a SeparationRequest"):
        choose_strategy("dense")  # type: ignore[arg-type]


def test_a_registered_strategy_is_one_entry_and_sep_is_symmetric() -> None:
    """A strategy computing sep_(B,A) by the dense driver: sep is symmetric in (A, B), so it
    must agree with the dense rank -- and 'auto' picks it when it ranks higher."""
    def swapped(request: SeparationRequest, domain: Any, streams: Any,
                budget: Budget) -> Any:
        A, B = request.partition
        return dense_separation_rank(replace(request, partition=(B, A)), domain, streams,
                                     budget)

    f = inner_power(2)                              # sep = C(3 + 1, 2) = 6 in dimension 3
    register_strategy("swapped", methods=("modular", "exact"), auto=5,
                      description="the dense rank of (B, A)",
                      select=lambda request, named: request if named or
                      request.method == "exact" else None)(swapped)
    try:
        named = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0,
                                structure="swapped")
        auto = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0,
                               method="exact")
        dense = separation_rank(f, n_inputs=2, dim=3, partition=([0], [1]), seed=0)
        assert named.rank == auto.rank == dense.rank == 6
        assert named.partition == auto.partition == ((1,), (0,))
        assert dense.partition == ((0,), (1,))     # the select hook declined: dense ran
        with pytest.raises(ValueError, match="registered already"):
            register_strategy("swapped", methods=("modular",), description="again")
    finally:
        unregister_strategy("swapped")
    assert "swapped" not in STRATEGIES


def test_registration_refuses_bad_entries_by_name() -> None:
    with pytest.raises(ValueError, match="methods must be"):
        register_strategy("x", methods=("float",), description="d")
    with pytest.raises(ValueError, match="name must be"):
        register_strategy("auto", methods=("modular",), description="d")
    with pytest.raises(TypeError, match="driver must be a function"):
        register_strategy("x", methods=("modular",), description="d")(3)  # type: ignore[arg-type]
    assert "x" not in STRATEGIES


# -- the request ----------------------------------------------------------------------------------

def test_the_request_normalises_what_it_validates() -> None:
    r = _request(partition=[range(1), [1]], upper_bound=np.int64(3), templates=[[1, 2]])
    assert r.partition == ((0,), (1,)) and type(r.upper_bound) is int
    assert isinstance(r.templates, np.ndarray) and r.templates.shape == (1, 2) and r.fixed
    with pytest.raises(ValueError, match="not both"):
        _request(templates=[[1, 2]], n_templates=2)
    with pytest.raises(ValueError, match="rtol is the tolerance of method='svd'"):
        _request(rtol=1e-6)
    with pytest.raises(ValueError, match="progress"):
        _request(progress="yes")
