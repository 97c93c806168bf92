"""A sweep of lee_clifton_2011's parameters across their ranges, each case named for what it
probes and combining parameters that probe different things: every case runs to the end with
strict JSON, no departure from the figure style, and the honest output it is about."""

import json

import pandas as pd
import pytest

from choosing_epsilon.harness import reproduce
from tests.notebook_text import outputs_text, strict_load

NAME = "lee_clifton_2011"


def run(tmp_path, params):
    """Run the notebook at ``params`` (the runner raises unless it ends with exit 0); return its
    output directory, after checking its results.json is strict JSON and its figures recorded no
    departure from the style."""
    out = tmp_path / "run"
    reproduce.run_notebook(NAME, params, out)
    strict_load((out / "results.json").read_text(encoding="utf-8"))
    captions = json.loads((out / "captions.json").read_text(encoding="utf-8"))
    problems = {name: entry["problems"] for name, entry in captions.items() if "problems" in entry}
    assert problems == {}
    return out


@pytest.mark.notebook
def test_epsilon_extremes_a_threshold_near_the_prior_and_a_tiny_crowd(tmp_path):
    """ρ just above the prior 1/4 puts both admissible ε near 0.05, on the left edge of a Fig. 2
    axis running to 1000 (said in its legend); one ε of 0.001 gave the Monte Carlo figure a log
    axis less than a decade wide whose minor labels overlapped; an example ε of 1000 made
    e^ε overflow (OverflowError, the run stopped); three alumni with the outlier inside the
    crowd."""
    params = {
        "rho": 0.26,
        "epsilons": [0.001],
        "example_epsilon": 1000,
        "year_epsilon": 1000,
        "fig2_max_epsilon": 1000,
        "outlier_km": 1,
        "alumni_n": 3,
        "alumni_rho": 0.999,
        "n_trials": 50,
    }
    out = run(tmp_path, params)
    text = outputs_text(out / f"{NAME}.ipynb")
    assert "≤ e^ε = 1.9701 × 10^434: True" in text
    svg = (out / "fig2_risk_upper_bound.svg").read_text(encoding="utf-8")
    assert svg.count("at the axis's left edge") == 4  # two marked ε in each panel
    search = pd.read_csv(out / "binary_search_vs_brentq.csv").set_index("attribute")
    assert (search["brentq"] < 0.02 * 1000).all()
    # an outlier inside the crowd: no astronaut line, and the caption says where it lies
    caption = json.loads((out / "captions.json").read_text(encoding="utf-8"))["astronaut_outlier"]
    assert "lies within the crowd" in caption["caption"]


@pytest.mark.notebook
def test_a_long_epsilon_list_far_responses_ties_and_long_attribute_names(tmp_path):
    """Twenty ε from 0.001 to 2000 (the Monte Carlo legend once sat over its markers), responses
    a million away from every world, a database of tied values whose medians are all equal
    (Fig. 3(b) says that no noise is needed, in a text of several lines the style check once
    skipped) and an attribute whose long name puts Fig. 2's title on two lines (once over the
    figure's title)."""
    data = tmp_path / "ties.csv"
    long_name = "absence_days_in_the_whole_school_year"
    frame = pd.DataFrame(
        {
            "name": [f"P{i}" for i in range(9)],
            long_name: [2, 2, 2, 5, 5, 5, 9, 9, 9],
            "school_year": [1, 1, 2, 2, 3, 3, 4, 4, 4],
        }
    )
    frame.to_csv(data, index=False)
    epsilons = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]
    params = {
        "data_path": str(data),
        "attributes": [long_name, "school_year"],
        "absent": "P0",
        "epsilons": [*epsilons, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
        "response": 1e6,
        "fig1_response": -1e6,
        "example_noise": -1e6,
        "n_trials": 50,
    }
    out = run(tmp_path, params)
    assert len(pd.read_csv(out / "monte_carlo_adversary.csv")) == 20
    captions = json.loads((out / "captions.json").read_text(encoding="utf-8"))
    assert "the median needs no noise" in captions["fig3_mean_vs_median"]["caption"]
    text = outputs_text(out / f"{NAME}.ipynb")
    assert "every density underflows to 0 at γ = 1e+06" in text
