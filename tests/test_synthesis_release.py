"""The reader's own release: on a column of their data, nothing the demo states about its ages is
read; each method applies only where its premise holds, and the answer's sentences say what the
table and the registry say, at any parameters."""

import math
import re

import numpy as np
import pytest

from choosing_epsilon import risk
from choosing_epsilon.harness import parameters, reproduce
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.synthesis import run as synthesis_run

INCOMES = DATA / "examples" / "incomes.csv"
ON_FILE = {"data_path": str(INCOMES), "column": "income", "value_range": [0, 250000]}
HSU = ("Hsu et al., budget at N", "Hsu et al., accuracy at N")
POSTER = ("Poster, Theorem 2", "Poster, Theorem 3")
SHOARAN = "Shoaran et al., MTA ≤ public lower bound of the mean"
LEE = ("Lee & Clifton, Eq. (7)", "Lee & Clifton, exact")


def at(**changes):
    """The answer at the committed parameters with ``changes``, checked as the runner checks
    them (old names read as their new ones)."""
    params = parameters.committed_values("synthesis")
    params.update(parameters.check("synthesis", changes, partial=True))
    return synthesis_run.the_answer(params)


def meaning(answer, method):
    return str(answer.methods.set_index("method").meaning[method])


def epsilon(answer, method):
    return float(answer.methods.set_index("method").epsilon[method])


def test_the_example_incomes_are_the_committed_file():
    """data/examples/incomes.csv is what tools/example_incomes.py writes (3,000 whole dollars in
    the public range)."""
    from tools import example_incomes

    frame = example_incomes.incomes()
    assert INCOMES.read_text() == frame.to_csv(index=False, lineterminator="\n")
    assert len(frame) == 3000 and frame.income.between(0, 250000).all()


# --- no age default on a file --------------------------------------------------------------------


def test_on_a_file_the_demos_accuracy_noise_bound_and_lower_bound_are_not_read():
    """Each input only the demo can supply: not given on a file, so the method that needs it says
    what to give, in the column's unit; the lower bound is the range's lower end, and the run says
    so. None of the demo's years appears."""
    answer = at(**ON_FILE)
    stated = answer.stated
    assert (stated.max_error, stated.noise_bound, stated.pays_participants) == (None, None, False)
    assert stated.lower_bound == 0 and answer.survey.mean_floor == 0
    assert stated.said == {
        "max_error": "not given",
        "noise_bound": "not given",
        "lower_bound": "derived: the range's lower end 0, which no mean of the column lies below",
        "pays_participants": (
            "an agency's premise: it pays nobody (set pays_participants true if you do)"
        ),
    }
    for method in POSTER:
        assert math.isnan(epsilon(answer, method))
        assert meaning(answer, method) == (
            "not applicable: give noise_bound, the largest noise you accept, in units of 'income'"
        )
    assert meaning(answer, SHOARAN).startswith("not applicable: L = 0: give lower_bound")
    text = answer.markdown()
    assert not re.search(r"\b(years?|ages?|aged)\b", text), re.findall(
        r".{40}\byears?\b.{20}", text
    )
    assert answer.title == "Which ε for the mean of `income` over 3,000 rows?"


@pytest.mark.parametrize(
    "name, value",
    [("demo_n_people", 50), ("demo_ages", [0, 1]), ("seed", 1)],
)
def test_on_a_file_the_demos_survey_is_not_read(name, value):
    """The demo's size, ages and the seed of its ages change nothing on a file (the seed also
    seeds the notebook's sampling checks, which the answer does not read)."""
    base = at(**ON_FILE)
    other = at(**ON_FILE, **{name: value})
    assert other.markdown() == base.markdown()


@pytest.mark.parametrize(
    "name, value, method, check",
    [
        ("noise_bound", 3000.0, "Poster, Theorem 2", lambda e: e == pytest.approx(
            250000 / 3000 * math.log(1 / (1 - 0.95)) / 3000, rel=1e-12)),
        ("lower_bound", 20000.0, SHOARAN, lambda e: e == pytest.approx(
            250000 / 3000 * math.log(1 / 0.1) / (0.05 * 20000), rel=1e-12)),
    ],
)  # fmt: skip
def test_on_a_file_a_value_given_in_the_columns_unit_is_used(name, value, method, check):
    """Given in dollars, each is read in dollars: Theorem 2's ε = Δ ln(1/(1 − p))/c and Shoaran
    et al.'s ε = Δ ln(1/pr)/(re L), with Δ = 250,000/3,000."""
    answer = at(**ON_FILE, **{name: value})
    assert check(epsilon(answer, method))
    assert name not in answer.stated.said


def test_on_a_file_the_demos_lower_bound_is_not_read():
    """The demo states 18 (years) as its lower bound of the mean: on a column with a range
    starting at 10,000, L is 10,000, the range's lower end, not max(10,000, 18) by chance."""
    answer = at(**ON_FILE | {"value_range": [1000, 250000]})
    assert answer.survey.mean_floor == 1000
    assert answer.stated.said["lower_bound"].startswith("derived: the range's lower end 1000")


def test_on_a_file_paying_participants_needs_the_error_in_the_columns_unit():
    """Said to pay participants on a file, Hsu et al.'s accuracy bound needs max_error: refused in
    one line naming it, before any kernel; with it, both rows are computed, in dollars."""
    with pytest.raises(ValueError, match=r"^parameter 'max_error' is required with pays_"):
        at(**ON_FILE, pays_participants=True)
    answer = at(**ON_FILE, pays_participants=True, max_error=30000.0)
    assert not any(m in answer.window.not_applicable for m in HSU)
    # A(ε, N) ≤ α at T = 30,000/250,000, N = 3,000: ε = ln(1/(α − 2e^{−T²N/12}))/(T N/2)
    t = 30000 / 250000
    want = math.log(1 / (0.1 - 2 * math.exp(-t * t * 3000 / 12))) / (t * 3000 / 2)
    assert epsilon(answer, HSU[1]) == pytest.approx(want, rel=1e-12)


# --- premises, each switch both ways ------------------------------------------------------------


@pytest.mark.parametrize("on_file", [False, True])
def test_pays_participants_both_ways(on_file):
    """True: Hsu et al.'s two rows computed (their budget binds the demo from above); False: both
    "not applicable" with the reason, bounding nothing."""
    given = ON_FILE | {"max_error": 30000.0} if on_file else {}
    paid, unpaid = at(**given, pays_participants=True), at(**given, pays_participants=False)
    budget = math.log1p(30000 / (paid.survey.n_people * 0.05 * 1274))
    assert epsilon(paid, HSU[0]) == pytest.approx(budget, rel=1e-12)
    assert not any(m in paid.window.not_applicable for m in HSU)
    for m in HSU:
        assert meaning(unpaid, m).startswith("not applicable: you pay nobody")
        assert unpaid.window.not_applicable[m].startswith("you pay nobody")
    assert HSU[0] not in (unpaid.window.binding_upper, unpaid.window.binding_lower)
    if not on_file:  # the demo: the budget binds when paid, the testing bound when not
        assert paid.window.binding_upper == HSU[0]
        assert unpaid.window.binding_upper == "Hypothesis testing"


def test_adversary_knows_data_both_ways():
    """True: Lee & Clifton's rows computed (and at ρ below the prior, unmet); False: not
    applicable, so ρ below the prior leaves no unmet requirement."""
    knows, not_knows = at(rho=1e-5), at(rho=1e-5, adversary_knows_data=False)
    assert knows.window.unmet == list(LEE) and not knows.window.feasible
    assert not_knows.window.unmet == [] and not_knows.window.feasible
    for m in LEE:
        assert meaning(not_knows, m).startswith("not applicable: you say no adversary knows")
    assert epsilon(at(), LEE[0]) > 0 and math.isnan(epsilon(at(adversary_knows_data=False), LEE[0]))


# --- old names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, value",
    [
        ("n_people", "demo_n_people", 5000),
        ("observed_ages", "demo_ages", [20, 80]),
        ("mean_lower_bound", "lower_bound", 30.0),
        ("error_years", "max_error", 2.0),
        ("c_years", "noise_bound", 0.5),
    ],
)
def test_an_old_name_is_read_as_its_new_one_with_a_notice(old, new, value, capsys):
    """In the kernel (papermill's injected cell names it) the value moves to the new name, with
    one line on stderr; given both, refused."""
    values = parameters.committed_values("synthesis") | {old: value}
    injected = [f"# Parameters\n{old} = {value!r}\n"]
    checked = parameters.check("synthesis", values, history=injected)
    assert checked[new] == value and old not in values and values[new] == value
    notice = capsys.readouterr().err.strip()
    assert notice == (f"note: parameter {old!r} of synthesis is now called {new!r}; read as such")
    with pytest.raises(ValueError, match=rf"parameter '{new}' given twice"):
        parameters.take_renamed("synthesis", {old: value, new: value}, {old, new})


def test_the_runner_reads_an_old_name_with_a_notice_before_refusing(tmp_path, capsys):
    """The runner says the notice once, then checks the new name before any kernel starts."""
    status = reproduce.main(["synthesis", "-p", "n_people", "2", "-o", str(tmp_path / "run")])
    err = capsys.readouterr().err.splitlines()
    assert status == 2 and err == [
        "note: parameter 'n_people' of synthesis is now called 'demo_n_people'; read as such",
        "error: parameter 'demo_n_people' must be in [3, 10**7], got 2",
    ]
    assert not (tmp_path / "run").exists()


# --- the answer's sentences are true -------------------------------------------------------------

PARAMETER_SETS = [
    {},  # the demo: the budget binds
    {"pays_participants": False},  # the demo as an agency: the testing bound binds
    {"max_advantage": 0.9, "posterior_threshold": 0.99, "budget": 1e9},  # some allow less
    {"max_advantage": 0.02, "noise_bound": 0.1},  # the bounds cross: conflict
    {"rho": 1e-5},  # a requirement no ε meets
    {"kr_r_tilde": 0.5, "lower_bound": 0.0},  # two methods left out
    ON_FILE,  # a bare run on a column of dollars: no accuracy stated
    ON_FILE | {"noise_bound": 500.0},  # the column, with a noise bound
    ON_FILE | {"noise_bound": 20.0, "max_advantage": 0.05},  # the column, in conflict
    ON_FILE | {"pays_participants": True, "max_error": 2000.0},  # paid, the accuracy unmet
]


def deployment_advantages():
    """Each deployment that states a guarantee, with its advantage read from the registry's
    records here, independently of the risk scale."""
    deployed = synthesis_run.deployments(parameters.committed_values("synthesis"))
    found = {}
    for d in deployed.itertuples():
        if d.scale_model:
            numbers = [float(v) for v in (d.epsilon, d.delta, d.rho, d.mu)]
            found[d.label] = risk.advantage(risk.guarantee(str(d.scale_model), *numbers))
    return deployed, found


@pytest.mark.parametrize("changes", PARAMETER_SETS, ids=range(len(PARAMETER_SETS)))
def test_the_answers_sentences_are_true(changes):
    """Every number the sentences state is recomputed from the table of methods and the registry:
    the largest ε the risk allows (the least upper bound that applies), the smallest the accuracy
    needs (the largest lower bound), the conflict and its ratio, the attacker at the ε read, how
    many deployments allow more and the strictest of all."""
    answer = at(**changes)
    text = " ".join(answer.sentences())
    table = answer.methods
    applies = ~table.meaning.str.startswith("not applicable")
    shared = table[(table.panel == "(a)") & applies]
    uppers = shared[shared["bounds ε from"].str.startswith("upper") & np.isfinite(shared.epsilon)]
    lowers = shared[
        shared["bounds ε from"].str.startswith("lower") & (shared.method != "Poster, Theorem 3")
    ].dropna(subset=["epsilon"])
    upper = uppers.epsilon.min()
    binding_upper = uppers.method[uppers.epsilon.idxmin()]
    assert f"ε up to {upper:.4g} (by {binding_upper})" in text
    if len(lowers):
        lower, binding_lower = lowers.epsilon.max(), lowers.method[lowers.epsilon.idxmax()]
        assert f"needs ε ≥ {lower:.4g} (by {binding_lower})" in text
    else:
        lower = 0.0
        assert "you state no accuracy, so nothing asks for a larger ε" in text
    unmet = table.method[table.epsilon.isna() & applies].tolist()
    if unmet:
        assert text.count("no ε at all meets") == len(unmet)
    elif lower > upper:
        assert f"{lower / upper:.3g} times as much." in text and "No ε meets every" in text
    else:
        assert f"ε = {upper:.4g} gives the most accurate release" in text
    # the attacker at the largest ε allowed
    g = risk.pure(upper)
    assert f"the others it flags by at most {risk.advantage(g):.3g}" in text
    assert f"right at most {risk.in_100((1 + risk.advantage(g)) / 2)} times" in text
    # the deployments: how many allow a larger advantage, and the strictest of them all
    _, advantages = deployment_advantages()
    above = sum(a > risk.advantage(g) for a in advantages.values())
    share = {0: "none", len(advantages): "all"}.get(above, str(above))
    assert f"{share} of the {len(advantages)} published deployments" in text
    strictest = min(advantages, key=lambda label: (advantages[label], label))
    assert f"allows {advantages[strictest]:.3g}." in text
    assert strictest.split(":")[0] in text


def test_the_parameter_sets_cover_each_shape_of_the_answer():
    """Among the ten: one where some deployments allow less than the answer's ε and some more,
    one in conflict, one with an unmet requirement, one with no accuracy stated."""
    _, advantages = deployment_advantages()
    shapes = set()
    for changes in PARAMETER_SETS:
        answer = at(**changes)
        text = " ".join(answer.sentences())
        above = sum(a > risk.advantage(risk.pure(answer.window.upper)) for a in advantages.values())
        if 0 < above < len(advantages) - 1:
            shapes.add("some allow less")
        if "times as much." in text:
            shapes.add("conflict")
        if "no ε at all meets" in text:
            shapes.add("unmet")
        if "you state no accuracy" in text:
            shapes.add("no accuracy")
        if re.search(r"meets both: the (risk you accept|budget) binds", text):
            shapes.add("feasible")
    assert shapes == {"some allow less", "conflict", "unmet", "no accuracy", "feasible"}


# --- the release, repeated -----------------------------------------------------------------------


def test_one_release_is_the_committed_answer_and_many_are_read_composed():
    """releases = 1 gives the committed table; at 12 releases the bounds on a posterior or a
    payment are 1/12 of one release's (basic composition is exact for them), the testing bound is
    the per-release ε whose 12-fold randomized response allows the stated advantage, the utility
    bounds stay per release, and the attacker is read on the composed curve."""
    from choosing_epsilon import composition

    one, many = at(), at(releases=12)
    eps_one, eps_many = (
        one.methods.set_index("method").epsilon,
        many.methods.set_index("method").epsilon,
    )
    for m in ("Posterior bound", "Risk profile (Kazan & Reiter)", "Hsu et al., budget at N", *LEE):
        assert eps_many[m] == pytest.approx(eps_one[m] / 12, rel=1e-12), m
    for m in ("Hsu et al., accuracy at N", *POSTER, SHOARAN):
        assert eps_many[m] == eps_one[m], m
    testing = eps_many["Hypothesis testing"]
    assert composition.compose(risk.pure(testing), 12).advantage() <= 0.25
    assert composition.compose(risk.pure(testing * (1 + 1e-6)), 12).advantage() > 0.25
    # the attacker at the upper end: 12 releases composed, exactly (randomized response)
    upper = many.window.upper
    read = many.read(upper)
    assert read.exact and read.advantage() == pytest.approx(
        composition.compose(risk.pure(upper), 12).advantage(), rel=1e-15
    )
    text = " ".join(many.sentences())
    assert f"ε up to {upper:.4g} per release" in text
    assert f"12 releases at ε = {upper:.4g} each do" in text
    assert many.title.endswith("released 12 times?")


def test_the_noise_per_release_keeps_all_releases_to_the_stated_risk():
    """Each per-release σ, composed over the 12 releases, allows at most its target, and a hair
    less noise more (read exactly: 12 Gaussian releases of shift Δ/σ are one of √12 Δ/σ)."""
    many = at(releases=12)
    table = many.per_release.set_index("target")
    delta = many.survey.delta
    sigma = table.gaussian["advantage ≤ 0.25"]
    assert risk.advantage(risk.gdp(math.sqrt(12) * delta / sigma)) <= 0.25
    assert risk.advantage(risk.gdp(math.sqrt(12) * delta / (sigma * (1 - 1e-6)))) > 0.25
    rows = dict(many.rows())
    key = "noise per release for advantage ≤ 0.25 over all 12 releases"
    assert rows[key].startswith(f"Gaussian σ = {sigma:.4g} or Laplace b = ")
    assert at().per_release is None


# --- the four modules behind the synthesis ------------------------------------------------------


def test_the_table_iterates_one_list_of_methods_each_with_its_premise():
    """methods.METHODS is the table: its rows in order, each method's premise recorded in
    results.json; the three that need only the stated risk always apply; release.DEMO is what
    the demo states, in years; scale.HORIZON_COLUMNS are risk_scale's; every reading of
    answer.READINGS heads a row of the answer."""
    from choosing_epsilon.papers.synthesis import answer as answer_module
    from choosing_epsilon.papers.synthesis import methods, release, scale

    table = at().methods
    assert list(table.method) == [name for m in methods.METHODS for name, _, _ in m.rows]
    always = [m for m in methods.METHODS if m.premise == methods.ONLY_THE_RISK]
    names = {name for m in always for name, _, _ in m.rows}
    assert names == {"Posterior bound", "Hypothesis testing", "Risk profile (Kazan & Reiter)"}
    bare = at(**ON_FILE, adversary_knows_data=False).window.not_applicable
    assert not names & set(bare) and set(bare) == set(table.method) - names
    assert (release.DEMO.max_error, release.DEMO.noise_bound, release.DEMO.lower_bound) == (
        5.0, 1.0, 18.0,
    )  # fmt: skip
    assert set(scale.HORIZON_COLUMNS) <= set(at().scale.columns)
    rows = [what for what, _ in at().rows()]
    for reading in answer_module.READINGS:
        assert reading.heading in rows
