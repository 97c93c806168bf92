"""The figure style refuses two texts whose boxes overlap (style.overlapping_texts)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from choosing_epsilon.plots import style


def test_overlapping_texts_are_refused():
    style.use()
    fig, ax = plt.subplots()
    ax.set(xlabel="share (p)", ylabel="count (n)")
    style.note(ax, 0.5, 0.5, "first words here")
    style.note(ax, 0.52, 0.5, "second words here")
    assert any("overlap" in p for p in style.problems(fig))
    ax.texts[1].set_position((0.5, 0.1))
    assert not any("overlap" in p for p in style.problems(fig))
    plt.close(fig)


def test_tick_labels_outside_the_view_are_not_counted():
    style.use()
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set(xlabel="share (p)", ylabel="count (n)", xlim=(0.3, 0.6))
    texts = [t.get_text() for t, _ in style.drawn_texts(fig)]
    assert "0.45" in texts and "0.25" not in texts and "0.65" not in texts
    plt.close(fig)
