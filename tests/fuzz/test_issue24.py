"""Issue 24's examples, each ending in a correct answer (checked independently) or a clear error
that names the argument and is raised before any work or allocation.

The store and sweep examples (a file truncated to 0 bytes, an edited value, an older schema, an
undecodable row, an unpicklable result, a Counter and an IntEnum, a task that never returns, a
script without the ``__main__`` guard) are in :mod:`tests.sweeps.test_store_integrity` and
:mod:`tests.sweeps.test_sweep_limits`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import identifiability.distillation as PD
import identifiability.icl as ICL
import identifiability.masked as MP
import seprank
import seprank.automata as AU
from identifiability.contrastive import fit_ou_mle
from paper_checks.ledger import judge
from paper_checks.registry import select
from seprank.certificates import load_certificate, matrix_certificate, save_certificate
from seprank.core import MemoryBudgetError, WorkBudgetError, matricize, split_seed
from seprank.sweeps.store import ResultStore
from tests.deadlines import cpu_deadline, cpu_seconds

#: A refusal must come before the work: well within this many seconds of CPU time (the work
#: refused would take hours; CPU time, unlike wall time, does not grow with the machine's load).
PROMPT_SECONDS = 5.0


def _refused(call: Callable[[], Any], error: type[BaseException] | tuple[type[BaseException],
             ...], match: str, seconds: float = PROMPT_SECONDS) -> None:
    start = cpu_seconds()
    with cpu_deadline(seconds), pytest.raises(error, match=match):
        call()
    assert cpu_seconds() - start < seconds


# -- the wrong answer ------------------------------------------------------------------------

@pytest.mark.parametrize("values", [[1.0, 1.0, -1.0], [1.0, -1.0, -1.0]])
def test_interpolation_mlp_refuses_a_repeated_point(values: list[float]) -> None:
    """It returned f(0, 0) = 2 (the point counted twice), or 0 for contradictory values."""
    with pytest.raises(ValueError, match=r"points repeats the point \[0.0, 0.0\] \(rows \[0, 1\]"):
        PD.interpolation_mlp([[0, 0], [0, 0], [1, 1]], values)
    with pytest.raises(ValueError, match="distinct"):            # as the 1-D version
        PD.interpolation_mlp_1d([0.0, 0.0, 1.0], values)
    pts = [[0, 0], [0, 1], [1, 1]]                                # distinct points: exact
    assert PD.interpolation_mlp(pts, values)(pts).ravel().tolist() == values


# -- hangs: budgets before the work ----------------------------------------------------------

def test_split_seed_refuses_a_trillion_streams() -> None:
    _refused(lambda: split_seed(0, 10**12), MemoryBudgetError, r"random streams.*lower n")
    assert len(split_seed(0, 3)) == 3


def test_the_closure_of_s_million_is_refused_by_its_memory() -> None:
    """max_size counted elements only: S_{10^6}'s closure ran for ever."""
    group = AU.symmetric_group(10**6)
    _refused(group.transformation_semigroup, MemoryBudgetError,
             r"elements of degree 1000000.*permutation_group", seconds=20)
    assert AU.symmetric_group(4).transformation_semigroup().size == math.factorial(4)


def test_monte_carlo_correlations_budget_their_samples() -> None:
    step = PD.first_stage_step(PD.SymmetricInit.draw(7, 2, 4, seed=0), (0, 1))
    _refused(lambda: PD.monte_carlo_correlations(step, 10**12, seed=0), WorkBudgetError,
             "lower n_samples")


def test_cut_separation_rank_at_a_million_positions_refuses_before_any_bound() -> None:
    T = 10**6
    cut = (list(range(T // 2)), list(range(T // 2, T)))
    _refused(lambda: AU.cut_separation_rank(AU.flip_flop(), 1, 1, T, cut, seed=0), ValueError,
             r"3\^500000 x 3\^500000 entries .*lower T")
    # the bounds themselves follow the reachable sets to their cycle: a contiguous cut has
    # two blocks, so the bond bound |Q|^(blocks - 1) = 2 (and the truth is <= |Q| = 2)
    bounds = AU.cut_rank_bound(AU.flip_flop(), 1, T, cut)
    assert (bounds["blocks"], bounds["bond"], bounds["bound"]) == (2, 2, 2)


def test_words_of_length_at_any_length() -> None:
    """The layers of words of length t are eventually periodic: checked against brute force
    for every t up to 12, then at 10**30 (the sums of t generator letters mod 3)."""
    S = AU.modular_counter(3, alphabet="generator").transformation_semigroup()
    gens = S.generators
    layer = set(gens)
    for t in range(1, 13):
        assert S.words_of_length(t) == frozenset(layer)
        layer = {tuple(g[v] for v in f) for f in layer for g in gens}
    assert len(S.words_of_length(10**30)) == 3


# -- allocations attempted, now refused --------------------------------------------------------

@pytest.mark.parametrize("call,match", [
    (lambda: AU.dyck(4, 12), "stacks of Dyck_4,12"),
    (lambda: AU.random_attention_variation(10**6), "attention patterns.*lower N"),
    (lambda: AU.sample_ffl(8, (0.1, 0.1, 0.8), 10**12), r"strings of length 8.*lower n"),
    (lambda: ICL.in_domain_patterns(M1=10**6), "lower M1, M2 or d_y"),
    (lambda: ICL.in_domain_patterns(d_y=10**9), "lower M1, M2 or d_y"),
    (lambda: ICL.initialize(30, 30, m=10**9), "m = 1000000000"),
    (lambda: PD.SymmetricInit.draw(11, 2, 10**10, seed=0), "10000000000 neurons"),
], ids=["dyck", "random_attention_variation", "sample_ffl", "in_domain_patterns(M1)",
        "in_domain_patterns(d_y)", "initialize(m)", "SymmetricInit.draw"])
def test_large_allocations_are_refused_before_they_happen(call: Callable[[], Any],
                                                          match: str) -> None:
    _refused(call, MemoryBudgetError, match)


def test_reachable_stacks_count_in_closed_form_what_they_cannot_enumerate() -> None:
    start = cpu_seconds()
    with cpu_deadline(5.0):            # enumerating would visit 1.1e40 stacks
        reach, classes = AU.reachable_stacks(10, 40)
    assert cpu_seconds() - start < 1.0
    assert reach == sum(10**i for i in range(41)) and classes == 11**40
    assert AU.reachable_stacks(3, 3, method="enumerate") == (1 + 3 + 9 + 27, 4**3)
    with pytest.raises(MemoryBudgetError):
        AU.reachable_stacks(10, 40, method="enumerate")


def test_als_parafac_refuses_a_rank_no_tensor_of_that_shape_has() -> None:
    _refused(lambda: MP.als_parafac(np.ones((3, 3, 3)), 10**6), ValueError,
             r"rank = 1000000 exceeds min\(IJ, IK, JK\) = 9")


# -- silent accepts that changed a result ------------------------------------------------------

def test_icl_forward_refuses_nan_prompts() -> None:
    """NaN prompts became output 0."""
    params = ICL.initialize(8, 4, m=8, m_a=8, m_b=8, seed=0)
    batch = ICL.sample_prompts(ICL.in_domain_patterns(M1=4, M2=4, d_y=4), [(0, 1)], 2, 3, 0.8,
                               seed=0)
    P = batch.P.copy()
    P[0, 0, 0] = np.nan
    with pytest.raises(ValueError, match="P contains NaN"):
        ICL.forward(params, P)


def test_cp_reconstruct_refuses_factors_of_different_ranks() -> None:
    with pytest.raises(ValueError, match="factors must have one rank R"):
        MP.cp_reconstruct((np.ones((2, 1)), np.ones((3, 2)), np.ones((4, 1))))


def test_parity_refuses_repeats_and_points_off_the_cube() -> None:
    x = [[1, -1, -1], [-1, 1, 1]]
    with pytest.raises(ValueError, match="support repeats the position 0"):
        PD.parity(x, (0, 0))
    with pytest.raises(ValueError, match=r"x must hold points of \{-1, 1\}\^d"):
        PD.parity([[2, 1, 1]], (0,))
    assert PD.parity(x, (0, 1)).tolist() == [1 * -1, -1 * 1]


@pytest.mark.parametrize("value", [0.0, 3.0])
def test_fit_ou_mle_refuses_constant_data(value: float) -> None:
    """It returned A = 100 (a clamp) on zeros and a 'converged' A = 0.11 on threes."""
    with pytest.raises(ValueError, match="observations do not vary"):
        fit_ou_mle(np.full((50, 1), value), 0.5)


def test_permutation_automaton_does_not_pad_generators() -> None:
    with pytest.raises(ValueError, match=r"generators act on different numbers of points"):
        AU.permutation_automaton([[1, 0], [1, 2, 0]])


@pytest.mark.parametrize("call,match", [
    (lambda: AU.dilution_bound(4, -1.0), "sigma_max must be"),
    (lambda: AU.lemma13_bound(8, -0.5), "gamma must be"),
    (lambda: PD.first_stage_step(PD.SymmetricInit.draw(7, 2, 4, seed=0), (0, 1), decay=2.0),
     r"decay = 2.0 .*1 - 2 eta decay"),
    (lambda: PD.proposition9_network(6, (0, 2, 3), scale=-1), "scale must be"),
    (lambda: PD.DistillationConfig(lr=-0.1), "lr must be"),
    (lambda: PD.Segment(None, tau=-1), "tau must be"),
], ids=["dilution_bound", "lemma13_bound", "first_stage_step", "proposition9_network",
        "DistillationConfig", "Segment"])
def test_negative_rates_scales_and_temperatures_are_refused(call: Callable[[], Any],
                                                            match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()


def test_truthy_strings_are_not_flags() -> None:
    params = ICL.initialize(8, 4, m=8, m_a=8, m_b=8, seed=0)
    P = np.zeros((1, 12, 3))
    with pytest.raises(ValueError, match="self_attend must be True or False, got 'no'"):
        ICL.forward(params, P, self_attend="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="self_attend must be True or False, got 'yes'"):
        ICL.TrainingConfig(self_attend="yes")  # type: ignore[arg-type]
    M = [[1, 2], [3, 4]]
    with pytest.raises((TypeError, ValueError), match="include_matrix"):
        matrix_certificate(M, seprank.matrix_rank(M, method="exact"),
                           include_matrix="yes")  # type: ignore[call-arg]


def test_bools_are_not_indices() -> None:
    T = np.arange(8).reshape(2, 2, 2)
    with pytest.raises(ValueError, match="row_modes must hold integer modes, got True"):
        matricize(T, [True])

    def f(X: np.ndarray) -> np.ndarray:
        return np.asarray(X[:, 0, 0] * X[:, 1, 0])

    with pytest.raises(ValueError, match=r"partition must be .*bools are not positions"):
        seprank.separation_rank(f, n_inputs=2, dim=1, partition=([np.True_], [np.False_]),
                                seed=0)


def test_filters_that_match_nothing_are_refused() -> None:
    with pytest.raises(ValueError, match="paper 'bogus' matches no registered paper"):
        select(paper="bogus")
    with pytest.raises(ValueError, match="status must be one of 'ok', 'error'; got 'done'"):
        ResultStore(":memory:").results(status="done")  # type: ignore[arg-type]


def test_judge_refuses_a_truthy_string() -> None:
    """judge('yes') returned 'holds'."""
    with pytest.raises(ValueError, match="printed_holds must be True or False"):
        judge("yes")  # type: ignore[arg-type]
    assert (judge(True), judge(False, True), judge(False)) == ("holds", "erratum", "fails")


def test_save_certificate_writes_standard_json_or_refuses(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="cert must be a certificate"):
        save_certificate([1, 2], tmp_path / "list.json")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"cert\['value'\] is nan: standard JSON"):
        save_certificate({"value": math.nan}, tmp_path / "nan.json")
    path = save_certificate({"value": np.int64(2**62)}, tmp_path / "int.json")
    text = path.read_text()
    assert text == '{"value":4611686018427387904}' and json.loads(text)["value"] == 2**62
    assert load_certificate(path) == {"value": 2**62}


# -- obscure errors, now named ------------------------------------------------------------------

def test_icl_initialize_blames_d_x_and_m_a_together() -> None:
    with pytest.raises(ValueError, match=r"m_a = 60 rows .* fewer than d_x = 1000000"):
        ICL.initialize(10**6, 30)


def test_fourier_coefficient_given_a_function() -> None:
    with pytest.raises(TypeError, match=r"values must be the 8 integer values .*pass values ="):
        PD.fourier_coefficient(3, (0,), lambda x: x)  # type: ignore[arg-type]


def test_estimate_ghmm_says_what_is_wrong_with_its_data() -> None:
    with pytest.raises(ValueError, match=r"pair moments .* have rank 1 < k = 3"):
        MP.estimate_ghmm(np.ones((20, 50, 4)), 3, seed=0)
    tokens = MP.HMM.random(4, 3, seed=0).sample(50, n_sequences=20, seed=0).observations
    with pytest.raises(TypeError, match=r"integer tokens .* use estimate_hmm"):
        MP.estimate_ghmm(tokens, 3, seed=0)
    truth = MP.GaussianHMM(np.eye(3), 0.7 * np.eye(3) + 0.1)
    x = truth.sample(100, n_sequences=1000, seed=0).observations
    with pytest.raises(MP.UnreliableEstimateError, match="k is probably too small; try k = 3"):
        MP.estimate_ghmm(x, 2, seed=1)


def test_matricize_of_none_names_row_modes() -> None:
    with pytest.raises(TypeError, match="row_modes must be a list or tuple"):
        matricize(np.ones((2, 2)), None)  # type: ignore[arg-type]


def test_a_method_name_is_not_a_domain() -> None:
    net = seprank.LinearAttention.random(depth=1, width=2, seed=0)
    with pytest.raises(TypeError, match=r"domain must be a number domain.*domain_for"):
        net(np.ones((2, 2), dtype=int), domain="modular")  # type: ignore[arg-type]


def test_jennrich_of_the_zero_tensor() -> None:
    with pytest.raises(ValueError, match="W is the zero tensor"):
        MP.jennrich(np.zeros((3, 3, 3)), 2)
