"""The ε scrubbers: each accompanies a committed figure of its notebook, renders to a deterministic
jshtml fragment with a slider and one PNG per frame, opens at the notebook's default, and shows in
its frames the values the package computes (checked here by another route)."""

import base64
import math
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from choosing_epsilon import economics as econ
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import risk_profiles as rp
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.harness import papers, parameters
from choosing_epsilon.harness.paths import FIGURES
from choosing_epsilon.plots import scrubber, style
from tests.site_modules import site_module

scrubbers = site_module("scrubbers")  # the site's renderer, which finds them through the registry

NAMES = sorted(scrubbers.SCRUBBERS)
FEW = 3  # frames per scrubber in these tests: the first, the default's and the last


def committed(notebook: str, name: str):
    return parameters.SPECS[notebook][name].committed


def build(name: str, count: int | None = None):
    """Scrubber ``name``'s animation, from its paper's folder (through the registry)."""
    return scrubbers.SCRUBBERS[name].build(count)


def test_every_notebook_with_a_scrubbers_module_has_a_scrubber_named_after_it():
    # a notebook's first scrubber keeps the notebook's name (its fragment and element id with it)
    scrubbed = [n for n in papers.names() if scrubbers.of_notebook(n)]
    assert scrubbed == [n for n in papers.names() if papers.has(n, "scrubbers")]
    assert len(scrubbed) >= 6 and all(scrubbers.of_notebook(n)[0] == n for n in scrubbed)
    assert scrubbers.of_notebook("synthesis") == ["synthesis", "synthesis_risk_scale"]
    assert scrubbers.of_notebook("laplace_intro") == []
    assert sorted(scrubbers.NOTEBOOK_OF) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_each_scrubber_accompanies_a_committed_figure_of_its_notebook(name):
    shown, notebook = scrubbers.SCRUBBERS[name], scrubbers.NOTEBOOK_OF[name]
    assert notebook in parameters.SPECS and name.startswith(notebook)
    assert (FIGURES / notebook / shown.figure).is_file()
    assert shown.label.endswith(".") and "\n" not in shown.label
    assert shown.parameter


@pytest.mark.parametrize("name", NAMES)
def test_fragment_is_deterministic_with_a_slider_and_a_frame_per_value(name):
    first = scrubbers.html(name, frames=FEW)
    assert scrubbers.html(name, frames=FEW) == first
    assert not plt.get_fignums()  # no figure left open
    ident = scrubbers.element_id(name)
    assert f'<input id="_anim_slider{ident}" type="range"' in first
    frame = re.search(rf'<img alt="([^"]+)" id="_anim_img{ident}">', first)
    assert frame is not None and scrubbers.SCRUBBERS[name].parameter in frame.group(1)
    assert first.count('] = "data:image/png;base64,') == FEW
    assert not re.search(r"[0-9a-f]{32}", first.replace("\\\n", "").split("frames[0]")[0])
    # it opens at the notebook's default value
    animation = build(name, FEW)
    assert f"anim{ident}.set_frame({animation.start});" in first
    assert f'value="{animation.start}"' in first


def test_png_frames_carry_no_metadata():
    fragment = scrubbers.html("shoaran_2012", frames=2)
    frame = re.search(r'frames\[0\] = "data:image/png;base64,([^"]+)"', fragment).group(1)
    png = base64.b64decode(frame.replace("\\\n", ""))
    assert png.startswith(b"\x89PNG") and b"tEXt" not in png and b"tIME" not in png


@pytest.mark.parametrize("name", [n for n in NAMES if scrubbers.SCRUBBERS[n].opens_at])
def test_the_scrubber_opens_at_the_notebook_default(name):
    animation = build(name, 7)
    assert len(animation.values) == 7
    notebook, parameter = scrubbers.NOTEBOOK_OF[name], scrubbers.SCRUBBERS[name].opens_at
    assert animation.values[animation.start] == committed(notebook, parameter)
    assert animation.values == sorted(animation.values)


def test_every_scrubber_has_its_default_checked():
    # the risk scale opens at the posterior bound's ε, a computation: the test below
    assert {n for n in NAMES if not scrubbers.SCRUBBERS[n].opens_at} == {"synthesis_risk_scale"}


def test_lee_clifton_frames_show_the_worst_case_posterior_of_the_absent_world():
    animation = build("lee_clifton_2011", 6)  # ε = 0, 1, 2, ..., 5
    data = pw.load_database(committed("lee_clifton_2011", "data_path"), ["absence_days"], "Terry")
    order = pw.world_order(list(data.name), "Terry")
    answers = sens.world_answers(data.absence_days, "mean")[order]
    delta_f = sens.unbounded_sensitivity(data.absence_days, "mean")
    for i in (animation.start, 5):
        animation.draw(i)
        epsilon = animation.values[i]
        assert f"ε = {epsilon:.2f}" in animation.title
        # Definition 3 at the response γ = f(ω1): the posterior of the true world
        expected = pw.posterior(answers, answers[0], delta_f, epsilon)[0]
        (x,), (y,) = animation.marks["posterior absence_days"].get_data()
        assert x == epsilon and y == pytest.approx(expected, rel=1e-9)


def test_shoaran_frames_show_the_noise_exceeded_half_and_30_percent_of_the_time():
    animation = build("shoaran_2012", 5)
    for i in (0, animation.start):
        animation.draw(i)
        epsilon = animation.values[i]
        assert animation.title.startswith(f"ε = {epsilon:.3g}:")
        # |Lap(Δ/ε)| is exponential with scale Δ/ε
        expected = stats.expon(scale=1 / epsilon).isf([0.5, 0.3])
        x, y = animation.marks["noise at 50% and 30%"].get_data()
        assert list(x) == [50, 30] and np.allclose(y, expected, rtol=1e-12)
        assert f"≥ {expected[0]:.0f} half the time" in animation.title


def test_mugunthan_frames_show_theorem_2s_exact_epsilon_and_the_ratio():
    animation = build("mugunthan_poster", 5)
    c = committed("mugunthan_poster", "c")
    for i in (animation.start, 4):
        animation.draw(i)
        p = animation.values[i]
        assert animation.title.startswith(f"p = {p:.3f}:")

        def shortfall(epsilon: float, p: float = p) -> float:
            noise = stats.laplace(scale=1 / epsilon)
            return noise.cdf(c) - noise.cdf(-c) - p

        exact = optimize.brentq(shortfall, 1e-6, 100, xtol=1e-14)
        (_,), (eps2,) = animation.marks["ε₂"].get_data()
        (_,), (eps3,) = animation.marks["ε₃"].get_data()
        (_,), (ratio,) = animation.marks["ε₂/ε₃"].get_data()
        assert eps2 == pytest.approx(exact, rel=1e-9)
        assert ratio == pytest.approx(eps2 / eps3, rel=1e-12)


def test_hsu_frames_mark_the_largest_feasible_epsilon_at_each_budget():
    animation = build("hsu_2014", 5)
    cost = econ.expected_cost(1274, 0.05)
    error, alpha = committed("hsu_2014", "error"), committed("hsu_2014", "failure_probability")
    feasible_somewhere = False
    for i in range(5):
        animation.draw(i)
        budget = animation.values[i]
        # the dollar sign escaped, or two of them would start matplotlib's mathtext
        assert animation.title.startswith(f"budget B = \\${budget:,.0f}:")
        x, y = animation.marks["largest feasible ε"].get_data()
        if len(x) == 0:  # no study: the budget does not reach the cost floor
            assert budget <= econ.cost_floor(cost, error, alpha, True)
            continue
        feasible_somewhere = True
        epsilon, n = float(x[0]), int(y[0])
        assert econ.feasible(epsilon, n, cost, budget, error, alpha, True)
        # brute force: no study size near it affords a slightly larger ε
        assert not any(
            econ.feasible(epsilon * 1.001, m, cost, budget, error, alpha, True)
            for m in range(max(1, n - 2000), n + 2000, 7)
        )
        assert f"{epsilon:.4f}" in animation.title
    assert feasible_somewhere


def test_synthesis_frame_at_the_default_n_matches_the_committed_table_of_methods():
    animation = build("synthesis", FEW)
    committed_methods = pd.read_csv(FIGURES / "synthesis" / "methods.csv")
    animation.draw(animation.start)
    assert animation.title.startswith(f"n = {committed('synthesis', 'demo_n_people'):,} people:")
    for method, epsilon in zip(committed_methods.method, committed_methods.epsilon):
        x, _ = animation.marks[method].get_data()
        if math.isfinite(epsilon) and epsilon > 0:
            assert x[0] == pytest.approx(epsilon, rel=1e-9)
        else:
            assert len(x) == 0
    # at the smallest n the sensitivity is 100 times larger, and so is the poster's Theorem 2 ε
    animation.draw(0)
    (small,), _ = animation.marks["Poster, Theorem 2"].get_data()
    default = committed_methods.set_index("method").epsilon["Poster, Theorem 2"]
    ratio = committed("synthesis", "demo_n_people") / animation.values[0]
    assert small == pytest.approx(default * ratio, rel=1e-9)
    # and below n = 1/ρ no ε keeps the posterior on who is absent under ρ: nothing is feasible
    assert animation.values[0] < 1 / committed("synthesis", "rho")
    assert len(animation.marks["Lee & Clifton, exact"].get_data()[0]) == 0
    assert "no feasible ε" in animation.title and "Lee & Clifton" in animation.title


def test_write_all_writes_one_fragment_per_scrubber(tmp_path, monkeypatch):
    monkeypatch.setattr(scrubbers, "html", lambda name: f"<p>{name}</p>")
    paths = scrubbers.write_all(tmp_path / "scrubbers")
    assert sorted(paths) == NAMES
    for name, path in paths.items():
        assert path == tmp_path / "scrubbers" / f"{name}.html"
        assert path.read_text() == f"<p>{name}</p>"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: scrubbers.html("laplace_intro"), "name must be one of ["),
        (lambda: scrubbers.html("risk_scale"), "'synthesis_risk_scale'"),
        (lambda: scrubbers.html("hsu_2014", frames=1), "frames must be an integer in [2, 200]"),
        (lambda: build("synthesis", 1000), "frames must be an integer in [2, 200]"),
    ],
)
def test_bad_input_is_refused_in_one_line(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("name", NAMES)
def test_each_scrubber_keeps_to_the_project_style(name):
    animation = build(name, 2)
    assert style.problems(animation.figure) == []


def test_a_scrubber_that_breaks_the_style_is_refused():
    @scrubber.styled(frames=2)
    def bad(count):
        fig, (ax,) = scrubber.new_figure(4, 3)
        (line,) = ax.plot([0, 1], [0, 1], color="tab:red", label="a line")
        ax.set(xlabel="privacy parameter (ε)", ylabel="probability")
        return scrubber.ScrubAnimation(fig, lambda i: None, [0.0, 1.0], 0, {"line": line})

    with pytest.raises(ValueError, match="colour 'tab:red' is not in the palette"):
        bad()


def test_kazan_reiter_frames_mark_theorem_5s_epsilon_at_the_kink():
    animation = build("kazan_reiter_2024", 5)
    r_tilde = committed("kazan_reiter_2024", "profile_r_tilde")
    for i in (animation.start, 4):
        animation.draw(i)
        a = animation.values[i]
        (x,), (y,) = animation.marks["recommended ε"].get_data()
        solved = rp.minimise(rp.fixed_q_profile(a, 1, r_tilde), q_range=(1, 1))
        assert x == pytest.approx(solved.p, rel=1e-8) and y == pytest.approx(solved.epsilon)
        assert f"ã = {a:.3f}" in animation.title


# --- the synthesis's risk scale: a pure ε among the deployments --------------------------------


def advantage_of_pure(epsilon: float) -> float:
    """(e^ε − 1)/(e^ε + 1), the largest TPR − FPR under ε-DP, written as tanh(ε/2)."""
    return math.tanh(epsilon / 2)


def test_risk_scale_opens_at_the_posterior_bound_and_spans_a_log_grid():
    animation = build("synthesis_risk_scale", FEW)
    prior, threshold = (
        committed("synthesis", "prior"),
        committed("synthesis", "posterior_threshold"),
    )
    # the posterior after a positive test is at most p e^ε/(1 − p + p e^ε): solve for ε
    default = math.log(threshold / (1 - threshold)) - math.log(prior / (1 - prior))
    assert animation.values[animation.start] == pytest.approx(default, rel=1e-12)
    methods = pd.read_csv(FIGURES / "synthesis" / "methods.csv").set_index("method")
    assert animation.values[animation.start] == pytest.approx(
        methods.epsilon["Posterior bound"], rel=1e-9
    )
    assert animation.values[0] == 0.01 and animation.values[-1] == 20
    many = build("synthesis_risk_scale", 25)
    assert len(many.values) == 25 and many.values == sorted(many.values)
    assert many.values[many.start] == pytest.approx(default, rel=1e-12)


def test_risk_scale_frames_show_the_pure_advantage_and_count_the_deployments_above_it():
    animation = build("synthesis_risk_scale", FEW)
    scale = pd.read_csv(FIGURES / "synthesis" / "risk_scale.csv")
    deployed = scale[scale.kind == "deployment"]
    stated = deployed.advantage.dropna()
    for i in (0, animation.start, len(animation.values) - 1):
        animation.draw(i)
        epsilon = animation.values[i]
        expected = advantage_of_pure(epsilon)
        (x,), (y,) = animation.marks["advantage"].get_data()
        assert x == pytest.approx(expected, rel=1e-9, abs=1e-12)
        # TPR at FPR α ≤ min(1, e^ε α, 1 − e^−ε (1 − α)) (Kairouz et al. with δ = 0)
        tpr = min(1, math.exp(epsilon) * 0.01, 1 - math.exp(-epsilon) * 0.99)
        assert y == pytest.approx(tpr, rel=1e-9)
        # on the trade-off curve: FNR = FPR at (1 − advantage)/2, and FNR = 1 − TPR at FPR 1%
        (a,), (b,) = animation.marks["FNR = FPR"].get_data()
        assert a == b == pytest.approx((1 - expected) / 2, rel=1e-9, abs=1e-12)
        assert animation.marks["FPR 1%"].get_data()[1][0] == pytest.approx(1 - tpr, abs=1e-12)
        above = int((stated > expected).sum())
        allow = "allows" if above == 1 else "allow"
        assert animation.title.startswith(f"ε = {epsilon:.4g}")
        assert (
            f"\n{above} of the {len(stated)} deployments that state a guarantee {allow} a larger "
            f"advantage ({len(deployed) - len(stated)} state none)"
        ) in animation.title
        accuracy = round(100 * (1 + expected) / 2)
        words = "more than 99 in 100" if accuracy == 100 else f"{accuracy} in 100"
        assert f"a guess at prior ½ right {words}" in animation.title
    # the ends: at ε = 0.01 every deployment allows more, at ε = 20 only LinkedIn's ε = 34.9
    assert int((stated > advantage_of_pure(0.01)).sum()) == len(stated)
    assert deployed[deployed.advantage > advantage_of_pure(20)].row.tolist() == [
        "LinkedIn: Audience Engagement API"
    ]


def test_risk_scale_frame_at_the_default_reads_as_the_notebooks_posterior_bound_row():
    animation = build("synthesis_risk_scale", FEW)
    animation.draw(animation.start)
    row = (
        pd.read_csv(FIGURES / "synthesis" / "risk_scale.csv")
        .set_index("row")
        .loc["Posterior bound"]
    )
    assert animation.title.startswith(
        f"ε = 1.099 (posterior bound): advantage {row.advantage:.3f}, "
        f"TPR at 1% FPR {row.tpr_at_fpr_1pct:.3f}, a guess at prior ½ right 75 in 100\n"
    )


def test_risk_scale_keeps_to_the_style_at_every_frame():
    """No frame's texts overlap (the build checks the first frame only)."""
    animation = build("synthesis_risk_scale")
    with scrubber.style_context():
        for i in range(len(animation.values)):
            animation.draw(i)
            assert style.problems(animation.figure) == [], f"frame {i}"
