"""The progress policy in a real notebook (issue 34, item 1): one bar per user-visible call,
none for short calls, ``progress=False`` honoured below -- asserted on the saved notebook's widget
state and size, as a researcher's notebook would be saved."""

from __future__ import annotations

import json

import pytest

from tests.checks.notebook_runs import kernel_environment

CELLS = [
    "import seprank\nfrom seprank import LinearAttention\n"
    "from paper_checks import run_claims, select",
    # short calls: no bar at all
    "net = LinearAttention.random(depth=2, width=2, heads=1, seed=0)\n"
    "net.separation_rank(position=0, coordinate=0, partition=([0, 1], [2, 3]), n_inputs=4, "
    "seed=0).rank",
    # progress=False silences every inner call (each claim's own bars)
    "[o.verdict for o in run_claims(select(id='FND-Hilbert-*'), progress=False)]",
    # a call long enough to show its bar (the delay set to 0 here): one bar for the call, not
    # one per degree block
    "import seprank.core.progress as policy\npolicy.DELAY_SECONDS = 0\n"
    "from seprank.incontext.representation import InContextRepresentation\n"
    "from seprank.incontext.seq_sep import incontext_seq_sep\n"
    "rep = InContextRepresentation.random(depth=2, width=3, heads=1, n_tokens=2, seed=0)\n"
    "r = incontext_seq_sep(rep, seed=1)\nlen(r.details['block_table']), r.rank",
]


def _bars(nb: dict[str, object]) -> int:
    """How many tqdm bars the saved widget state holds (one HBox per bar)."""
    state = (nb.get("metadata", {}).get("widgets", {})  # type: ignore[union-attr]
             .get("application/vnd.jupyter.widget-state+json", {}).get("state", {}))
    return sum(m.get("model_name") == "HBoxModel" for m in state.values())


def test_a_notebook_of_calls_saves_one_bar_per_long_call_and_stays_small(tmp_path) -> None:  # type: ignore[no-untyped-def]
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipywidgets")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    first = {}

    def after_cell(cell, cell_index, execute_reply):  # type: ignore[no-untyped-def]
        if cell_index == 2:     # widget state so far: the short and silenced calls
            first["bars"] = len([o for c in nb.cells[:3] for o in c.get("outputs", [])
                                 if "application/vnd.jupyter.widget-view+json"
                                 in o.get("data", {})])

    client.on_cell_executed = after_cell
    client.execute(env=kernel_environment())
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o["output_type"] == "error"]
    assert not errors, errors
    path = tmp_path / "session.ipynb"
    nbformat.write(nb, path)
    saved = json.loads(path.read_text())
    assert first["bars"] == 0                 # short calls and progress=False: nothing
    blocks = next(c for c in saved["cells"] if "incontext_seq_sep" in "".join(c["source"]))
    result = next(o for o in blocks["outputs"] if o["output_type"] == "execute_result")
    n_blocks = int("".join(result["data"]["text/plain"]).strip("()").split(",")[0])
    assert n_blocks > 3                        # several blocks, each with its growth rounds ...
    assert _bars(saved) == 1                   # ... under one bar
    assert path.stat().st_size < 150_000
