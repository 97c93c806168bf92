import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from choosing_epsilon import risk
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.synthesis import registry


@pytest.mark.parametrize(
    "text, value",
    [
        ("10^-5", 1e-5),
        ("7 10^-9", 7e-9),
        ("2.1 10^-29", 2.1e-29),
        ("5.06 10^-9", 5.06e-9),
        ("1e-6", 1e-6),
        ("0", 0.0),
    ],
)
def test_parse_delta(text, value):
    assert registry.parse_delta(text) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text", ["N/A", "", None, float("nan")])
def test_missing_delta_is_nan(text):
    assert math.isnan(registry.parse_delta(text))


def test_unreadable_delta_is_refused():
    with pytest.raises(ValueError, match="delta: cannot read"):
        registry.parse_delta("ten to the minus five")


def stated_units_in_readme() -> dict[str, str]:
    """The rows of data/README.md's table of units stated in the cited documents."""
    text = (DATA / "README.md").read_text(encoding="utf-8")
    table = text.split("### Privacy units stated in the cited documents", 1)[1].split("###")[0]
    rows = [line.split("|")[1:-1] for line in table.splitlines() if line.startswith("| ")]
    found = {}
    for cells in rows[1:]:  # after the header
        name, unit, quote, where = (cell.strip() for cell in cells)
        assert quote.startswith('"') and where, f"{name}: a unit needs its quote and its source"
        found[name] = unit
    return found


def test_committed_registry():
    table = registry.load_registry(DATA / "epsilon_registry.csv")
    assert len(table) == 27
    assert table.epsilon.between(0.2, 49.95).all()
    assert table.delta.notna().sum() == 13 and table.delta.max() == pytest.approx(1e-5)
    linkedin = table[table.Context == "Audience Engagement API"].iloc[0]
    assert (linkedin.epsilon, linkedin.delta) == (34.9, pytest.approx(7e-9))
    assert table.label.is_unique and table["Citation Name"].is_unique


def test_a_unit_is_filled_only_where_a_quote_of_the_cited_document_states_it():
    table = registry.load_registry(DATA / "epsilon_registry.csv").set_index("Citation Name")
    stated = table.unit[table.unit != registry.UNIT_NOT_STATED].to_dict()
    assert stated == stated_units_in_readme()
    assert len(stated) == 5


def test_the_model_follows_delta_unless_the_cited_document_states_another():
    table = registry.load_registry(DATA / "epsilon_registry.csv").set_index("Citation Name")
    implied = table["Delta (δ)"].map(registry.model_from_delta)
    written = table.model.str.removesuffix(", local")
    assert (written != implied).sum() == 1 and written["google_prediction"] == "zCDP"
    assert set(written) == {"ε-DP", "(ε, δ)-DP", "zCDP", "not stated"}


@pytest.mark.parametrize(
    "delta, model",
    [("N/A", "ε-DP"), ("10^-5", "(ε, δ)-DP"), ("0", "(ε, δ)-DP"), ("", "not stated")],
)
def test_model_from_delta(delta, model):
    assert registry.model_from_delta(delta) == model


def test_the_registry_as_published_gets_unit_model_and_label(tmp_path):
    published = tmp_path / "data.csv"
    published.write_text(
        "Organization,Epsilon (ε),Delta (δ),Context\nAcme,2,N/A,Shop counts\nAcme,1,10^-6,Visits\n",
        encoding="utf-8",
    )
    table = registry.load_registry(published)
    assert list(table.unit) == ["unit not stated"] * 2
    assert list(table.model) == ["ε-DP", "(ε, δ)-DP"]
    assert list(table.label) == ["Acme: Shop counts", "Acme: Visits"]


def test_the_bayesian_and_testing_inverses():
    assert risk.epsilon_for_posterior(0.5, 0.75) == pytest.approx(math.log(3))
    epsilon = risk.epsilon_for_posterior(0.5, 0.75)
    assert risk.largest_posterior(risk.pure(epsilon), 0.5) == pytest.approx(0.75)
    epsilon = risk.epsilon_for(risk.at_most_advantage(0.25))
    assert risk.advantage(risk.pure(epsilon)) == pytest.approx(0.25)
    assert risk.tpr_bound(risk.pure(math.log(3)), 0.01) == pytest.approx(0.03)
    with pytest.raises(ValueError, match="threshold must exceed the prior"):
        risk.epsilon_for_posterior(0.5, 0.4)


# --- the deployments registry (YAML) ---------------------------------------------------------

FOLDER = DATA / "deployments_registry"


def test_every_yaml_file_is_a_row_and_the_dropped_rows_are_kept_marked():
    table = registry.load_deployments(FOLDER, DATA / "epsilon_registry.csv")
    files = sorted(p.stem for p in FOLDER.glob("*.yaml"))
    assert sorted(table.file[table.registry != registry.OLDER_ONLY]) == files
    older = registry.load_registry(DATA / "epsilon_registry.csv")
    dropped = older.label[older.deployments_registry == ""]
    kept = table[table.registry == registry.OLDER_ONLY]
    assert sorted(kept.label) == sorted(dropped) and len(kept) == 2


def test_the_registry_states_the_model_and_the_older_file_the_label():
    table = registry.load_deployments(FOLDER, DATA / "epsilon_registry.csv").set_index("file")
    assert table.loc["census_redistricting_data", "scale_model"] == "zcdp"
    assert table.loc["census_redistricting_data", "rho"] == 2.63
    assert table.loc["vaccine_search_insights", "label"] == "Google: vaccine search insights"
    assert table.loc["healthkit", "model"] == "ε-DP, local"
    # a record that states no number takes the older registry's ε, and says so
    assert table.loc["employment_outcomes", "epsilon"] == 3
    assert table.loc["employment_outcomes", "registry"] == registry.OLDER_EPSILON
    # Uber's δ is n^(−ε ln n), not a number: not placed on the scale
    assert table.loc["uber", "scale_model"] == ""


def test_a_csv_registry_reads_in_the_same_columns():
    table = registry.read_any(DATA / "epsilon_registry.csv")
    assert list(table.columns) == registry.DEPLOYMENT_COLUMNS
    assert set(table.scale_model) <= {"pure", "approximate", "zcdp"}


def test_an_empty_folder_is_refused(tmp_path):
    with pytest.raises(ValueError, match="registry_path"):
        registry.load_deployments(tmp_path)


def test_the_conversions_are_transcribed_from_the_pinned_files():
    """Each stated ρ or μ is in its YAML file, and each ε in it too (or, for the older registry's,
    in the older CSV); quotes from the details are verbatim."""
    rows = pd.read_csv(DATA / "registry_conversions.csv", dtype=str, keep_default_na=False)
    older = (DATA / "epsilon_registry.csv").read_text()
    for row in rows.itertuples():
        text = (FOLDER / f"{row.file}.yaml").read_text()
        assert row.stated in text, row.claim_id
        assert row.epsilon in (older if row.claim_id.startswith("older_") else text), row.claim_id
        if row.where == "privacy_parameters_details":
            assert row.quote in text, row.claim_id


def test_conversion_verdicts():
    table = registry.check_conversions(DATA / "registry_conversions.csv").set_index("claim_id")
    assert not table.agrees.any()
    assert sorted(table.index[table["within rounding"]]) == [
        "conversion_full_url_mu",
        "conversion_redistricting_persons",
        "conversion_redistricting_units",
    ]


# --- names in prose: shortened between words, never within one --------------------------------


@given(
    st.lists(st.text("abc -:", min_size=1, max_size=8), min_size=1, max_size=8), st.integers(1, 40)
)
def test_whole_words_never_cut_a_word(words, width):
    name = " ".join(words)
    short = registry.in_whole_words(name, width)
    if len(name) <= width or not name.split():
        assert short == (name if len(name) <= width else "")
        return
    kept = short.removesuffix(" …").split()
    assert short.endswith(" …") and kept  # the first word at least, whole
    assert kept[:-1] == name.split()[: len(kept) - 1]
    assert name.split()[len(kept) - 1].startswith(kept[-1])  # trailing punctuation only dropped
    assert len(short) <= width or len(kept) == 1


@pytest.mark.parametrize(
    "name, width, short",
    [
        ("Wikimedia Foundation: Wikipedia Russian Editor Activity Statistics", 48,
         "Wikimedia Foundation: Wikipedia Russian Editor …"),
        ("Wikimedia Foundation: Wikipedia Russian Editor Activity Statistics", 26,
         "Wikimedia Foundation …"),  # the colon left hanging is dropped
        ("Apple: HealthKit", 48, "Apple: HealthKit"),
        ("Supercalifragilistic expialidocious", 5, "Supercalifragilistic …"),  # kept whole
    ],
)  # fmt: skip
def test_whole_words_keep_the_first_words_that_fit(name, width, short):
    assert registry.in_whole_words(name, width) == short


def test_whole_words_need_a_width():
    with pytest.raises(ValueError, match="width must be at least 1, got 0"):
        registry.in_whole_words("a b", 0)


def test_the_full_name_keeps_every_curator_and_the_whole_context():
    organization = "Nationwide Building Society & Hazy (now SAS Data Maker)"
    context = "Synthetic data to test third-party solutions in financial services"
    assert registry.full_name(organization, context) == f"{organization}: {context}"
    assert registry.short_label(organization, context).endswith("…")  # the figure's label is cut
    assert registry.full_name("Uber", "") == "Uber"
