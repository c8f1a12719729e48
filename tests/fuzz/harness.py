"""The fuzz harness: valid calls (a catalogue), automatic bad variants, and a verdict per probe.

An :class:`Entry` is one public callable with one *valid* call (its keyword arguments).  For
every argument, :func:`bad_variants` derives invalid values from the argument's *kind* (inferred
from its name and valid value, or declared): counts get 0, -1, 2.5, "3", True and numpy's
True (a bool is not a count); flags get the truthy strings "yes" and "no"; positive
numbers 0, -1, NaN, inf and "1.0"; tolerances -1 and NaN; seeds -1, 1.5, "abc" and True;
choices an unknown string; arrays a string and a NaN entry; models and callables an object of
the wrong kind.  :func:`probe` runs one call under a time limit and classifies it:

=============  =====================================================================
``clear``      ValueError / TypeError (or a subclass) whose message names the argument
``raw``        another exception, or one whose message does not name the argument
``accepted``   the invalid value was accepted (no error): a silent wrong answer
``hang``       no answer within the time limit
=============  =====================================================================
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tests.deadlines import Overran, cpu_deadline

COUNT_NAMES = {
    "depth", "width", "heads", "n_inputs", "dim", "k", "d", "n", "rank", "power", "vocab",
    "n_tokens", "n_steps", "n_obs", "n_sequences", "n_points", "n_templates", "n_primes",
    "n_nodes", "n_restarts", "n_check_points", "n_topics", "per_topic", "example_length",
    "n_sentences", "probes", "patience", "max_iter", "n_iter_max", "max_subsets", "K", "M",
    "lam", "n_rows", "max_templates", "max_rounds", "chunk_points", "bits", "t",
    "max_beta2", "depth_deep", "width_deep", "depth_ratio", "n_params_int", "min_length",
    "max_length", "total", "spread", "omega", "p",
}
COUNT0_NAMES = {"position", "coordinate", "output_position", "output_coordinate",
                "separator_length",
                "containing", "input_sep", "upper_bound", "given"}
TOL_NAMES = {"atol", "rtol", "tol", "gtol", "rank_rtol", "symmetry_rtol", "l2_penalty"}
POS_NAMES = {"eta", "step", "horizon", "max_substep", "max_seconds", "variance", "noise",
             "s", "n_params", "R", "concentration", "transition_scale"}
SEED_NAMES = {"seed"}

BAD: dict[str, list[Any]] = {
    "count": [0, -1, 2.5, "3", True, np.True_],
    "count0": [-1, 2.5, "3", True, np.True_],
    "int": [2.5, "3", True, np.True_],
    "pos": [0.0, -1.0, math.nan, math.inf, "1.0", True],
    "real": [math.nan, "1.0", True],
    "tol": [-1.0, math.nan, "1e-8", True],
    "seed": [-1, 1.5, "abc", True],
    "choice": ["bogus", 3],
    "bool": ["yes", "no"],
    "callable": [3],
    "object": ["abc", 3],
}


@dataclass
class Entry:
    """One public callable and one valid call.

    ``kinds`` overrides the inferred kind of an argument (``"skip"``: not fuzzed); ``aliases``
    lists other words a message may use for an argument (e.g. ``"d_x"`` for ``width``);
    ``accept`` lists bad values that are in fact valid for an argument (``"nan-array"``: an
    array argument that may hold NaN, e.g. a reshape); ``huge`` lists count
    arguments for which 10**12 must be refused quickly (memory guard or range check).
    """

    name: str
    call: Callable[..., Any]
    kwargs: dict[str, Any]
    kinds: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    accept: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    huge: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return self.name


def infer_kind(name: str, value: Any) -> str:
    """The kind of an argument from its name and its valid value."""
    if name in SEED_NAMES:
        return "seed"
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | np.integer):
        if name in COUNT0_NAMES:
            return "count0"
        if name in COUNT_NAMES or name.startswith(("n_", "max_")):
            return "count"
        return "int"
    if isinstance(value, float | np.floating):
        if name in TOL_NAMES:
            return "tol"
        return "pos" if name in POS_NAMES else "real"
    if isinstance(value, str):
        return "choice"
    if isinstance(value, np.ndarray | list | tuple):
        return "array"
    if callable(value) and not isinstance(value, type):
        return "callable"
    return "skip" if value is None else "object"


def bad_variants(entry: Entry) -> Iterator[tuple[str, Any]]:
    """``(argument, bad value)`` pairs for every fuzzable argument of ``entry``."""
    for name, value in entry.kwargs.items():
        kind = entry.kinds.get(name) or infer_kind(name, value)
        if kind == "skip":
            continue
        if kind == "array":
            bads: list[Any] = ["abc"]
            arr = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
            if arr.size and arr.dtype.kind in "iufO" and "nan-array" not in entry.accept.get(
                    name, ()):
                nan = np.array(arr, dtype=float, copy=True) if _numeric(arr) else None
                if nan is not None:
                    nan.ravel()[0] = math.nan
                    bads.append(nan)
        else:
            bads = list(BAD[kind])
        allowed = entry.accept.get(name, ())
        for bad in bads:
            if any(_same(bad, a) for a in allowed):
                continue
            yield name, bad


def _numeric(arr: np.ndarray) -> bool:
    try:
        np.asarray(arr, dtype=float)
    except (TypeError, ValueError):
        return False
    return True


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def names_argument(message: str, name: str, aliases: tuple[str, ...] = ()) -> bool:
    """True when ``message`` mentions ``name`` (or an alias) as a word."""
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", message)
               for n in (name, *aliases))


@dataclass(frozen=True)
class Outcome:
    entry: str
    argument: str
    value: str
    verdict: str  # clear / raw / accepted / hang
    detail: str


def probe(entry: Entry, argument: str, value: Any, *, seconds: int = 10) -> Outcome:
    """Call ``entry`` with ``argument=value`` (the rest valid) and classify the outcome; past
    ``seconds`` of CPU time (the same on a loaded machine: :mod:`tests.deadlines`) it hangs."""
    kwargs = dict(entry.kwargs)
    kwargs[argument] = value
    shown = repr(value) if not isinstance(value, np.ndarray) else f"array with NaN {value.shape}"
    try:
        with cpu_deadline(seconds):
            result = entry.call(**kwargs)
    except Overran as over:
        return Outcome(entry.name, argument, shown, "hang", str(over))
    except (ValueError, TypeError) as err:
        message = str(err)
        if names_argument(message, argument, entry.aliases.get(argument, ())):
            return Outcome(entry.name, argument, shown, "clear", message[:200])
        return Outcome(entry.name, argument, shown, "raw",
                       f"{type(err).__name__} not naming {argument!r}: {message[:200]}")
    except Exception as err:
        return Outcome(entry.name, argument, shown, "raw",
                       f"{type(err).__name__}: {str(err)[:200]}")
    return Outcome(entry.name, argument, shown, "accepted", repr(result)[:200])


def run_valid(entry: Entry, *, seconds: int = 30) -> Any:
    """The valid call itself (it must succeed: otherwise the catalogue is wrong)."""
    with cpu_deadline(seconds):
        return entry.call(**entry.kwargs)


#: A "huge" probe passes a count of this size (and 10**30) where memory or time could explode.
HUGE_VALUES = (10**12, 10**30)


def huge_probe(entry: Entry, argument: str, value: int, *, seconds: int = 20) -> Outcome:
    """Call ``entry`` with a huge count: it must answer quickly or refuse clearly (a
    :class:`~seprank.core.errors.MemoryBudgetError`, or a ValueError / TypeError), never
    allocate until numpy or FLINT fails, and never hang."""
    from seprank.core.memory import MemoryBudgetError

    kwargs = dict(entry.kwargs)
    kwargs[argument] = value
    try:
        with cpu_deadline(seconds):
            entry.call(**kwargs)
    except Overran as over:
        return Outcome(entry.name, argument, repr(value), "hang", str(over))
    except MemoryBudgetError as err:
        return Outcome(entry.name, argument, repr(value), "clear", str(err)[:200])
    except MemoryError as err:  # numpy's own: the allocation was attempted
        return Outcome(entry.name, argument, repr(value), "raw", f"MemoryError: {err}"[:200])
    except (ValueError, TypeError, OverflowError) as err:
        return Outcome(entry.name, argument, repr(value), "clear",
                       f"{type(err).__name__}: {str(err)[:200]}")
    except Exception as err:
        return Outcome(entry.name, argument, repr(value), "raw",
                       f"{type(err).__name__}: {str(err)[:200]}")
    return Outcome(entry.name, argument, repr(value), "answer", "returned in time")


#: The catalogues by name (modules of ``tests.fuzz`` with an ``ENTRIES`` list).
CATALOGUES = {
    "seprank": "tests.fuzz.catalog_seprank",
    "identifiability": "tests.fuzz.catalog_identifiability",
    "icl": "tests.fuzz.catalog_icl",
    "distillation": "tests.fuzz.catalog_distillation",
    "automata": "tests.fuzz.catalog_automata",
    "certificates": "tests.fuzz.catalog_certificates",
    "circuits": "tests.fuzz.catalog_circuits",
}


def catalogue(name: str) -> list[Entry]:
    """The entries of one catalogue (see :data:`CATALOGUES`)."""
    import importlib

    return list(importlib.import_module(CATALOGUES[name]).ENTRIES)


def main_huge() -> None:  # pragma: no cover - run in a child process by the huge-count tests
    """Run every huge probe of the catalogues, one JSON line per probe on stdout, under an
    address-space limit (so that an unguarded allocation fails instead of swapping).

    ``argv[1]`` is the limit in bytes (default 4 GiB), ``argv[2]`` a comma-separated list of
    catalogues (default the two core ones), ``argv[3]`` how many probes to skip (a rerun after
    a child that died)."""
    import json
    import resource
    import sys

    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 4 * 2**30
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else ["seprank", "identifiability"]
    skip = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    entries = [e for name in names for e in catalogue(name)]
    n = 0
    for entry in entries:
        for argument in entry.huge:
            for value in HUGE_VALUES:
                n += 1
                if n <= skip:
                    continue
                print(json.dumps({"started": f"{entry.name}({argument}={value})"}), flush=True)
                out = huge_probe(entry, argument, value)
                print(json.dumps(out.__dict__), flush=True)
