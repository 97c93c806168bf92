"""The synthesis chooses ε from public inputs: only the methods it marks as reading the data move
with the data. Its table, feasible interval and results come from package functions, checked here
against the committed run."""

import json
import math
import re

import duckdb
import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from choosing_epsilon import confidence as cf
from choosing_epsilon import economics as econ
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import queries, risk
from choosing_epsilon import relative_error as rel
from choosing_epsilon.harness import compare, outputs, parameters, reproduce
from choosing_epsilon.harness.paths import FIGURES
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis import run as synthesis_run
from choosing_epsilon.papers.synthesis import synthesis as synth


def results(params, tmp_path):
    reproduce.run_notebook("synthesis", params, tmp_path)
    return json.loads((tmp_path / "results.json").read_text())


@pytest.mark.notebook
def test_only_the_marked_methods_move_with_the_private_data(tmp_path):
    base = results({}, tmp_path / "base")
    other = results(
        {"seed": 7, "demo_ages": [20.0, 95.0]}, tmp_path / "other"
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
    got = results({"demo_n_people": 5000, "value_range": [0.0, 120.0]}, tmp_path)
    delta = 120 / 5000
    assert got["sensitivity"] == pytest.approx(delta)
    assert got["sensitivity_lee_clifton"] == pytest.approx(120 / 4999)
    eps = got["recommendations"]
    assert eps["Poster, Theorem 2"] == pytest.approx(delta * math.log(1 / 0.05) / 1)
    assert eps["Shoaran et al., MTA ≤ public lower bound of the mean"] == pytest.approx(
        delta * math.log(1 / 0.1) / (0.05 * 18)
    )
    # Eq. (7) with the public Δ = range/(n - 1): ε = range ln((n-1)ρ/(1-ρ)) / (oldest - youngest),
    # ages 18 to 90
    assert eps["Lee & Clifton, Eq. (7)"] == pytest.approx(
        120 * math.log(4999 * 0.002 / 0.998) / 72, rel=1e-9
    )


@pytest.mark.parametrize(
    "params, message",
    [
        ({"kr_r_tilde": 0.0}, r"parameter 'kr_r_tilde' must be in \(0, inf\)"),  # no ratio
        ({"demo_ages": [0.0, 200.0]}, r"demo_ages'? must lie inside value_range"),
        (
            {"value_range": [20.0, 60.0]},
            r"demo_ages'? must lie inside value_range",
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


# --- the package functions the notebook calls, against its committed run ---------------------

COMMITTED = FIGURES / "synthesis"
SURVEY = synth.Survey(20000, 0.0, 110.0, 110 / 20000, 110 / 19999, 18.0)


def committed_results():
    return json.loads((COMMITTED / "results.json").read_text())


def default_rows(eps):
    """The table's rows at the defaults, each method's ε taken from ``eps`` (by name)."""
    p_cost = econ.expected_cost(1274, 0.05)
    return [
        *synth.lee_clifton_rows(
            SURVEY, 0.002, eps["Lee & Clifton, Eq. (7)"], eps["Lee & Clifton, exact"], 229
        ),
        *synth.hsu_rows(
            SURVEY,
            eps["Hsu et al., budget at N"],
            eps["Hsu et al., accuracy at N"],
            p_cost,
            30000,
            5,
            0.1,
        ),
        synth.shoaran_row(
            SURVEY, eps["Shoaran et al., MTA ≤ public lower bound of the mean"], 0.05, 0.1
        ),
        *synth.poster_rows(SURVEY, eps["Poster, Theorem 2"], eps["Poster, Theorem 3"], 1, 0.95),
        *synth.reading_rows(eps["Posterior bound"], 0.5, 0.75, eps["Hypothesis testing"], 0.25),
        synth.kazan_reiter_row(eps["Risk profile (Kazan & Reiter)"], 0.5, 0.75, 3.0),
    ]


def default_table():
    return synth.methods_table(default_rows(committed_results()["recommendations"]))


def test_the_committed_epsilons_are_the_package_functions():
    eps = committed_results()["recommendations"]
    ages = np.random.default_rng(20261122).integers(18, 91, size=20000).astype(float)
    upper, exact = synth.lee_clifton_epsilons(ages, 110 / 19999, 0.002)
    assert upper == pytest.approx(eps["Lee & Clifton, Eq. (7)"], rel=1e-12)
    assert exact == pytest.approx(eps["Lee & Clifton, exact"], rel=1e-9)
    # Eq. (7) at ages 18 to 90 gives the span away
    assert synth.span_revealed_by_eq7(upper, 20000, 0.002, 110) == pytest.approx(72, rel=1e-12)
    assert eps["Hsu et al., budget at N"] == pytest.approx(
        econ.budget_epsilon(20000, econ.expected_cost(1274, 0.05), 30000), rel=1e-12
    )
    assert eps["Poster, Theorem 2"] == pytest.approx(
        cf.theorem2_epsilon(110 / 20000, 1, 0.95), rel=1e-12
    )
    assert eps["Shoaran et al., MTA ≤ public lower bound of the mean"] == pytest.approx(
        rel.epsilon_for_mta(110 / 20000, 18, 0.1, 0.05), rel=1e-12
    )
    # Kazan & Reiter's fixed-p̃ profile at p̃ = 1/2, ã = 3/4, r̃ = 3 is its Eq. (23)'s second case
    # (p̃ r̃ > ã): log((√(x² + 4d(1 − ã)) + x) / (2(1 − ã))), x = r̃(1 − p̃) = 1.5, d = p̃ r̃ − ã
    x, d = 1.5, 0.75
    closed = math.log((math.sqrt(x * x + 4 * d * 0.25) + x) / 0.5)
    assert eps["Risk profile (Kazan & Reiter)"] == pytest.approx(closed, rel=1e-12)


def test_rows_reproduce_the_committed_table():
    table = default_table()
    committed = pd.read_csv(COMMITTED / "methods.csv")
    assert list(table.columns) == list(committed.columns) == synth.COLUMNS
    text = [c for c in synth.COLUMNS if c != "epsilon"]
    pd.testing.assert_frame_equal(table[text], committed[text])
    assert np.allclose(table.epsilon, committed.epsilon, rtol=1e-9)


def test_feasibility_and_results_are_the_committed_ones():
    table = default_table()
    window = synth.feasibility(table)
    results = committed_results()
    assert window.feasible and window.interval == results["feasible_interval"]
    assert window.summary() == (
        "binding from below: Poster, Theorem 2 (ε ≥ 0.01648); binding from above: "
        "Hsu et al., budget at N (ε ≤ 0.02327)\n"
        "a feasible ε exists: True — any ε in [0.01648, 0.02327] (panel (a) only; "
        "Lee & Clifton's ε is for another release)"
    )
    calibrated = synthesis_run.noise_for_risk_table(
        SURVEY, parameters.committed_values("synthesis")
    )
    stated = synthesis_run.stated(parameters.committed_values("synthesis"))
    got = synthesis_run.results(
        table, window, 110 / 20000, 110 / 19999, 18.0, calibrated=calibrated, stated=stated
    )
    # by content, as make reproduce keeps results.json: equal to compare's tolerances
    assert compare.results_equivalent(json.loads(json.dumps(outputs.strict_json(got))), results)
    assert not compare.results_equivalent(got | {"feasible_interval": [0.0, 1.0]}, results)


def one_mechanism(lower, upper, **extra):
    rows = [
        synth.MethodRow("utility", lower, "lower (utility)", "(a)", "", "", "no", ""),
        synth.MethodRow("privacy", upper, "upper (privacy)", "(a)", "", "", "no", ""),
        synth.MethodRow("Poster, Theorem 3", 99.0, "lower (utility)", "(a)", "", "", "no", ""),
    ]
    rows += [
        synth.MethodRow(n, e, "upper (privacy)", "(b)", "", "", "yes", "") for n, e in extra.items()
    ]
    return synth.methods_table(rows)


def test_feasibility_when_the_bounds_cross_or_a_requirement_is_unmet():
    crossed = synth.feasibility(one_mechanism(0.5, 0.1))
    assert not crossed.feasible and crossed.interval is None
    assert crossed.summary().endswith(
        "no feasible ε: utility needs ε ≥ 0.5, but privacy allows ε ≤ 0.1: 5 times as much"
    )  # Theorem 3 (99) is shown, never a bound
    assert crossed.conflict == "utility needs ε ≥ 0.5, but privacy allows ε ≤ 0.1: 5 times as much"
    unmet = synth.feasibility(one_mechanism(0.01, 0.1, other=math.nan))
    assert unmet.unmet == ["other"] and not unmet.feasible
    assert unmet.summary().endswith("no feasible ε: no ε at all meets other")
    assert unmet.conflict == "no ε at all meets other"
    # no utility requirement at all: the interval starts at 0, and nothing binds from below
    alone = synth.feasibility(one_mechanism(0.01, 0.1).iloc[[1]])
    assert alone.feasible and alone.interval == [0.0, 0.1] and alone.binding_lower is None
    assert alone.summary().startswith("from below: no utility requirement applies (ε ≥ 0)")
    unbounded = synth.feasibility(one_mechanism(0.01, math.inf))
    assert unbounded.upper == math.inf and unbounded.binding_upper is None
    assert unbounded.feasible and "no finite bound from above" in unbounded.summary()


def deployed_at(advantages, names=None):
    """Deployments with pure ε at the given advantages, named ``names`` (d0, d1, ... by default)."""
    epsilons = [2 * math.atanh(a) for a in advantages]
    names = names or [f"d{i}" for i in range(len(epsilons))]
    return pd.DataFrame(
        {
            "Organization": [n.split(": ")[0] for n in names],
            "Context": [n.split(": ")[-1] if ": " in n else "" for n in names],
            "label": [registry.short_label(*n.split(": ")) if ": " in n else n for n in names],
            "scale_model": "pure",
            "local": False,
            "unit": "User-level",
            "epsilon": epsilons,
            "delta": 0.0,
            "rho": math.nan,
            "mu": math.nan,
        }
    )


def scale_of(methods, advantages):
    """A risk scale of ``methods`` and deployments with pure ε at the given advantages."""
    return synth.risk_scale(methods, deployed_at(advantages))


def answer_at(methods, advantages, names=None, **kwargs):
    """The answer in short for ``methods`` beside deployments at ``advantages``."""
    deployed = deployed_at(advantages, names)
    scale = synth.risk_scale(methods, deployed)
    window = synth.feasibility(methods)
    return synth.Answer(SURVEY, methods, window, scale, deployed, **kwargs).markdown()


def answer_table(text):
    """The answer's table as {what: value}."""
    rows = [line.strip("|").split(" | ") for line in text.splitlines() if line.startswith("| ")]
    return {what.strip(): value.strip() for what, value in rows[1:]}


def test_the_answer_in_short_states_the_interval_the_attacker_and_the_deployments():
    table = one_mechanism(0.1, 0.5)
    answer = answer_at(table, [0.01, 0.3])
    title, sentences, rows = answer.split("\n\n")[:3]
    assert title == "## Which ε for the mean age of 20,000 survey participants?"
    assert sentences.startswith(
        "**For the mean age of 20,000 survey participants, the risk you accept allows ε up to "
        "0.5 (by privacy); the accuracy you ask for needs ε ≥ 0.1 (by utility).** Any ε from "
        "0.1 to 0.5 meets both: the risk you accept binds"
    )
    # three sentences (no calibration given), then a table of one fact a row
    assert len(re.findall(r"[.!?]\**(?:\s|$)", sentences)) == 3
    table_rows = answer_table(answer)
    assert table_rows["ε that meets every requirement that applies"] == (
        "0.1 (utility) to 0.5 (privacy)"
    )
    # the attacker at each end: advantage tanh(ε/2), TPR at 1% e^ε × 1%, a guess (1 + adv)/2
    advantage = next(k for k in table_rows if k.startswith("by how much the share"))
    assert table_rows[advantage] == f"{math.tanh(0.05):.3g} to {math.tanh(0.25):.3g}"
    tpr = next(k for k in table_rows if k.startswith("share of those who took part"))
    assert table_rows[tpr] == f"{math.exp(0.1) * 0.01:.4g} to {math.exp(0.5) * 0.01:.4g}"
    guess = next(k for k in table_rows if k.startswith("how often a guess"))
    assert table_rows[guess] == (
        f"{round(50 * (1 + math.tanh(0.05)))} in 100 to {round(50 * (1 + math.tanh(0.25)))} in 100"
    )
    assert table_rows["deployments that allow a larger advantage than ε = 0.5"] == (
        "1 of the 2 that state a guarantee; the strictest of them all, d0, allows 0.01"
    )
    assert f"the others it flags by at most {math.tanh(0.25):.3g}" in sentences
    assert (
        "1 of the 2 published deployments that state a guarantee allow more than ε = 0.5 does; "
        "the strictest of them all, d0, allows 0.01" in sentences
    )
    crossed = one_mechanism(0.5, 0.1)
    none = answer_at(crossed, [0.3])
    conflict = "utility needs ε ≥ 0.5, but privacy allows ε ≤ 0.1: 5 times as much"
    assert f"No ε meets every requirement: {conflict}." in none
    rows = answer_table(none)
    assert rows["ε that meets every requirement that applies"] == f"none: {conflict}"
    # the bound that binds is named, and the attacker read there
    binding = synth.feasibility(crossed).binding_upper
    assert rows["largest ε the privacy and budget bounds allow"] == f"0.1 ({binding})"
    attacker = "At ε = 0.1, someone guessing whether a given person took part is right at most"
    assert f"{attacker} {round(50 * (1 + math.tanh(0.05)))} in 100 times" in none
    assert "the one published deployment that states a guarantee (d0) allows more: 0.3" in none


def test_a_long_name_is_shortened_in_whole_words_in_the_prose_and_whole_in_the_table():
    """The committed run's least deployment has a name of 66 characters: the prose keeps its first
    whole words, the table the whole name; no word of the answer ends in an ellipsis."""
    long_name = "Wikimedia Foundation: Wikipedia Russian Editor Activity Statistics"
    answer = answer_at(one_mechanism(0.1, 0.5), [0.05, 0.3], names=[long_name, "Other: other"])
    assert (
        "the strictest of them all, Wikimedia Foundation: Wikipedia Russian Editor …, allows"
        in (answer)
    )
    assert f"the strictest of them all, {long_name}, allows 0.05" in answer
    assert not re.search(r"\w…", answer)
    committed = synthesis_run.the_answer(defaults()).markdown()
    assert not re.search(r"\w…", committed) and "Acti…" not in committed


def test_rows_name_unmeetable_and_vacuous_requirements():
    lee, exact = synth.lee_clifton_rows(SURVEY, 1e-5, math.nan, math.nan, 229)
    assert lee.meaning == "none: ρ = 1e-05 is below the prior 1/n = 5e-05"
    assert exact.meaning == "none, as above"
    _, never = synth.hsu_rows(SURVEY, 0.02, math.inf, 63.7, 30000, 5, 0.1)
    assert math.isnan(never.epsilon)
    # the error below which the sampling term 2 exp(-N T²/12) alone reaches α, in years
    floor = 110 * math.sqrt(12 * math.log(2 / 0.1) / 20000)
    assert never.meaning.endswith(
        f": none, with 20,000 people the sampling term alone exceeds 0.1; no ε meets an error "
        f"below {floor:.4g} years at this N"
    )
    _, always = synth.hsu_rows(SURVEY, 0.02, 0.0, 63.7, 30000, 200, 0.1)
    assert always.meaning.endswith(", wider than the range 110: always met")
    posterior, _ = synth.reading_rows(math.nan, 0.9, 0.75, 0.5, 0.25)
    assert posterior.meaning == "prior 0.9 → posterior ≤ 0.75: none, the prior already exceeds it"


@pytest.mark.parametrize(
    "value, table, six",
    [
        (math.nan, "none: unmet", "nan"),
        (math.inf, "∞: any ε", "∞"),
        (0.0140713533, "0.01407", "0.0140714"),
    ],
)
def test_epsilon_texts(value, table, six):
    assert synth.epsilon_text(value) == table
    assert synth.epsilon_in_six_figures(value) == six


def test_readable_table_writes_out_every_epsilon():
    shown = synth.readable_table(default_table())
    assert shown.epsilon.tolist()[:3] == ["5.639", "80.25", "0.02327"]


# --- the table at other inputs, in one kernel (the notebook's exercises) -------------------------


def test_methods_at_the_defaults_is_the_committed_table():
    table = synthesis_run.methods_at()
    committed = pd.read_csv(COMMITTED / "methods.csv")
    text = [c for c in synth.COLUMNS if c != "epsilon"]
    pd.testing.assert_frame_equal(table[text], committed[text])
    assert np.allclose(table.epsilon, committed.epsilon, rtol=1e-9)


def test_a_readers_script_gets_the_table_without_the_harness():
    """``methods_for`` on the survey's column, every input named, gives the committed table: the
    harness only reads the notebook's parameters into it."""
    params = parameters.committed_values("synthesis")
    column = synth.survey_column(
        synth.synthetic_ages(params["demo_n_people"], params["demo_ages"], params["seed"])
    )
    inputs = {name: params[name] for name in synthesis_run.METHOD_INPUTS}
    # what the demo states about its release, in years: a reader's script states its own
    stated = synth.release_inputs(
        from_file=False, value_range=params["value_range"], max_error=None, noise_bound=None,
        lower_bound=None, pays_participants=None,
    )  # fmt: skip
    assert (stated.max_error, stated.noise_bound, stated.lower_bound) == (5.0, 1.0, 18.0)
    survey, table = synth.methods_for(column, stated=stated, **inputs)
    pd.testing.assert_frame_equal(table, synthesis_run.methods_at())
    assert survey == synthesis_run.survey_and_methods(params)[0]
    stated = ["max_advantage", "max_tpr", "at_fpr", "max_singling_out", "singling_out_among"]
    targets = synth.risk_targets(*(params[name] for name in stated))
    pd.testing.assert_frame_equal(
        synth.noise_for_risk_table(survey, targets, params["gaussian_delta"]),
        synthesis_run.noise_for_risk_table(survey, params),
    )


def test_synthetic_ages_are_the_committed_survey():
    ages = synth.synthetic_ages(20000, [18, 90], 20261122)
    assert ages.min() == 18 and ages.max() == 90 and np.all(ages == np.round(ages))
    # the committed "no posterior can exceed 1/229": the rarest age has 229 people
    assert np.unique(ages, return_counts=True)[1].min() == 229


def test_methods_at_other_inputs_follow_the_closed_forms():
    small = synthesis_run.methods_at(demo_n_people=2000).set_index("method").epsilon
    assert small["Poster, Theorem 2"] == pytest.approx(110 / 2000 * math.log(20), rel=1e-12)
    assert small["Hsu et al., budget at N"] == pytest.approx(
        math.log1p(30000 / (2000 * 0.05 * 1274)), rel=1e-12
    )
    assert math.isnan(small["Hsu et al., accuracy at N"])  # 2 exp(-N T²/12) = 1.42 > 0.1
    narrow = synthesis_run.methods_at(value_range=[18, 110]).set_index("method").epsilon
    wide = synthesis_run.methods_at().set_index("method").epsilon
    for name in ["Lee & Clifton, Eq. (7)", "Lee & Clifton, exact", "Poster, Theorem 3"]:
        assert narrow[name] / wide[name] == pytest.approx(92 / 110, rel=1e-9), name
    below_prior = synthesis_run.methods_at(rho=1e-5).set_index("method").epsilon
    assert math.isnan(below_prior["Lee & Clifton, exact"])


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"n_peple": 2000}, r"synthesis has no parameter 'n_peple'"),
        ({"demo_n_people": 2}, r"parameter 'demo_n_people' must be in \[3, 10\*\*7\], got 2"),
        ({"n_people": 2}, r"parameter 'demo_n_people' must be in \[3, 10\*\*7\], got 2"),
        ({"value_range": [20, 60]}, r"demo_ages'? must lie inside value_range"),
        ({"at_fpr": 1.0}, r"parameter 'at_fpr' must be in \(0, 1\) \(the calibration .*1.0$"),
        ({"lower_bound": [18]}, r"'lower_bound' must be of type float\? \(any finite"),
        ({"gaussian_delta": 0.0}, r"parameter 'gaussian_delta' must be in \(0, 1\), got 0.0"),
    ],
)
def test_methods_at_refuses_bad_inputs_in_one_line(changes, message):
    with pytest.raises(ValueError, match=message):
        synthesis_run.methods_at(**changes)


# --- the reader's own data: a column as distinct values and counts --------------------------------


def parquet(tmp_path, df: pd.DataFrame, name: str = "survey.parquet"):
    """``df`` written as a Parquet file by DuckDB; its path."""
    path = tmp_path / name
    con = duckdb.connect(":memory:")
    con.register("df", df)
    con.execute(f"COPY df TO '{path}' (FORMAT parquet)")
    con.close()
    return path


def defaults(**changes):
    """The synthesis's committed parameters with ``changes``."""
    return {**parameters.committed_values("synthesis"), **changes}


def test_a_column_holds_its_rows_mean_and_rarest_value():
    column = synth.Column(np.array([1.0, 2.5, 7.0]), np.array([3, 1, 2]))
    expanded = np.repeat(column.values, column.counts)
    assert column.n == 6 and column.fewest == 1 and column.span == 6.0
    assert column.mean == pytest.approx(expanded.mean(), rel=1e-15)
    moved = column.moved(7.0, 2.5)  # one row of 7 recorded as 2.5: merged with the others
    assert moved.values.tolist() == [1.0, 2.5, 7.0] and moved.counts.tolist() == [3, 2, 1]
    gone = column.moved(2.5, 9.0)  # the only row of 2.5 moved: the value disappears
    assert gone.values.tolist() == [1.0, 7.0, 9.0] and gone.counts.tolist() == [3, 2, 1]


def test_the_synthetic_survey_is_its_ages_counted():
    column = synthesis_run.read_survey(defaults())
    ages = synth.synthetic_ages(20000, [18, 90], 20261122)
    values, counts = np.unique(ages, return_counts=True)
    np.testing.assert_array_equal(column.values, values)
    np.testing.assert_array_equal(column.counts, counts)
    assert column.source == "" and column.fewest == 229


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=3, max_size=60),
    st.floats(0.05, 0.9),
)
def test_lee_clifton_from_counts_equals_the_worlds_of_the_expanded_column(ages, rho):
    ages = np.array(ages, dtype=float)
    n = ages.size
    assume(rho >= 1 / n)
    delta_lc = 40 / (n - 1)  # a public range [0, 40]
    got = synth.lee_clifton_counted(synth.survey_column(ages), delta_lc, rho)
    if np.ptp(ages) == 0:
        assert got == (math.inf, math.inf)
        return
    want = synth.lee_clifton_epsilons(ages, delta_lc, rho)
    for g, w in zip(got, want):
        assert g == w or g == pytest.approx(w, rel=1e-9)


STATISTICS = {
    "mean": np.mean,
    "sum": np.sum,
    "variance": np.var,
    "std": np.std,
    "median": np.median,
    "quantile": lambda w: np.quantile(w, 0.9),
}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=4, max_size=40),
    st.floats(0.05, 0.9),
    st.sampled_from(sorted(STATISTICS)),
)
def test_lee_clifton_for_any_statistic_keeps_the_worst_posterior_at_rho(ages, rho, query):
    ages = np.array(ages, dtype=float)
    n = ages.size
    assume(rho >= 1 / n)
    q = 0.9 if query == "quantile" else None
    public = queries.public_sensitivity(query, 0, 40, n - 1, q)  # a public range [0, 40]
    column = synth.survey_column(ages)
    upper, exact = synth.lee_clifton_counted(column, public, rho, query, q)
    # the worlds' answers by NumPy, and Eq. (3)'s worst case at the public Δ
    answers = np.array([STATISTICS[query](np.delete(ages, j)) for j in range(n)])
    if math.isinf(exact):
        assert 1 / synth.lee_clifton_fewest(column, query, q) <= rho or np.ptp(answers) == 0
        return
    assert pw.risk_at(answers, public, exact) == pytest.approx(rho, rel=1e-6)
    assert pw.risk_at(answers, public, upper) <= rho * (1 + 1e-9)  # Eq. (7) is safe


def test_the_sum_and_the_mean_give_one_epsilon_on_a_range_from_zero():
    # the sum is (n - 1) times the mean, and its public Δ, ub, is (n - 1) times the mean's
    mean = synthesis_run.methods_at(lee_clifton_query="mean").set_index("method").epsilon
    total = synthesis_run.methods_at(lee_clifton_query="sum").set_index("method").epsilon
    assert total["Lee & Clifton, exact"] == pytest.approx(mean["Lee & Clifton, exact"], rel=1e-9)


def test_a_parquet_column_is_read_as_counts(tmp_path):
    ages = np.array([30, 30, 31, 45, 45, 45, 99], dtype=np.int64)
    path = parquet(tmp_path, pd.DataFrame({"age": ages, "x": np.arange(7)}))
    column = synthesis_run.read_survey(defaults(data_path=str(path)))
    assert column.values.tolist() == [30.0, 31.0, 45.0, 99.0]
    assert column.counts.tolist() == [2, 1, 3, 1]
    assert column.source == str(path) and column.name == "age"
    assert column.heading == (
        f"7 rows of column 'age' in survey.parquet (4 distinct values), mean {ages.mean():.6g} "
        "(private)"
    )
    # the synthetic survey's demo_ages are not used with a file
    synthesis_run.read_survey(defaults(data_path=str(path), demo_ages=[0, 500]))


@pytest.mark.parametrize(
    "ages, changes, message",
    [
        ([5, 50, 111], {}, r"has 1 of 3 values outside value_range \[0, 110\] \(from 5 to 111\)"),
        ([5, 50, 60], {"value_range": [10, 110]}, r"1 of 3 values outside value_range \[10, 110\]"),
        ([30, 40], {}, r"has 2 rows: at least 3"),
        ([30, 40, 50], {"column": "height"}, r"has no column 'height'; its columns are: age"),
    ],
)
def test_a_bad_column_is_refused_in_one_line(tmp_path, ages, changes, message):
    path = parquet(tmp_path, pd.DataFrame({"age": np.array(ages, dtype=np.int64)}))
    with pytest.raises(ValueError, match=message) as refusal:
        synthesis_run.read_survey(defaults(data_path=str(path), **changes))
    assert "\n" not in str(refusal.value)


def test_the_table_says_what_was_read_from_a_file():
    survey = synth.Survey(5000, 0.0, 10.0, 10 / 5000, 10 / 4999, 1.0, "/d/scores.csv", "score")
    assert SURVEY.n_read == "no" and SURVEY.provenance is None and SURVEY.noun == "ages"
    assert survey.noun == "values of 'score'" and survey.range_text == "score range [0, 10]"
    assert survey.mechanism.startswith("mean of all 5,000 values of 'score', Δ = 10/5,000")
    assert survey.n_read.startswith("no, but n is the file's row count")
    assert survey.provenance == (
        "read from scores.csv: n = 5,000 rows, and for (b) every value's count\npublic: the "
        "range [0, 10], L, ρ and every other input"
    )
    rows = synth.lee_clifton_rows(survey, 0.01, 1.0, 2.0, 3)
    assert [r.reads for r in rows] == [
        "yes: every value's count (Δv = spread of the worlds' means)",
        "yes: every value's count (all the worlds' means)",
    ]
    poster = synth.poster_rows(survey, 0.1, 0.09, 1, 0.95)
    assert all(r.reads == survey.n_read for r in poster)
    table = synth.methods_table(rows + poster)
    window = synth.Feasibility(0.1, math.inf, "Poster, Theorem 2", None, [])
    column = synth.Column(np.array([1.0, 2.0]), np.array([2, 3]), "/d/scores.csv", "score")
    got = synthesis_run.results(table, window, 0.002, 0.002, 1.0, column)
    assert got["data"] == {
        "source": "/d/scores.csv",
        "column": "score",
        "n": 5,
        "distinct_values": 2,
    }
    assert got["uses_private_data"] == ["Lee & Clifton, Eq. (7)", "Lee & Clifton, exact"]
    assert "data" not in synthesis_run.results(table, window, 0.002, 0.002, 1.0)


def test_methods_at_reads_a_file_like_the_notebook(tmp_path):
    ages = np.random.default_rng(1).integers(18, 91, 3000)
    path = parquet(tmp_path, pd.DataFrame({"age": ages}))
    table = synthesis_run.methods_at(data_path=str(path)).set_index("method")
    want = synth.lee_clifton_epsilons(ages.astype(float), 110 / 2999, 0.002)
    assert table.epsilon["Lee & Clifton, Eq. (7)"] == pytest.approx(want[0], rel=1e-9)
    assert table.epsilon["Lee & Clifton, exact"] == pytest.approx(want[1], rel=1e-9)
    # on a file, the demo's noise bound of 1 year is not read: the poster asks for one
    assert math.isnan(table.epsilon["Poster, Theorem 2"])
    assert table.meaning["Poster, Theorem 2"] == (
        "not applicable: give noise_bound, the largest noise you accept, in units of 'age'"
    )
    given = synthesis_run.methods_at(data_path=str(path), noise_bound=1.0).set_index("method")
    assert given.epsilon["Poster, Theorem 2"] == pytest.approx(110 / 3000 * math.log(20), rel=1e-12)


def test_nulls_are_refused_with_what_the_reader_can_do(tmp_path):
    """The runner has no nulls option: the message says to drop or fill them in the file."""
    path = parquet(tmp_path, pd.DataFrame({"age": pd.array([30, None, 50, 60], dtype="Int64")}))
    with pytest.raises(ValueError, match=r"NULL in 1 of 4 rows") as refusal:
        synthesis_run.read_survey(defaults(data_path=str(path)))
    message = str(refusal.value)
    assert "nulls='drop'" not in message and "WHERE age IS NOT NULL" in message
    assert "\n" not in message


def test_lengths_and_values_are_worded_in_the_columns_units():
    ages = synth.Survey(100, 0, 110, 1.1, 1.1, 18)
    income = synth.Survey(100, 0, 1e5, 1e3, 1e3, 18, source="x.parquet", column="income")
    assert [ages.amount(1), ages.amount(5), ages.holding(90)] == ["1 year", "5 years", "aged 90"]
    assert income.amount(5) == "5 (in the units of 'income')"
    assert income.holding(90) == "with income 90"


# --- calibrating to the stated risk ---------------------------------------------------------------


def default_calibration():
    params = parameters.committed_values("synthesis")
    return synthesis_run.noise_for_risk_table(SURVEY, params)


def test_the_committed_calibration_is_the_package_functions():
    """noise_for_risk.csv and results.json hold the noise at the stated risks, by both routes."""
    table = default_calibration()
    committed = pd.read_csv(COMMITTED / "noise_for_risk.csv")
    assert list(committed.columns) == list(table.columns)
    numbers = ["noise_aware", "noise_standard", "noise_ratio", "epsilon_aware", "risk_standard"]
    for column in numbers:
        assert np.allclose(committed[column], table[column], rtol=1e-9), column
    stored = pd.DataFrame(committed_results()["noise_for_risk"])
    assert np.allclose(stored.noise_ratio, table.noise_ratio, rtol=1e-12)
    stated = ["advantage ≤ 0.25", "TPR ≤ 0.1 at FPR 0.01", "success ≤ 0.2 singling out one of 10"]
    assert list(stored.target) == stated * 2


def test_the_standard_laplace_route_is_the_hypothesis_testing_row():
    """Both ask for the ε of pure ε-DP whose advantage is max_advantage: one number."""
    laplace = default_calibration().set_index(["mechanism", "kind"]).loc[("Laplace", "advantage")]
    eps = committed_results()["recommendations"]["Hypothesis testing"]
    assert laplace.epsilon_standard == pytest.approx(eps, rel=1e-12)
    assert laplace.noise_standard == pytest.approx(SURVEY.delta / eps, rel=1e-12)


def test_the_answer_and_the_lines_say_both_routes():
    table = default_calibration()
    short = dict(synth.noise_rows(table, SURVEY))
    g = table.set_index(["mechanism", "kind"])
    advantage, tpr = short["noise for advantage ≤ 0.25"], short["noise for TPR ≤ 0.1 at FPR 0.01"]
    assert advantage.startswith(f"Gaussian σ = {g.noise_aware['Gaussian', 'advantage']:.4g} or")
    assert f"{g.noise_ratio['Gaussian', 'advantage']:.4g} times as much Gaussian noise" in advantage
    assert tpr.endswith("and the same Laplace noise")  # TPR 0.1 at FPR 0.01: the Laplace tail
    # the answer's sentence: the largest saving of the run
    said = synthesis_run.the_answer(defaults()).markdown()
    assert f"the noise is up to {table.noise_ratio.max():.4g} times less than choosing an" in said
    lines = synth.calibration_lines(table, SURVEY)
    assert len(lines) == 7 and lines[4].endswith("meets the worst case of its ε at this risk")
    # and how far below the stated risk each attack-aware noise keeps it: never above
    assert lines[6].startswith("each attack-aware noise allows at most the stated risk")
    assert (table.risk_aware <= table.risk).all()
    assert "which allows an advantage of 0.05781 where 0.25 was accepted" in lines[0]
    # a risk no (ε, δ) meets: said in words, and no finite noise
    v = parameters.committed_values("synthesis") | {"max_advantage": 1e-6}
    strict = synthesis_run.noise_for_risk_table(SURVEY, v)
    assert (
        "no finite Gaussian noise (no ε at δ = 1e-05 meets it)"
        in (synth.noise_rows(strict, SURVEY)[0][1])
    )
    assert (
        "((0, δ)-DP already allows advantage δ), so no finite noise"
        in (synth.calibration_lines(strict, SURVEY)[0])
    )


# --- a method whose own input rules it out: "not applicable", and every other one computed ------

SHOARAN = "Shoaran et al., MTA ≤ public lower bound of the mean"
KAZAN_REITER = "Risk profile (Kazan & Reiter)"


def run_at(**changes):
    """The survey, the table, the feasible interval, the risk scale and the answer at the
    defaults with ``changes``, as the notebook computes them."""
    v = defaults(**changes)
    v.update(parameters.check("synthesis", changes, partial=True))
    survey, table = synthesis_run.survey_and_methods(v)
    window = synth.feasibility(table)
    scale = synth.risk_scale(table, synthesis_run.deployments(v))
    return survey, table, window, scale, synthesis_run.the_answer(v).markdown()


NO_POSITIVE_BOUND = (
    "L = {}: give lower_bound, a public positive lower bound of the mean in years (a relative "
    "error needs a mean bounded away from 0)"
)


@pytest.mark.parametrize(
    "changes, why",
    [
        ({"lower_bound": 0.0}, NO_POSITIVE_BOUND.format(0)),
        ({"lower_bound": -4.0}, NO_POSITIVE_BOUND.format(0)),
        (
            {"lower_bound": 200.0},
            "L = 200 lies above the range's upper end 110: no mean reaches it",
        ),
        (
            {"value_range": [-5, 110], "lower_bound": -2.0},
            NO_POSITIVE_BOUND.format(-2),
        ),
    ],
)
def test_shoaran_without_a_positive_bound_in_the_range_does_not_apply(changes, why):
    """L = max(lb, lower_bound) not positive, or above the range: Shoaran et al.'s row says
    so with the reason, bounds nothing and is no unmet requirement; the other methods are the
    defaults' (the interval too, which Theorem 2 binds from below)."""
    _, table, window, scale, answer = run_at(**changes)
    rows = table.set_index("method")
    assert math.isnan(rows.epsilon[SHOARAN])
    assert rows.meaning[SHOARAN] == f"not applicable: {why}"
    assert synth.readable_table(table).set_index("method").epsilon[SHOARAN] == "not applicable"
    assert synth.not_applicable(table) == {SHOARAN: why}
    assert window.not_applicable == {SHOARAN: why} and window.unmet == []
    assert f"left out, not applicable: {SHOARAN}: {why}" in window.summary()
    # the others as at the defaults (with the wider range, the same steps)
    base_v = defaults(**{k: v for k, v in changes.items() if k != "lower_bound"})
    base = synthesis_run.survey_and_methods(base_v)[1].set_index("method")
    others = rows.index != SHOARAN
    assert np.allclose(rows.epsilon[others], base.epsilon[others], rtol=1e-12, equal_nan=True)
    assert window.feasible and window.binding_lower == "Poster, Theorem 2"
    assert window.interval == synth.feasibility(base.reset_index()).interval
    # the answer does not count it among those that agree, and says why it is left out
    assert f"Any ε from {window.lower:.4g} to {window.upper:.4g} meets both" in answer
    assert answer_table(answer)[f"left out: {SHOARAN}"] == f"does not apply: {why}"
    # the risk scale keeps its row, with no place on it and the reason
    on_scale = scale.set_index("row").loc[SHOARAN]
    assert (
        math.isnan(on_scale.advantage) and on_scale.reading == f"not placed: not applicable: {why}"
    )


def test_a_method_that_applies_keeps_the_defaults_words():
    survey, table, window, _, answer = run_at()
    assert survey.mean_floor_problem is None and synth.not_applicable(table) == {}
    assert window.not_applicable == {} and "left out" not in window.summary()
    assert f"Any ε from {window.lower:.4g} to {window.upper:.4g} meets both" in answer
    assert "does not apply" not in answer and "left out" not in answer


@pytest.mark.parametrize("r_tilde", [1.0, 0.5])
def test_kazan_reiter_at_a_ratio_of_at_most_one_does_not_apply(r_tilde):
    """Their Theorem 4 solves the profile for r̃ > 1; the upper bound it would set is left out,
    so the interval is the defaults' (the hypothesis-testing row binds from above)."""
    _, table, window, _, answer = run_at(kr_r_tilde=r_tilde)
    why = f"their Theorem 4 needs r̃ > 1, got r̃ = {r_tilde:g}"
    row = table.set_index("method").loc[KAZAN_REITER]
    assert math.isnan(row.epsilon) and row.meaning == f"not applicable: {why}"
    assert math.isnan(synth.kazan_reiter_epsilon(0.5, 0.75, r_tilde))
    assert window.not_applicable == {KAZAN_REITER: why} and window.feasible
    assert window.interval == committed_results()["feasible_interval"]
    assert answer_table(answer)[f"left out: {KAZAN_REITER}"] == f"does not apply: {why}"
    assert synth.kazan_reiter_epsilon(0.5, 0.75, 3.0) == pytest.approx(
        committed_results()["recommendations"][KAZAN_REITER], rel=1e-12
    )


def test_an_unmet_requirement_is_not_a_method_that_does_not_apply():
    """ρ below the prior: no ε meets it and nothing is feasible, while Shoaran et al., out of the
    question at L = 0, is named apart."""
    _, _, window, _, answer = run_at(rho=1e-5, lower_bound=0.0)
    assert window.unmet == ["Lee & Clifton, Eq. (7)", "Lee & Clifton, exact"]
    assert list(window.not_applicable) == [SHOARAN] and not window.feasible
    assert (
        "No ε meets every requirement: no ε at all meets Lee & Clifton, Eq. (7) (ρ = 1e-05 is "
        "below the prior 1/n = 5e-05); no ε at all meets Lee & Clifton, exact (as above)."
    ) in answer
    rows = answer_table(answer)
    assert rows["ε that meets every requirement that applies"].startswith(
        "none: no ε at all meets Lee"
    )
    assert rows[f"left out: {SHOARAN}"].startswith("does not apply: ")


@pytest.mark.parametrize("max_tpr, at_fpr", [(0.01, 0.01), (0.005, 0.01)])
def test_a_tpr_at_most_its_fpr_is_a_risk_no_calibration_applies_to(max_tpr, at_fpr):
    """A test that accuses at random reaches TPR = FPR whatever the noise: the TPR risk is left
    out, with the reason, and the noise is calibrated to the advantage alone."""
    targets = synth.risk_targets(0.25, max_tpr, at_fpr)
    assert [t.describe() for t in targets] == ["advantage ≤ 0.25"]
    skipped = synth.inapplicable_risks(max_tpr, at_fpr)
    why = (
        f"a test accusing at random reaches TPR = FPR = {at_fpr:g} whatever the noise: "
        "max_tpr must exceed at_fpr"
    )
    assert skipped == {f"TPR ≤ {max_tpr:g} at FPR {at_fpr:g}": why}
    calibrated = synth.noise_for_risk_table(SURVEY, targets, 1e-5)
    assert list(calibrated.target) == ["advantage ≤ 0.25"] * 2
    lines = synth.calibration_lines(calibrated, SURVEY, skipped)
    assert (
        len(lines) == 4
        and lines[-1] == f"TPR ≤ {max_tpr:g} at FPR {at_fpr:g}: not applicable: {why}"
    )
    short = synth.noise_rows(calibrated, SURVEY, skipped)
    target = f"TPR ≤ {max_tpr:g} at FPR {at_fpr:g}"
    assert short[-1] == (f"noise for {target}", f"none: it does not apply ({why})")
    v = defaults(max_tpr=max_tpr, at_fpr=at_fpr, max_singling_out=math.nan)
    assert synthesis_run.inapplicable_risks(v) == skipped
    assert (
        answer_table(synthesis_run.the_answer(v).markdown())[f"noise for {target}"] == short[-1][1]
    )
    assert synth.inapplicable_risks(0.1, 0.01) == {}  # the defaults' risk applies


def test_results_name_what_does_not_apply(tmp_path):
    """results.json names each method and stated risk that does not apply, with the reason, and
    stays strict JSON; at the defaults the entry is empty."""
    v = defaults(lower_bound=0.0, max_tpr=0.01)
    survey, table = synthesis_run.survey_and_methods(v)
    skipped = synthesis_run.inapplicable_risks(v)
    calibrated = synthesis_run.noise_for_risk_table(survey, v)
    found = synthesis_run.results(
        table, synth.feasibility(table), survey.delta, survey.delta_lc, survey.mean_floor,
        calibrated=calibrated, skipped=skipped,
    )  # fmt: skip
    assert found["not_applicable"] == {
        SHOARAN: NO_POSITIVE_BOUND.format(0),
        "calibration to TPR ≤ 0.01 at FPR 0.01": skipped["TPR ≤ 0.01 at FPR 0.01"],
    }
    assert SHOARAN not in found["recommendations"]
    json.loads(outputs.write_results(found, tmp_path), parse_constant=pytest.fail)
    assert committed_results()["not_applicable"] == {}


# --- singling out one of k on the scale and in the calibration (issue 48) -----------------------


def test_the_scale_reads_singling_out_for_every_row_with_a_guarantee():
    """Every row of the committed scale that has a guarantee has all four singling-out numbers,
    each the risk module's reading of that guarantee (bound ≥ attained ≥ 1/k), and a reading
    that says which is exact; a row without one has none, and says why."""
    scale = pd.read_csv(COMMITTED / "risk_scale.csv", keep_default_na=False, na_values=[""])
    placed = scale[scale.advantage.notna()]
    assert len(placed) > 30 and placed[synth.SINGLING_OUT_COLUMNS].notna().all().all()
    assert scale[scale.advantage.isna()][synth.SINGLING_OUT_COLUMNS].isna().all().all()
    for row in placed.itertuples():
        model = row.model if row.kind == "deployment" else "pure"
        g = risk.guarantee(model, row.epsilon, row.delta, row.rho, row.mu)
        for k in synth.SCALE_CANDIDATES:
            found = risk.singling_out(g, k)
            bound, attained = (
                getattr(row, f"single_out_{k}_bound"),
                getattr(row, f"single_out_{k}_attained"),
            )
            assert bound == pytest.approx(found.bound, rel=1e-9, abs=1e-12)
            assert attained == pytest.approx(found.attained, rel=1e-9, abs=1e-12)
            assert 1 / k - 1e-12 <= attained <= bound + 1e-12
        exact = "exactly the worst case" in row.singling_out_reading
        assert exact == (model in risk.EXACT_SINGLING_OUT)


def test_a_stated_chance_to_single_out_is_calibrated_and_read_back():
    targets = synth.risk_targets(0.25, 0.1, 0.01, 0.2, 10)
    assert [t.kind for t in targets] == ["advantage", "tpr", "singling_out"]
    calibrated = synth.noise_for_risk_table(SURVEY, targets, 1e-5)
    rows = calibrated[calibrated.kind == "singling_out"]
    assert len(rows) == 2 and (rows.risk_aware <= 0.2).all()
    for row in rows.itertuples():
        g = risk.Guarantee(risk.MECHANISMS[row.mechanism], mu=SURVEY.delta / row.noise_aware)
        assert risk.singling_out(g, 10).bound == pytest.approx(0.2, abs=1e-12)
    lines = synth.calibration_lines(calibrated, SURVEY)
    said = [line for line in lines if "singling out one of 10" in line]
    assert len(said) == 2 and all("a simplex, attains 0.1" in line for line in said)


@pytest.mark.parametrize("chance, k", [(0.1, 10), (0.05, 10), (0.5, 2)])
def test_a_chance_no_better_than_a_blind_guess_is_not_calibrated(chance, k):
    targets = synth.risk_targets(0.25, 0.1, 0.01, chance, k)
    assert [t.kind for t in targets] == ["advantage", "tpr"]
    skipped = synth.inapplicable_risks(0.1, 0.01, chance, k)
    assert list(skipped) == [f"success ≤ {chance:g} singling out one of {k}"]
    assert "a blind guess" in skipped[f"success ≤ {chance:g} singling out one of {k}"]


def test_the_answer_reads_singling_out_at_both_ends_of_the_interval():
    """At ε = 0.1 and 0.5 (a pure ε each): the bound e^ε/k and k-ary randomized response's
    e^ε/(e^ε + k − 1), a row each for k = 10 and 1,000, with a blind guess's 1/k in the heading."""
    rows = answer_table(answer_at(one_mechanism(0.1, 0.5), [0.01, 0.3]))
    for k in (10, 1000):
        bound = " to ".join(f"{math.exp(e) / k:.4g}" for e in (0.1, 0.5))
        attained = " to ".join(f"{math.exp(e) / (math.exp(e) + k - 1):.4g}" for e in (0.1, 0.5))
        head = f"chance to single out one of {k:,} equally likely people"
        at_most, reached = (
            next(
                r
                for r in rows
                if r.startswith(f"{head}, {what}") and f"blind guess: {1 / k:g})" in r
            )
            for what in ("at most", "reached by a mechanism")
        )
        assert f"1 − f(1/{k:,})" in at_most and "k-ary randomized response" in reached
        assert rows[at_most] == bound and rows[reached] == attained


@pytest.mark.parametrize(
    ("old", "new", "argument"),
    [
        ("six_figures", "epsilon_in_six_figures", 4.511023),
        ("span_from_eq7", "span_revealed_by_eq7", (4.5, 20000, 0.002, 110)),
        ("inapplicable", "not_applicable_mask", "methods"),
    ],
)
def test_an_old_name_still_answers_with_a_notice(old, new, argument):
    """Names a reader's script may hold: each gives its new name's answer and says it moved."""
    if argument == "methods":
        argument = (pd.DataFrame({"meaning": [synth.NOT_APPLICABLE + "why", "holds"]}),)
    arguments = argument if isinstance(argument, tuple) else (argument,)
    with pytest.warns(DeprecationWarning, match=rf"synthesis\.{old} is renamed synthesis\.{new}"):
        got = getattr(synth, old)(*arguments)
    expected = getattr(synth, new)(*arguments)
    if isinstance(got, pd.Series):
        got, expected = got.tolist(), expected.tolist()
    assert got == expected
