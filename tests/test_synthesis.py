"""The synthesis chooses ε from public inputs: only the methods it marks as reading the data move with the data."""

import json
import math

import pytest

from choosing_epsilon import reproduce


def results(params, tmp_path):
    reproduce.run_notebook("synthesis", params, tmp_path)
    return json.loads((tmp_path / "results.json").read_text())


@pytest.mark.notebook
def test_only_the_marked_methods_move_with_the_private_data(tmp_path):
    base = results({}, tmp_path / "base")
    other = results(
        {"seed": 7, "observed_ages": [20.0, 95.0]}, tmp_path / "other"
    )  # other ages, same public inputs
    assert (
        base["uses_private_data"]
        == other["uses_private_data"]
        == ["Lee & Clifton, Eq. (7)", "Lee & Clifton, exact"]
    )
    assert base["shared_axis"] == other["shared_axis"]
    assert not set(base["shared_axis"]) & set(base["uses_private_data"])
    for name in base["shared_axis"]:
        assert other["recommendations"][name] == base["recommendations"][name], name
    for name in base["uses_private_data"]:
        assert other["recommendations"][name] != pytest.approx(
            base["recommendations"][name], rel=1e-6
        ), name
    assert other["feasible_interval"] == base["feasible_interval"]


@pytest.mark.notebook
def test_every_shared_axis_epsilon_uses_the_public_sensitivity(tmp_path):
    got = results({"n_people": 5000, "age_range": [0.0, 120.0]}, tmp_path)
    delta = 120 / 5000
    assert got["sensitivity"] == pytest.approx(delta)
    assert got["sensitivity_lee_clifton"] == pytest.approx(120 / 4999)
    eps = got["recommendations"]
    assert eps["Poster, Theorem 2"] == pytest.approx(delta * math.log(1 / 0.05) / 1)
    assert eps["Shoaran et al., MTA ≤ public lower bound of the mean"] == pytest.approx(
        delta * math.log(1 / 0.1) / (0.05 * 18)
    )
    # Eq. (7) with the public Δ = range/(n - 1): ε = range ln((n-1)ρ/(1-ρ)) / (oldest - youngest), ages 18 to 90
    assert eps["Lee & Clifton, Eq. (7)"] == pytest.approx(
        120 * math.log(4999 * 0.002 / 0.998) / 72, rel=1e-9
    )


@pytest.mark.parametrize(
    "params, message",
    [
        ({"mean_lower_bound": 200.0}, r"mean_lower_bound must lie in \(0, 110\]"),
        ({"observed_ages": [0.0, 200.0]}, r"observed_ages must lie inside age_range"),
        (
            {"age_range": [20.0, 60.0]},
            r"observed_ages must lie inside age_range",
        ),  # the default ages [18, 90] fall outside
    ],
)
def test_runner_refuses_inconsistent_ranges_before_a_kernel_starts(
    params, message, tmp_path, monkeypatch
):
    def no_kernel(*args, **kwargs):
        raise AssertionError("a kernel was started")

    monkeypatch.setattr(reproduce.papermill, "execute_notebook", no_kernel)
    with pytest.raises(ValueError, match=message):
        reproduce.run_notebook("synthesis", params, tmp_path / "out")
    assert not (tmp_path / "out").exists()
