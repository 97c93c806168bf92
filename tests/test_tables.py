"""tables.column_counts: a column's distinct values and counts from CSV, Parquet or DuckDB."""

import duckdb
import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon.tables import column_counts


def ages(size: int, seed: int) -> np.ndarray:
    """Ages with many ties and two outliers."""
    column = np.random.default_rng(seed).integers(0, 111, size).astype(float)
    column[:2] = [140.0, 999.0]
    return column


def frame(size: int = 500, seed: int = 0) -> pd.DataFrame:
    """A table with an integer, a float and a text column."""
    rng = np.random.default_rng(seed + 1)
    return pd.DataFrame(
        {
            "age": ages(size, seed).astype(np.int64),
            "height": np.round(rng.normal(170, 10, size), 1),
            "name": [f"p{i}" for i in range(size)],
        }
    )


def write(df: pd.DataFrame, path, kind: str) -> None:
    """``df`` as a CSV or Parquet file, or as table ``people`` of a DuckDB database."""
    con = duckdb.connect(str(path) if kind == "database" else ":memory:")
    con.register("df", df)
    if kind == "database":
        con.execute("CREATE TABLE people AS SELECT * FROM df")
    else:
        con.execute(f"COPY df TO '{path}' (FORMAT {kind})")
    con.close()


def unique(column) -> tuple[np.ndarray, np.ndarray]:
    values, counts = np.unique(np.asarray(column, dtype=float), return_counts=True)
    return values, counts


def assert_counts_equal(got, want) -> None:
    assert got[0].dtype == np.float64 and got[1].dtype == np.int64
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.parametrize("column", ["age", "height"])
@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_a_file_gives_numpys_unique(tmp_path, kind, column):
    df = frame()
    path = tmp_path / f"people.{kind}"
    write(df, path, kind)
    assert_counts_equal(column_counts(path, column), unique(df[column]))


def test_a_glob_of_parquet_files_is_one_table(tmp_path):
    parts = [frame(300, seed=1), frame(200, seed=2)]
    for i, part in enumerate(parts):
        write(part, tmp_path / f"part-{i}.parquet", "parquet")
    got = column_counts(str(tmp_path / "part-*.parquet"), "age")
    assert_counts_equal(got, unique(pd.concat(parts).age))


def test_a_duckdb_table_is_read_without_a_trace(tmp_path):
    df = frame()
    path = tmp_path / "people.duckdb"
    write(df, path, "database")
    before = sorted(p.name for p in tmp_path.iterdir())
    assert_counts_equal(column_counts(path, "height", table="people"), unique(df.height))
    # read-only, and DuckDB's spill directory is elsewhere: nothing is written beside the data
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_counts_give_the_same_epsilon_as_the_column(tmp_path):
    df = frame(2000, seed=3)
    path = tmp_path / "people.parquet"
    write(df, path, "parquet")
    values, counts = column_counts(path, "age")
    for query in ("mean", "median"):
        got = pw.epsilon_for_risk(values, 0.5, query, counts=counts)
        want = pw.epsilon_for_risk(df.age.to_numpy(dtype=float), 0.5, query)
        assert got.n == want.n == 2000
        assert got.exact == pytest.approx(want.exact, rel=1e-9)
        assert got.sensitivity == pytest.approx(want.sensitivity, rel=1e-9)


def test_nulls_are_refused_unless_dropped(tmp_path):
    df = frame(50)
    df.loc[[3, 7, 9], "age"] = None
    path = tmp_path / "people.parquet"
    write(df, path, "parquet")
    with pytest.raises(ValueError, match=r"column 'age' of .* is NULL in 3 of 50 rows: .*"):
        column_counts(path, "age")
    got = column_counts(path, "age", nulls="drop")
    assert_counts_equal(got, unique(df.age.dropna()))


def refusal(message: str, *args, **kwargs) -> None:
    """column_counts refuses in one line, with a message matching ``message``."""
    with pytest.raises(ValueError, match=message) as refused:
        column_counts(*args, **kwargs)
    assert "\n" not in str(refused.value)


def test_missing_sources_are_refused(tmp_path):
    write(frame(10), tmp_path / "people.duckdb", "database")
    refusal(r"source '.*nowhere.parquet': no such file$", tmp_path / "nowhere.parquet", "age")
    refusal(r"no file matches this pattern$", str(tmp_path / "part-*.parquet"), "age")
    refusal(r"is none of the kinds read: a CSV file", tmp_path / "people.xlsx", "age")
    refusal(
        r"no table 'staff'; its tables are: people$",
        tmp_path / "people.duckdb",
        "age",
        table="staff",
    )
    refusal(r"table= names the table of a DuckDB database", tmp_path / "people.duckdb", "age")


def test_bad_columns_are_refused(tmp_path):
    path = tmp_path / "people.csv"
    write(frame(10), path, "csv")
    refusal(r"has no column 'weight'; its columns are: age, height, name$", path, "weight")
    refusal(r"column 'name' of .* has type VARCHAR, not a number", path, "name")
    refusal(r"nulls must be 'refuse' or 'drop'", path, "age", nulls="keep")
    refusal(r"max_distinct must be an integer >= 1", path, "age", max_distinct=0)


def test_empty_and_valueless_columns_are_refused(tmp_path):
    empty, nulls = tmp_path / "empty.parquet", tmp_path / "nulls.parquet"
    con = duckdb.connect()
    con.execute(f"COPY (SELECT 1.5 AS x WHERE false) TO '{empty}' (FORMAT parquet)")
    con.execute(f"COPY (SELECT NULL::DOUBLE AS x FROM range(4)) TO '{nulls}' (FORMAT parquet)")
    con.close()
    refusal(r"empty.parquet has no rows$", empty, "x")
    refusal(r"column 'x' of .* has no values: all 4 rows are NULL$", nulls, "x", nulls="drop")


def test_too_many_distinct_values_are_refused(tmp_path):
    path = tmp_path / "people.parquet"
    df = frame()
    write(df, path, "parquet")
    distinct = df.height.nunique()
    # exactly at the limit it passes; one fewer allowed and it is refused, naming the limit
    assert column_counts(path, "height", max_distinct=distinct)[0].size == distinct
    refusal(
        rf"more than max_distinct = {distinct - 1} distinct values, the limit that keeps the "
        r"exact ε's memory under 1 GB \(about 100 bytes per distinct value, .* MiB at the limit\)",
        path,
        "height",
        max_distinct=distinct - 1,
    )


def test_values_float64_cannot_hold_are_refused(tmp_path):
    path = tmp_path / "odd.parquet"
    con = duckdb.connect()
    con.execute(
        f"COPY (SELECT * FROM (VALUES ('nan'::DOUBLE, 1152921504606846976::BIGINT), "
        f"(1.0, 1152921504606846977::BIGINT), "
        f"(2.0, 3)) t(x, big)) TO '{path}' (FORMAT parquet)"
    )
    con.close()
    refusal(r"column 'x' of .* holds NaN or infinite values$", path, "x")
    refusal(r"float64 cannot tell apart \(near 1152921504606846976; .* 2\*\*53\)", path, "big")


def test_unreadable_rows_are_refused_in_one_line(tmp_path):
    path = tmp_path / "bad.csv"
    # a number column whose last row is text: the sniffer's sample says BIGINT, the scan fails
    path.write_text("x\n" + "1\n" * 30_000 + "oops\n")
    refusal(r"bad.csv, column 'x': ", path, "x")
