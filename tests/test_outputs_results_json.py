"""results.json is strict JSON: every notebook's committed run parses with NaN and Infinity
refused (jq, a browser and any strict parser refuse them), and the writer turns them into null and
"inf" at any parameters."""

import math

import pytest

from choosing_epsilon.harness import outputs, reproduce
from choosing_epsilon.harness.paths import FIGURES
from tests.notebook_text import strict_load


@pytest.mark.parametrize("name", reproduce.notebook_names())
def test_every_committed_results_json_is_strict(name):
    strict_load((FIGURES / name / "results.json").read_text())


def test_the_writer_turns_nan_and_infinity_into_null_and_strings(tmp_path):
    results = {"a": math.nan, "b": [math.inf, -math.inf, 1.5], "c": {"d": (math.nan, 2)}}
    text = outputs.write_results(results, tmp_path)
    assert (tmp_path / "results.json").read_text() == text
    assert strict_load(text) == {"a": None, "b": ["inf", "-inf", 1.5], "c": {"d": [None, 2]}}
    with pytest.raises(ValueError, match="NaN"):
        strict_load('{"a": NaN}')
