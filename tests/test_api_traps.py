"""The API traps a new user met (issue 26): each is now either well defined or refused loudly."""

from __future__ import annotations

import pytest

from seprank import d2w


@pytest.mark.parametrize("func", [d2w.theorem1_lower, d2w.theorem1_upper, d2w.theorem2_lower,
                                  d2w.theorem2_upper, d2w.theorem3_upper, d2w.theorem4_upper,
                                  d2w.theorem5_residual_upper, d2w.theorem6_residual_upper,
                                  d2w.lemma6_lower_bound])
def test_bounds_refuse_positional_arguments_naming_the_keywords(func) -> None:  # type: ignore[no-untyped-def]
    # theorem3_upper(1, 3) read as (depth 1, width 3) used to give the width-1, depth-3 bound
    with pytest.raises(TypeError, match=r"keyword arguments only \(width, depth, heads"):
        func(1, 3)


def test_keyword_bound_is_the_papers_formula() -> None:
    # Theorem 3 at H = 1 is (d_x + 1)^C(L) with C(L) = (3^L - 1)/2: width 3, depth 1 gives
    # 4^1; the swapped reading (width 1, depth 3) is 2^13 = 8192, the value the trap returned
    assert d2w.theorem3_upper(width=3, depth=1).value == 4
    assert d2w.theorem3_upper(width=1, depth=3).value == 2**13
    assert d2w.theorem3_upper(depth=1, width=3).value == 4


def test_other_bounds_are_keyword_only() -> None:
    for call in (lambda: d2w.lemma2_layer_upper(4, 2, 3),
                 lambda: d2w.corollary1_min_widening(1000, 6, 2),
                 lambda: d2w.corollary2_shallow(512, 12, 2)):
        with pytest.raises(TypeError, match="keyword arguments only"):
            call()


# -- comparisons of results with numbers and bounds ---------------------------------------------

def _rank(matrix: list[list[int]]):  # type: ignore[no-untyped-def]
    import seprank
    return seprank.matrix_rank(matrix, method="exact")


def test_result_compared_with_a_number_refuses_instead_of_being_silently_false() -> None:
    r = _rank([[1, 0], [0, 1]])          # the identity: rank 2, exactly
    for compare in (lambda: r == 2, lambda: r != 2, lambda: r <= 12, lambda: r > 1,
                    lambda: 2 == r, lambda: 12 >= r):  # noqa: SIM300
        with pytest.raises(TypeError, match=r"not a number.*result\.rank"):
            compare()
    assert r == _rank([[2, 0], [0, 3]])   # results still compare with results
    assert int(r) == r.rank == 2


def test_numbers_compare_with_a_bound_exactly() -> None:
    bound = d2w.theorem3_upper(width=2, depth=2)      # (d_x + 1)^C(2) = 3^4 = 81
    # the user's spelling, number first, is the point
    assert 18 <= bound and 81 <= bound and not 82 <= bound  # noqa: SIM300
    assert 82 > bound and 80 < bound  # noqa: SIM300
    with pytest.raises(TypeError, match=r"bound\.value"):
        _ = bound == 81


def test_rank_result_against_a_bound_means_consistent() -> None:
    import seprank
    net = seprank.LinearAttention.random(depth=2, width=2, seed=0)
    r = net.separation_rank(position=0, coordinate=0, partition=([0, 1], [2, 3]), n_inputs=4,
                            seed=0)
    upper = d2w.theorem3_upper(width=2, depth=2)
    assert r.certifies == "lower_bound" and r.rank <= 81
    assert r <= upper                                   # consistent with Theorem 3
    assert (r <= upper) is upper.admits(r.rank)
    with pytest.raises(TypeError, match="upper bound by '<='"):
        _ = r >= upper
    # a certified lower bound above an upper bound is a certain violation
    from fractions import Fraction

    from seprank.core.log3 import log3
    tiny = d2w.Bound("toy", "upper", log3(2), (Fraction(2), 1), "every", ())
    assert not r <= tiny


def test_block_result_status_describes_every_block() -> None:
    import seprank
    net = seprank.LinearAttention.random(depth=2, width=2, seed=0)
    r = net.separation_rank(position=0, coordinate=0, partition=([0, 1], [2, 3]), n_inputs=4,
                            seed=0)
    # the rank is the sum of the block ranks (block-diagonal coefficient matrix)
    assert r.rank == sum(b.rank for b in r.blocks)
    status = r.status
    assert f"{len(r.blocks)} blocks" in status
    assert " + ".join(str(b.rank) for b in r.blocks) + f" = {r.rank}" in status
    assert f"of at most {sum(b.bound for b in r.blocks)}" in status
    assert f"up to {max(b.n_templates for b in r.blocks)} templates" in status
    assert status in r.summary()


def test_kruskal_rank_is_named_rank_and_k_rank_is_its_alias() -> None:
    import pickle

    from identifiability.masked import kruskal_rank
    # columns e1, e2, e1 + e2, e3: every 2 are independent, {0, 1, 2} is dependent
    r = kruskal_rank([[1, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]])
    assert r.rank == r.k_rank == int(r) == 2 and r.witness == (0, 1, 2)
    assert "rank=2" in repr(r) and "k_rank" not in repr(r)
    state = {**r.__getstate__()}
    state["k_rank"] = state.pop("rank")          # a result pickled under the old name
    old = object.__new__(type(r))
    old.__setstate__(state)
    assert old.rank == 2
    assert pickle.loads(pickle.dumps(r)) == r


def test_select_takes_id_like_the_clis_option() -> None:
    from paper_checks import select
    chosen = select(profile="full", id="D2W-Thm*")
    assert chosen and all(c.id.startswith("D2W-Thm") for c in chosen)
    assert [c.id for c in select(profile="full", id=[chosen[0].id])] == [chosen[0].id]
    with pytest.raises(TypeError, match="id_glob"):
        select(id_glob="D2W-*")  # type: ignore[call-arg]


# -- HMM and hmmlearn ---------------------------------------------------------------------------

def test_hmm_sample_is_a_named_pair_in_hmmlearns_order() -> None:

    from identifiability import HMM
    m = HMM.random(4, 3, seed=0)
    s = m.sample(6, n_sequences=5, seed=1)
    x, h = s                                            # hmmlearn: X, Z = model.sample(n)
    assert x is s.observations and h is s.states and s._fields == ("observations", "states")
    assert x.shape == h.shape == (5, 6)
    assert x.max() < m.d and h.max() < m.k             # tokens index O's rows, states its columns


def test_from_hmmlearn_honours_require_and_keeps_the_start_distribution() -> None:
    import numpy as np

    from identifiability import HMM, AssumptionError
    truth = HMM.random(4, 2, seed=0)
    h = truth.to_hmmlearn()
    h.startprob_ = np.array([0.7, 0.3])                 # an ordinary fit: not stationary
    h.transmat_ = np.array([[0.8, 0.2], [0.4, 0.6]])    # row-stochastic, not doubly
    with pytest.raises(AssumptionError, match="A5"):
        HMM.from_hmmlearn(h)                            # A5 is required by default
    m = HMM.from_hmmlearn(h, require=("O", "A6", "A7"))
    assert np.array_equal(m.start, [0.7, 0.3]) and np.allclose(m.T, h.transmat_.T)
    back = m.to_hmmlearn()
    assert np.array_equal(back.startprob_, h.startprob_)
    # the start law is used: P(h_1 = 0) = 0.7 within 5 standard errors
    n = 20_000
    _, states = m.sample(1, n_sequences=n, seed=3)
    assert abs((states[:, 0] == 0).mean() - 0.7) < 5 * np.sqrt(0.21 / n)
    with pytest.raises(ValueError, match="probability vector"):
        HMM(truth.O, truth.T, start=[0.5, 0.6], require=("O", "A6", "A7"))


def test_identifiable_names_the_deciding_theorem_and_runs_the_evidence() -> None:
    from identifiability import HMM, GaussianHMM, identifiable
    m = HMM.random(5, 3, seed=0)
    r = identifiable(m, "x2*x3|x1", seed=1)
    assert (r.identifiable, r.theorem) == (True, "Theorem 7") and bool(r)
    # generic O (5 x 3) and T (3 x 3) have Kruskal rank k = 3 in every factor: 9 >= 2k + 2
    assert r.kruskal is not None and r.kruskal.k_ranks == (3, 3, 3)
    assert r.kruskal.verdict_certified            # exact ranks of the exact float parameters
    assert r.jacobian.deficiency == 0
    assert r.recovery_errors is not None and max(r.recovery_errors["emission"],
                                                 r.recovery_errors["T"]) < 1e-10
    # Theorem 4: x2|x1 sees only O T diag(phi): (k - 1)^2 flat directions of T
    r4 = identifiable(m, "x2|x1")
    assert (r4.identifiable, r4.theorem, r4.jacobian.deficiency) == (False, "Theorem 4", 4)
    r6 = identifiable(m, ["x2|x1", "x1|x2", "x3|x1", "x1|x3"])
    assert (r6.identifiable, r6.theorem, r6.jacobian.deficiency) == (False, "Theorem 6", 1)
    g = GaussianHMM.random(4, 3, seed=1)
    assert identifiable(g, "x2*x3|x1", seed=0).theorem == "Theorem 8"
    assert identifiable(g, "x2|x1").theorem == "Theorem 5"
    # outside the hypotheses (d = 2 < k = 3 breaks A7) no theorem decides
    low = HMM([[0.5, 0.2, 0.3], [0.5, 0.8, 0.7]], [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25],
                                                    [0.25, 0.25, 0.5]], require=("O", "A5", "A6"))
    r_low = identifiable(low, "x2*x3|x1", seed=0)
    assert r_low.identifiable is None and "A7" in r_low.reason
    text = r._repr_markdown_()
    assert "Theorem 7" in text and "Kruskal" in text and len(text) < 2000
    with pytest.raises(TypeError, match="HMM or a GaussianHMM"):
        identifiable("model", "x2|x1")  # type: ignore[arg-type]


def test_fourier_coefficient_takes_d_first_like_majority_coefficient() -> None:
    import numpy as np

    from identifiability.distillation import fourier_coefficient, hypercube, majority_coefficient
    d = 5
    maj = np.sign(hypercube(d).astype(int).sum(axis=1))
    for i in range(d + 1):
        assert fourier_coefficient(d, tuple(range(i)), maj) == majority_coefficient(d, i)
    with pytest.raises(TypeError, match=r"takes \(d, support, values\)"):
        fourier_coefficient(maj, (0,), d)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not the function itself"):
        fourier_coefficient(d, (0,), lambda x: x)  # type: ignore[arg-type]


# -- the sweep store: script and module keys agree, notebook versions cover the library ---------

def test_a_script_and_its_import_share_the_store_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys
    import textwrap
    (tmp_path / "t7case.py").write_text(textwrap.dedent("""
        from seprank import d2w
        from seprank.sweeps.run import code_version, qualified_name

        def case(width):
            return d2w.theorem3_upper(width=width, depth=2).value

        if __name__ == "__main__":
            print(qualified_name(case), code_version(case))
    """))
    run = [sys.executable, "-c"]
    as_script = subprocess.run([sys.executable, "t7case.py"], cwd=tmp_path, check=True,
                               capture_output=True, text=True).stdout.split()
    imported = subprocess.run(
        [*run, "import t7case; from seprank.sweeps.run import code_version, qualified_name; "
               "print(qualified_name(t7case.case), code_version(t7case.case))"],
        cwd=tmp_path, check=True, capture_output=True, text=True).stdout.split()
    assert as_script == imported and as_script[0] == "t7case.case"


def test_a_notebook_functions_version_covers_the_library_it_calls(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from seprank import d2w
    from seprank.sweeps import run as sweep_run
    scope: dict[str, object] = {"__name__": "__main__", "d2w": d2w}
    exec("def helper(w):\n    return d2w.theorem3_upper(width=w, depth=2)\n"
         "def case(w):\n    return helper(w).value\n", scope)
    case = scope["case"]
    monkeypatch.setattr(sweep_run.inspect, "getsource", lambda fn: "def case(w): ...")
    monkeypatch.setattr(sweep_run, "module_name", lambda fn: "__main__")
    before = sweep_run.code_version(case)  # type: ignore[arg-type]
    # seprank reached through helper -> d2w: a change of seprank's source changes the version
    assert "seprank" in sweep_run._library_versions(case)  # type: ignore[arg-type]
    monkeypatch.setattr(sweep_run, "_package_digest", lambda top: "0" * 64)
    assert sweep_run.code_version(case) != before  # type: ignore[arg-type]
