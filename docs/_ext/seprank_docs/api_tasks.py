"""The API reference's first page: the public entry points grouped by what a researcher wants
to do (as tensorly's API page), each linking to its reference; the module tree follows.

:data:`TASKS` is the curated list; :func:`task_sections` checks that every name still exists
(a renamed function fails the build instead of leaving a dead entry) and writes the tables,
each row the name (a cross-reference) and the first sentence of its docstring.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

#: (task, what it is for, dotted names).  Names as a user imports them.
TASKS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Ranks and certificates",
     "Ranks that say what they certify, separation ranks of grid tensors, and certificates "
     "a stranger re-checks with the standard-library checker.",
     ("seprank.matrix_rank", "seprank.rank_mod_p", "seprank.eps_rank", "seprank.RankResult",
      "seprank.separation_rank", "seprank.SeparationRankResult", "seprank.grid_tensor",
      "seprank.matricize", "seprank.certificates.certify", "seprank.certificates.verify",
      "seprank.certificates.save_certificate", "seprank.certificates.load_certificate",
      "seprank.set_memory_limit")),
    ("Attention and in-context learning",
     "Linearized self-attention, its separation ranks and the bounds of the depth-to-width "
     "and in-context papers (003, 000/001).",
     ("seprank.LinearAttention", "seprank.d2w.theorem1_upper", "seprank.d2w.theorem1_lower",
      "seprank.d2w.theorem3_upper", "seprank.optimal_depth", "seprank.fit_transition_widths",
      "seprank.LanguageModel", "seprank.incontext_seq_sep", "seprank.sequential_seq_sep",
      "seprank.grid_spectrum", "seprank.in_context_coverage",
      "seprank.incontext.theorem3_bound")),
    ("Circuits",
     "Arithmetic circuits of architectures (attention, MLPs, state-space models, RACs), "
     "evaluated exactly and handed to the rank engine.",
     ("seprank.circuits.Circuit", "seprank.circuits.CircuitBuilder",
      "seprank.circuits.from_linear_attention", "seprank.circuits.from_incontext",
      "seprank.circuits.polynomial_mlp", "seprank.circuits.linear_ssm", "seprank.circuits.rac",
      "seprank.circuits.shallow_cac", "seprank.circuits.deep_cac",
      "seprank.circuits.from_json")),
    ("Automata",
     "Semiautomata, their transformation semigroups and the Transformer constructions of "
     "the thesis' chapter 3 (004).",
     ("seprank.automata.flip_flop", "seprank.automata.dyck", "seprank.automata.modular_counter",
      "seprank.automata.cascade_product", "seprank.automata.monoid_census",
      "seprank.automata.cut_separation_rank", "seprank.automata.theorem12_network",
      "seprank.automata.balanced_construction", "seprank.automata.algorithm1",
      "seprank.automata.footnote17")),
    ("HMM identifiability and estimation",
     "Masked prediction for HMMs and Gaussian HMMs (004, chapter 2): identifiability, exact "
     "recovery, estimation from samples.",
     ("identifiability.HMM", "identifiability.GaussianHMM", "identifiability.identifiable",
      "identifiability.optimal_predictor", "identifiability.recover_hmm",
      "identifiability.recover_ghmm", "identifiability.estimate_hmm",
      "identifiability.estimate_ghmm", "identifiability.refine_em",
      "identifiability.kruskal_condition", "identifiability.kruskal_rank",
      "identifiability.check_assumptions", "identifiability.match_permutation",
      "identifiability.jennrich")),
    ("Contrastive learning and NCE",
     "Contrastive estimation of transition kernels and the NCE / eNCE landscape (004, "
     "chapters 2 and 4).",
     ("identifiability.contrastive.make_contrastive_task",
      "identifiability.contrastive.fit_gaussian_kernel",
      "identifiability.contrastive.kernel_from_classifier",
      "identifiability.contrastive.theorem2_chain", "identifiability.contrastive.theorem3_chain",
      "identifiability.contrastive.OrnsteinUhlenbeck",
      "identifiability.contrastive.FiniteStateChain", "identifiability.contrastive.fit_ou_mle",
      "identifiability.nce.GaussianMeanNCE", "identifiability.nce.run_gradient_method",
      "identifiability.nce.bhattacharyya_coefficient")),
    ("In-context learning (nonlinear Transformers)",
     "Training and out-of-domain conditions of one-layer Transformers on pattern tasks "
     "(002).",
     ("identifiability.icl.train", "identifiability.icl.evaluate",
      "identifiability.icl.sample_prompts", "identifiability.icl.all_tasks",
      "identifiability.icl.theorem34_conditions",
      "identifiability.icl.attention_concentration", "identifiability.icl.pruning_curve",
      "identifiability.icl.baseline_error")),
    ("Progressive distillation",
     "Sparse parity and majority, teachers, students and the sample-complexity statements "
     "of the thesis' chapter 4 (004).",
     ("identifiability.distillation.run_progressive_distillation",
      "identifiability.distillation.train_teacher",
      "identifiability.distillation.proposition9_network",
      "identifiability.distillation.proposition10_network",
      "identifiability.distillation.majority_rate_table",
      "identifiability.distillation.barak_gap",
      "identifiability.distillation.theorem22_progressive",
      "identifiability.distillation.theorem23_one_shot")),
    ("Paper checks",
     "Register the printed statements of a paper, run them, defend and publish their "
     "verdicts (also for your own paper).",
     ("paper_checks.claim", "paper_checks.ClaimResult", "paper_checks.Perturbed",
      "paper_checks.Defence", "paper_checks.judge", "paper_checks.select",
      "paper_checks.run_claims", "paper_checks.run_claims_parallel",
      "paper_checks.scratch_registry", "paper_checks.sphinx")),
)


#: What :func:`lookup_dotted` returns when no importable module has the rest as attributes.
MISSING: Any = object()


def lookup_dotted(dotted: str, *, module_itself: bool) -> Any:
    """The object ``dotted`` names as an attribute path below its longest importable module.

    The modules tried are the prefixes of ``dotted``, longest first: the whole name itself
    when ``module_itself`` is true, else from the name without its last part (so that
    ``seprank.certificates.verify`` is the function the package exports, not the module of the
    same name).  The first prefix that imports decides: the rest is looked up as attributes
    of it.

    Parameters
    ----------
    dotted : str
        A dotted name, e.g. ``"seprank.matrix_rank"``.
    module_itself : bool
        Whether the whole name may be a module.

    Returns
    -------
    object
        The object, or :data:`MISSING` when no prefix imports or the first that does lacks
        the attributes.
    """
    parts = dotted.split(".")
    for i in range(len(parts) if module_itself else len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return MISSING
        return obj
    return MISSING


def _find(dotted: str) -> Any:
    """The object a dotted name names: an attribute of the longest importable module before
    it (:func:`lookup_dotted`), else the module itself."""
    obj = lookup_dotted(dotted, module_itself=False)
    if obj is not MISSING:
        return obj
    return importlib.import_module(dotted)  # ImportError: the name is gone


#: The end of a first sentence: a full stop before a capital, not after an abbreviation.
_SENTENCE_END = re.compile(r"(?<!\beq)(?<!\bApp)(?<!\bw\.r\.t)(?<!\be\.g)(?<!\bi\.e)"
                           r"(?<!\bcf)(?<!\bal)(?<!\bThm)(?<!\bSec)(?<!\bFig)(?<!\bvs)"
                           r"\.\s+(?=[A-Z(])")


def first_sentence(obj: Any, escape: Any) -> str:
    """The first sentence of ``obj``'s docstring as reST: as written (its ``:math:`` and
    cross-reference roles render) when it is whole, escaped plain text when it had to be cut
    (at 240 characters) or its markup does not close."""
    doc = (getattr(obj, "__doc__", None) or "").strip().split("\n\n")[0]
    line = " ".join(doc.split())
    end = _SENTENCE_END.search(line)
    text = line[: end.start() + 1] if end else line
    if len(text) <= 240 and text.count("`") % 2 == 0 and not text.rstrip().endswith((",", ":")):
        return text
    plain = re.sub(r":[\w:]+:`~?([^`<]+?)(?: <[^`]*>)?`", r"\1", text).replace("``", "")
    return escape(plain if len(plain) <= 240 else plain[:240].rsplit(" ", 1)[0] + " ...")


def task_sections(escape: Any, heading: Any) -> list[str]:
    """reST for :data:`TASKS`: one section per task, a two-column table per section.

    ``escape`` and ``heading`` are :func:`seprank_docs.pages.rst_escape` and ``heading``.
    (A role naming its target relative to its own module, ``:func:`save_certificate```,
    shows as text here; its API page links it.)
    """
    out, missing = [], []
    for task, blurb, names in TASKS:
        rows = []
        for name in names:
            try:
                obj = _find(name)
            except (ImportError, AttributeError):
                missing.append(name)
                continue
            role = "mod" if type(obj).__name__ == "module" else "obj"
            rows += [f"   * - :py:{role}:`{name}`", f"     - {first_sentence(obj, escape) or ' '}"]
        out += [heading(task, "-"), escape(blurb), "", ".. list-table::", "   :widths: 35 65",
                "", *rows, ""]
    if missing:
        raise AttributeError(f"the API page by task names what no longer exists: {missing} "
                             "(docs/_ext/seprank_docs/api_tasks.py)")
    return out
