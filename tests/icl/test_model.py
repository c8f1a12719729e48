"""Eq. 2: the written-out gradient against complex-step and central differences, and
invariances of the forward pass."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from identifiability.icl import (
    ICLParams,
    attention_weights,
    forward,
    hinge_loss,
    in_domain_patterns,
    initialize,
    loss_and_gradient,
    sample_prompts,
)

COMPLEX_STEP_ATOL = 1e-13      # complex step: exact up to rounding
FD_STEP = 1e-6
FD_RTOL = 1e-6
NAMES = ("WQ", "WK", "WV", "WO")


def _random_model(seed: int, d_x: int = 6, d_y: int = 2) -> ICLParams:
    rng = np.random.default_rng(seed)
    p = initialize(d_x, d_y, m=5, m_a=d_x + 2, m_b=7, seed=seed)
    return replace(p, WQ=p.WQ + 0.3 * rng.normal(size=p.WQ.shape),
                   WK=p.WK + 0.3 * rng.normal(size=p.WK.shape),
                   WV=p.WV + 0.3 * rng.normal(size=p.WV.shape), a=10 * p.a,
                   mask=np.array([1.0, 1.0, 0.0, 1.0, 1.0]))


def _batch(seed: int):  # type: ignore[no-untyped-def]
    pat = in_domain_patterns(M1=3, M2=3, beta=1.5, d_y=2)
    return sample_prompts(pat, [(0, 1), (1, 2), (2, 0)], 6, 4, 0.8, seed=seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("self_attend", [True, False])
def test_gradient_matches_complex_step(seed: int, self_attend: bool) -> None:
    p, b = _random_model(seed), _batch(seed)
    _, g = loss_and_gradient(p, b.P, b.z, self_attend=self_attend)
    h = 1e-30
    for name in NAMES:
        W = getattr(p, name)
        ref = np.empty(W.shape)
        for idx in np.ndindex(W.shape):
            Wc = W.astype(complex)
            Wc[idx] += 1j * h
            loss, _ = loss_and_gradient(replace(p, **{name: Wc}), b.P, b.z,
                                        self_attend=self_attend)
            ref[idx] = loss.imag / h
        assert np.allclose(g[name], ref, rtol=0, atol=COMPLEX_STEP_ATOL), name


def test_gradient_matches_central_differences() -> None:
    p, b = _random_model(5), _batch(5)
    _, g = loss_and_gradient(p, b.P, b.z)
    for name in NAMES:
        W = getattr(p, name)
        for idx in list(np.ndindex(W.shape))[::7]:
            up, down = W.copy(), W.copy()
            up[idx] += FD_STEP
            down[idx] -= FD_STEP
            fd = (loss_and_gradient(replace(p, **{name: up}), b.P, b.z)[0]
                  - loss_and_gradient(replace(p, **{name: down}), b.P, b.z)[0]) / (2 * FD_STEP)
            assert fd == pytest.approx(g[name][idx], rel=FD_RTOL, abs=FD_RTOL)


def test_forward_matches_a_per_prompt_formula() -> None:
    p, b = _random_model(3), _batch(3)
    F = forward(p, b.P).F
    for i, P in enumerate(b.P):
        s = (p.WK @ P).T @ (p.WQ @ P[:, -1])
        attn = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
        want = np.dot(p.a * p.mask, np.maximum(p.WO @ p.WV @ P @ attn, 0))
        assert F[i] == pytest.approx(want, rel=1e-12, abs=1e-14)


def test_zero_query_key_weights_give_uniform_attention() -> None:
    p, b = _random_model(4), _batch(4)
    p0 = replace(p, WQ=np.zeros_like(p.WQ))
    assert np.allclose(attention_weights(p0, b.P), 1 / 5)
    assert np.allclose(attention_weights(p0, b.P, self_attend=False), 1 / 4)


def test_mask_equals_removing_rows_of_WO() -> None:
    p, b = _random_model(6), _batch(6)
    keep = p.mask == 1
    smaller = ICLParams(p.WQ, p.WK, p.WV, p.WO[keep], p.a[keep], np.ones(int(keep.sum())))
    assert np.allclose(forward(p, b.P).F, forward(smaller, b.P).F, rtol=1e-13, atol=0)


def test_hinge_and_shape_validation() -> None:
    assert hinge_loss(np.array([1.0, -0.5]), np.array([1.0, 1.0])).tolist() == [0.0, 1.5]
    p = _random_model(0)
    with pytest.raises(ValueError, match="prompts must have shape"):
        forward(p, np.zeros((2, 5, 3)))
    with pytest.raises(ValueError, match="z must have shape"):
        loss_and_gradient(p, _batch(0).P, np.ones(2))
    with pytest.raises(ValueError, match="mask"):
        p.with_mask(np.full(5, 0.5))
    with pytest.raises(ValueError, match="delta"):
        initialize(3, 3, delta=0.3)
