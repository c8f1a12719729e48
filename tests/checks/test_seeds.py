"""Per-setting seeds (paper_checks.seeds): deterministic, different for different settings, and
the ICL claims' ``SeedSequence([seed, tag])`` streams kept."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paper_checks.seeds import setting_seed, setting_stream, setting_words

items = st.one_of(st.integers(min_value=-2**70, max_value=2**70), st.text(max_size=6))
settings_ = st.lists(items, min_size=1, max_size=4).map(tuple)
bases = st.integers(min_value=0, max_value=2**32 - 1)


def _pool_words(base: int, setting: tuple[int | str, ...]) -> list[int]:
    """The entropy SeedSequence mixes: [base, *words], zero-padded to its pool of 4 words (a
    shorter entropy is padded with zeros, so equal padded lists give equal streams)."""
    words = [base, *setting_words(*setting)]
    return words + [0] * (4 - len(words))


@given(bases, settings_)
def test_deterministic(base: int, setting: tuple[int | str, ...]) -> None:
    assert setting_seed(base, *setting) == setting_seed(base, *setting)
    assert 0 <= setting_seed(base, *setting) < 2**32
    assert setting_stream(base, *setting).entropy == setting_stream(base, *setting).entropy


@given(bases, settings_, settings_)
def test_different_settings_give_different_streams_and_seeds(
        base: int, a: tuple[int | str, ...], b: tuple[int | str, ...]) -> None:
    if a == b:
        return
    assert _pool_words(base, a) != _pool_words(base, b)   # injective encoding: different streams
    assert all(0 <= w < 2**32 for w in setting_words(*a))
    # 32-bit seeds: a collision of two given settings has probability 2^-32
    assert setting_seed(base, *a) != setting_seed(base, *b)


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_different_bases_give_different_seeds(x: int, y: int, t: int) -> None:
    if x != y:
        assert setting_seed(x, t) != setting_seed(y, t)


def test_the_arithmetic_collisions_are_gone() -> None:
    # d + 5k: (6, 1) and (1, 2) both gave 11; a sum L + d + H + N gave every permutation one seed
    assert setting_seed(0, 6, 1) != setting_seed(0, 1, 2)
    perms = {setting_seed(2020, *p) for p in [(1, 2, 3, 4), (4, 3, 2, 1), (2, 1, 4, 3)]}
    assert len(perms) == 3
    # SeedSequence pads short entropy with zeros: (3,) and (3, 0) must still differ
    assert setting_seed(5, 3) != setting_seed(5, 3, 0)
    assert setting_seed(5, 0) != setting_seed(5, 0, 0) != setting_seed(5, "")


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_a_lone_tag_is_the_icl_stream(seed: int, tag: int) -> None:
    want = np.random.SeedSequence([seed, tag])
    got = setting_stream(seed, tag)
    assert np.array_equal(got.generate_state(4), want.generate_state(4))
    assert setting_seed(seed, tag) == int(want.generate_state(1, dtype=np.uint32)[0])


def test_the_same_seeds_in_another_interpreter() -> None:
    """No dependence on Python's salted ``hash``: a child with another PYTHONHASHSEED agrees."""
    code = ("from paper_checks.seeds import setting_seed as s; "
            "print(s(2020, 'fig3', 4, -7), s(1, 'é', 2**40))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout.split()
    assert [int(x) for x in out] == [setting_seed(2020, "fig3", 4, -7),
                                     setting_seed(1, "é", 2**40)]


def test_legacy_keeps_an_old_seed_for_one_setting() -> None:
    table = {(2, 3): 97}
    assert setting_seed(30, 2, 3, legacy=table) == 97
    assert setting_seed(30, 3, 2, legacy=table) == setting_seed(30, 3, 2)
    with pytest.raises(ValueError, match=r"legacy\[\(2, 3\)\]"):
        setting_seed(30, 2, 3, legacy={(2, 3): -1})


@pytest.mark.parametrize(("call", "match"), [
    (lambda: setting_seed(1), "at least one setting item"),
    (lambda: setting_seed(-1, 2), "base must be an integer in"),
    (lambda: setting_seed(2**32, 2), "base must be an integer in"),
    (lambda: setting_seed(True, 2), "base must be"),
    (lambda: setting_seed(1, True), r"setting\[0\] must be an int or a str.*int\(flag\)"),
    (lambda: setting_seed(1, 2, 0.5), r"setting\[1\] must be an int or a str"),
])
def test_bad_arguments_are_named(call: object, match: str) -> None:
    with pytest.raises((ValueError, TypeError), match=match):
        call()  # type: ignore[operator]
