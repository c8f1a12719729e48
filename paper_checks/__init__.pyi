"""Type stub of :mod:`paper_checks`: the names its face loads on demand (``lazy_loader``;
each module's ``__all__``, written once -- tests/checks/test_framework.py keeps it in step)."""

from .defence import (
    ASPECT_TITLES as ASPECT_TITLES,
)
from .defence import (
    ASPECTS as ASPECTS,
)
from .defence import (
    Attack as Attack,
)
from .defence import (
    AttackOutcome as AttackOutcome,
)
from .defence import (
    Defence as Defence,
)
from .evidence import (
    BASES as BASES,
)
from .evidence import (
    BASIS_MEANING as BASIS_MEANING,
)
from .evidence import (
    RELATIONS as RELATIONS,
)
from .evidence import (
    Basis as Basis,
)
from .evidence import (
    Proves as Proves,
)
from .evidence import (
    check_evidence as check_evidence,
)
from .evidence import (
    requirement_problems as requirement_problems,
)
from .papers import (
    ENTRY_POINT_GROUP as ENTRY_POINT_GROUP,
)
from .papers import (
    Paper as Paper,
)
from .papers import (
    PluginFailure as PluginFailure,
)
from .papers import (
    entry_point_keys as entry_point_keys,
)
from .papers import (
    load_papers as load_papers,
)
from .papers import (
    paper_origin as paper_origin,
)
from .papers import (
    plugin_failures as plugin_failures,
)
from .papers import (
    register_paper as register_paper,
)
from .papers import (
    registered_papers as registered_papers,
)
from .papers import (
    unregister_paper as unregister_paper,
)
from .parameters import (
    Printed as Printed,
)
from .parameters import (
    PrintedParameters as PrintedParameters,
)
from .perturbation import (
    Perturbed as Perturbed,
)
from .registry import (
    KINDS as KINDS,
)
from .registry import (
    PAPERS as PAPERS,
)
from .registry import (
    STRICT_LEDGER as STRICT_LEDGER,
)
from .registry import (
    VERDICTS as VERDICTS,
)
from .registry import (
    WEAK_SLACK_LOG10 as WEAK_SLACK_LOG10,
)
from .registry import (
    Category as Category,
)
from .registry import (
    Claim as Claim,
)
from .registry import (
    ClaimResult as ClaimResult,
)
from .registry import (
    Independent as Independent,
)
from .registry import (
    Kind as Kind,
)
from .registry import (
    Margin as Margin,
)
from .registry import (
    Profile as Profile,
)
from .registry import (
    Verdict as Verdict,
)
from .registry import (
    all_claims as all_claims,
)
from .registry import (
    check_signature as check_signature,
)
from .registry import (
    claim as claim,
)
from .registry import (
    claim_quick_full as claim_quick_full,
)
from .registry import (
    function_name as function_name,
)
from .registry import (
    get_claim as get_claim,
)
from .registry import (
    import_claim_modules as import_claim_modules,
)
from .registry import (
    judge as judge,
)
from .registry import (
    load_all as load_all,
)
from .registry import (
    ref_matches as ref_matches,
)
from .registry import (
    register_check as register_check,
)
from .registry import (
    scratch_registry as scratch_registry,
)
from .registry import (
    select as select,
)
from .runner import (
    ClaimOutcome as ClaimOutcome,
)
from .runner import (
    run_claim as run_claim,
)
from .runner import (
    run_claims as run_claims,
)
from .runner import (
    run_claims_parallel as run_claims_parallel,
)
