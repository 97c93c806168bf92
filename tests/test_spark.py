"""The README's PySpark route, run: Spark (local mode, two cores) counts a Parquet column, and the
exact ε from those counts is DuckDB's (``tables.column_counts``) to the last bit. ``make
test-spark`` installs PySpark (requirements-spark.lock) and needs Java 17 or later; ``make test``
leaves this file out."""

import duckdb
import numpy as np
import pytest

from choosing_epsilon.possible_worlds import epsilon_for_risk
from choosing_epsilon.tables import column_counts

pytestmark = pytest.mark.spark
pyspark_sql = pytest.importorskip("pyspark.sql", reason="make test-spark installs PySpark")


@pytest.fixture(scope="module")
def spark():
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("choosing-epsilon-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def ages(tmp_path_factory):
    """A Parquet file of 200,000 ages (ties everywhere, an outlier, a few NULLs), from DuckDB."""
    path = tmp_path_factory.mktemp("spark") / "people.parquet"
    rng = np.random.default_rng(20240601)
    values = rng.integers(18, 90, 200_000).astype(float)
    values[0] = 117.0
    con = duckdb.connect()
    con.register("frame", {"age": values, "missing": rng.random(values.size) < 1e-4})
    con.execute(
        f"COPY (SELECT CASE WHEN missing THEN NULL ELSE age END AS age FROM frame) "
        f"TO '{path}' (FORMAT parquet)"
    )
    return path


@pytest.mark.parametrize(("query", "rho"), [("mean", 1e-4), ("median", 0.02), ("variance", 1e-3)])
def test_spark_counts_give_duckdbs_epsilon(spark, ages, query, rho):
    people = spark.read.parquet(str(ages))
    rows = people.where("age IS NOT NULL").groupBy("age").count().toPandas()
    by_spark = epsilon_for_risk(
        rows["age"].to_numpy(float), rho, query, counts=rows["count"].to_numpy()
    )
    values, counts = column_counts(str(ages), "age", nulls="drop")
    by_duckdb = epsilon_for_risk(values, rho, query, counts=counts)
    assert by_spark == by_duckdb
    assert int(rows["count"].sum()) == int(counts.sum()) < 200_000  # the NULLs left out alike
