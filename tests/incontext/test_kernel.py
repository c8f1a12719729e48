"""The compiled Z_in grid kernel equals the int64 numpy evaluator and the network itself."""

from __future__ import annotations

import numpy as np
import pytest

from seprank.core.domains import ModularDomain
from seprank.core.modfloat import residue_bound
from seprank.incontext.modular import modular_grid, modular_grid_balanced
from seprank.incontext.representation import InContextRepresentation

#: p near 2**25: max_terms = 32, so d_x = 8 (36 Gram entries) exercises the chunked sums.
P_LARGE, P_SMALL = 33554393, 16777259


@pytest.mark.parametrize(("depth", "width", "heads", "n_tokens", "i"),
                         [(2, 3, 1, 2, 0), (2, 3, 3, 2, 3), (3, 2, 1, 1, 1), (2, 8, 2, 1, 0),
                          (4, 2, 1, 1, 0), (2, 4, 2, 20, 25), (1, 3, 1, 2, 2),
                          # head by head (fewer multiply-adds than the map T):
                          (3, 5, 1, 1, 1), (3, 6, 2, 1, 0), (3, 3, 1, 1, 0), (2, 8, 2, 1, 1)])
@pytest.mark.parametrize("p", [P_LARGE, P_SMALL])
def test_compiled_grid_equals_numpy_and_network(depth: int, width: int, heads: int,
                                                n_tokens: int, i: int, p: int) -> None:
    rep = InContextRepresentation.random(depth=depth, width=width, heads=heads,
                                         n_tokens=n_tokens, position=i, coordinate=width - 1,
                                         seed=depth + i)
    F = ModularDomain(p)
    rng = np.random.default_rng(width)
    A, B = rng.integers(0, p, (2, 9, width))
    A[0], B[0] = p - 1, p // 2   # extreme residues
    compiled = modular_grid(rep, A, B, F)
    assert np.array_equal(compiled, modular_grid(rep, A, B, F, kernel="numpy"))
    assert np.array_equal(compiled[:3, :2], rep.grid(A[:3], B[:2], domain=F))
    balanced = modular_grid_balanced(rep, A, B, F)
    assert np.all(np.abs(balanced) <= residue_bound(p))
    assert np.array_equal(np.mod(balanced.astype(np.int64), p), compiled)


def test_kernel_choice_is_validated() -> None:
    rep = InContextRepresentation.random(depth=2, width=2, seed=0)
    with pytest.raises(ValueError, match="kernel"):
        modular_grid(rep, np.ones((1, 2), int), np.ones((1, 2), int), ModularDomain(7),
                     kernel="fast")  # type: ignore[arg-type]


@pytest.mark.parametrize(("depth", "width", "heads", "n_tokens", "i", "p"),
                         [(2, 3, 1, 2, 1, P_LARGE),    # layers by the map T, N = 2
                          (2, 8, 4, 1, 0, P_LARGE),    # the map T: 36-term sums, chunked at 32
                          (3, 5, 1, 1, 0, P_SMALL),    # head by head
                          (4, 2, 2, 1, 0, P_LARGE)])   # deeper, two heads
def test_unrolled_kernel_equals_generic_and_numpy(depth: int, width: int, heads: int,
                                                  n_tokens: int, i: int, p: int) -> None:
    """The kernel written out for one shape computes the generic kernel's grid, which the
    int64 numpy path and the network itself confirm (same extreme residues)."""
    rep = InContextRepresentation.random(depth=depth, width=width, heads=heads,
                                         n_tokens=n_tokens, position=i, coordinate=width - 1,
                                         seed=depth + i + 7)
    F = ModularDomain(p)
    rng = np.random.default_rng(width + 1)
    A, B = rng.integers(0, p, (2, 11, width))
    A[0], B[0] = p - 1, p // 2
    unrolled = modular_grid_balanced(rep, A, B, F, unrolled=True)
    generic = modular_grid_balanced(rep, A, B, F, unrolled=False)
    assert np.all(np.abs(unrolled) <= residue_bound(p))
    assert np.array_equal(np.mod(unrolled.astype(np.int64), p),
                          np.mod(generic.astype(np.int64), p))
    assert np.array_equal(np.mod(unrolled.astype(np.int64), p),
                          modular_grid(rep, A, B, F, kernel="numpy"))
    assert np.array_equal(np.mod(unrolled[:2, :3].astype(np.int64), p),
                          rep.grid(A[:2], B[:3], domain=F))


def test_unrolled_kernel_source_reduces_every_k_products() -> None:
    """No sum in the generated code holds more than K products before a reduction."""
    from seprank.incontext.kernel_unrolled import kernel_source

    K = 5
    src = kernel_source((1, 8, 4, 2, False, 0, 7, K))
    for line in src.splitlines():
        assert line.count(" * ") - line.count("np.rint") <= K + 1, line
    with pytest.raises(ValueError, match="depth >= 2"):
        kernel_source((1, 3, 1, 1, True, 0, 0, 31))


def test_the_sweep_announces_its_work_and_gets_the_unrolled_kernel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the threshold at 0 pairs the degree blocks' sweep runs the unrolled kernel (seen
    by the kernel cache), and certifies what the generic kernel certifies."""
    import seprank.incontext.seq_sep as seq_sep
    from seprank.incontext.kernel_unrolled import unrolled_kernel

    rep = InContextRepresentation.random(depth=3, width=2, heads=1, n_tokens=1, seed=11)
    generic = seq_sep.incontext_seq_sep(rep, seed=3)
    monkeypatch.setattr(seq_sep, "UNROLLED_MIN_PAIRS", 0)
    before = unrolled_kernel.cache_info().misses + unrolled_kernel.cache_info().hits
    unrolled = seq_sep.incontext_seq_sep(rep, seed=3)
    after = unrolled_kernel.cache_info().misses + unrolled_kernel.cache_info().hits
    assert after > before
    assert unrolled.rank == generic.rank == generic.upper_bound
    assert [b.rank for b in unrolled.engine.blocks] == [b.rank for b in generic.engine.blocks]
