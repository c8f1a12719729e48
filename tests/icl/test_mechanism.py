"""Mechanism measurements against closed forms at constructed weights."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from identifiability.icl import (
    attention_concentration,
    attention_projections,
    cyclic_tasks,
    in_domain_patterns,
    initialize,
    label_feature_basis,
    neuron_alignment,
    sample_prompts,
    update_spectrum,
)

PAT = in_domain_patterns(M1=4, M2=4, beta=2.0, d_y=3)
ATOL = 1e-12


def test_uniform_attention_puts_mass_in_proportion_to_N() -> None:
    p = initialize(PAT.d_x, PAT.d_y, m=6, m_a=8, m_b=11, seed=0)
    p = replace(p, WQ=np.zeros_like(p.WQ))
    b = sample_prompts(PAT, cyclic_tasks(4), 200, 9, 0.6, seed=1)
    c = attention_concentration(p, b)
    assert np.allclose(c.same, c.n_same / 10, atol=ATOL)
    assert np.allclose(c.self_, 0.1, atol=ATOL) and np.allclose(c.same + c.self_ + c.other, 1)
    c2 = attention_concentration(p, b, self_attend=False)
    assert np.allclose(c2.same, c2.n_same / 9, atol=ATOL) and not c2.self_.any()


def test_projections_at_initialization_are_delta_beta() -> None:
    p = initialize(PAT.d_x, PAT.d_y, m=6, m_a=8, m_b=11, delta=0.15, seed=0)
    b = sample_prompts(PAT, cyclic_tasks(4), 50, 5, 0.8, noise=0.5, seed=2)
    pr = attention_projections(p, PAT, b)
    assert pr.query_own == pytest.approx(0.15 * 2.0) and pr.key_own == pytest.approx(0.3)
    assert pr.query_other_relevant == pytest.approx(0.0, abs=ATOL)
    assert np.allclose(pr.G_query, 0.15 * np.eye(4)) and np.allclose(pr.I_key, 0.15 * np.eye(4))
    assert pr.query_irrelevant <= 0.15 * 0.5 * 2.0 + ATOL             # delta |kappa| beta


def test_alignment_of_constructed_neurons() -> None:
    p = initialize(PAT.d_x, PAT.d_y, m=3, m_a=8, m_b=PAT.D, seed=0)
    WV = np.eye(PAT.D)
    WO = np.zeros((3, PAT.D))
    WO[0, :PAT.d_x] = PAT.mean_relevant
    WO[0, PAT.d_x:] = np.sign(p.a[0]) * PAT.q
    WO[1, :PAT.d_x] = PAT.irrelevant[0]                               # orthogonal to mean
    WO[1, PAT.d_x:] = -np.sign(p.a[1]) * PAT.q
    WO[2, 0] = 1.0
    al = neuron_alignment(replace(p, WO=WO, WV=WV), PAT)
    assert al.cos_feature[0] == pytest.approx(1) and al.cos_label[0] == pytest.approx(1)
    assert al.cos_feature[1] == pytest.approx(0, abs=ATOL) and al.cos_label[1] == pytest.approx(-1)
    assert al.cos_feature[2] == pytest.approx(0.5) and al.cos_label[2] == 0.0   # zero label part
    assert list(al.top(1 / 3)) == [int(np.argmax(al.magnitude))] == [1]   # ||nu_1|| = 2


def test_update_spectrum_of_a_known_low_rank_update() -> None:
    basis = label_feature_basis(PAT)
    rng = np.random.default_rng(3)
    delta = rng.normal(size=(8, 3)) @ basis[:3] + 1e-9 * rng.normal(size=(8, PAT.D))
    s = update_spectrum(delta, basis=basis)
    assert int(s.float_rank) == 3 and s.eps_rank.bracket[1] <= 3
    assert s.input_energy == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(ValueError, match="did not move"):
        update_spectrum(np.zeros((2, 2)))
