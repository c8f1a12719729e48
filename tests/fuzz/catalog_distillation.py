"""Valid calls of every public function of :mod:`identifiability.distillation` (004 §4.2; fuzz
catalogue)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import identifiability.distillation as PD
from tests.fuzz.harness import Entry

INIT = PD.SymmetricInit.draw(7, 2, 4, seed=0)
STEP = PD.first_stage_step(INIT, (0, 1))
NET9 = PD.proposition9_network(6, (0, 2, 3))
NET10 = PD.proposition10_network(4, (1, 2))
MLP = PD.interpolation_mlp_1d([0.0, 0.5, 1.0], [1.0, -1.0, 1.0])
TEACHER = PD.TwoLayerReLU.init(4, 8, seed=0)
CONFIG = PD.DistillationConfig(d=4, k=2, teacher_width=16, student_width=8, lr=0.05,
                               max_steps=3000, test_size=16, checkpoint_every=50, eval_every=50)
CUBE4 = PD.hypercube(4).astype(np.float64)
TEST4 = (CUBE4, CUBE4[:, 0] * CUBE4[:, 1])
RESULTS = PD.run_progressive_distillation(CONFIG, [0])
RUN = PD.train_teacher(CONFIG, init_seed=np.random.default_rng(0),
                       data_seed=np.random.default_rng(1), test=TEST4)
MAJ3 = np.sign(PD.hypercube(3).astype(int).sum(axis=1))

OBJ = {"init": "object", "step": "object", "net": "object", "model": "object",
       "cfg": "object", "teacher": "object", "results": "object", "schedule": "object"}

ENTRIES: list[Entry] = [
    # -- fourier -----------------------------------------------------------------------------
    Entry("distillation.hypercube", PD.hypercube, dict(d=3), huge=("d",)),
    Entry("distillation.parity", PD.parity, dict(x=[[1, -1, -1], [-1, 1, 1]], support=(0, 1)),
          kinds={"support": "object"}),
    Entry("distillation.fourier_coefficient", PD.fourier_coefficient,
          dict(values=MAJ3, support=(0,), d=3), kinds={"support": "object"}, huge=("d",)),
    Entry("distillation.krawtchouk", PD.krawtchouk, dict(d=3, i=1),
          kinds={"i": "count0"}, huge=("d", "i")),
    Entry("distillation.majority_coefficient", PD.majority_coefficient,
          dict(d=5, i=3, method="krawtchouk"), kinds={"i": "count0"}, huge=("d", "i")),
    Entry("distillation.majority_coefficient(closed_form)", PD.majority_coefficient,
          dict(d=5, i=3, method="closed_form"), kinds={"i": "count0"}, huge=("d", "i")),
    Entry("distillation.majority_spectrum", PD.majority_spectrum, dict(d=5, method="krawtchouk"),
          huge=("d",)),
    Entry("distillation.majority_l1_norm", PD.majority_l1_norm, dict(d=5, method="closed_form"),
          huge=("d",)),
    Entry("distillation.majority_rate_table", PD.majority_rate_table,
          dict(ds=[101], levels=[5], method="closed_form"),
          kinds={"ds": "object", "levels": "object"}),
    Entry("distillation.log10_fraction", PD.log10_fraction, dict(q=Fraction(1, 1000)),
          kinds={"q": "object"}, accept={"q": (3,)}),                 # an int is a rational
    Entry("distillation.barak_gap", PD.barak_gap, dict(d=11, k=4, constant=Fraction(3, 100)),
          kinds={"constant": "pos"}, huge=("d", "k")),
    # -- language ----------------------------------------------------------------------------
    Entry("distillation.mask_sequence", PD.mask_sequence,
          dict(tokens=[0, 1, 2, 1], p=0.5, vocab_size=3, mask_token=3, seed=0),
          kinds={"p": "pos", "vocab_size": "count", "mask_token": "count0"},
          accept={"p": (0.0,)}),                                      # mask nothing
    Entry("distillation.ngram_context", PD.ngram_context,
          dict(i=1, n=3, h=4, indexing=0, include_center=False),
          kinds={"i": "count0", "h": "count", "indexing": "count0"}, accept={"indexing": (-1,)},
          huge=("n", "h")),
    Entry("distillation.total_variation", PD.total_variation,
          dict(p=[0.5, 0.5, 0.0], q=[0.25, 0.25, 0.5]), kinds={"p": "array", "q": "array"}),
    # -- mlp ---------------------------------------------------------------------------------
    Entry("distillation.sigmoid", PD.sigmoid, dict(t=[0.0, 2.0])),
    Entry("distillation.TwoLayerReLU", PD.TwoLayerReLU,
          dict(w=TEACHER.w, b=TEACHER.b, a=TEACHER.a)),
    Entry("distillation.TwoLayerReLU.init", PD.TwoLayerReLU.init, dict(d=4, width=8, seed=0),
          huge=("d", "width")),
    Entry("distillation.TwoLayerReLU.__call__", TEACHER, dict(x=CUBE4[:3])),
    Entry("distillation.TwoLayerReLU.sgd_step", TEACHER.copy().sgd_step,
          dict(x=CUBE4[:3], target=np.array([1.0, 0.0, 1.0]), lr=0.05),
          kinds={"lr": "pos"}),
    Entry("distillation.ParityStream", PD.ParityStream, dict(d=4, seed=0), huge=("d",)),
    Entry("distillation.ParityStream.take", PD.ParityStream(4, 0).take, dict(n=3),
          accept={"n": (0,)}, huge=("n",)),                           # no inputs
    Entry("distillation.Segment", PD.Segment, dict(teacher=TEACHER, until=10, tau=1e-4),
          kinds={"teacher": "object", "until": "count", "tau": "pos"}),
    Entry("distillation.train_online", PD.train_online,
          dict(model=TEACHER.copy(), support=(0, 1), schedule=[PD.Segment(None)], lr=0.05,
               max_steps=20, data_seed=0, batch_size=2, eval_every=10, stop=None, on_eval=None),
          kinds={**OBJ, "support": "object", "lr": "pos", "data_seed": "seed",
                 "eval_every": "count"},
          huge=("max_steps", "batch_size")),
    # -- one step ----------------------------------------------------------------------------
    Entry("distillation.SymmetricInit.draw", PD.SymmetricInit.draw,
          dict(d=7, k=2, m=4, seed=0), kinds={"m": "count"}, huge=("d", "k", "m")),
    Entry("distillation.SymmetricInit", PD.SymmetricInit,
          dict(w=INIT.w, bias_num=INIT.bias_num, a_sign=INIT.a_sign, k=2)),
    Entry("distillation.claim7_gradient", PD.claim7_gradient,
          dict(init=INIT, support=(0, 1), sign=1), kinds={**OBJ, "support": "object"}),
    Entry("distillation.enumerate_activation_correlations",
          PD.enumerate_activation_correlations,
          dict(init=INIT, support=(0, 1), neurons=[0, 1]),
          kinds={**OBJ, "support": "object", "neurons": "object"}),
    Entry("distillation.lemma63_targets", PD.lemma63_targets, dict(init=INIT, support=(0, 1)),
          kinds={**OBJ, "support": "object"}),
    Entry("distillation.first_stage_step", PD.first_stage_step,
          dict(init=INIT, support=(0, 1), batch_size=64, decay="cancel", eta=2.0, seed=0),
          kinds={**OBJ, "support": "object", "eta": "pos"}, huge=("batch_size",)),
    Entry("distillation.first_stage_step(decay)", PD.first_stage_step,
          dict(init=INIT, support=(0, 1), decay=0.05), kinds={**OBJ, "support": "object",
                                                              "decay": "tol"}),
    Entry("distillation.OneStep.deviation_from_targets", STEP.deviation_from_targets, {}),
    # -- correlations ------------------------------------------------------------------------
    Entry("distillation.network_output", PD.network_output,
          dict(step=STEP, x=PD.hypercube(7)[:4]), kinds=OBJ),
    Entry("distillation.pair_correlation", PD.pair_correlation,
          dict(d=13, k=4, bias=Fraction(1, 4), in_support=True),
          kinds={"bias": "real"}, huge=("d", "k")),
    Entry("distillation.exact_degree_one", PD.exact_degree_one, dict(step=STEP), kinds=OBJ),
    Entry("distillation.exhaustive_correlations", PD.exhaustive_correlations, dict(step=STEP),
          kinds=OBJ),
    Entry("distillation.monte_carlo_correlations", PD.monte_carlo_correlations,
          dict(step=STEP, n_samples=100, seed=0), kinds=OBJ, huge=("n_samples",)),
    # -- rates -------------------------------------------------------------------------------
    Entry("distillation.lemma65_first_stage_batch", PD.lemma65_first_stage_batch,
          dict(d=101, k=4, eps=0.1, exponent=-2, extra_d_power=0.0),
          kinds={"eps": "pos", "exponent": "int", "extra_d_power": "real"},
          accept={"exponent": ()}, huge=("d", "k")),
    Entry("distillation.lemma65_second_stage_steps", PD.lemma65_second_stage_steps,
          dict(d=100, k=4, eps=0.5, delta=0.1, width=10.0),
          kinds={"eps": "pos", "delta": "pos", "width": "pos"}, huge=("d", "k")),
    Entry("distillation.lemma65_stated_total", PD.lemma65_stated_total,
          dict(d=10, k=2, eps=0.5, delta=0.1, corollary5=False),
          kinds={"eps": "pos", "delta": "pos"}, huge=("d", "k")),
    Entry("distillation.theorem22_student_width", PD.theorem22_student_width, dict(k=6),
          huge=("k",)),
    Entry("distillation.theorem23_student_width", PD.theorem23_student_width, dict(k=6),
          huge=("k",)),
    Entry("distillation.theorem22_progressive", PD.theorem22_progressive,
          dict(d=100, k=6, eps=0.1), kinds={"eps": "pos"}, huge=("d", "k")),
    Entry("distillation.theorem23_progressive", PD.theorem23_progressive,
          dict(d=100, k=6, eps=0.1, delta=0.1), kinds={"eps": "pos", "delta": "pos"},
          huge=("d", "k")),
    Entry("distillation.theorem23_one_shot", PD.theorem23_one_shot,
          dict(d=100, k=6, c=1.0, per_width=False), kinds={"c": "pos"}, huge=("d", "k")),
    Entry("distillation.lemma66_step_bound", PD.lemma66_step_bound,
          dict(d=100, k=6, delta=0.1, tau_g=0.1, width=100),
          kinds={"delta": "pos", "tau_g": "pos", "width": "count"}, huge=("d", "k", "width")),
    Entry("distillation.samples_for_steps", PD.samples_for_steps,
          dict(steps=8000, batch_size=512), kinds={"steps": "count0"},
          huge=("steps", "batch_size")),
    # -- constructions -----------------------------------------------------------------------
    Entry("distillation.interpolation_mlp_1d", PD.interpolation_mlp_1d,
          dict(points=[0.0, 0.5, 1.0], values=[1.0, -1.0, 1.0])),
    Entry("distillation.interpolation_mlp", PD.interpolation_mlp,
          dict(points=[[0, 0], [0, 1], [1, 0], [1, 1]], values=[1.0, -1.0, -1.0, 1.0],
               second_bias="corrected")),
    Entry("distillation.ReluMLP", PD.ReluMLP, dict(weights=MLP.weights, biases=MLP.biases),
          kinds={"weights": "object", "biases": "object"}),
    Entry("distillation.ReluMLP.__call__", MLP, dict(x=[[0.0], [0.5]])),
    Entry("distillation.prop9_min_scale", PD.prop9_min_scale, dict(d=6, k=3), huge=("d", "k")),
    Entry("distillation.proposition9_network", PD.proposition9_network,
          dict(d=6, support=(0, 2, 3), scale=4.0, embedding="query"),
          kinds={"support": "object", "scale": "pos"}, huge=("d",)),
    Entry("distillation.proposition10_network", PD.proposition10_network,
          dict(d=4, support=(1, 2), embedding="one_hot", second_bias="corrected"),
          kinds={"support": "object"}, huge=("d",)),
    Entry("distillation.ParityTransformer.predict", NET9.predict,
          dict(z=[[0, 1, 0, 1, 1, 0]])),
    Entry("distillation.ParityTransformer.attention_output", NET10.attention_output,
          dict(z=[[0, 1, 0, 1]])),
    Entry("distillation.verify_on_all_inputs", PD.verify_on_all_inputs, dict(net=NET9),
          kinds=OBJ),
    Entry("distillation.best_readout_accuracy", PD.best_readout_accuracy,
          dict(features=[[0], [0], [1], [1]], labels=[1, -1, 1, 1], decimals=9),
          kinds={"decimals": "count0"}),
    # -- experiment --------------------------------------------------------------------------
    Entry("distillation.DistillationConfig", PD.DistillationConfig,
          dict(d=4, k=2, teacher_width=16, student_width=8, lr=0.05, batch_size=1,
               max_steps=3000, checkpoint_every=50, eval_every=50, test_size=16,
               exit_fraction=0.85, switch_step=None, progressive_tau=1e-4,
               one_shot_taus=(1.0, 1e-4)),
          kinds={"lr": "pos", "exit_fraction": "pos", "progressive_tau": "pos",
                 "one_shot_taus": "object"}),
    Entry("distillation.train_teacher", PD.train_teacher,
          dict(cfg=CONFIG, init_seed=np.random.default_rng(0),
               data_seed=np.random.default_rng(1), test=TEST4),
          kinds={**OBJ, "init_seed": "seed", "data_seed": "seed", "test": "object"}),
    Entry("distillation.run_progressive_distillation", PD.run_progressive_distillation,
          dict(cfg=CONFIG, seeds=[0]), kinds={**OBJ, "seeds": "object"}),
    Entry("distillation.summarize", PD.summarize, dict(results=RESULTS, max_steps=3000),
          kinds={**OBJ, "results": "object"}),
    Entry("distillation.TeacherRun.plateau_exit", RUN.plateau_exit, dict(fraction=0.85),
          kinds={"fraction": "pos"}),
]
