import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from choosing_epsilon import confidence as cf
from choosing_epsilon import laplace
from choosing_epsilon.papers.laplace_intro import at_work

positive = st.floats(1e-3, 1e3)


def test_scale_is_sensitivity_over_epsilon():
    assert laplace.scale(17 / 6, 2) == pytest.approx(17 / 12)


@given(z=st.floats(0, 50), sens=positive, eps=positive)
def test_tail_is_exponential(z, sens, eps):
    assert cf.miss(eps, z, sens) == pytest.approx(math.exp(-z * eps / sens), rel=1e-9, abs=1e-300)


@given(pr=st.floats(1e-9, 1 - 1e-9), sens=positive, eps=positive)
def test_noise_at_probability_inverts_the_tail(pr, sens, eps):
    z = laplace.noise_at_probability(pr, sens, eps)
    assert z == pytest.approx(-(sens / eps) * math.log(pr), rel=1e-9, abs=1e-12)
    assert cf.miss(eps, z, sens) == pytest.approx(pr, rel=1e-7)


@given(t=st.floats(-100, 100), shift=st.floats(-1, 1), eps=st.floats(0.01, 20))
def test_neighbouring_tail_ratio_is_at_most_e_to_epsilon(t, shift, eps):
    # answers one sensitivity apart at most: Definition 1 for the event {response > t}
    ratio = laplace.tail_ratio(t, shift, 0.0, 1.0, eps)
    assert ratio <= math.exp(eps) * (1 + 1e-9)
    assert np.all(
        np.abs(laplace.log_density_ratio(np.array([t]), shift, 0.0, 1.0, eps)) <= eps + 1e-9
    )


def test_paper_tail_ratio_section_4_1():
    assert laplace.tail_ratio(3.1677, 4.0, 2.0, 17 / 6, 2) == pytest.approx(3.2933, abs=5e-5)


def test_release_is_seeded():
    a = laplace.release(2.0, 1.0, 0.5, np.random.default_rng(7), size=5)
    b = laplace.release(2.0, 1.0, 0.5, np.random.default_rng(7), size=5)
    assert np.array_equal(a, b)
    big = laplace.release(0.0, 1.0, 0.5, np.random.default_rng(1), size=200_000)
    assert big.var() == pytest.approx(2 * (1 / 0.5) ** 2, rel=0.03)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: laplace.scale(1, 0), "epsilon must be > 0"),
        (lambda: laplace.scale(1, -1), "epsilon must be > 0"),
        (lambda: laplace.scale(0, 1), "sensitivity must be > 0"),
        (lambda: laplace.scale(1, float("nan")), "epsilon must be finite"),
        (lambda: laplace.noise_at_probability(1.0, 1, 1), r"pr must lie in \(0, 1\)"),
        (lambda: cf.miss(1, -1, 1), "c must be >= 0"),
        (lambda: laplace.release(0, 1, 1, rng=7), "rng must be a numpy.random.Generator"),
        (lambda: laplace.scale("1", 1), "sensitivity must be a real number"),
    ],
)
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@given(t=st.floats(-1e4, 1e4), center=st.floats(-10, 10), eps=st.floats(0.01, 100))
def test_log_survival_agrees_with_scipy_where_scipy_is_finite(t, center, eps):
    from scipy import stats

    ours = laplace.log_survival(t, center, 1.0, eps)
    assert math.isfinite(ours)
    reference = stats.laplace(loc=center, scale=1 / eps).logsf(t)
    if math.isfinite(reference) and reference > -700:
        assert ours == pytest.approx(reference, rel=1e-9, abs=1e-12)


@given(y=st.floats(-1e3, 1e3), center=st.floats(-10, 10), eps=st.floats(0.01, 100))
def test_log_density_agrees_with_scipy_where_scipy_is_exact(y, center, eps):
    from scipy import stats

    ours = float(laplace.log_density(y, center, 1.0, eps))
    reference = float(stats.laplace(loc=center, scale=1 / eps).logpdf(y))
    assert math.isfinite(ours)
    if reference > -700:  # scipy takes the log of pdf, which is subnormal below about e^-708
        assert ours == pytest.approx(reference, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: laplace.input_perturbation([1, 2], np.mean, 1.0, 7, 10), "rng must be"),
        (
            lambda: laplace.input_perturbation([1, 2], np.mean, 1.0, np.random.default_rng(1), 0),
            "runs must be",
        ),
        (
            lambda: laplace.input_perturbation([1, 2], np.mean, 0.0, np.random.default_rng(1), 5),
            "noise_scale must be > 0",
        ),
    ],
)
def test_new_helpers_refuse_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_input_perturbation_keeps_the_mean_but_not_the_variance():
    values = np.array([10.0, 20.0, 60.0, 90.0])
    b, runs = 5.0, 200_000
    means = laplace.input_perturbation(
        values, lambda x: x.mean(axis=1), b, np.random.default_rng(3), runs
    )
    variances = laplace.input_perturbation(
        values, lambda x: x.var(axis=1, ddof=1), b, np.random.default_rng(4), runs
    )
    assert means.shape == (runs,)
    assert means.mean() == pytest.approx(values.mean(), abs=5 * means.std() / math.sqrt(runs))
    expected = values.var(ddof=1) + 2 * b**2  # E s²(x + η) = s²(x) + Var η
    assert variances.mean() == pytest.approx(expected, abs=5 * variances.std() / math.sqrt(runs))
    assert variances.mean() - values.var(ddof=1) > 40  # 2b² = 50: biased
    again = laplace.input_perturbation(
        values, lambda x: x.mean(axis=1), b, np.random.default_rng(3), runs
    )
    assert np.array_equal(means, again)


@pytest.mark.parametrize(
    "x, label",
    [
        (0.0, "1"),
        (0.5, "1.65"),
        (-0.5, "0.607"),
        (10.0, "2.20×10⁴"),
        (-10.0, "4.54×10⁻⁵"),
        (0.001, "1.001"),
        (-0.001, "0.999"),
        (2e-6, "1.000002"),
        (1e-7, "1 + 1.00×10⁻⁷"),
        (-3e-55, "1 − 3.00×10⁻⁵⁵"),
        (math.log(1e4) - 1e-6, "1.00×10⁴"),
        (2000.0, "3.88×10⁸⁶⁸"),
    ],
)
def test_ratio_label(x, label):
    assert laplace.ratio_label(x) == label


@given(x=st.floats(-5000, 5000))
def test_ratio_label_has_no_mathtext_and_tells_the_ratio_from_one(x):
    label = laplace.ratio_label(x)
    assert "$" not in label and "e+" not in label and "e-" not in label
    assert (label == "1") == (x == 0)


def test_input_perturbation_table_reproduces_the_notebook_run():
    # the notebook's draws at its defaults: 1000 releases, then 20 ages, then the table
    rng = np.random.default_rng(20230315)
    laplace.release(5, 7, 0.5, rng, size=1000)
    ages = rng.uniform(0, 110, size=20)
    table = at_work.input_perturbation_table(ages, laplace.scale(110, 0.5), rng, 20_000)
    assert list(table.index) == ["mean", "sample variance"]
    assert table.loc["mean", "average release"] == pytest.approx(63.67681889, rel=1e-9)
    assert table.loc["mean", "prediction"] == table.loc["mean", "f(D)"]
    variance = table.loc["sample variance"]
    assert variance["prediction"] - variance["f(D)"] == pytest.approx(2 * 220.0**2)
    assert variance["average - f(D)"] == pytest.approx(96739.46495, rel=1e-9)
    assert variance["z (average vs prediction)"] == pytest.approx(-0.1746231124, rel=1e-8)


@pytest.mark.parametrize("epsilon", [1e-3, 0.5, 10.0, 1000.0])
def test_neighbour_densities_hold_both_peaks_and_a_loss_within_epsilon(epsilon):
    frame = at_work.neighbour_densities(5, 12, 7, epsilon)
    assert list(frame.columns) == ["epsilon", "a", "density_D", "density_D_prime", "ln_ratio"]
    assert (frame.epsilon == epsilon).all() and frame.a.is_monotonic_increasing
    assert {5.0, 12.0} <= set(frame.a)
    assert frame.ln_ratio.max() == pytest.approx(epsilon) and frame.ln_ratio.min() == pytest.approx(
        -epsilon
    )
    peak = frame.loc[frame.a == 5.0]
    assert peak.density_D.iloc[0] == pytest.approx(epsilon / 14)  # 1/(2λ), λ = 7/ε


def test_neighbour_densities_at_the_example_match_the_notebook_grid():
    frame = at_work.neighbour_densities(5, 12, 7, 0.5)
    assert len(frame) == 2003  # 2001 grid points and the two centres
    assert frame.a.iloc[0] == -86 and frame.a.iloc[1] == pytest.approx(-85.9055)
    assert frame.density_D.iloc[0] == pytest.approx(5.369425689e-05, rel=1e-9)
