"""``hespas accuracy --plot``: estimated against measured step time of every evaluated row.

Log axes, the identity line and a ±15% band; one marker shape per group, one colour per
estimator; rows that do not count toward the goal are drawn hollow; rows outside the band are
labelled.
"""

from __future__ import annotations

from pathlib import Path

from hespas_py.accuracy.evaluate import Result

_MARKERS = "osD^vP*X"
BAND = 0.15


def plot(results: list[Result], path: Path) -> None:
    """Draw ``results`` into the image file ``path`` (format from its suffix)."""
    from hespas_py.plotting import pyplot, save_figure

    plt = pyplot()
    groups = list(dict.fromkeys(r.row.group for r in results))
    estimators = list(dict.fromkeys(r.estimator for r in results))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(6.5, 6))
    for g, group in enumerate(groups):
        for e, estimator in enumerate(estimators):
            colour = colours[e % len(colours)]
            for counted in (True, False):
                mine = [r for r in results
                        if r.row.group == group and r.estimator == estimator and r.row.counted == counted]
                if not mine:
                    continue
                ax.scatter([r.row.measured_s for r in mine], [r.estimated_s for r in mine],
                           marker=_MARKERS[g % len(_MARKERS)], edgecolors=colour,
                           facecolors=colour if counted else "none",
                           label=f"{group}, {estimator}" + ("" if counted else " (not counted)"))
    for r in results:
        if abs(r.error) > BAND:
            ax.annotate(f"{r.row.name}\n{r.row.system}", (r.row.measured_s, r.estimated_s), fontsize=5)
    values = [v for r in results for v in (r.row.measured_s, r.estimated_s)]
    low, high = min(values) / 1.5, max(values) * 1.5
    ax.plot([low, high], [low, high], "k-", lw=0.8, label="measured")
    ax.fill_between([low, high], [low * (1 - BAND), high * (1 - BAND)], [low * (1 + BAND), high * (1 + BAND)],
                    color="grey", alpha=0.2, label=f"±{BAND:.0%}")
    ax.set(xscale="log", yscale="log", xlabel="measured step time (s)", ylabel="estimated step time (s)",
           title="hespas_py accuracy")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, path)
