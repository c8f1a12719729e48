"""The README's examples run (doctest), and its two set-up commands match what CI runs."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    examples = "\n".join(b for b in blocks if b.lstrip().startswith(">>>"))
    test = doctest.DocTestParser().get_doctest(examples, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.tries > 0 and runner.failures == 0


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_test_one() -> None:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Set-up: two commands", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.+?)\n```", section, flags=re.S)
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    main_job, tests = commands
    assert main_job.endswith("paper-checks") and "-m venv" in main_job
    assert 'pip install -e ".[test]"' in tests and tests.endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'install --quiet -e ".[test]"' in ci and "-m pytest" in ci and "venv" in ci
