"""Valid calls of every public function of :mod:`identifiability` (the fuzz catalogue, part 2)."""

from __future__ import annotations

import numpy as np

import identifiability.contrastive as CL
import identifiability.masked as MP
import identifiability.nce as NCE
from tests.fuzz.harness import Entry

HMM1 = MP.HMM.random(4, 3, seed=0)
GHMM = MP.GaussianHMM.random(4, 3, seed=1)
PRED_HMM = MP.optimal_predictor(HMM1, "x2*x3|x1")
PRED_GHMM = MP.optimal_predictor(GHMM, "x2*x3|x1")
O2 = np.array([[0.6, 0.1], [0.4, 0.9]])
T2 = np.array([[0.7, 0.3], [0.3, 0.7]])
OU = CL.OrnsteinUhlenbeck(1.0)
OU2 = CL.OrnsteinUhlenbeck([[2.0, 0.3], [0.3, 1.0]])
CHAIN = CL.FiniteStateChain([[0.9, 0.1], [0.2, 0.8]])
PK = OU.kernel(0.5)
Q = OU.stationary
TASK = CL.contrastive_task_from_process(OU, horizon=200, eta=0.5, contrast=Q, seed=0)
X_OU = OU.simulate(200, 0.5, seed=0)
PROB = NCE.GaussianMeanNCE(theta_star=4.0)
W3 = np.einsum("ir,jr,kr->ijk", *np.random.default_rng(0).random((3, 4, 2)))
P3 = np.array([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])
SEQ_HMM = HMM1.sample(20, n_sequences=4, seed=0).observations
SEQ_GHMM = GHMM.sample(20, n_sequences=4, seed=0).observations
W4 = np.einsum("ir,jr,kr->ijk", *np.random.default_rng(1).random((3, 4, 2)))
P3h = np.array([[0.7, 0.2, 0.1], [0.2, 0.6, 0.2], [0.3, 0.3, 0.4]])


def LOGIT(z: np.ndarray, zp: np.ndarray) -> np.ndarray:
    return np.asarray(PK.logpdf(z, zp) - Q.logpdf(z, zp))



ENTRIES: list[Entry] = [
    # -- masked: models --------------------------------------------------------------------
    Entry("HMM", MP.HMM, dict(O=O2, T=T2, atol=1e-10, rank_rtol=1e-10)),
    Entry("GaussianHMM", MP.GaussianHMM, dict(M=np.eye(2), T=T2, atol=1e-10, rank_rtol=1e-10)),
    Entry("HMM.random", MP.HMM.random, dict(d=4, k=3, seed=0, concentration=1.0,
                                            transition_scale=1.0), huge=("d", "k")),
    Entry("GaussianHMM.random", MP.GaussianHMM.random, dict(d=4, k=3, seed=0,
                                                            transition_scale=1.0),
          huge=("d", "k")),
    Entry("HMM.sample", HMM1.sample, dict(n_steps=5, n_sequences=2, seed=0),
          huge=("n_steps", "n_sequences")),
    Entry("GaussianHMM.sample", GHMM.sample, dict(n_steps=5, n_sequences=2, seed=0),
          huge=("n_steps", "n_sequences")),
    Entry("HMM.posterior", HMM1.posterior, dict(x=np.array([0.0, 1.0, 0.0, 0.0]))),
    Entry("GaussianHMM.posterior", GHMM.posterior, dict(x=np.ones(4))),
    Entry("check_assumptions", MP.check_assumptions,
          dict(emission=O2, T=T2, kind="hmm", atol=1e-10, rank_rtol=1e-10)),
    Entry("sinkhorn", MP.sinkhorn, dict(K=[[1.0, 2.0], [3.0, 4.0]], tol=1e-12, max_iter=100)),
    Entry("gaussian_posterior", MP.gaussian_posterior, dict(M=np.eye(2), x=[10.0, 0.0])),
    # -- masked: tasks and predictors --------------------------------------------------------
    Entry("Task", lambda targets, given: MP.Task(targets=targets, given=given),
          dict(targets=(2, 3), given=1), kinds={"given": "count"}),
    Entry("Task(str)", MP.Task, dict(spec="x2*x3|x1")),
    Entry("optimal_predictor", MP.optimal_predictor, dict(model=HMM1, task="x2|x1")),
    Entry("Predictor.__call__", MP.optimal_predictor(HMM1, "x2|x1"), dict(x=0),
          kinds={"x": "count0"}),
    Entry("predict_raw", MP.predict_raw, dict(emission=O2, T=T2, phi=O2 / O2.sum(1)[:, None],
                                              task="x2|x1")),
    Entry("masked_prediction_tensor", MP.masked_prediction_tensor,
          dict(model=HMM1, task="x2*x3|x1", points="means"), kinds={"points": "skip"}),
    Entry("hmm_tensor_factors", MP.hmm_tensor_factors, dict(O=O2, T=T2, task="x1*x3|x2")),
    Entry("tensor_factors", MP.tensor_factors,
          dict(emission=O2, T=T2, task="x1*x3|x2", Phi_X_T=np.eye(2), X=np.eye(2),
               symbol="E"), kinds={"symbol": "skip"}),
    # -- masked: CP, recovery -----------------------------------------------------------------
    Entry("jennrich", MP.jennrich, dict(W=W3, rank=2, seed=0)),
    Entry("als_parafac", MP.als_parafac, dict(W=W3, rank=2, n_restarts=1, seed=0,
                                              n_iter_max=50, tol=1e-10, init="random")),
    Entry("cp_reconstruct", MP.cp_reconstruct,
          dict(factors=(np.ones((2, 1)), np.ones((3, 1)), np.ones((4, 1)))),
          kinds={"factors": "object"}),
    Entry("recover_hmm", MP.recover_hmm, dict(predictor=PRED_HMM, k=3, method="jennrich",
                                              seed=0, n_restarts=2)),
    Entry("recover_ghmm", MP.recover_ghmm, dict(predictor=PRED_GHMM, k=3, method="jennrich",
                                                seed=0, n_restarts=2, n_check_points=20)),
    Entry("match_permutation", MP.match_permutation, dict(estimate=np.eye(2), truth=np.eye(2))),
    # -- masked: estimation from samples ---------------------------------------------------------
    Entry("empirical_moments", MP.empirical_moments,
          dict(sequences=SEQ_HMM, d=4, kind="hmm", n_groups=2), huge=("d", "n_groups")),
    Entry("estimate_hmm", MP.estimate_hmm,
          dict(sequences=SEQ_HMM, k=3, task="x2*x3|x1", d=4, seed=0, n_groups=2,
               n_contractions=2, gap_to_noise=3.0, refine=False, check="report"),
          huge=("d", "n_contractions", "n_groups")),
    Entry("estimate_ghmm", MP.estimate_ghmm,
          dict(sequences=SEQ_GHMM, k=3, task="x2*x3|x1", seed=0, n_groups=2,
               n_contractions=2, gap_to_noise=3.0, refine=False, check="report"),
          huge=("n_contractions", "n_groups")),
    Entry("estimate_hmm(X, lengths)", MP.estimate_hmm,
          dict(sequences=SEQ_HMM.reshape(-1, 1), k=3, d=4, seed=0, n_groups=2,
               lengths=[20] * 4, n_contractions=2, refine=False, check="report"),
          huge=("d", "n_contractions", "n_groups")),
    Entry("estimate_ghmm(X, lengths)", MP.estimate_ghmm,
          dict(sequences=SEQ_GHMM.reshape(-1, 4), k=3, seed=0, n_groups=2,
               lengths=[20] * 4, n_contractions=2, refine=False, check="report"),
          huge=("n_contractions", "n_groups")),
    Entry("HMM.errors_against", HMM1.errors_against, dict(other=HMM1),
          kinds={"other": "object"}),
    Entry("GaussianHMM.errors_against", GHMM.errors_against, dict(other=GHMM),
          kinds={"other": "object"}),
    Entry("spectral_factors", MP.spectral_factors,
          dict(Q=W4, P_ab=W4.sum(2), P_ac=W4.sum(1), k=2, seed=0, n_contractions=2),
          kinds={"direction": "skip"}, huge=("n_contractions",)),
    Entry("simplex_projection", MP.simplex_projection, dict(V=np.array([[0.7], [0.5]]))),
    Entry("birkhoff_projection", MP.birkhoff_projection,
          dict(X=np.array([[1.2, -0.1], [0.0, 0.9]]), tol=1e-13, max_iter=1000),
          huge=("max_iter",)),
    Entry("hmmlearn_data", MP.hmmlearn_data, dict(sequences=SEQ_HMM, kind="hmm", d=4, k=3)),
    Entry("refine_em", MP.refine_em,
          dict(model=HMM1, sequences=SEQ_HMM, n_iter=2, tol=1e-2, smoothing=1e-3, seed=0),
          huge=("n_iter",)),
    Entry("kruskal_rank", MP.kruskal_rank, dict(A=[[1, 0, 1], [0, 1, 1]], method="exact",
                                                engine="minors", seed=0, max_subsets=1000),
          huge=("max_subsets",)),
    Entry("kruskal_rank(svd)", MP.kruskal_rank, dict(A=[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]],
                                                     method="svd", rtol=1e-9)),
    Entry("kruskal_certificate", MP.kruskal_certificate,
          dict(A=[[1, 0, 1], [0, 1, 1]], result=MP.kruskal_rank([[1, 0, 1], [0, 1, 1]]),
               seed=0)),
    Entry("kruskal_condition", MP.kruskal_condition,
          dict(factors=[np.eye(3, dtype=int)] * 3, method="exact", seed=0, engine="minors"),
          kinds={"factors": "object"}),
    Entry("jacobian_deficiency", MP.jacobian_deficiency,
          dict(model=GHMM, tasks="x2|x1", n_points=40, seed=0, rtol=1e-8),
          huge=("n_points",)),
    # -- masked: counterexamples ---------------------------------------------------------------
    Entry("rotation_about_ones", MP.rotation_about_ones, dict(theta=0.1, k=3, seed=0)),
    Entry("rotation_twin", MP.rotation_twin,
          dict(model=MP.HMM.random(5, 3, seed=0, concentration=5.0),
               R=MP.rotation_about_ones(0.05))),
    Entry("pairwise_twin", MP.pairwise_twin,
          dict(model=MP.HMM([[0.6, 0.2], [0.4, 0.8]], T2),
               R=np.array([[1.1, -0.1], [-0.1, 1.1]]))),
    Entry("theorem6_printed", MP.theorem6_printed, dict(atol=1e-7)),
    Entry("theorem6_regenerated", MP.theorem6_regenerated, dict(theta=0.1, atol=1e-7)),
    Entry("claim3_rotation_factor", MP.claim3_rotation_factor, dict(t=2)),
    Entry("claim3_pair", MP.claim3_pair, dict(t=2, a=0.5)),
    Entry("householder_twin", MP.householder_twin, dict(M=GHMM.M, T=GHMM.T)),
    Entry("lemma7_translation", MP.lemma7_translation,
          dict(M=MP.GaussianHMM.random(5, 3, seed=0).M,
               w=np.linalg.svd(MP.GaussianHMM.random(5, 3, seed=0).M)[0][:, 3] * 0.1,
               branch=1), kinds={"branch": "skip"}),
    # -- contrastive: processes ----------------------------------------------------------------
    Entry("OrnsteinUhlenbeck", CL.OrnsteinUhlenbeck, dict(A=[[1.0]], symmetry_rtol=1e-10)),
    Entry("OU.simulate", OU.simulate, dict(n_obs=5, eta=0.1, seed=0), huge=("n_obs",)),
    Entry("OU.sample_stationary", OU.sample_stationary, dict(n=5, seed=0), huge=("n",)),
    Entry("OU.kernel", OU.kernel, dict(eta=0.5)),
    Entry("OU.transition_matrix", OU.transition_matrix, dict(eta=0.5)),
    Entry("OU.tv_to_stationary", OU.tv_to_stationary, dict(z=0.5, t=1.0),
          kinds={"t": "pos"}),
    Entry("OU.beta_mixing", OU.beta_mixing, dict(t=1.0, n_nodes=20), kinds={"t": "pos"}),
    Entry("LangevinDiffusion", CL.LangevinDiffusion,
          dict(grad_f=lambda x: x, dim=1, max_substep=1e-2)),
    Entry("LangevinDiffusion.simulate",
          CL.LangevinDiffusion(lambda x: 2.0 * x, dim=1, max_substep=1e-2).simulate,
          dict(n_obs=3, eta=0.1, x0=[0.0], seed=1, burn_in=0.0),
          kinds={"burn_in": "real"}, huge=("n_obs",)),
    Entry("FiniteStateChain", CL.FiniteStateChain, dict(P=[[0.9, 0.1], [0.2, 0.8]], atol=1e-12)),
    Entry("FiniteStateChain.kernel", CHAIN.kernel, dict(k=3), kinds={"k": "count0"}),
    Entry("FiniteStateChain.simulate", CHAIN.simulate, dict(n_obs=5, seed=0, x0=1),
          kinds={"x0": "count0"}, huge=("n_obs",)),
    Entry("FiniteStateChain.tv_to_stationary", CHAIN.tv_to_stationary, dict(k=2),
          kinds={"k": "count0"}),
    Entry("FiniteStateChain.beta_mixing", CHAIN.beta_mixing, dict(k=2), kinds={"k": "count0"}),
    Entry("check_eta", CL.check_eta, dict(eta=0.5)),
    # -- contrastive: kernels, task, fits --------------------------------------------------------
    Entry("GaussianKernel", CL.GaussianKernel, dict(M=[[0.5]], c=[0.0], S=[[1.0]])),
    Entry("GaussianKernel.global_gaussian", CL.GaussianKernel.global_gaussian,
          dict(mean=[0.0], cov=[[1.0]])),
    Entry("GaussianKernel.local", CL.GaussianKernel.local, dict(dim=1, variance=0.5)),
    Entry("GaussianKernel.logpdf", PK.logpdf, dict(z=[[0.0]], z_prime=[[1.0]])),
    Entry("GaussianKernel.sample", PK.sample, dict(z=[[0.0]], rng=0), kinds={"rng": "seed"}),
    Entry("gauss_hermite_rule", CL.gauss_hermite_rule, dict(mean=[1.0], cov=[[4.0]],
                                                            n_nodes=5), huge=("n_nodes",)),
    Entry("gaussian_exponential_integral", CL.gaussian_exponential_integral,
          dict(Q=[[1.0]], b=[0.0], c=0.0)),
    Entry("gaussian_tv_1d", CL.gaussian_tv_1d, dict(m1=0.0, s1=1.0, m2=1.0, s2=1.0),
          kinds={"s1": "pos", "s2": "pos"}),
    Entry("UniformBoxContrast", CL.UniformBoxContrast, dict(low=[-5.0], high=[5.0])),
    Entry("make_contrastive_task", CL.make_contrastive_task,
          dict(observations=X_OU, eta=0.5, contrast=Q, pairs="disjoint", seed=1)),
    Entry("contrastive_task_from_process", CL.contrastive_task_from_process,
          dict(process=OU, horizon=100.0, eta=0.5, contrast=Q, pairs="disjoint", seed=0),
          huge=("horizon",)),
    Entry("fit_gaussian_kernel", CL.fit_gaussian_kernel,
          dict(task=TASK, contrast=Q, loss="cross_entropy", family="affine", n_restarts=0,
               seed=0, max_iter=200, gtol=1e-6), kinds={"n_restarts": "count0"}),
    Entry("fit_quadratic_logistic", CL.fit_quadratic_logistic,
          dict(task=TASK, contrast=Q, loss="cross_entropy", l2_penalty=0.0, max_iter=200,
               gtol=1e-6)),
    Entry("quadratic_features", CL.quadratic_features, dict(u=[[2.0, 3.0]])),
    Entry("fit_gaussian_ar", CL.fit_gaussian_ar, dict(observations=X_OU, eta=0.5,
                                                      transitions="all")),
    Entry("fit_ou_mle", CL.fit_ou_mle, dict(observations=X_OU, eta=0.5, transitions="all")),
    Entry("bayes_classifier", CL.bayes_classifier, dict(p_star=[0.2, 0.5], q=[0.2, 0.25])),
    Entry("kernel_from_classifier", CL.kernel_from_classifier,
          dict(h=CL.bayes_classifier(np.array([[0.7, 0.3], [0.4, 0.6]]), np.array([0.5, 0.5])),
               q=np.array([0.5, 0.5]), normalize="none")),
    Entry("kernel_from_logit", CL.kernel_from_logit, dict(logit_fn=LOGIT, contrast=Q,
                                                          normalize="none")),
    Entry("expected_kl", CL.expected_kl, dict(p_star=PK, p_hat=PK, stationary=Q, n_nodes=20)),
    Entry("expected_abs_error", CL.expected_abs_error,
          dict(p_star=PK, p_hat=PK, stationary=Q, n_nodes=20)),
    Entry("excess_risk", CL.excess_risk, dict(p_star=PK, logit_fn=LOGIT, contrast=Q,
                                              stationary=Q, loss="l2", n_nodes=20)),
    Entry("population_risk", CL.population_risk,
          dict(logit_fn=LOGIT, p_star=PK, contrast=Q, stationary=Q, loss="cross_entropy",
               n_nodes=20)),
    Entry("theorem3_factor", CL.theorem3_factor,
          dict(p_star=PK, p_hat=PK, contrast=CL.GaussianKernel.local(1, 0.1), stationary=Q,
               n_nodes=20)),
    Entry("theorem3_factor_gaussian", CL.theorem3_factor_gaussian,
          dict(p_star=PK, q=Q, stationary=Q)),
    Entry("r_function", CL.r_function, dict(u=1.0, delta=0.1), kinds={"u": "real"}),
    Entry("r_second_derivative", CL.r_second_derivative, dict(u=1.0, delta=0.0),
          kinds={"u": "real"}),
    Entry("theorem2_chain", CL.theorem2_chain, dict(P_star=P3, P_hat=P3h, q=[1 / 3] * 3)),
    Entry("theorem3_chain", CL.theorem3_chain, dict(P_star=P3, P_hat=P3h, q=[1 / 3] * 3)),
    Entry("pair_sequence_beta", CL.pair_sequence_beta, dict(P=P3, q=[1 / 3] * 3, k=1)),
    Entry("expected_norm_bounds", CL.expected_norm_bounds, dict(process=OU)),
    # -- nce -----------------------------------------------------------------------------------
    Entry("GaussianMeanNCE", NCE.GaussianMeanNCE, dict(theta_star=4.0, theta_q=0.0)),
    Entry("GaussianMeanNCE.loss", PROB.loss, dict(tau=[1.0, 2.0], kind="nce",
                                                  scale_exponent=0.0)),
    Entry("GaussianMeanNCE.gradient", PROB.gradient, dict(tau=[1.0, 2.0], kind="ence",
                                                          scale_exponent=0.0)),
    Entry("GaussianMeanNCE.hessian", PROB.hessian, dict(tau=[1.0, 2.0], kind="nce",
                                                        scale_exponent=0.0)),
    Entry("GaussianMeanNCE.condition_number", PROB.condition_number,
          dict(tau=[1.0, 2.0], kind="nce")),
    Entry("bhattacharyya_coefficient", NCE.bhattacharyya_coefficient,
          dict(theta1=0.0, theta2=2.0)),
    Entry("run_gradient_method", NCE.run_gradient_method,
          dict(problem=PROB, kind="nce", method="ngd", step=0.5, n_steps=20, tau0=[0.0, 1.0],
               scale_exponent=0.0), kinds={"n_steps": "count0"}, huge=("n_steps",)),
    # issue 26: the identifiability entry point
    Entry("identifiable", MP.identifiable, dict(model=HMM1, task="x2*x3|x1", seed=0,
                                                max_work=1e9),
          kinds={"model": "object", "task": "object"}),
]
