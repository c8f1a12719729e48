"""In-context bias (000): the experiment tables (Sec. 3.1, App. F) and the kNN example
design (Sec. 3).  The table checks recompute the printed averages and comparisons from the printed
rows; the kNN check is a consistency check of the toolkit's data logic.
"""

from __future__ import annotations

from paper_checks.claims.incontext.common import PARAMETERS
from paper_checks.compare import ratio_result, tolerance_result
from paper_checks.perturbation import Perturbed
from paper_checks.registry import ClaimResult, Independent, Margin, claim, judge
from seprank.incontext.pretraining import (
    contiguous_examples,
    in_context_coverage,
    knn_examples,
    synthetic_corpus,
)

# Table 1 of paper 000 (Sec. 3.1): rows STS12..SICK-R and the printed average
TABLE1: dict[str, tuple[tuple[float, ...], float]] = PARAMETERS.value("table1_rows")


@claim(id="ICB-Table1-averages", basis="numeric", paper="000", reference="Table 1 (Sec. 3.1)",
       statement="The Avg. column of Table 1 is the mean of the seven task scores",
       perturbation=Perturbed("every printed average raised by 0.1 (one unit of its last "
                              "digit)", average_shift=0.1))
def icb_table1_averages(average_shift: float = 0.0) -> ClaimResult:
    means = {k: sum(v) / len(v) for k, (v, _) in TABLE1.items()}
    ok = all(round(means[k] + 1e-9, 1) == round(avg + average_shift, 1)
             for k, (_, avg) in TABLE1.items())
    margin = Margin.tightest(Margin.tolerance(means[k], avg + average_shift, 0.05,
                                              what="mean within rounding of the printed Avg.")
                             for k, (_, avg) in TABLE1.items())
    return ClaimResult(measured={k: round(m, 2) for k, m in means.items()},
                       reference_value={k: a for k, (_, a) in TABLE1.items()},
                       verdict=judge(ok), margin=margin, details={"rounding": "to one decimal"})


@claim(id="ICB-Table1-text", basis="exact", paper="000", reference="Sec. 3.1, text on Table 1",
       statement="kNN-TAPT (neighbors, in-context) beats TAPT by over 1 point on average; the "
       "in-batch variants are below TAPT; TAPT is best on STS15",
       perturbation=Perturbed("by over 2 points (the next integer)", points=2.0))
def icb_table1_text(points: float = 1.0) -> ClaimResult:
    def mean(name: str) -> float:
        v = TABLE1[name][0]
        return sum(v) / len(v)

    gap = mean("kNN-TAPT (neighbors, in-context)") - mean("TAPT")
    in_batch = [mean(k) < mean("TAPT") for k in TABLE1 if "in-batch" in k]
    sts15 = max(TABLE1, key=lambda k: TABLE1[k][0][3])
    ok = gap > points and all(in_batch) and sts15 == "TAPT"
    return ratio_result(gap, points, what=f"gap / {points:g} point(s)", upper=False, holds=ok,
                        measured={"gap (from rows)": round(gap, 3), "best on STS15": sts15},
                        reference_value=f"> {points:g}",
                        details={"in-batch below TAPT": in_batch,
                                 "printed averages gap": round(61.0 - 59.8, 2)})


@claim(id="ICB-Table3", basis="exact", paper="000", reference="Table 3 (App. F)",
       statement="kNN-Pretraining beats the maximum of 3 baselines on MNLI, RTE and WNLI",
       perturbation=Perturbed("beats it by at least 1 point on each task (the next integer)",
                              lead=1.0))
def icb_table3(lead: float = 0.0) -> ClaimResult:
    scores = PARAMETERS.value("table3_scores")
    best, knn = scores["best of 3 baselines"], scores["kNN-Pretraining"]
    return ClaimResult(measured=knn, reference_value=best,
                       verdict=judge(all(k - b > lead for k, b in zip(knn, best, strict=True))),
                       margin=Margin.tightest(Margin.ratio(k, b + lead, what="score / (best "
                                                           "baseline + lead)", upper=False)
                                              for k, b in zip(knn, best, strict=True)),
                       details={"margins": [round(k - b, 1) for k, b in zip(knn, best,
                                                                           strict=True)]})


@claim(id="ICB-kNN-coverage", paper="000", reference="Sec. 3 (kNN example design)",
       basis="not_refuted", universal=True,
       statement="Building examples from a sentence and its embedding-space neighbours places "
       "related sentences in the same context, which contiguous chunking of the same data "
       "does not when related sentences lie far apart", category="consistency")
def icb_knn_coverage() -> ClaimResult:
    """Consistency: the synthetic corpus places related sentences 40 positions apart, so
    contiguous chunking cannot co-locate them and the kNN partition does by construction."""
    corpus = synthetic_corpus(40, 25, 32, seed=0)
    n = corpus.embeddings.shape[0]
    length = PARAMETERS.value("example_length")          # Sec. 3.2: maximal size 256
    contiguous = contiguous_examples(n, example_length=length, lengths=corpus.lengths,
                                     separator_length=1)
    knn = knn_examples(corpus.embeddings, k=10, example_length=length, seed=1,
                       lengths=corpus.lengths, separator_length=1)
    c_cont = in_context_coverage(contiguous, corpus.related_pairs)
    c_knn = in_context_coverage(knn, corpus.related_pairs)
    same_data = sorted(s for e in knn for s in e) == list(range(n))
    return ClaimResult(
        measured={"contiguous": round(c_cont, 3), "kNN partition": round(c_knn, 3)},
        reference_value="kNN > contiguous",
        verdict=judge(c_knn > c_cont and same_data),
        details={"corpus": "40 topics x 25 sentences, interleaved (related = same topic, 40 "
                 "positions apart), 8-40 tokens, 256-token examples, 1 separator token",
                 "same data": same_data, "examples": (len(contiguous), len(knn)),
                 "illustrative": "checks the data logic, not the paper's QA/STS gains"},
    )



@claim(id="ICB-step-counts", basis="exact",
       paper="000", reference="Fig. 1 caption and Sec. 1 text, Sec. 3.2, "
       "App. F (the same in 001 except App. F, which 001 lacks); App. E Table 2 read apart",
       statement="A 10% addition of kNN-Pretraining (20K steps after 200K regular steps, "
       "'roughly 10% of the overall training time') boosts zero-shot QA",
       perturbation=Perturbed("the 345M kNN phase read as App. E's '200+10' (10K steps): a 10% "
                              "addition of 10K steps after 200K", knn_steps=10))
def icb_step_counts(knn_steps: int = PARAMETERS.value("knn_steps_k")) -> ClaimResult:
    """Re-graded (2026-11 audit): App. E's Table 2 is a separate experiment ("kNN-Pretraining at
    different checkpoints", 40K kNN steps for 110M, 10K for 345M); nothing identifies its 345M
    "200+10" row with Fig. 1's runs, whereas App. F says its 200K + 20K models are "the same
    models used in figure 1".  So the printed 10 % is checked against Fig. 1's own step counts.
    """
    regular = PARAMETERS.value("regular_steps_k")
    addition = PARAMETERS.value("knn_addition")
    of_regular = knn_steps / regular
    of_all = knn_steps / (regular + knn_steps)
    # '10%' and 'roughly 10%' read to the printed precision: within half a percentage point
    # of the regular time, and to one significant figure of the overall time
    ok = abs(of_regular - addition) <= 0.005 and round(of_all, 1) == addition
    appendix_e = PARAMETERS.value("appendix_e_steps")
    return tolerance_result(
        of_regular, addition, 0.005, what="kNN steps / regular steps within half a percentage "
        "point of 10 %", holds=ok,
        measured={"kNN / regular": round(of_regular, 4), "kNN / all": round(of_all, 4)},
        reference_value={"kNN / regular": addition, "kNN / all": "roughly 10 %"},
        independent=Independent("the step arithmetic by hand", {"20/200": 0.1, "20/220": 0.0909},
                                20 / 200 == 0.1 and round(20 / 220, 4) == 0.0909),
        details={"steps (thousands)": {"regular": regular, "kNN": knn_steps},
                 "App. E, Table 2 (000 and 001)": appendix_e,
                 "why App. E is read apart": "App. E varies the checkpoint (200K, 400K) and the "
                 "model size with its own kNN lengths (40K for 110M, 10K for 345M) and never "
                 "says its runs are Fig. 1's; App. F (000) says its 200K + 20K models are 'the "
                 "same models used in figure 1'. Its 345M '200+10' (a 5 % addition) is another "
                 "configuration, not a contradiction of Fig. 1",
                 "000 vs 001": "both versions print Fig. 1, Sec. 1 and App. E identically; App. F "
                               "is in 000 only",
                 "also": "half of each kNN-Pretraining batch is regular data (Sec. 3.2), so 20K "
                         "mixed steps carry about 10K steps' worth of kNN examples (noted by the "
                         "independent reviewer; not needed for the verdict)",
                 "was": "erratum (typo) until the 2026-11 audit: Table 2's 200+10 read as Fig. "
                        "1's run"})
