"""Valid calls of every public function of :mod:`identifiability.icl` (002; fuzz catalogue).

Small sizes (4 relevant + 4 irrelevant patterns, d_y = 4, m = 8 neurons) keep every valid
call, and every bad variant that is refused late, within milliseconds.
"""

from __future__ import annotations

import numpy as np

import identifiability.icl as ICL
from tests.fuzz.harness import Entry

PAT = ICL.in_domain_patterns(M1=4, M2=4, d_y=4)
PAT6 = ICL.in_domain_patterns(M1=6, M2=2, d_y=2)
OOD6 = ICL.ood_patterns(PAT6)
PARAMS = ICL.initialize(8, 4, m=8, m_a=8, m_b=8, seed=0)
TASKS = [(0, 1), (1, 2), (2, 3), (3, 0)]
BATCH = ICL.sample_prompts(PAT, TASKS, 6, 4, 0.8, seed=0)
CONFIG = ICL.TrainingConfig(n_steps=2, batch_size=4, length=4, m=8, m_a=8, m_b=8)
R = 2 ** -0.5

MODELS = {"params": "object", "prompts": "object", "patterns": "object", "base": "object",
          "ood": "object", "config": "object"}
SIZES = ("d_x", "d_y", "m", "m_a", "m_b")

ENTRIES: list[Entry] = [
    # -- data --------------------------------------------------------------------------------
    Entry("icl.in_domain_patterns", ICL.in_domain_patterns,
          dict(M1=4, M2=4, beta=3.0, d_y=4, basis="standard", seed=0),
          kinds={"M2": "count", "beta": "pos"}, huge=("M1", "M2", "d_y")),
    Entry("icl.Patterns", ICL.Patterns, dict(relevant=PAT.relevant, irrelevant=PAT.irrelevant,
                                            q=PAT.q)),
    Entry("icl.ood_patterns", ICL.ood_patterns, dict(base=PAT6, a=0.64, b=0.64),
          kinds=MODELS),
    Entry("icl.ood_patterns_from_coefficients", ICL.ood_patterns_from_coefficients,
          dict(base=PAT, coefficients=[[R, R, 0.0, 0.0]], irrelevant=PAT.irrelevant),
          kinds=MODELS),
    Entry("icl.theorem34_conditions", ICL.theorem34_conditions,
          dict(base=PAT6, ood=OOD6, atol=1e-9), kinds=MODELS),
    # -- prompts -----------------------------------------------------------------------------
    Entry("icl.sample_prompts", ICL.sample_prompts,
          dict(patterns=PAT, tasks=TASKS, n=3, length=4, alpha=0.8, noise=0.5, seed=0),
          kinds={**MODELS, "length": "count0", "alpha": "pos", "noise": "tol"},
          huge=("n", "length")),
    Entry("icl.context_probabilities", ICL.context_probabilities, dict(M=4, alpha=0.8),
          kinds={"alpha": "pos"}),
    Entry("icl.no_same_pattern_probability", ICL.no_same_pattern_probability,
          dict(alpha=0.8, length=3), kinds={"alpha": "pos", "length": "count0"}),
    Entry("icl.min_context_length", ICL.min_context_length, dict(alpha=0.8, p=0.1),
          kinds={"alpha": "pos", "p": "pos"}),
    Entry("icl.same_pattern_tail", ICL.same_pattern_tail, dict(alpha=0.8, length=4, c=0.5),
          kinds={"alpha": "pos", "length": "count", "c": "pos"}, huge=("length",)),
    Entry("icl.chernoff_bound", ICL.chernoff_bound, dict(alpha=0.8, length=4, c=0.5),
          kinds={"alpha": "pos", "length": "count", "c": "pos"}),
    Entry("icl.PromptBatch.prefix", BATCH.prefix, dict(length=2), kinds={"length": "count0"}),
    # -- tasks -------------------------------------------------------------------------------
    Entry("icl.all_tasks", ICL.all_tasks, dict(M1=4), kinds={"M1": "count"}, huge=("M1",)),
    Entry("icl.cyclic_tasks", ICL.cyclic_tasks, dict(M1=4), kinds={"M1": "count"},
          huge=("M1",)),
    Entry("icl.shift_tasks", ICL.shift_tasks, dict(M1=4, shifts=2),
          kinds={"M1": "count", "shifts": "count"}, huge=("M1",)),
    Entry("icl.unseen_tasks", ICL.unseen_tasks, dict(M1=4, training=TASKS),
          kinds={"M1": "count"}, huge=("M1",)),
    Entry("icl.condition_32", ICL.condition_32, dict(tasks=TASKS, M1=4),
          kinds={"M1": "count"}, huge=("M1",)),
    Entry("icl.condition_32_subset_counts", ICL.condition_32_subset_counts, dict(M1=3),
          kinds={"M1": "count"}, huge=("M1",)),
    # -- model -------------------------------------------------------------------------------
    Entry("icl.initialize", ICL.initialize,
          dict(d_x=8, d_y=4, m=8, m_a=8, m_b=8, delta=0.2, a_scale="1/m", seed=0),
          kinds={**{s: "count" for s in SIZES}, "delta": "pos"}, huge=SIZES),
    Entry("icl.ICLParams", ICL.ICLParams,
          dict(WQ=PARAMS.WQ, WK=PARAMS.WK, WV=PARAMS.WV, WO=PARAMS.WO, a=PARAMS.a,
               mask=PARAMS.mask)),
    Entry("icl.ICLParams.with_mask", PARAMS.with_mask, dict(mask=np.ones(8))),
    Entry("icl.forward", ICL.forward, dict(params=PARAMS, P=BATCH.P, self_attend=True),
          kinds=MODELS),
    Entry("icl.attention_weights", ICL.attention_weights,
          dict(params=PARAMS, P=BATCH.P, self_attend=False), kinds=MODELS),
    Entry("icl.hinge_loss", ICL.hinge_loss, dict(F=[2.0, 0.5, -1.0], z=[1.0, 1.0, -1.0])),
    Entry("icl.loss_and_gradient", ICL.loss_and_gradient,
          dict(params=PARAMS, P=BATCH.P, z=BATCH.z, self_attend=True), kinds=MODELS),
    # -- training ----------------------------------------------------------------------------
    Entry("icl.TrainingConfig", ICL.TrainingConfig,
          dict(n_steps=2, batch_size=4, step_size=1.0, alpha=0.8, length=4, noise=0.5, m=8,
               m_a=8, m_b=8, delta=0.2, a_scale="1/m", self_attend=True, tasks=TASKS),
          kinds={"n_steps": "count0", "step_size": "pos", "alpha": "pos", "noise": "tol",
                 "m": "count", "m_a": "count", "m_b": "count", "delta": "pos",
                 "tasks": "object"}),
    Entry("icl.train", ICL.train,
          dict(patterns=PAT, config=CONFIG, seed=0, callback=None, callback_every=1,
               limit_blas_threads=True),
          kinds={**MODELS, "callback_every": "count"}),
    Entry("icl.train(config)", lambda **kw: ICL.train(PAT, ICL.TrainingConfig(**kw), seed=0),
          dict(n_steps=2, batch_size=4, length=4, m=8, m_a=8, m_b=8),
          kinds={"n_steps": "count0", "m": "count", "m_a": "count", "m_b": "count"},
          huge=("n_steps", "batch_size", "length", "m", "m_a", "m_b")),
    Entry("icl.evaluate", ICL.evaluate, dict(params=PARAMS, prompts=BATCH, self_attend=True),
          kinds=MODELS),
    Entry("icl.sample_and_evaluate", ICL.sample_and_evaluate,
          dict(params=PARAMS, patterns=PAT, tasks=TASKS, n=4, length=4, alpha=0.8, noise=0.5,
               self_attend=True, seed=0),
          kinds={**MODELS, "length": "count0", "alpha": "pos", "noise": "tol"},
          huge=("n", "length")),
    # -- pruning -----------------------------------------------------------------------------
    Entry("icl.pruned_count", ICL.pruned_count, dict(rate=0.25, m=8),
          kinds={"rate": "pos", "m": "count"}, accept={"rate": (0.0,)}),
    Entry("icl.prune_mask", ICL.prune_mask,
          dict(params=PARAMS, n_pruned=3, order="random", seed=0),
          kinds={**MODELS, "n_pruned": "count0"}),
    Entry("icl.pruning_curve", ICL.pruning_curve,
          dict(params=PARAMS, prompts=BATCH, rates=[0.0, 0.5], orders=("smallest", "random"),
               n_random_masks=2, self_attend=True, seed=0),
          kinds={**MODELS, "orders": "object"}, huge=("n_random_masks",)),
    # -- mechanism ---------------------------------------------------------------------------
    Entry("icl.attention_concentration", ICL.attention_concentration,
          dict(params=PARAMS, prompts=BATCH, self_attend=True), kinds=MODELS),
    Entry("icl.attention_projections", ICL.attention_projections,
          dict(params=PARAMS, patterns=PAT, prompts=BATCH), kinds=MODELS),
    Entry("icl.neuron_alignment", ICL.neuron_alignment, dict(params=PARAMS, patterns=PAT),
          kinds=MODELS),
    Entry("icl.NeuronAlignment.top", ICL.neuron_alignment(PARAMS, PAT).top,
          dict(fraction=0.5), kinds={"fraction": "pos"}),
    Entry("icl.label_feature_basis", ICL.label_feature_basis, dict(patterns=PAT),
          kinds=MODELS),
    Entry("icl.update_spectrum", ICL.update_spectrum,
          dict(delta=np.outer([1.0, 2.0], [1.0, 0.0, 1.0]) + 1e-6, rtol=0.05, eps=0.1,
               basis=[[0.0, 1.0, 0.0]]),
          kinds={"eps": "pos", "rtol": "tol"}),
    # -- baselines ---------------------------------------------------------------------------
    Entry("icl.knn_predict", ICL.knn_predict, dict(prompts=BATCH, k=3), kinds=MODELS),
    Entry("icl.sklearn_predict", ICL.sklearn_predict,
          dict(prompts=BATCH, method="logistic", C=1.0), kinds={**MODELS, "C": "pos"}),
    Entry("icl.baseline_error", ICL.baseline_error, dict(prompts=BATCH, method="3-NN"),
          kinds=MODELS),
]
