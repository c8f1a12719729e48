"""Issue 35 for the separation engine: the time budget is polled between and inside degree
blocks (a stopped computation is a lower bound with a status, never a full claim), a strategy
driver's result is checked, ``executor=`` and scheduler addresses are validated where they enter.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from seprank import Budget, separation_rank
from seprank.core.cluster import check_scheduler_address
from seprank.separation.degree import DegreeStructure
from seprank.separation.distributed import check_executor
from seprank.separation.strategies import register_strategy, unregister_strategy


def _f(X: Any) -> Any:
    # <x1, x2>^3 (block (3, 3), sep 4 in dim 2) + x1_0^4 x2_1^2 (block (4, 2), sep 1)
    return np.einsum("bi,bi->b", X[:, 0], X[:, 1]) ** 3 + X[:, 0, 0] ** 4 * X[:, 1, 1] ** 2


def _run(budget: Budget | None) -> Any:
    return separation_rank(_f, n_inputs=2, dim=2, partition=([0], [1]), seed=0,
                           structure=DegreeStructure.homogeneous(6), budget=budget)


def test_blocks_unstarted_after_the_deadline_say_so() -> None:
    full = _run(None)
    assert full.rank == 5 and full.saturated          # 4 + 1, both blocks pinned
    cut = _run(Budget(max_seconds=1e-9))              # over before the first block starts
    assert cut.rank < full.rank
    assert not cut.saturated and cut.stop_reason == "time_limit"
    assert cut.certifies == "lower_bound"
    assert cut.status.startswith("not saturated")
    assert all(b.stop_reason == "time_limit" and b.rank == 0 for b in cut.blocks)
    assert cut.details["structure_check"]["stopped"] == "time_limit"   # polled there too


def test_in_context_seq_sep_honours_a_tiny_budget() -> None:
    from seprank import LinearAttention
    from seprank.incontext.representation import InContextRepresentation, random_embedding
    from seprank.incontext.seq_sep import incontext_seq_sep

    net = LinearAttention.random(depth=2, width=2, seed=1)
    rep = InContextRepresentation(net, random_embedding(2, 3, seed=2), [0, 1], [2, 0])
    r = incontext_seq_sep(rep, seed=0, budget=Budget(max_seconds=1e-9))
    assert r.certifies == "lower_bound" and r.rank < r.upper_bound
    assert "not saturated" in r.statement


def test_a_driver_returning_none_is_refused() -> None:
    @register_strategy("returns-none", methods=("modular",), description="broken")
    def broken(request: Any, domain: Any, streams: Any, budget: Any) -> Any:
        return None
    try:
        with pytest.raises(TypeError, match="returns-none"):
            separation_rank(_f, n_inputs=2, dim=2, partition=([0], [1]), seed=0,
                            structure="returns-none")
    finally:
        unregister_strategy("returns-none")


def test_executor_must_be_a_real_string() -> None:
    with pytest.raises(TypeError, match="executor"):
        check_executor(np.array("serial"))
    with pytest.raises(TypeError, match="executor"):
        separation_rank(_f, n_inputs=2, dim=2, partition=([0], [1]), seed=0,
                        executor=np.array("serial"))


@pytest.mark.parametrize("address", ["10.0.0.5:99999", "10.0.0.5:0", "tcp://host:65536",
                                     "tcp://[::1]:0"])
def test_scheduler_ports_out_of_range_are_named(address: str) -> None:
    port = address.rsplit(":", 1)[1]
    with pytest.raises(ValueError, match=f"port {port} is not a TCP port"):
        check_executor(address)
    with pytest.raises(ValueError, match=f"port {port}"):
        check_scheduler_address(address)


def test_valid_scheduler_addresses_pass() -> None:
    for address in ("tcp://10.0.0.5:8786", "10.0.0.5:8786", "[::1]:8786", "tcp://host:65535"):
        assert check_executor(address) == address
