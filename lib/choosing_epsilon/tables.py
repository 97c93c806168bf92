"""A column of a table on disk as its distinct values and their counts, by one GROUP BY in DuckDB.

The possible-worlds ε (``possible_worlds.epsilon_for_risk(values, rho, query, counts=counts)``)
needs only how many rows hold each value, so a column of any number of rows reduces to k pairs
(value, count). DuckDB computes them out of core, from CSV or Parquet files or a DuckDB database,
without loading the table.
"""

from __future__ import annotations

import glob
import os
import tempfile
from pathlib import Path
from typing import Literal

import duckdb
import numpy as np

# (value, count) pairs take 16 bytes each (float64 and int64), and the exact ε about 100 bytes per
# distinct value in all: 2**22 of them keep a run under 1 GB (64 MiB for the two arrays)
MAX_DISTINCT = 2**22
# DuckDB's own memory cap (its default is 80% of the machine's RAM): the GROUP BY spills to disk
# beyond it, so the process stays within about a gigabyte whatever the number of rows
MEMORY_LIMIT = "512MB"
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
COMPRESSED = (".gz", ".zst")
PARQUET_SUFFIXES = (".parquet", ".pq")
DATABASE_SUFFIXES = (".duckdb", ".db", ".ddb")
NUMERIC_TYPES = (
    "tinyint",
    "smallint",
    "integer",
    "bigint",
    "hugeint",
    "utinyint",
    "usmallint",
    "uinteger",
    "ubigint",
    "uhugeint",
    "float",
    "double",
    "decimal",
)
READABLE_SOURCES = (
    "a CSV file (.csv, .tsv, .txt, optionally .gz or .zst), a Parquet file or a glob of them "
    "(.parquet, .pq), or a DuckDB database (.duckdb, .db, .ddb) with table="
)
Nulls = Literal["refuse", "drop"]


class NullValues(ValueError):
    """A column with NULLs, refused: what they are is the analyst's to decide (``nulls=``)."""

    def __init__(self, column: str, where: str, null_rows: int, rows: int) -> None:
        self.reason = (
            f"column {column!r} of {where} is NULL in {null_rows} of {rows} rows: each row is a "
            "possible world, so decide what they are"
        )
        super().__init__(
            f"{self.reason}; nulls='drop' analyses the {rows - null_rows} rows with a value "
            "(those a SQL mean or median uses)"
        )


def column_counts(
    source: str | os.PathLike[str],
    column: str,
    *,
    table: str | None = None,
    nulls: Nulls = "refuse",
    max_distinct: int = MAX_DISTINCT,
    memory_limit: str = MEMORY_LIMIT,
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``column`` (ascending, float64) and how many rows hold each (int64).

    ``source`` is one of: a CSV file (``.csv``, ``.tsv``, ``.txt``, optionally compressed ``.gz``
    or ``.zst``); a Parquet file (``.parquet``, ``.pq``) or a glob of Parquet files
    (``"data/part-*.parquet"``, read as one table); or a DuckDB database file (``.duckdb``,
    ``.db``, ``.ddb``) with the table named by ``table=``. The column must be numeric (an integer,
    float or decimal type).

    One ``SELECT column, count(*) ... GROUP BY column`` does the work; DuckDB runs it within
    ``memory_limit`` (a DuckDB size, e.g. ``"512MB"``), spilling to a temporary directory under
    the system's temporary directory, so that a table of any size can be read.

    NULLs are refused by default: each row is a possible world, and a row without a value is one
    whose absence no mean or median shows, so the analysis would silently be of fewer rows than
    the table holds. ``nulls="drop"`` analyses the rows that hold a value (those a SQL mean or
    median uses). Also refused, in one line: a missing file or table, a missing column (naming the
    columns there are), a non-numeric column (naming its type), an empty table or one with no
    value in the column, NaN or infinite values, and more than ``max_distinct`` distinct values
    (2**22 by default, 64 MiB for the two arrays: round or bin a continuous column first).

    Parameters
    ----------
    source : str or os.PathLike
        The file (CSV, Parquet, a glob of Parquet files) or DuckDB database to read.
    column : str
        The numeric column whose values are counted.
    table : str, optional
        The table of a DuckDB database (required there, refused for a file).
    nulls : {"refuse", "drop"}
        What to do with NULLs: refuse the column (the default) or count the rows that hold a value.
    max_distinct : int
        The most distinct values accepted, at least 1.
    memory_limit : str
        DuckDB's memory cap, a DuckDB size such as ``"512MB"``.

    Returns
    -------
    values : numpy.ndarray
        The distinct values, ascending (float64).
    counts : numpy.ndarray
        How many rows hold each value (int64).

    Raises
    ------
    ValueError
        If the source, table or column is missing, the column is not numeric, holds NaN, infinite
        values or more than ``max_distinct`` distinct values, no row holds a value, or an argument
        is outside its range.
    NullValues
        If the column holds NULLs and ``nulls`` is "refuse" (a ``ValueError``).
    """
    if not isinstance(column, str) or not column:
        raise ValueError(f"column must be a column name (a non-empty string), got {column!r}")
    if nulls not in ("refuse", "drop"):
        raise ValueError(f"nulls must be 'refuse' or 'drop', got {nulls!r}")
    if isinstance(max_distinct, bool) or not isinstance(max_distinct, int) or max_distinct < 1:
        raise ValueError(f"max_distinct must be an integer >= 1, got {max_distinct!r}")
    kind, path = _source_kind(source, table)
    # DuckDB writes what does not fit in memory_limit to temp_directory: by default, a .tmp
    # directory next to the database or in the working directory; here a private directory under
    # the system's temporary directory, removed afterwards, so nothing is left beside the data
    with tempfile.TemporaryDirectory(prefix="choosing-epsilon-duckdb-") as spill:
        config: dict[str, str | bool | int | float | list[str]] = {
            "memory_limit": memory_limit,
            "temp_directory": spill,
            "preserve_insertion_order": False,  # lets the aggregate stream: less memory
        }
        try:
            con = duckdb.connect(
                path if kind == "database" else ":memory:",
                read_only=kind == "database",
                config=config,
            )
        except duckdb.Error as error:
            raise ValueError(f"{source}: DuckDB cannot open it: {_first_line(error)}") from None
        with con:
            where, relation = _relation(con, kind, path, source, table)
            return _counts(con, relation, where, column, nulls, max_distinct)


def _source_kind(source: str | os.PathLike[str], table: str | None) -> tuple[str, str]:
    """("csv" | "parquet" | "database", path) for ``source``, or a one-line refusal."""
    path = os.fspath(source)
    name = path.lower()
    for suffix in COMPRESSED:
        name = name.removesuffix(suffix)
    kind = (
        "csv"
        if name.endswith(CSV_SUFFIXES)
        else "parquet"
        if name.endswith(PARQUET_SUFFIXES)
        else "database"
        if name.endswith(DATABASE_SUFFIXES)
        else None
    )
    if kind is None:
        raise ValueError(f"source {path!r} is none of the kinds read: {READABLE_SOURCES}")
    if glob.has_magic(path):
        if kind != "parquet":
            raise ValueError(f"source {path!r}: only Parquet files may be given as a glob")
        if not glob.glob(path, recursive=True):
            raise ValueError(f"source {path!r}: no file matches this pattern")
    elif not Path(path).is_file():
        raise ValueError(f"source {path!r}: no such file")
    if (kind == "database") != (table is not None):
        raise ValueError(
            f"table= names the table of a DuckDB database and only then: source {path!r}, "
            f"table {table!r}"
        )
    return kind, path


def _relation(
    con: duckdb.DuckDBPyConnection,
    kind: str,
    path: str,
    source: str | os.PathLike[str],
    table: str | None,
) -> tuple[str, str]:
    """A description of the table for messages, and its SQL (a table function or a table name)."""
    if kind == "database":
        # the database's own tables and views, not DuckDB's catalogue views
        listed = con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE NOT internal "
            "UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal"
        ).fetchall()
        tables = [row[0] for row in listed]
        if table not in tables:
            raise ValueError(
                f"{path}: no table {table!r}; its tables are: {', '.join(sorted(tables)) or 'none'}"
            )
        return f"table {table!r} of {path}", _identifier(str(table))
    reader = "read_csv" if kind == "csv" else "read_parquet"
    return str(source), f"{reader}({_literal(path)})"


def _counts(
    con: duckdb.DuckDBPyConnection,
    relation: str,
    where: str,
    column: str,
    nulls: Nulls,
    max_distinct: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The GROUP BY itself, and the checks of its input and its result."""
    try:
        # reads the schema only (a Parquet footer, a CSV sample), not the rows
        described = con.sql(f"SELECT * FROM {relation}")
        names, types = described.columns, described.types
    except duckdb.Error as error:
        raise ValueError(f"{where}: DuckDB cannot read it: {_first_line(error)}") from None
    if column not in names:
        raise ValueError(f"{where} has no column {column!r}; its columns are: {', '.join(names)}")
    kind = types[names.index(column)]
    if kind.id not in NUMERIC_TYPES:
        raise ValueError(
            f"column {column!r} of {where} has type {kind}, not a number (integer, float or "
            "decimal)"
        )
    # at most max_distinct values, one NULL group, and one more to tell that there are too many:
    # the pairs fetched stay within the limit however many distinct values the column holds
    quoted = _identifier(column)
    query = (
        f"SELECT {quoted}::DOUBLE AS v, count(*) AS c FROM {relation} GROUP BY {quoted} "
        f"LIMIT {max_distinct + 2}"
    )
    try:
        result = con.sql(query).fetchnumpy()
    except duckdb.Error as error:
        raise ValueError(f"{where}, column {column!r}: {_first_line(error)}") from None
    null = np.ma.getmaskarray(result["v"])
    values = np.ma.getdata(result["v"])[~null].astype(np.float64)
    counts = np.asarray(result["c"], dtype=np.int64)
    null_rows, rows = int(counts[null].sum()), int(counts.sum())
    counts = counts[~null]
    if values.size > max_distinct:
        raise ValueError(
            f"column {column!r} of {where} has more than max_distinct = {max_distinct} distinct "
            f"values, the limit that keeps the exact ε's memory under 1 GB (about 100 bytes per "
            f"distinct value, {100 * max_distinct / 2**20:.3g} MiB at the limit): round or bin the "
            "column first, or raise max_distinct if the machine has the memory"
        )
    if rows == 0:
        raise ValueError(f"{where} has no rows")
    if values.size == 0:
        raise ValueError(f"column {column!r} of {where} has no values: all {rows} rows are NULL")
    if null_rows and nulls == "refuse":
        raise NullValues(column, where, null_rows, rows)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"column {column!r} of {where} holds NaN or infinite values")
    order = np.argsort(values, kind="stable")
    values, counts = values[order], counts[order]
    if np.any(values[1:] == values[:-1]):
        # integers beyond 2**53 (BIGINT, HUGEINT, DECIMAL) that float64 cannot tell apart
        twin = float(values[1:][values[1:] == values[:-1]][0])
        near = f"{twin:.0f}" if abs(twin) >= 2**53 else repr(twin)  # beyond 2**53, an integer
        raise ValueError(
            f"column {column!r} of {where} holds distinct values that float64 cannot tell apart "
            f"(near {near}; integers are exact only up to 2**53): subtract a common offset "
            "first"
        )
    return values, counts


def _identifier(name: str) -> str:
    """``name`` quoted as an SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    """``text`` quoted as an SQL string."""
    return "'" + text.replace("'", "''") + "'"


def _first_line(error: BaseException) -> str:
    """The first line of an error's message: DuckDB's run over several."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
