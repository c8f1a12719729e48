"""The truth ledger's rules (issue 23): perturbed statements are fixed before the measurement,
conventions are notes (not errata), every accusation carries its defence and the independent
attack on it, and checks read their paper's printed parameters from one table.

The per-claim tests are parametrised by claim id, so a claim that breaks a rule is named.
"""

from __future__ import annotations

import ast
import importlib
import pathlib
import pkgutil
from fractions import Fraction

import pytest

import paper_checks.claims as claims_pkg
from paper_checks.defence import ASPECTS, Attack, Defence
from paper_checks.ledger import ClaimResult, Independent, perturbed_run
from paper_checks.parameters import Printed, PrintedParameters
from paper_checks.perturbation import Perturbed
from paper_checks.registry import all_claims, claim, get_claim, register_check, scratch_registry
from paper_checks.runner import run_claim

AGREE = Independent("by hand", 1, True)
CLAIMS = all_claims()
ACCUSED = [c for c in CLAIMS if c.expected_verdict in ("erratum", "fails", "unproven", "note")]


# -- perturbations written before the measurement -------------------------------------------------

def test_a_perturbed_statement_is_data_not_a_function_of_the_measurement() -> None:
    with pytest.raises(TypeError, match="plain data"):
        Perturbed("the bound at the measured rank / 1.01", bound=lambda rank: rank / 1.01)
    with pytest.raises(TypeError, match="plain data"):
        Perturbed("a list can be filled in later", bound=[1.0])
    with pytest.raises(ValueError, match="changes no statement parameter"):
        Perturbed("nothing changed")
    p = Perturbed("the exponent 1/2 replaced by 1/3", exponent=Fraction(1, 3), strict=True)
    assert dict(p.overrides) == {"exponent": Fraction(1, 3), "strict": True}


def test_the_registry_refuses_a_perturbation_the_check_could_compute_from_its_measurement(
) -> None:
    """A check with a perturbed= flag could build its perturbed statement from the measured
    value; with a Perturbed statement it gets only the overridden statement parameters."""
    with scratch_registry():
        with pytest.raises(ValueError, match="not a perturbed= flag"):
            @claim(id="EX-flag", paper="003", reference="-", statement="x <= 2",
                   perturbation=Perturbed("x <= 1", bound=1))
            def flagged(bound: float = 2, perturbed: bool = False) -> ClaimResult:
                raise AssertionError("never run")
        with pytest.raises(ValueError, match="not a statement parameter"):
            @claim(id="EX-slack", paper="003", reference="-", statement="x <= 2",
                   perturbation=Perturbed("x <= measured / 1.01", slack=1.01))
            def slack(bound: float = 2) -> ClaimResult:
                raise AssertionError("never run")
        with pytest.raises(ValueError, match="not a statement parameter"):
            register_check(lambda bound: ClaimResult(1, bound, "holds"), id="EX-nodefault",
                           paper="003", reference="-", statement="x <= 2",
                           perturbation=Perturbed("x <= 1", bound=1))


def test_the_perturbed_run_calls_the_check_with_the_registered_overrides() -> None:
    seen: list[float] = []
    with scratch_registry():
        @claim(id="EX-power", paper="003", reference="-", statement="1.5 <= 2",
               perturbation=Perturbed("1.5 <= 1 (the next constant)", bound=1.0))
        def power(bound: float = 2.0) -> ClaimResult:
            seen.append(bound)
            return ClaimResult(1.5, bound, "holds" if bound >= 1.5 else "fails")

        c = get_claim("EX-power")
        assert c.run().verdict == "holds" and c.run(perturbed=True).verdict == "fails"
        outcome = run_claim(c)
        assert outcome.has_power is True and outcome.perturbed_result is not None
        assert outcome.perturbed_result.reference_value == 1.0
    assert seen == [2.0, 1.0, 2.0, 1.0]


@pytest.mark.parametrize("c", CLAIMS, ids=[c.id for c in CLAIMS])
def test_no_claim_perturbs_its_statement_from_the_inside(c) -> None:  # type: ignore[no-untyped-def]
    """Every perturbation is a Perturbed statement fixed at registration (issue 23)."""
    assert c.perturbation is None or isinstance(c.perturbation, Perturbed), (
        f"{c.id}: perturbation {c.perturbation!r} is text with a perturbed= flag; write it as "
        "Perturbed(description, **statement parameters)")


# -- notes are not errata -------------------------------------------------------------------------

def test_a_convention_is_a_note_not_an_erratum() -> None:
    printed = {"printed": "p", "corrected": "c", "reading": "r"}
    with pytest.raises(ValueError, match="goes with verdict 'note'"):
        ClaimResult(1, 2, "erratum", printed, kind="convention", independent=AGREE)
    with pytest.raises(ValueError, match="goes with verdict 'note'"):
        ClaimResult(1, 2, "note", printed, kind="typo", independent=AGREE)
    with pytest.raises(ValueError, match="reading"):
        ClaimResult(1, 2, "note", {"printed": "p"}, kind="notation", independent=AGREE)
    with pytest.raises(ValueError, match="independent"):
        ClaimResult(1, 2, "note", printed, kind="notation")
    assert ClaimResult(1, 2, "note", printed, kind="notation", independent=AGREE).verdict == "note"
    with perturbed_run():
        assert ClaimResult(1, 2, "note", printed, kind="convention").kind == "convention"


# -- defences -------------------------------------------------------------------------------------

def _defence(**over: object) -> Defence:
    base: dict[str, object] = {a: f"the {a} reading does not apply" for a in ASPECTS}
    base.update(over)
    return Defence(**base)  # type: ignore[arg-type]


def test_a_defence_answers_every_reading() -> None:
    with pytest.raises(ValueError, match="extraction"):
        _defence(extraction="  ")
    with pytest.raises(ValueError, match="ISO date"):
        Attack("reviewer", "25/11/2026", "upheld", "x")
    with pytest.raises(ValueError, match="outcome"):
        Attack("reviewer", "2026-11-25", "agreed", "x")  # type: ignore[arg-type]
    d = _defence(attack=Attack("reviewer", "2026-11-25", "upheld", "recomputed it"))
    assert [a for a, _ in d.items()] == list(ASPECTS)
    assert d.as_dict()["attack"] == {"reviewer": "reviewer", "date": "2026-11-25",
                                     "outcome": "upheld", "summary": "recomputed it"}


@pytest.mark.parametrize("c", ACCUSED, ids=[c.id for c in ACCUSED])
def test_every_accusation_carries_its_defence_and_the_attack_on_it(c) -> None:  # type: ignore[no-untyped-def]
    """A printed statement called wrong (or a note) records the readings under which it would
    be right, and what an independent reviewer who saw only the document and the verdict said."""
    assert c.defence is not None, f"{c.id} ({c.expected_verdict}) registers no defence="
    assert c.defence.attack is not None, f"{c.id}: the independent attack is not recorded"
    assert c.defence.attack.outcome != "overturned" or c.expected_verdict == "note", (
        f"{c.id}: an overturned accusation cannot stay {c.expected_verdict!r}")


# -- printed parameters ---------------------------------------------------------------------------

def test_printed_parameters_say_where_and_record_a_departure() -> None:
    table = PrintedParameters("002", K_prime=Printed(5.0, "§5", names=("kprime",)))
    assert table.value("K_prime") == 5.0
    assert table.identifiers() == {"K_prime": "K_prime", "kprime": "K_prime"}
    with pytest.raises(ValueError, match="reason"):
        table.deviate("K_prime", 0.5, why=" ")
    with pytest.raises(KeyError, match="prints no parameter"):
        table.value("eta")


def _tables() -> list[tuple[str, PrintedParameters]]:
    found = []
    for info in pkgutil.iter_modules(claims_pkg.__path__):
        if not info.ispkg:
            continue
        try:
            common = importlib.import_module(f"{claims_pkg.__name__}.{info.name}.common")
        except ModuleNotFoundError:
            continue
        table = getattr(common, "PARAMETERS", None)
        if isinstance(table, PrintedParameters):
            found.append((info.name, table))
    return found


TABLES = _tables()


@pytest.mark.parametrize("folder,table", TABLES, ids=[f for f, _ in TABLES])
def test_no_claim_writes_a_printed_parameter_by_hand(folder: str,
                                                     table: PrintedParameters) -> None:
    """Claims read a tabled parameter from the folder's PARAMETERS (value or deviate), never a
    literal of their own: ``train(K_prime=0.5)`` or ``K_prime = 0.5`` is refused."""
    names = table.identifiers()
    root = pathlib.Path(claims_pkg.__path__[0]) / folder
    offences = []
    for path in sorted(root.glob("*.py")):
        if path.name == "common.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg in names and isinstance(
                    node.value, ast.Constant):
                offences.append(f"{path.name}:{node.value.lineno} {node.arg}={node.value.value!r}")
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id in names:
                        offences.append(f"{path.name}:{node.lineno} {target.id} = "
                                        f"{node.value.value!r}")
    assert not offences, f"printed parameters written by hand in claims/{folder}: {offences}"


# -- the extraction rule (issue 33) ---------------------------------------------------------------

def test_the_extraction_rule_is_written_in_the_ledger() -> None:
    import paper_checks.ledger as ledger

    doc = ledger.__doc__ or ""
    assert "The extraction rule" in doc and "only if the extracted reading is" in doc
    assert "non-accusing record" in doc


def test_no_defence_treats_the_extracted_text_as_what_the_reader_sees() -> None:
    """The thesis's reader sees the typeset page: a defence may not argue that an extraction
    slip is an erratum because the extracted text 'reaches the reader', nor that a slip is a
    typo 'either way' whether the author or the extractor made it."""
    from paper_checks.registry import all_claims

    for c in all_claims():
        if c.defence is None:
            continue
        text = c.defence.extraction.lower()
        assert "reaches the reader" not in text, c.id
        assert "either way a typo" not in text, c.id


@pytest.mark.parametrize("claim_id", ["NCE-Lem51", "PD-Lem65-batch"])
def test_an_uncorroborated_or_self_corrected_glyph_is_a_non_accusing_record(claim_id: str) -> None:
    """The intended statement is checked (holds), the glyph reading is the registered
    perturbation and is refuted, and the record says why it does not accuse."""
    from paper_checks.registry import get_claim

    c = get_claim(claim_id)
    result = c.run()
    assert c.expected_verdict == result.verdict == "holds"
    assert "extraction" in result.details
    assert c.perturbable and c.run(perturbed=True).verdict != "holds"
