"""Exact gradient of the tied-softmax loss (eq. 5) vs complex-step and finite differences;
the sequential representation Z_seq, its regime check and its certified b-side rank."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seprank import LinearAttention
from seprank.incontext.bounds import sequential_ceiling
from seprank.incontext.gradient import (
    LanguageModel,
    UnboundedGradientError,
    lm_loss,
    lm_loss_and_gradient,
)
from seprank.incontext.sequential import (
    SequentialRepresentation,
    gradient_regime,
    sequential_seq_sep,
)

COMPLEX_STEP_RTOL = 1e-12  # complex step is exact up to rounding
FD_RTOL = 1e-6  # central differences: O(h^2) truncation + O(eps/h) rounding
FD_STEP = 1e-5
VALUE_RTOL = 1e-10


def _flat_grad(g: LanguageModel, row: int = 0) -> np.ndarray:
    return np.concatenate([w[row].ravel() for w in g.arrays])


def _complex_step(lm: LanguageModel, sentence: list[int], a: np.ndarray) -> np.ndarray:
    theta, h = lm.flat(), 1e-30
    out = np.empty(theta.size)
    for k in range(theta.size):
        t = theta.astype(complex)
        t[k] += 1j * h
        out[k] = lm_loss(lm.with_flat(t), sentence, a.astype(complex))[0].imag / h
    return out


@pytest.mark.parametrize("L,H,d,V,sentence", [(1, 1, 2, 3, [0, 1, 2]), (2, 1, 3, 5, [4, 0, 4]),
                                              (2, 2, 4, 6, [0, 5, 1, 3]), (3, 1, 2, 4, [3, 3])])
def test_gradient_matches_complex_step(L: int, H: int, d: int, V: int,
                                       sentence: list[int]) -> None:
    lm = LanguageModel.random(depth=L, width=d, heads=H, vocab=V, weight_scale=0.5, seed=L + d)
    a = np.random.default_rng(0).uniform(0.5, 1.5, (1, d))
    _, g = lm_loss_and_gradient(lm, sentence, a)
    ref = _complex_step(lm, sentence, a)
    assert np.allclose(_flat_grad(g), ref, rtol=COMPLEX_STEP_RTOL,
                       atol=COMPLEX_STEP_RTOL * np.abs(ref).max())


def test_gradient_matches_central_differences() -> None:
    lm = LanguageModel.random(depth=2, width=3, vocab=4, weight_scale=0.5, seed=3)
    sentence, a = [1, 0, 2], np.array([[0.9, 1.1, 1.0]])
    _, g = lm_loss_and_gradient(lm, sentence, a)
    theta = lm.flat()
    fd = np.array([(lm_loss(lm.with_flat(theta + FD_STEP * e), sentence, a)[0]
                    - lm_loss(lm.with_flat(theta - FD_STEP * e), sentence, a)[0]) / (2 * FD_STEP)
                   for e in np.eye(theta.size)])
    assert np.allclose(_flat_grad(g), fd, rtol=FD_RTOL, atol=FD_RTOL * np.abs(fd).max())


def test_batched_gradient_equals_rowwise_and_repeated_tokens_accumulate() -> None:
    lm = LanguageModel.random(depth=2, width=2, vocab=3, seed=1)
    A = np.random.default_rng(2).uniform(0.5, 1.5, (4, 2))
    loss, g = lm_loss_and_gradient(lm, [1, 1, 1], A)  # token 1 repeated: embedding sums
    for r in range(4):
        loss_r, g_r = lm_loss_and_gradient(lm, [1, 1, 1], A[r])
        assert loss_r[0] == pytest.approx(loss[r], rel=VALUE_RTOL)
        assert np.allclose(_flat_grad(g_r), _flat_grad(g, r), rtol=VALUE_RTOL)
    ref = _complex_step(lm, [1, 1, 1], A[:1])
    assert np.allclose(_flat_grad(g), ref, rtol=COMPLEX_STEP_RTOL,
                       atol=COMPLEX_STEP_RTOL * np.abs(ref).max())


def test_loss_is_a_negative_log_likelihood() -> None:
    lm = LanguageModel.random(depth=1, width=2, vocab=3, seed=0)
    loss = lm_loss(lm, [0, 1, 2, 0])
    assert loss[0] > 0  # -sum of log-probabilities < 1
    zero = LanguageModel.from_arrays(*(0 * w for w in lm.arrays[:4]), lm.embedding)
    # zero attention weights: y = 0, uniform softmax: loss = (N - 1) log V exactly
    assert lm_loss(zero, [0, 1, 2, 0])[0] == pytest.approx(3 * np.log(3), rel=VALUE_RTOL)


def test_overflowing_gradient_raises_unbounded_error() -> None:
    lm = LanguageModel.random(depth=4, width=3, vocab=4, weight_scale=1e3,
                              embedding_scale=1e3, seed=0)
    with pytest.raises(UnboundedGradientError, match="bounded-gradient"):
        lm_loss_and_gradient(lm, [0, 1, 2], np.ones((1, 3)))


def test_loss_refusals() -> None:
    lm = LanguageModel.random(depth=1, width=2, vocab=3, seed=0)
    with pytest.raises(ValueError, match="N >= 2"):
        lm_loss(lm, [0])
    with pytest.raises(ValueError, match="out of vocabulary"):
        lm_loss(lm, [0, 3])
    with pytest.raises(ValueError, match="NaN"):
        LanguageModel.from_arrays(lm.arrays[0] * np.nan, *lm.arrays[1:])


def test_the_language_model_holds_one_network_and_its_embedding() -> None:
    net = LinearAttention.random(depth=2, width=2, seed=0, low=-2, high=2)  # integer weights
    E = np.arange(6).reshape(2, 3) % 4 - 1
    lm = LanguageModel(net, E)
    assert lm.network.weight_kind == "float" and lm.embedding.dtype == np.float64
    assert all(np.array_equal(a, b) for a, b in zip(lm.arrays, (
        net.query, net.key, net.value, net.output, E), strict=True))
    assert lm.vocab == 3 and lm.network.batch_shape == ()
    same = LanguageModel.from_arrays(*(w.astype(float) for w in lm.arrays))
    assert lm_loss(lm, [0, 2, 1])[0] == lm_loss(same, [0, 2, 1])[0]
    _, g = lm_loss_and_gradient(lm, [0, 2, 1], np.ones((4, 2)))
    assert g.network.batch_shape == (4,) and g.embedding.shape == (4, 2, 3)
    with pytest.raises(ValueError, match="residual"):
        LanguageModel(LinearAttention.random(depth=1, width=2, residual=True, seed=0), E)
    with pytest.raises(ValueError, match="embedding must have shape"):
        LanguageModel(net, np.ones((3, 3)))
    with pytest.raises(TypeError, match="network must be"):
        LanguageModel(net.query, E)  # type: ignore[arg-type]


# --- the sequential representation ---------------------------------------------------------

def _sequential(eta: float = 1e-3, seed: int = 1, L: int = 2, d: int = 3
                ) -> SequentialRepresentation:
    lm = LanguageModel.random(depth=L, width=d, vocab=5, seed=seed)
    return SequentialRepresentation(lm, (0, 1), (2, 3), eta=eta, position=1, coordinate=0)


def test_Z11_is_the_sgd_step_then_S2() -> None:
    rep = _sequential()
    lm = rep.model
    _, g = lm_loss_and_gradient(lm, rep.first)  # a = 1
    upd = lm.step(LanguageModel.from_arrays(*(w[0] for w in g.arrays)), rep.eta)
    net = upd.network
    y = net(upd.embedding[:, list(rep.second)].T)[1, 0]
    assert rep.value() == pytest.approx(y, rel=VALUE_RTOL)


@settings(max_examples=15, deadline=None)
@given(t=st.floats(0.2, 3.0), seed=st.integers(0, 1000))
def test_Z_seq_homogeneous_of_degree_3L_in_b(t: float, seed: int) -> None:
    rep = _sequential(seed=seed % 5)
    A, B = np.random.default_rng(seed).uniform(0.5, 1.5, (2, 3, 3))
    assert np.allclose(rep(A, t * B), t**9 * rep(A, B), rtol=1e-9)


def test_small_eta_tends_to_the_frozen_rank_one_grid() -> None:
    rep = _sequential()
    A, B = np.random.default_rng(0).uniform(0.5, 1.5, (2, 8, 3))
    M0 = rep.frozen_grid(A, B)
    assert np.linalg.matrix_rank(M0) == 1  # eta = 0: independent of a
    gaps = [np.linalg.norm(rep.grid(A, B, eta=e) - M0) for e in (1e-3, 1e-4, 1e-5)]
    assert gaps[1] == pytest.approx(gaps[0] / 10, rel=0.05)  # first order in eta
    assert gaps[2] == pytest.approx(gaps[1] / 10, rel=0.05)


def test_regime_check_flags_large_gradients_and_accepts_small_eta() -> None:
    A, B = np.random.default_rng(100).uniform(0.5, 1.5, (2, 20, 3))
    lm = LanguageModel.random(depth=2, width=3, vocab=5, seed=3)  # gradients ~1e8
    big = gradient_regime(SequentialRepresentation(lm, (0, 1), (2, 3), eta=1e-2), A, B)
    small = gradient_regime(SequentialRepresentation(lm, (0, 1), (2, 3), eta=1e-6), A, B)
    assert not big.first_order and "NOT" in big.summary()
    assert small.first_order and small.resolvable
    assert big.max_abs_gradient == small.max_abs_gradient > 1e3


@pytest.mark.parametrize("L,d", [(1, 2), (2, 2), (1, 3)])
def test_certified_b_side_rank_reaches_the_ceiling(L: int, d: int) -> None:
    rep = _sequential(eta=0.05, seed=L + d, L=L, d=d)
    r = sequential_seq_sep(rep, method="modular", seed=0)
    assert r.rank == sequential_ceiling(d, L) and r.certifies == "exact"
    assert "float64-computed update" in r.statement


def test_seq_sep_reports_the_regime() -> None:
    lm = LanguageModel.random(depth=2, width=3, vocab=5, seed=3)  # gradients ~1e8
    big = sequential_seq_sep(SequentialRepresentation(lm, (0, 1), (2, 3), eta=1e-2),
                             method="svd", seed=0)
    small = sequential_seq_sep(SequentialRepresentation(lm, (0, 1), (2, 3), eta=1e-7),
                               method="svd", seed=0)
    assert big.details["first_order_regime"] is False and "WARNING" in big.statement
    assert small.details["first_order_regime"] is True and "WARNING" not in small.statement


def test_exact_and_modular_b_side_ranks_agree() -> None:
    rep = _sequential(eta=0.05, seed=2, L=1, d=2)
    mod = sequential_seq_sep(rep, method="modular", seed=1)
    exact = sequential_seq_sep(rep, method="exact", seed=1)
    svd = sequential_seq_sep(rep, method="svd", seed=1)
    assert mod.rank == exact.rank == 4 and svd.certifies == "none" and svd.rank <= 4


def test_sequential_refusals() -> None:
    lm = LanguageModel.random(depth=1, width=2, vocab=4, seed=0)
    for eta in (0.0, -1e-3, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="learning rate"):
            SequentialRepresentation(lm, (0, 1), (2, 3), eta=eta)
    with pytest.raises(ValueError, match="same length"):
        SequentialRepresentation(lm, (0, 1, 2), (2, 3), eta=0.1)
    with pytest.raises(ValueError, match="out of vocabulary"):
        SequentialRepresentation(lm, (0, 1), (2, 4), eta=0.1)
    with pytest.raises(ValueError, match="at least 2"):
        SequentialRepresentation(lm, (0,), (2,), eta=0.1)
    with pytest.raises(ValueError, match=r"outside 0\.\.1"):
        SequentialRepresentation(lm, (0, 1), (2, 3), eta=0.1, position=2)
    rep = SequentialRepresentation(lm, (0, 1), (2, 3), eta=0.1)
    with pytest.raises(ValueError, match="rtol"):
        sequential_seq_sep(rep, method="modular", rtol=1e-3)
