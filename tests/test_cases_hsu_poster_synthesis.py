"""Parameter extremes of hsu_2014, mugunthan_poster and synthesis: each case once failed or
misreported."""

import json
import math
import re

import duckdb
import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from choosing_epsilon import confidence as cf
from choosing_epsilon import economics as econ
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon.harness import parameters, reproduce
from choosing_epsilon.harness.paths import FIGURES
from choosing_epsilon.papers.hsu_2014 import scans
from choosing_epsilon.papers.mugunthan_poster import forensics as poster
from choosing_epsilon.papers.synthesis import figures as plot
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis import synthesis as synth
from choosing_epsilon.plots import figures
from tests.notebook_text import outputs_text, strict_load

P = econ.expected_cost(1274, 0.05)
REGISTRY_HEADER = (
    "Organization,Epsilon (ε),Delta (δ),Rho (ρ),Model,Dynamic,Context,URL,Citation Name,unit\n"
)
REGISTRY_ROW = (
    "Apple,8,N/A,,,,Quick Type Suggestions,https://example.org,apple_quick,unit not stated\n"
)


# --- hsu_2014: module level -----------------------------------------------------------------------


def test_cheapest_study_is_none_when_the_cap_is_below_the_sampling_size():
    # h_max1 and h_err1e-4: once raised ValueError inside the notebook
    assert econ.sampling_n(0.05, 0.1, True) > 1
    assert econ.cheapest_study(P, 0.05, 0.1, True, max_n=1) is None
    assert econ.cheapest_study(P, 1e-4, 0.1, True, max_n=10**6) is None
    assert (
        econ.cheapest_study(
            P, 0.05, 0.1, True, max_n=math.ceil(econ.sampling_n(0.05, 0.1, True)) + 1
        )
        is not None
    )


@pytest.mark.parametrize("p, budget", [(P, 1.0), (0.05 * 1e7, 30000.0)])
def test_exact_search_gives_up_when_nothing_is_affordable(p, budget):
    # h_budget1 and h_cost1e7: the scan once evaluated all 80 ε down to 1e-4 (over 10 s)
    assert econ.largest_feasible_epsilon_exact(p, budget, 0.05, 0.1) is None
    n = econ.smallest_true_n(econ.EXACT_EPSILON_MIN, 0.05, 0.1)
    assert (
        n * math.expm1(econ.EXACT_EPSILON_MIN) * p > budget
    )  # the smallest ε scanned is indeed unaffordable


def test_true_failure_probability_scales_to_huge_studies():
    # h_n1e9 / h_err1e-4: the exact sum once built arrays of N + 1 binomial terms
    value = econ.true_failure_probability(0.03, 10**9, 0.05)
    assert value == 0.0  # a billion participants: both tails below a double's range
    small = econ.true_failure_probability(0.03, 2000, 0.05)
    k = range(2001)
    full = sum(
        stats.binom.pmf(i, 2000, 0.5)
        * (
            stats.laplace.sf(0.05 - (i / 2000 - 0.5), scale=1 / 60)
            + stats.laplace.sf(0.05 + (i / 2000 - 0.5), scale=1 / 60)
        )
        for i in k
    )
    assert small == pytest.approx(full, rel=1e-12)


def test_quoted_non_private_formulas_refuse_alpha_of_a_half_or_more():
    # h_sec0999 and h_movfrac0999: once crashed with "error must lie in (0, 1), got -0.84" /
    # "got 24.5"
    with pytest.raises(ValueError, match=r"failure_probability must lie in \(0, 0.5\)"):
        econ.non_private_n(0.05, 0.999)
    with pytest.raises(ValueError, match=r"failure_probability must lie in \(0, 0.5\)"):
        econ.crossover_error(0.5, 0.25, 2500, 0.002)
    t = econ.crossover_error(0.05, 0.25, 2500, 0.999)
    assert t > 1  # the quoted condition holds for every T in (0, 1)
    assert econ.private_is_cheaper(0.99, 0.05, 0.25, 2500, 0.999)


def test_crossover_is_where_the_quoted_condition_changes():
    t = econ.crossover_error(0.05, 0.25, 2500, 0.002)
    assert econ.private_is_cheaper(t * 0.999, 0.05, 0.25, 2500, 0.002)
    assert not econ.private_is_cheaper(t * 1.001, 0.05, 0.25, 2500, 0.002)


@pytest.mark.parametrize(
    "epsilon, error, alpha, fraction",
    [
        (0.03, 0.05, 0.1, 0.5),
        (0.9, 0.05, 0.1, 0.5),
        (0.03, 1e-4, 0.1, 0.5),
        (0.001, 0.05, 0.1, 0.5),
        (20, 0.99, 1e-6, 0.3),
        (0.03, 0.05, 0.1, 0.0),
    ],
)
def test_smallest_true_n_is_a_crossing_of_alpha(epsilon, error, alpha, fraction):
    # h_err1e-4: the search doubled from N = 1 and bisected, about 50 sums of 10^5 terms at
    # N ~ 10^8 per ε
    n = econ.smallest_true_n(epsilon, error, alpha, fraction)
    assert econ.true_failure_probability(epsilon, n, error, fraction) <= alpha
    assert n == 1 or econ.true_failure_probability(epsilon, n - 1, error, fraction) > alpha


def test_smallest_true_n_for_huge_studies():
    # h_err1e-4: cell "How large must the study be?" took about 56 s for its 40 values of ε
    econ._binomial.cache_clear()
    sizes = [econ.smallest_true_n(e, 1e-4, 0.1) for e in (0.003, 0.03, 0.9)]
    assert min(sizes) > 6 * 10**7  # the sampling error alone needs N ≈ 0.25 (z_0.05 / T)² ≈ 6.8e7


def test_readable_probability_names_an_underflow():
    # h_err099 and h_n1e9: a bound of e^-1200 and an exact failure probability at N = 1e9 were
    # shown as 0.0
    assert (
        econ.accuracy_bound(0.03, 10**9, 0.05) == 0.0
        and econ.true_failure_probability(0.03, 10**9, 0.05) == 0.0
    )
    assert econ.readable_probability(0.0) == "< 1e-300"
    assert econ.readable_probability(econ.accuracy_bound(0.03, 15000, 0.99, True)) == float(
        f"{math.exp(-0.495 * 15000 * 0.03):.3g}"
    )
    assert econ.readable_probability(2.977727) == 2.977727  # a bound may exceed 1


@pytest.mark.parametrize(
    "amount, text",
    [(63.7, "$63.70"), (0.0005, "$0.0005"), (1.5227e-5, "$1.52e-05"), (4.6e7, "$46,000,000.00")],
)
def test_dollars_never_prints_zero_for_a_small_amount(amount, text):
    # h_cost001: "P = 0.05 × $0.01 = $0.00"
    assert econ.dollars(amount) == text


@pytest.mark.parametrize(
    "value, decimals, shown",
    [(0.6402, 4, 0.6402), (1.5227e-5, 4, 1.52e-5), (1.8e-97, 6, 1.8e-97), (0.000413, 6, 0.000413)],
)
def test_readable_keeps_three_significant_figures(value, decimals, shown):
    assert econ.readable(value, decimals) == shown


# --- mugunthan_poster: module level ---------------------------------------------------------------


@pytest.mark.parametrize("c", [0.01, 1e9])
def test_general_theorem2_for_any_distance(c):
    # p_c1e9: the quadrature over [-c, c] missed the narrow peak and the bracket search overflowed
    assert cf.theorem2_epsilon(1, c, 0.9) == pytest.approx(
        cf.theorem2_epsilon(1, c, 0.9), rel=1e-12
    )
    assert poster.integrated_coverage(cf.theorem2_epsilon(1, c, 0.9), c, 1) == pytest.approx(
        0.9, rel=1e-12
    )


@pytest.mark.parametrize("p", [1e-9, 0.5, 0.999999999])
def test_general_theorem2_at_extreme_p(p):
    # p_gridext: the Gaussian check failed by 8e-8 relative at p = 1e-9
    m = math.sqrt(2 * math.log(1.25 / 1e-5))
    assert cf.theorem2_epsilon(m, 10, p, stats.norm) == pytest.approx(
        m * math.sqrt(2) * special.erfinv(p) / 10, rel=1e-10
    )
    assert cf.theorem2_epsilon(1, 10, p) == pytest.approx(cf.theorem2_epsilon(1, 10, p), rel=1e-10)


def test_integrated_tail_is_accurate_when_tiny():
    eps = cf.theorem2_epsilon(1, 10, 1 - 1e-12)
    assert poster.integrated_tail(eps, 10, 1) == pytest.approx(1e-12, rel=1e-6)


@pytest.mark.parametrize("p", [0.9, 0.999999])
def test_coverage_text_keeps_the_shortfall_when_coverage_rounds_to_one(p):
    # p_p0999999: "coverage ranges from 1.0000 to 1.0000; p = 0.999999"
    eps = cf.theorem1_epsilon(1, 0.1, 100, p) / 10
    shortfall = math.exp(-eps * 10)  # Laplace: Pr(|noise| >= c) = e^{-c ε / Δ}
    assert cf.miss(eps, 10, 1) == pytest.approx(shortfall, rel=1e-12)
    assert poster.coverage_text(eps, 10, 1) == (
        f"1 - {shortfall:.3g}" if p > 0.99 else f"{1 - shortfall:.4f}"
    )
    assert poster.coverage_text(1e4, 10, 1) == "1 - (less than 1e-300)"


# --- synthesis: registry --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "is empty"),
        (REGISTRY_HEADER, "lists no deployments"),
        (REGISTRY_HEADER + REGISTRY_ROW.replace(",8,", ",abc,"), r"row 2 has 'abc'"),
        (REGISTRY_HEADER + REGISTRY_ROW.replace(",8,", ",-1,"), r"row 2 has '-1'"),
    ],
)
def test_bad_registry_is_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "registry.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        registry.load_registry(path)
    with pytest.raises(ValueError, match=message):  # before a kernel starts
        reproduce.run_notebook("synthesis", {"registry_path": str(path)}, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_one_row_registry_loads(tmp_path):
    path = tmp_path / "registry.csv"
    path.write_text(REGISTRY_HEADER + REGISTRY_ROW)
    assert registry.load_registry(path).epsilon.tolist() == [8.0]


# --- notebooks ------------------------------------------------------------------------------------


def run(name, params, tmp_path):
    reproduce.run_notebook(name, params, tmp_path)
    return outputs_text(tmp_path / f"{name}.ipynb"), strict_load(
        (tmp_path / "results.json").read_text()
    )


@pytest.mark.notebook
def test_hsu_study_cap_below_the_sampling_size(tmp_path):
    text, _ = run("hsu_2014", {"max_study_size": 1}, tmp_path)
    assert "no accurate study has N ≤ 1" in text


@pytest.mark.notebook
def test_hsu_alpha_above_a_half_skips_the_quoted_comparison(tmp_path):
    text, _ = run("hsu_2014", {"secondary_failure_probability": 0.999}, tmp_path)
    assert "the comparison is not applicable" in text and "no crossover" in text


@pytest.mark.notebook
def test_hsu_tiny_budget_says_no_study_in_words(tmp_path):
    text, results = run("hsu_2014", {"budget": 1}, tmp_path)
    assert results["max_feasible_epsilon"] is None
    assert (
        "does not exceed the cost floor" in text and "no ε ≥ 0.0001 with the exact accuracy" in text
    )
    # the captions say it too, at this run's budget
    captions = json.loads((tmp_path / "captions.json").read_text(encoding="utf-8"))
    assert captions["feasible_region"]["caption"].startswith(
        "No study design (ε, N) meets both a budget of B = 1 dollar"
    )
    failure = captions["failure_vs_true_fraction"]["caption"]
    assert "no exact-accuracy design fits the budget" in failure


@pytest.mark.notebook
def test_hsu_huge_study_and_loose_error_show_no_false_zero(tmp_path):
    # h_n1e9 and h_err099: tiny probabilities were shown as 0.0 and the slides' point flattened
    # the region figure
    text, _ = run("hsu_2014", {"slide_n": 10**9, "error": 0.99}, tmp_path)
    assert re.search(r"accuracy bound A\(ε, N\)\s+< 1e-300\n", text)
    assert re.search(
        r"1000000000\s+< 1e-300\s+< 1e-300\s", text
    )  # the table's bound and exact columns at N = 10^9
    assert "(off the chart)" in (tmp_path / "feasible_region.svg").read_text()


@pytest.mark.notebook
def test_hsu_tiny_error_runs_to_the_end(tmp_path):
    # h_err1e-4: 56 s, nearly all in the scan of exact study sizes; constants were printed as
    # 0.000000 and 0.00002
    text, _ = run("hsu_2014", {"error": 1e-4}, tmp_path)
    assert (
        f"d²/12 = {1e-8 / 12:.3g}" in text and f"ε ≥ d/6 = {1e-4 / 6:.3g}" in text
    )  # d: the error (the slides give it no letter; their T is the accuracy level)


@pytest.mark.notebook
def test_hsu_tiny_cost_prints_amounts_below_a_cent(tmp_path):
    text, _ = run("hsu_2014", {"bad_event_cost": 0.01}, tmp_path)
    assert "$0.0005" in text and "= $0.00\n" not in text
    captions = json.loads((tmp_path / "captions.json").read_text(encoding="utf-8"))
    assert "P = 0.0005 dollars to each person" in captions["feasible_region"]["caption"]


@pytest.mark.notebook
def test_poster_huge_distance_and_extreme_p(tmp_path):
    text, results = run("mugunthan_poster", {"c": 1e9, "p": 0.999999}, tmp_path / "c")
    assert results["epsilon_theorem2"] == pytest.approx(-math.log1p(-0.999999) / 1e9, rel=1e-12)
    eps1 = cf.theorem1_epsilon(1, 0.1, 100, 0.999999)
    assert (
        f"ranges from 1 - {math.exp(-eps1):.3g} (at ε1/10) to 1 - (less than 1e-300)" in text
    )  # not 1.0000 to 1.0000
    # the captions are written from the run's values, and keep the rules of a Caption
    captions = json.loads((tmp_path / "c" / "captions.json").read_text(encoding="utf-8"))
    assert set(captions) == {"fig1_ratio", "coverage_minus_p", "slips_lemma1_theorem3"}
    for entry in captions.values():
        figures.Caption(caption=entry["caption"], alt=entry["alt"])
    assert "c = 1e+09 and w·q(D) = 10" in captions["coverage_minus_p"]["caption"]
    run("mugunthan_poster", {"p_grid": [1e-9, 0.999999999]}, tmp_path / "grid")


@pytest.mark.notebook
@pytest.mark.parametrize(
    "params, words",
    [
        (
            {"demo_n_people": 3},
            [
                "no feasible ε: no ε at all meets Lee & Clifton, Eq. (7) (",
                "; no ε at all meets Lee & Clifton, exact (",
                "; no ε at all meets Hsu et al., accuracy at N (",
                "with 3 people the sampling term alone exceeds 0.1",
            ],
        ),  # its ε was inf, shown as "∞" like an upper bound met by any ε
        (
            {"prior": 0.999},
            ["no feasible ε: no ε at all meets Posterior bound", "none: unmet"],
        ),  # the table showed nan
        ({"max_error": 1e7, "rho": 0.999}, ["always met", "∞: any ε"]),  # the table showed inf
    ],
)
def test_synthesis_unmeetable_or_vacuous_requirements(tmp_path, params, words):
    text, results = run("synthesis", params, tmp_path)
    assert all(w in text for w in words)
    assert " nan " not in text and " inf " not in text
    if "no feasible" in words[0]:
        assert results["feasible"] is False


# --- synthesis: the reader's own data ------------------------------------------------------------


def write_table(df: pd.DataFrame, path, kind: str) -> None:
    """``df`` as a CSV or Parquet file, written by DuckDB."""
    con = duckdb.connect(":memory:")
    con.register("df", df)
    con.execute(f"COPY df TO '{path}' (FORMAT {kind})")
    con.close()


def survey_ages(size: int, seed: int) -> np.ndarray:
    """Whole-year ages with many ties, and one participant far older than the rest."""
    ages = np.random.default_rng(seed).integers(20, 71, size).astype(float)
    ages[0] = 104.0  # inside the public range [0, 110], 34 years above everyone else
    return ages


def expected_epsilons(ages: np.ndarray, width: float, changes: dict) -> dict[str, float]:
    """Every method's ε for the mean of ``ages`` at the defaults with ``changes``, each by its
    closed form or, for Lee & Clifton, over the n worlds of the expanded column."""
    v = {**parameters.committed_values("synthesis"), **changes}
    n = ages.size
    delta = width / n
    upper, exact = synth.lee_clifton_epsilons(ages, width / (n - 1), v["rho"])
    p_cost = v["bad_event_cost"] * v["bad_event_probability"]
    # on a file only what the reader gives is read: NaN for a method whose input is not given,
    # or whose premise (paying participants) does not hold
    paid, error, bound = v["pays_participants"] is True, v["max_error"], v["noise_bound"]
    t = error / width if paid and error is not None else math.nan
    # Hsu et al.: the smallest ε with 2 exp(-N t²/12) + exp(-N t ε/2) ≤ α
    sampling = v["failure_probability"] - 2 * math.exp(-n * t * t / 12)
    lb = v["value_range"][0]
    floor = lb if v["lower_bound"] is None else max(lb, v["lower_bound"])
    return {
        "Lee & Clifton, Eq. (7)": upper,
        "Lee & Clifton, exact": exact,
        "Hsu et al., budget at N": math.log1p(v["budget"] / (n * p_cost)) if paid else math.nan,
        "Hsu et al., accuracy at N": (
            math.log(1 / sampling) / (n * t / 2) if sampling > 0 else math.nan
        ),
        "Shoaran et al., MTA ≤ public lower bound of the mean": (
            delta * math.log(1 / v["pr"]) / (v["relative_error"] * floor) if floor > 0 else math.nan
        ),
        "Poster, Theorem 2": (
            delta * math.log(1 / (1 - v["p"])) / bound if bound is not None else math.nan
        ),
        "Poster, Theorem 3": (
            cf.theorem3_epsilon(delta, bound, v["p"]) if bound is not None else math.nan
        ),
        "Posterior bound": math.log(
            v["posterior_threshold"]
            / (1 - v["posterior_threshold"])
            * (1 - v["prior"])
            / v["prior"]
        ),
        "Hypothesis testing": 2 * math.atanh(v["max_advantage"]),
        "Risk profile (Kazan & Reiter)": kazan_reiter_epsilon(
            v["prior"], v["posterior_threshold"], v["kr_r_tilde"]
        ),
    }


def kazan_reiter_epsilon(p: float, a: float, r: float) -> float:
    """Kazan & Reiter's Eq. (23) as printed, in its two cases: log(a(1 - p)/(p(1 - a))) where
    p r <= a, else log(2d/(sqrt(r²(1 - p)² + 4d(1 - a)) - r(1 - p))) with d = p r - a."""
    if p * r <= a:
        return math.log(a * (1 - p) / (p * (1 - a)))
    d = p * r - a
    return math.log(2 * d / (math.sqrt(r * r * (1 - p) ** 2 + 4 * d * (1 - a)) - r * (1 - p)))


def check_every_epsilon(out, ages: np.ndarray, width: float, changes: dict) -> pd.DataFrame:
    """The run's table of methods holds every method once, each ε as computed here."""
    table = pd.read_csv(out / "methods.csv").set_index("method")
    want = expected_epsilons(ages, width, changes)
    assert sorted(table.index) == sorted(want)
    for name, value in want.items():
        if math.isnan(value):
            assert math.isnan(table.epsilon[name]), name
        else:
            # methods.csv keeps 10 significant digits
            assert table.epsilon[name] == pytest.approx(value, rel=1e-9), name
    return table


@pytest.mark.notebook
def test_synthesis_on_a_parquet_column(tmp_path):
    ages = survey_ages(5000, 11)
    path = tmp_path / "survey.parquet"
    write_table(
        pd.DataFrame({"id": np.arange(ages.size), "age": ages.astype(np.int64)}), path, "parquet"
    )
    changes = {"data_path": str(path), "column": "age", "value_range": [0, 110], "rho": 0.01}
    changes |= {"noise_bound": 1.0}  # the poster's, given in years: the demo's is never read
    text, results = run("synthesis", changes, tmp_path / "out")
    table = check_every_epsilon(tmp_path / "out", ages, 110, changes)
    assert results["data"] == {
        "source": str(path),
        "column": "age",
        "n": 5000,
        "distinct_values": np.unique(ages).size,
    }
    assert results["sensitivity"] == pytest.approx(110 / 5000, rel=1e-15)
    for name, value in results["recommendations"].items():
        assert value == pytest.approx(table.epsilon[name], rel=1e-9), name
    # what came from the data, said in the table and in the printed survey
    assert results["uses_private_data"] == ["Lee & Clifton, Eq. (7)", "Lee & Clifton, exact"]
    reads = table["uses the private data"]
    assert reads["Poster, Theorem 2"].startswith("no, but n is the file's row count")
    assert reads["Posterior bound"] == "no"
    assert reads["Lee & Clifton, exact"].startswith("yes: every value's count")
    assert f"5,000 rows of column 'age' in survey.parquet ({np.unique(ages).size} distinct" in text
    assert f"mean {ages.mean():.6g} (private)" in text
    assert "Eq. (7): ε = " in text and "(the participants' span: 84)" in text


def score_changes(path) -> dict:
    """A run on the column "score" of ``path``: test scores in the public range 0-10, with the
    lengths of the methods in points."""
    return {
        "data_path": str(path),
        "column": "score",
        "value_range": [0, 10],
        "lower_bound": 1.0,
        "max_error": 0.5,
        "noise_bound": 0.5,
        "pays_participants": True,
    }


@pytest.mark.notebook
def test_synthesis_on_a_csv_column_with_another_range(tmp_path):
    scores = np.random.default_rng(5).integers(0, 41, 800).astype(float) / 4  # quarter points
    path = tmp_path / "scores.csv"
    write_table(pd.DataFrame({"score": scores, "group": ["a", "b"] * 400}), path, "csv")
    changes = score_changes(path)
    text, results = run("synthesis", changes, tmp_path / "out")
    table = check_every_epsilon(tmp_path / "out", scores, 10, changes)
    assert results["data"]["n"] == 800 and results["data"]["column"] == "score"
    assert "800 rows of column 'score' in scores.csv (41 distinct values)" in text
    assert (
        "mean of all 800 values of 'score', Δ = 10/800"
        in table["ε of the release"]["Poster, Theorem 2"]
    )
    assert "score range [0, 10]" in table["public inputs"]["Poster, Theorem 2"]
    # the answer that opens the notebook is this column's, in numbers
    assert "## Which ε for the mean of `score` over 800 rows?" in text
    if results["feasible"]:
        low, high = results["feasible_interval"]
        assert f"Any ε from {low:.4g} to {high:.4g} meets both" in text
        # the attacker at the upper end: a pure ε's advantage tanh(ε/2)
        assert f"the others it flags by at most {math.tanh(high / 2):.3g}" in text
        # singling out one of k at both ends: the bound e^ε/k (while e^ε/k ≤ 1 − e^−ε(1 − 1/k))
        # and k-ary randomized response's e^ε/(e^ε + k − 1), in closed form
        for k in (10, 1000):
            bound = [min(math.exp(e) / k, 1 - math.exp(-e) * (1 - 1 / k)) for e in (low, high)]
            attained = [math.exp(e) / (math.exp(e) + k - 1) for e in (low, high)]
            assert f"| {bound[0]:.4g} to {bound[1]:.4g} |" in text
            assert f"| {attained[0]:.4g} to {attained[1]:.4g} |" in text
    else:
        assert "No ε meets every requirement: " in text


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"column": "agee"}, r"has no column 'agee'; its columns are: id, age$"),
        (
            {"value_range": [0, 100]},
            r"has 1 of 50 values outside value_range \[0, 100\] \(from 20 to 104\)",
        ),
        ({"data_path": "missing.parquet"}, r"no such file"),
    ],
)
def test_synthesis_refuses_a_bad_column_before_a_kernel_starts(
    tmp_path, monkeypatch, changes, message
):
    def no_kernel(*args, **kwargs):
        raise AssertionError("a kernel was started")

    monkeypatch.setattr(reproduce.papermill, "execute_notebook", no_kernel)
    ages = survey_ages(50, 3)
    path = tmp_path / "survey.parquet"
    write_table(
        pd.DataFrame({"id": np.arange(ages.size), "age": ages.astype(np.int64)}), path, "parquet"
    )
    given = {"data_path": str(path), "column": "age", **changes}
    if given["data_path"] == "missing.parquet":
        given["data_path"] = str(tmp_path / "missing.parquet")
    with pytest.raises(ValueError, match=message) as refusal:
        reproduce.run_notebook("synthesis", given, tmp_path / "out")
    assert "\n" not in str(refusal.value)
    assert not (tmp_path / "out").exists()


@pytest.mark.notebook
def test_synthesis_on_50000_incomes_keeps_every_text_clear(tmp_path):
    """A reader's 50,000-row Parquet of incomes: the line saying what came from the file used to
    be drawn over panel (a)'s title; save_figure now refuses overlapping texts, so the run
    finishing is the check, and the risk scale has every method and every deployment (a method
    with no ε to read in its row, saying why)."""
    incomes = np.round(np.exp(np.random.default_rng(1).normal(10.5, 0.8, 50000))).clip(0, 1e6)
    path = tmp_path / "incomes.parquet"
    write_table(pd.DataFrame({"income": incomes}), path, "parquet")
    changes = {
        "data_path": str(path),
        "column": "income",
        "value_range": [0, 1000000],
        "lower_bound": 1000,
        "max_error": 5000,
        "noise_bound": 1000,
    }
    run("synthesis", changes, tmp_path / "out")
    scale = pd.read_csv(tmp_path / "out" / "risk_scale.csv")
    deployments = pd.read_csv(tmp_path / "out" / "deployments.csv")
    assert (scale.kind == "deployment").sum() == len(deployments)
    methods = pd.read_csv(tmp_path / "out" / "methods.csv")
    # every method has its row; those with an ε > 0 a place on the scale, the others the reason
    rows = scale[scale.kind == "method"]
    assert rows.row.tolist() == methods.method.tolist()
    placed = rows.advantage.notna()
    assert placed.sum() == int(np.isfinite(methods.epsilon).sum()) - int(
        (methods.epsilon == 0).sum()
    )
    assert rows.reading[~placed].str.startswith("not placed: ").all()


def lee_clifton_by_brute_force(values: np.ndarray, query: str, rho: float, bounds) -> tuple:
    """Lee & Clifton's Eq. (7) and exact ε for ``query`` of the n - 1 values each world holds, the
    n worlds enumerated with NumPy and the noise set by the public Δ of that statistic."""
    f = {"variance": np.var, "median": np.median, "quantile": lambda w: np.quantile(w, 0.9)}[query]
    answers = np.array([f(np.delete(values, j)) for j in range(values.size)])
    n, (lb, ub) = values.size, bounds
    m, w = n - 1, ub - lb
    public = {"variance": (m - 1) * w * w / (m * m), "median": w / 2, "quantile": w}[query]
    upper = pw.epsilon_upper_bound(n, float(np.ptp(answers)), public, rho)
    return upper, pw.exact_epsilon(answers, public, rho)


@pytest.mark.notebook
@pytest.mark.parametrize("query", ["variance", "quantile"])
def test_synthesis_lee_clifton_for_another_statistic(tmp_path, query):
    scores = np.random.default_rng(8).integers(0, 41, 150).astype(float) / 4  # quarter points
    scores[0] = 10.0 if query == "variance" else scores[0]
    path = tmp_path / "scores.csv"
    write_table(pd.DataFrame({"score": scores}), path, "csv")
    changes = score_changes(path) | {"rho": 0.05, "lee_clifton_query": query}
    _, results = run("synthesis", changes, tmp_path / "out")
    table = pd.read_csv(tmp_path / "out" / "methods.csv").set_index("method")
    upper, exact = lee_clifton_by_brute_force(scores, query, 0.05, (0, 10))
    for name, value in (("Lee & Clifton, Eq. (7)", upper), ("Lee & Clifton, exact", exact)):
        if math.isinf(value):
            assert math.isinf(table.epsilon[name]), name
        else:
            assert table.epsilon[name] == pytest.approx(value, rel=1e-9), name
    statistic = "variance" if query == "variance" else "0.9-quantile"
    assert results["statistic_lee_clifton"] == statistic
    assert table["ε of the release"]["Lee & Clifton, exact"].startswith(
        f"{statistic} of the 149 values of 'score' present"
    )
    # panel (a) is the mean's, whatever Lee & Clifton's release
    assert (
        "mean of all 150 values of 'score', Δ = 10/150"
        in table["ε of the release"]["Poster, Theorem 2"]
    )


# --- synthesis: calibrating to a stated risk at the edges ----------------------------------------


@pytest.mark.notebook
def test_synthesis_calibrates_a_tiny_range_to_risks_near_zero_and_one(tmp_path):
    """1,000 rows on the public range [0, 1]: an advantage of 1e-6, below δ (no ε meets it on the
    standard Gaussian route), and a TPR of 0.999 at FPR 0.001; the run finishes, its figure keeps
    to the style, and every noise is the closed form's."""
    changes = {
        "demo_n_people": 1000,
        "value_range": [0, 1],
        "demo_ages": [0, 1],
        "lower_bound": 0.5,
        "max_error": 0.05,
        "noise_bound": 0.01,
        "max_advantage": 1e-6,
        "max_tpr": 0.999,
        "at_fpr": 0.001,
    }
    text, results = run("synthesis", changes, tmp_path / "out")
    rows = pd.DataFrame(results["noise_for_risk"]).set_index(["mechanism", "kind"])
    delta = 1 / 1000
    gaussian_adv = rows.loc[("Gaussian", "advantage")]
    assert gaussian_adv.noise_aware == pytest.approx(
        delta / (2 * math.sqrt(2) * special.erfinv(1e-6)), rel=1e-9
    )
    assert gaussian_adv.noise_standard == "inf" and gaussian_adv.noise_ratio == "inf"
    assert "no finite Gaussian noise (no ε at δ = 1e-05 meets it)" in text
    laplace_tpr = rows.loc[("Laplace", "tpr")]
    mu = stats.laplace.isf(0.001) + stats.laplace.ppf(0.999)
    assert laplace_tpr.noise_aware == pytest.approx(delta / mu, rel=1e-9)
    # pure ε-DP at TPR 0.999, FPR 0.001: ε = ln((1 − α)/(1 − t)), larger than the Laplace's μ
    assert laplace_tpr.epsilon_standard == pytest.approx(math.log(0.999 / 0.001), rel=1e-9)
    assert laplace_tpr.noise_ratio == pytest.approx(mu / math.log(999), rel=1e-9)
    gaussian_tpr = rows.loc[("Gaussian", "tpr")]
    assert gaussian_tpr.noise_aware == pytest.approx(
        delta / (stats.norm.isf(0.001) + stats.norm.ppf(0.999)), rel=1e-9
    )
    assert float(gaussian_tpr.noise_ratio) > 1
    # the risk is named where the run states its calibration (the figure's caption, under its
    # length limit, may say it only in short when the run has more to say about panel (a))
    assert "TPR ≤ 0.999 at FPR 0.001" in text


# --- what one method alone cannot use: that method says so, every other one is computed ----------

SHOARAN = "Shoaran et al., MTA ≤ public lower bound of the mean"


def departures(out) -> dict:
    """The style departures a run recorded in captions.json, by figure (none: an empty dict)."""
    captions = json.loads((out / "captions.json").read_text(encoding="utf-8"))
    return {name: entry["problems"] for name, entry in captions.items() if "problems" in entry}


@pytest.mark.notebook
def test_synthesis_on_a_0_1_column_computes_every_method_but_shoaran(tmp_path, monkeypatch):
    """Issue 46: a new user's 0/1 column with no lower bound of the mean was refused before a
    kernel started ("lower_bound must be in (0, inf)"), though only Shoaran et al.'s relative
    error needs one. The run now computes every other method and says which does not apply and
    why: in the answer, the table, the risk scale, the figure, its caption and results.json; as a
    reader's run it records no style departure."""
    monkeypatch.setenv(figures.STRICT, "0")  # a reader's run: departures recorded, not raised
    changes = {
        "demo_n_people": 50,
        "value_range": [0, 1],
        "demo_ages": [0, 1],
        "lower_bound": 0,  # as the command line reads -p lower_bound 0
        "max_error": 0.1,
    }
    text, results = run("synthesis", changes, tmp_path)
    why = (
        "L = 0: give lower_bound, a public positive lower bound of the mean in years (a relative "
        "error needs a mean bounded away from 0)"
    )
    assert f"| left out: {SHOARAN} | does not apply: {why} |" in text  # the answer's table
    assert f"left out, not applicable: {SHOARAN}: {why}" in text  # under the table
    table = pd.read_csv(tmp_path / "methods.csv").set_index("method")
    assert math.isnan(table.epsilon[SHOARAN])
    assert table.meaning[SHOARAN] == f"not applicable: {why}"
    assert results["not_applicable"] == {SHOARAN: why}
    # every other method computed: those with closed forms at Δ = 1/50, the rest with a number
    # or an honest "none" (ρ = 0.002 is below the prior 1/50; 50 people are too few for Hsu et
    # al.'s accuracy whatever the noise)
    eps = table.epsilon
    assert eps["Poster, Theorem 2"] == pytest.approx(math.log(20) / 50, rel=1e-9)
    assert eps["Hsu et al., budget at N"] == pytest.approx(math.log1p(30000 / (50 * P)), rel=1e-9)
    assert eps["Hypothesis testing"] == pytest.approx(2 * math.atanh(0.25), rel=1e-9)
    unmet = ["Lee & Clifton, Eq. (7)", "Lee & Clifton, exact", "Hsu et al., accuracy at N"]
    assert all(math.isnan(eps[m]) for m in unmet)
    assert sorted(results["recommendations"]) == sorted(set(table.index) - {SHOARAN, *unmet})
    assert results["feasible"] is False and "no ε at all meets Lee & Clifton, Eq. (7)" in text
    scale = pd.read_csv(tmp_path / "risk_scale.csv").set_index("row")
    assert scale.reading[SHOARAN] == f"not placed: not applicable: {why}"
    assert math.isnan(scale.advantage[SHOARAN])
    # the figure writes the reason on the method's rows, (a) and (c); the caption names it
    svg = (tmp_path / "methods_and_deployments.svg").read_text(encoding="utf-8")
    note = registry.in_whole_words(f"not applicable: {why}", plot.NOTE_CHARACTERS)
    assert svg.count(note) == 2 and note.startswith("not applicable: L = 0: give lower_bound")
    caption = json.loads((tmp_path / "captions.json").read_text(encoding="utf-8"))
    assert "(Shoaran et al. does not apply)" in caption["methods_and_deployments"]["caption"]
    assert departures(tmp_path) == {}


@pytest.mark.notebook
def test_synthesis_where_kazan_reiter_and_the_tpr_risk_do_not_apply(tmp_path, monkeypatch):
    """r̃ ≤ 1 and max_tpr ≤ at_fpr were refused before a kernel started, though only Kazan &
    Reiter's profile and the calibration to a TPR read them: both now say why, and the interval
    and the advantage's calibration are the defaults'."""
    monkeypatch.setenv(figures.STRICT, "0")
    text, results = run("synthesis", {"kr_r_tilde": 0.5, "max_tpr": 0.01}, tmp_path)
    profile = "their Theorem 4 needs r̃ > 1, got r̃ = 0.5"
    risk = (
        "a test accusing at random reaches TPR = FPR = 0.01 whatever the noise: max_tpr must "
        "exceed at_fpr"
    )
    assert results["not_applicable"] == {
        "Risk profile (Kazan & Reiter)": profile,
        "calibration to TPR ≤ 0.01 at FPR 0.01": risk,
    }
    committed = json.loads((FIGURES / "synthesis" / "results.json").read_text())
    assert results["feasible_interval"] == pytest.approx(committed["feasible_interval"], rel=1e-12)
    # the defaults' calibrations, the one to a TPR left out
    kept = [r for r in committed["noise_for_risk"] if not r["target"].startswith("TPR")]
    assert [r["target"] for r in results["noise_for_risk"]] == [r["target"] for r in kept]
    assert [r["target"] for r in kept] == [
        "advantage ≤ 0.25",
        "success ≤ 0.2 singling out one of 10",
    ] * 2
    for ours, theirs in zip(results["noise_for_risk"], kept):
        assert ours["noise_aware"] == pytest.approx(theirs["noise_aware"], rel=1e-9)
    assert f"| left out: Risk profile (Kazan & Reiter) | does not apply: {profile} |" in text
    assert f"| noise for TPR ≤ 0.01 at FPR 0.01 | none: it does not apply ({risk}) |" in text
    assert f"TPR ≤ 0.01 at FPR 0.01: not applicable: {risk}" in text
    assert departures(tmp_path) == {}


@pytest.mark.notebook
def test_hsu_tiny_error_names_the_budgets_no_cost_makes_feasible(tmp_path, monkeypatch):
    """Issue 46: at d = 0.001 no P shown is feasible with B = $10,000 and only the smallest with
    $30,000; the two drew nothing and a reader's run recorded "the line 'B = $30,000' lies wholly
    outside the axes". The legend now says which budget is infeasible and the lone point is a
    dot; the run records no departure."""
    monkeypatch.setenv(figures.STRICT, "0")
    _, results = run("hsu_2014", {"error": 0.001, "max_study_size": 10_000_000}, tmp_path)
    assert departures(tmp_path) == {}
    scan = pd.read_csv(tmp_path / "max_epsilon_vs_cost_and_budget.csv")
    assert scans.infeasible_budgets(scan) == [10000.0]
    lone = scan[scans.lone_points(scan)]
    assert lone.budget.tolist() == [30000] and lone.expected_cost.tolist() == pytest.approx(
        [P / 10]
    )
    svg = (tmp_path / "max_epsilon_vs_cost_and_budget.svg").read_text(encoding="utf-8")
    assert "B = $10,000: infeasible at every P shown" in svg
    assert "B = $30,000 (a dot: feasible at that P alone)" in svg
    captions = json.loads((tmp_path / "captions.json").read_text(encoding="utf-8"))
    entry = captions["max_epsilon_vs_cost_and_budget"]
    assert "and none at any P with B = 10,000 dollars" in entry["caption"]
    assert "B = 30,000 dollars is feasible at isolated costs only, a dot each" in entry["alt"]
    assert results["max_feasible_epsilon"] is None  # at this study's P = $63.70, no study
