import math

import pandas as pd
import pytest

from choosing_epsilon import claims


@pytest.fixture
def ledger(tmp_path):
    path = tmp_path / "published.csv"
    pd.DataFrame(
        {"claim_id": ["a", "b", "c"], "location": ["Eq. (1)", "Table 1", "Sec. 2"], "description": ["x", "y", "z"],
         "published": [0.3829, 2.776, 5.0], "tolerance": [5e-5, 5e-4, 0.0]}
    ).to_csv(path, index=False)
    return claims.Ledger(path, {"rho": 1 / 3}, {"rho": 1 / 3})


def test_statuses(ledger, tmp_path):
    assert ledger.check("a", 0.38294, uses=["rho"]) == "reproduced"
    assert ledger.check("b", 2.7726, uses=["rho"], explanation="4 ln 2 = 2.7726") == "discrepancy"
    assert ledger.check("c", 5, uses=[]) == "reproduced"
    table = ledger.write(tmp_path / "claims.csv")
    assert list(table.columns) == claims.RESULT_COLUMNS
    assert list(table.status) == ["reproduced", "discrepancy", "reproduced"]
    assert pd.read_csv(tmp_path / "claims.csv").note.fillna("").tolist() == ["", "4 ln 2 = 2.7726", ""]


def test_unexplained_mismatch_fails(ledger):
    with pytest.raises(claims.ClaimError, match="exceeds tolerance"):
        ledger.check("a", 0.39, uses=["rho"])


def test_nan_fails_where_applicable(ledger):
    with pytest.raises(claims.ClaimError):
        ledger.check("a", math.nan, uses=["rho"])


def test_explanation_for_a_reproduced_claim_fails(ledger):
    with pytest.raises(claims.ClaimError, match="remove it"):
        ledger.check("a", 0.3829, uses=["rho"], explanation="stale")


def test_unchecked_or_repeated_or_unknown_claims_fail(ledger):
    ledger.check("a", 0.3829, uses=["rho"])
    with pytest.raises(claims.ClaimError, match="checked twice"):
        ledger.check("a", 0.3829, uses=["rho"])
    with pytest.raises(claims.ClaimError, match="not in the published ledger"):
        ledger.check("zz", 1.0, uses=[])
    with pytest.raises(claims.ClaimError, match="never checked"):
        ledger.results()
    with pytest.raises(ValueError, match="unknown inputs"):
        ledger.check("b", 1.0, uses=["nope"])


def test_not_applicable_at_other_parameters(tmp_path):
    path = tmp_path / "p.csv"
    pd.DataFrame({"claim_id": ["a"], "location": ["Eq. (9)"], "description": ["x"], "published": [0.38], "tolerance": [0.005]}).to_csv(path, index=False)
    other = claims.Ledger(path, {"rho": 1 / 3}, {"rho": 0.25})
    assert not other.at_paper_parameters
    assert other.check("a", 99.0, uses=["rho"]) == "not applicable"
    assert "rho" in other.results().note[0]


def test_published_file_is_validated(tmp_path):
    path = tmp_path / "p.csv"
    pd.DataFrame({"claim_id": ["a", "a"], "location": ["l", "l"], "description": ["d", "d"], "published": [1, 2], "tolerance": [0, 0]}).to_csv(path, index=False)
    with pytest.raises(ValueError, match="duplicated claim_id"):
        claims.read_published(path)
