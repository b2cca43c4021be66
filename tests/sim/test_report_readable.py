"""Reports a designer can read (issue 51 item 6): a title in words, not a variant hash and an agent spec
that made the page 1,480 px wide; figures whose texts lie inside the PNG; numbers readable on their cells."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cardlab.games import game_class, game_names
from cardlab.sim.balance import matchups_for, summarize
from cardlab.sim.compare import difference_figure
from cardlab.sim.report import contrast_ratio, heatmap_figure, label_color, write_heatmap, write_report_html
from cardlab.store import CellCount
from tests.web.helpers import CHROMIUM, NEEDS_CHROMIUM

HASHED = "starter+entrants=9671f78273+cards=0ffabc8111"
SPEC = "ismcts:iterations=2000,determinizations=8,rollout=heuristic,exploration=0.7,seed_stream=lab"
HEX = re.compile(r"\b[0-9a-f]{10}\b")
GAMES = [name for name in game_names() if game_class(name).lab() is not None]


def _summary(game: str) -> dict[str, Any]:
    """The game's default table from counts (one lopsided cell), renamed as an own-entrants table is."""
    matchups = matchups_for(game, None)
    counts = []
    for index, (a, b) in enumerate((a, b) for i, a in enumerate(matchups.entrants) for b in matchups.entrants[i + 1 :]):
        wins = 95 if index == 0 else 50 + index % 7
        counts += [CellCount(f"{a}-{b}", 0, a, b, 100, wins, 100 - wins, 0),
                   CellCount(f"{a}-{b}", 1, b, a, 100, 50, 50, 0)]  # fmt: skip
    summary = summarize(counts, matchups, "heuristic", bootstrap=20)
    summary.update(variant=HASHED, agent=SPEC)
    return summary


def _outside(fig: Any) -> list[str]:
    """Every visible text whose drawn extent leaves the figure."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    found = []
    for text in fig.findobj(lambda artist: hasattr(artist, "get_text") and hasattr(artist, "get_window_extent")):
        if not text.get_visible() or not text.get_text().strip():
            continue
        extent = text.get_window_extent(renderer)
        if extent.x0 < box.x0 - 0.5 or extent.y0 < box.y0 - 0.5 or extent.x1 > box.x1 + 0.5 or extent.y1 > box.y1 + 0.5:
            found.append(f"{text.get_text()!r} at {extent.bounds} in {box.bounds}")
    return found


def _low_contrast(fig: Any) -> list[str]:
    """Every number on a heatmap cell whose contrast with the cell is under 4.5:1 (WCAG AA)."""
    from matplotlib.colors import to_rgb

    found = []
    for ax in fig.axes:
        images = ax.get_images()
        if not images:
            continue
        image = images[0]
        for text in ax.texts:
            x, y = text.get_position()
            value = image.get_array()[round(y), round(x)]
            cell = image.cmap(image.norm(value))
            ratio = contrast_ratio(to_rgb(text.get_color()), cell)
            if ratio < 4.5:
                found.append(f"{text.get_text()} on {cell}: {ratio:.2f}")
    return found


def _difference_summary(game: str, spread: float) -> dict[str, Any]:
    entrants = matchups_for(game, None).entrants
    pairs = [f"{a}-{b}" for i, a in enumerate(entrants) for b in entrants[i + 1 :]][:8]
    diffs = [spread * (2 * k / max(1, len(pairs) - 1) - 1) for k in range(len(pairs))]
    cells = [{"pairing": p, "seat": s, "diff": d * (1 if s else -0.5), "significant": abs(d) > 0.1}
             for p, d in zip(pairs, diffs, strict=True) for s in (0, 1)]  # fmt: skip
    verdict = "the two agents' tables differ in 3 of 16 cells (Holm-corrected); " * 3
    return {"game": game, "variant": HASHED, "agents": ["heuristic", SPEC], "cells": cells,
            "max_abs_diff": spread, "verdict": verdict}  # fmt: skip


def test_the_title_is_in_words_and_the_spec_on_a_details_line(tmp_path: Path) -> None:
    for game in GAMES:
        summary = _summary(game)
        page = tmp_path / f"{game}.html"
        write_report_html(summary, None, page)
        text = page.read_text()
        title = re.search(r"<title>(.*?)</title>", text, re.S)
        heading = re.search(r"<h1>(.*?)</h1>", text, re.S)
        assert title is not None and heading is not None
        for words in (title.group(1), heading.group(1)):
            assert not HEX.search(words) and "ismcts" not in words and game_class(game).title in words, words
            assert "strong search" in words
        assert HASHED in text and SPEC in text  # the details line keeps the exact identity


@NEEDS_CHROMIUM
def test_no_element_is_wider_than_a_1366_px_screen(tmp_path: Path) -> None:
    game = GAMES[-1]
    page = tmp_path / "report.html"
    heatmap = tmp_path / "heatmap.png"
    summary = _summary(game)
    write_heatmap(summary, heatmap)
    write_report_html(summary, heatmap, page)
    script = tmp_path / "width.js"
    script.write_text(
        "[...document.querySelectorAll('*')].reduce((m, e) => Math.max(m, e.getBoundingClientRect().right), 0)"
    )
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            view = browser.new_page(viewport={"width": 1366, "height": 900})
            view.goto(page.as_uri())
            widest = view.evaluate(script.read_text())
            scroll = view.evaluate("document.documentElement.scrollWidth")
        finally:
            browser.close()
    assert widest <= 1366 and scroll <= 1366, (widest, scroll)


@pytest.mark.parametrize("game", GAMES)
def test_the_heatmaps_texts_lie_inside_it_and_read_on_their_cells(game: str) -> None:
    import matplotlib.pyplot as plt

    fig = heatmap_figure(_summary(game))
    try:
        assert _outside(fig) == []
        assert _low_contrast(fig) == []
    finally:
        plt.close(fig)


@pytest.mark.parametrize("spread", [0.03, 0.25])
def test_the_difference_heatmaps_texts_lie_inside_it_and_read_on_their_cells(spread: float) -> None:
    import matplotlib.pyplot as plt

    fig = difference_figure(_difference_summary(GAMES[-1], spread))
    try:
        assert _outside(fig) == []
        assert _low_contrast(fig) == []
        bar = fig.axes[-1]
        low, high = sorted(bar.get_ylim())
        shown = [t for t in bar.get_yticklabels() if t.get_text() and low <= t.get_position()[1] <= high]
        ticks = [t.get_window_extent() for t in shown]
        label = [t.get_window_extent() for t in (bar.yaxis.label, bar.title) if t.get_text()]
        assert not any(a.overlaps(b) for a in ticks for b in label)
    finally:
        plt.close(fig)


def test_tunes_difference_heatmap_is_titled_in_words() -> None:
    """#51 item 6: `tune`'s difference heatmap was titled with the variant hash ("aterial starter+entrants=
    9671f78273+cards=..."); its title names the game, the entrants and who played, as the report titles do, and
    still lies inside the figure."""
    import matplotlib.pyplot as plt

    from cardlab.sim.tune import difference_plot

    game = GAMES[-1]
    entrants = list(matchups_for(game, None).entrants)
    tune = {"game": game, "variant": HASHED, "agent": SPEC, "entrants_list": entrants, "entrant_names": {}}
    fig = difference_plot(_difference_summary(game, 0.25), tune, "S90.attack=3")
    try:
        title = " ".join(fig._suptitle.get_text().split())
        assert not HEX.search(title) and HASHED not in title and "ismcts" not in title, title
        assert game_class(game).title in title and "strong search" in title and "S90.attack=3" in title, title
        assert _outside(fig) == []
    finally:
        plt.close(fig)


def test_label_colours_follow_the_cells_luminance() -> None:
    assert [label_color(rate) for rate in (0.0, 0.05, 0.5, 0.95, 1.0)] == ["white", "white", "black", "white", "white"]


def test_chromium_is_where_the_helpers_say() -> None:
    """The width check above runs where Chromium is installed; here it is expected."""
    if CHROMIUM.exists():
        assert subprocess.run([str(CHROMIUM), "--version"], capture_output=True, timeout=60).returncode == 0
