"""Balance report files: results.csv, summary.json, a heatmap PNG and a self-contained HTML page."""

from __future__ import annotations

import base64
import csv
import html
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.games import game_class
from cardlab.sim.stats import wilson_interval
from cardlab.store.games_db import StoredBatch, StoredGame


@dataclass(frozen=True)
class SeatWords:
    """How tables name the seats: by playing order, or only P1/P2 in a game whose first player is
    decided anew each turn (`Game.fixed_first_player`)."""

    as_first: str
    as_second: str
    heading: str
    short: tuple[str, str]
    cell: tuple[str, str]


_ORDERED = SeatWords(
    "as first player", "as second player", "First player", ("A as first", "A as second"), ("first", "second")
)
_LABELS = SeatWords("in seat P1", "in seat P2", "Seat P1", ("A in P1", "A in P2"), ("in P1", "in P2"))


def seat_words(game: str) -> SeatWords:
    return _ORDERED if game_class(game).fixed_first_player else _LABELS


def game_title(game: str) -> str:
    return game_class(game).title


def write_results_csv(games: Iterable[StoredGame], path: Path, names: Mapping[str, str] | None = None) -> None:
    """One row per game: pairing, who sat where, seed, winner, reason, length; with `names` (entrant id ->
    words, a table's `entrant_names`) also who sat where in words (`p1_name`, `p2_name`)."""
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "pairing",
                "game_index",
                "seat",
                "p1",
                "p2",
                "seed",
                "winner_seat",
                "winner",
                "reason",
                "turns",
                "decisions",
                *(["p1_name", "p2_name"] if names else []),
            ]
        )
        for game in games:
            winner = game.p1 if game.winner == 0 else game.p2
            writer.writerow(
                [
                    game.cell,
                    game.game_index,
                    game.seat,
                    game.p1,
                    game.p2,
                    game.seed,
                    ("P1", "P2")[game.winner],
                    winner,
                    game.reason,
                    game.turns,
                    game.decisions,
                    *([names.get(game.p1, ""), names.get(game.p2, "")] if names else []),
                ]
            )


TABLE_COLUMNS = (
    "pairing", "a", "b", "seat", "a_sits", "p1", "p2", "games", "p1_wins", "p2_wins", "draws",
    "a_wins", "a_rate", "a_ci95_low", "a_ci95_high", "differs_from_50",
)  # fmt: skip


def write_table_csv(
    games: Iterable[StoredGame], batches: Iterable[StoredBatch], summary: dict[str, Any], path: Path
) -> None:
    """table.csv: one row per pairing and seat with its counts, whatever engine played them (reference games
    one by one, kernel games in batches): wins per seat, draws, the first-named entrant's rate with its 95%
    Wilson interval, and whether it differs from 50% (the table's test, `differs_from_50`); with the
    entrants' names where the table has them (`a_name`, `b_name`)."""
    tallies: dict[tuple[str, int], list[Any]] = {}  # (cell, seat) -> [p1, p2, games, p1 wins, p2 wins, draws]
    for game in games:
        tally = tallies.setdefault((game.cell, game.seat), [game.p1, game.p2, 0, 0, 0, 0])
        tally[2] += 1
        tally[3 + (game.winner if game.winner in (0, 1) else 2)] += 1
    for batch in batches:
        tally = tallies.setdefault((batch.cell, batch.seat), [batch.p1, batch.p2, 0, 0, 0, 0])
        tally[2] += batch.count
        tally[3] += batch.p1_wins
        tally[4] += batch.p2_wins
        tally[5] += batch.draws
    sits = seat_words(summary["game"]).cell
    names = summary.get("entrant_names") or {}
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([*TABLE_COLUMNS, *(["a_name", "b_name"] if names else [])])
        for row in summary["pairings"] + summary["mirrors"]:
            cell = f"{row['a']}-{row['b']}"
            for seat, key in ((0, "a_first"), (1, "a_second")):
                if (cell, seat) not in tallies:
                    continue
                p1, p2, played, p1_wins, p2_wins, draws = tallies[(cell, seat)]
                a_wins = p1_wins if seat == 0 else p2_wins
                low, high = wilson_interval(a_wins, played)
                writer.writerow([cell, row["a"], row["b"], seat, sits[seat], p1, p2, played, p1_wins, p2_wins, draws,
                                 a_wins, f"{a_wins / played:.6f}", f"{low:.6f}", f"{high:.6f}",
                                 "yes" if row[f"{key}_significant"] else "no",
                                 *([names.get(row["a"], ""), names.get(row["b"], "")] if names else [])])  # fmt: skip


def games_line(summary: dict[str, Any], new: int) -> str:
    """How many of the table's games this run played and how many were stored before."""
    return f"{new} new + {summary['total_games'] - new} stored games"


def write_batches_csv(batches: Iterable[StoredBatch], path: Path) -> None:
    """One row per stored kernel batch: its cell and seat, the replayable index range and its counts."""
    columns = (
        "pairing",
        "seat",
        "p1",
        "p2",
        "seed",
        "first_index",
        "count",
        "p1_wins",
        "p2_wins",
        "draws",
        "reasons",
        "turns",
        "decisions",
        "version",
        "fingerprint",
    )
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for batch in batches:
            writer.writerow(
                [
                    batch.cell,
                    batch.seat,
                    batch.p1,
                    batch.p2,
                    batch.seed,
                    batch.first_index,
                    batch.count,
                    batch.p1_wins,
                    batch.p2_wins,
                    batch.draws,
                    json.dumps(dict(batch.reasons), sort_keys=True),
                    batch.turns,
                    batch.decisions,
                    batch.version,
                    batch.fingerprint,
                ]
            )


def write_summary_json(summary: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(summary, indent=2) + "\n")


AGENT_WORDS = {"ismcts": "strong search", "pimc": "search", "heuristic": "heuristic", "random": "random play"}
"""What a designer calls the agent that played a table; its spec goes on the details line (`spec_line`)."""
NAMED_IN_TITLE = 4
"""Entrants a title names before `and N more`: a title is a line, not the table."""


def agent_words(spec: str) -> str:
    """`ismcts:iterations=2000,...` -> `strong search`; an agent without words keeps its name."""
    name = spec.split(":", 1)[0]
    return AGENT_WORDS.get(name, name)


def report_title(summary: Mapping[str, Any]) -> str:
    """What a balance table is of, in words (game, entrants by name, agent): the variant's hash and the agent
    spec are unreadable there and, unbroken, made the page wider than a screen; `spec_line` carries them."""
    entrants = list(summary["matrix"]["entrants"]) if "matrix" in summary else []
    return table_title(summary["game"], entrants, summary.get("entrant_names"), str(summary["agent"]))


def table_title(game: str, entrants: Sequence[str], entrant_names: Mapping[str, str] | None, agent: str) -> str:
    """A table in words: the game, its entrants by name (`and N more` past `NAMED_IN_TITLE`), who played it."""
    names = [(entrant_names or {}).get(entrant) or entrant for entrant in entrants]
    shown = ", ".join(names[:NAMED_IN_TITLE])
    if len(names) > NAMED_IN_TITLE:
        shown += f" and {len(names) - NAMED_IN_TITLE} more"
    played = f"played by {agent_words(agent)}"
    return f"{game_title(game)}: {shown} — {played}" if shown else f"{game_title(game)} — {played}"


def spec_line(summary: Mapping[str, Any]) -> str:
    """The table's exact identity for the details line: its variant and the agent spec that played it."""
    return f"variant {summary['variant']} — agent {summary['agent']}"


def validation_line(summary: dict[str, Any]) -> str:
    """How the agent's table was validated against another agent's (`cardlab compare`), or that it was not."""
    validation = summary.get("validation")
    if validation is None and summary.get("default_agent_backing"):
        return f"{summary['default_agent_backing']} (no stored comparison with another agent in this database)"
    if validation is None:
        return f"not validated: no stored comparison of {summary['agent']} with another agent (cardlab compare)"
    return str(validation["text"])


def matrix_intervals(summary: dict[str, Any]) -> list[list[tuple[int, int, tuple[float, float]] | None]]:
    """Per cell of the win-rate matrix: (row's wins, games, 95% Wilson interval), both seats pooled, draws
    counting as games won by neither (None: not played)."""
    entrants = summary["matrix"]["entrants"]
    index = {entrant: i for i, entrant in enumerate(entrants)}
    cells: list[list[tuple[int, int, tuple[float, float]] | None]] = [[None] * len(entrants) for _ in entrants]
    for row in summary["pairings"] + summary["mirrors"]:
        if row["a"] not in index or row["b"] not in index:
            continue
        wins = row["a_first_wins"] + row["a_second_wins"]
        played = row["a_first_games"] + row["a_second_games"]
        if not played:
            continue
        i, j = index[row["a"]], index[row["b"]]
        cells[i][j] = (wins, played, wilson_interval(wins, played))
        if i != j:
            losses = played - wins - row["draws"]
            cells[j][i] = (losses, played, wilson_interval(losses, played))
    return cells


def entrant_label(summary: Mapping[str, Any], entrant: str) -> str:
    """An entrant as a plot names it: its name with its id where the table has names (`entrant_names`)."""
    name = (summary.get("entrant_names") or {}).get(entrant)
    return f"{name} ({entrant})" if name and name != entrant else entrant


def write_heatmap(summary: dict[str, Any], path: Path) -> None:
    """The matrix of row-vs-column win rates as a PNG (`heatmap_figure`; needs the plots extra)."""
    import matplotlib.pyplot as plt

    fig = heatmap_figure(summary)
    fig.savefig(path)
    plt.close(fig)


def heatmap_figure(summary: dict[str, Any]) -> Any:
    """The matrix of row-vs-column win rates (both seats pooled) as a matplotlib figure. A cell whose 95%
    Wilson interval excludes 50% is outlined and its rate starred; entrants are named where the table has
    names (`entrant_label`). Title and footnote are wrapped to the figure's width (`fit_texts`): unwrapped,
    the title and the footnote ran off the PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.patches import Rectangle

    entrants = summary["matrix"]["entrants"]
    names = [entrant_label(summary, entrant) for entrant in entrants]
    rates = np.array([[np.nan if r is None else r for r in row] for row in summary["matrix"]["win_rate"]], float)
    intervals = matrix_intervals(summary)
    longest = max((len(name) for name in names), default=0)
    size = max(4.8, 2.4 + 0.7 * len(names) + 0.06 * max(0, longest - 8))
    fig, ax = plt.subplots(figsize=(size + 1.2, size), dpi=120)
    image = ax.imshow(rates, cmap=HEATMAP_CMAP, vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if np.isnan(rates[i, j]):
                continue
            cell = intervals[i][j]
            differs = cell is not None and not cell[2][0] <= 0.5 <= cell[2][1]
            ax.text(j, i, f"{rates[i, j]:.0%}{'*' if differs else ''}", ha="center", va="center",
                    fontsize=9 if len(names) <= 6 else 7, color=label_color(rates[i, j]))  # fmt: skip
            if differs:
                ax.add_patch(Rectangle((j - 0.45, i - 0.45), 0.9, 0.9, fill=False, edgecolor="black", linewidth=1.5))
    ax.set_xlabel("opponent\n(outlined, *: the rate's 95% interval excludes 50%, each cell on its own, uncorrected)",
                  fontsize=8)  # fmt: skip
    ax.set_ylabel(summary["kind"].removesuffix("s"))
    title = fig.suptitle(  # the figure's, not the axes': centred on the PNG, clear of the colour bar
        f"{report_title(summary)}\nwin rate of row vs column, {summary['games_per_cell']} games per pairing and seat",
        fontsize=10,
    )
    fig.colorbar(image, ax=ax, label="win rate")
    fit_texts(fig, [title, ax.xaxis.label])
    return fig


HEATMAP_CMAP = "RdBu_r"


def fit_texts(fig: Any, texts: Sequence[Any]) -> None:
    """Wrap `texts` (a title, a footnote) until the laid-out figure holds every one of them: matplotlib
    neither wraps a title nor keeps one inside the figure (a title is centred on its axes, not the figure)."""
    import textwrap

    originals = [text.get_text().split("\n") for text in texts]
    width_px = fig.get_figwidth() * fig.dpi
    columns = [max(20, int(width_px / (0.55 * text.get_fontsize() * fig.dpi / 72))) for text in texts]
    for _ in range(12):
        for text, lines, width in zip(texts, originals, columns, strict=True):
            text.set_text("\n".join(textwrap.fill(line, width) for line in lines))
        fig.tight_layout()
        fig.canvas.draw()
        box = fig.bbox
        wide = [text.get_window_extent().x0 < box.x0 or text.get_window_extent().x1 > box.x1 for text in texts]
        if not any(wide):
            return
        columns = [
            max(12, int(width * 0.88)) if too_wide else width for width, too_wide in zip(columns, wide, strict=True)
        ]


def relative_luminance(rgb: Sequence[float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (channels 0..1)."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(float(c)) for c in rgb[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: Sequence[float], second: Sequence[float]) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21 (4.5 is the least for normal text)."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_color_on(rgb: Sequence[float]) -> str:
    """Black or white, whichever contrasts more with a cell of colour `rgb` (never under 4.5:1: the two
    ratios multiply to 21): a fixed colour put black numbers on navy cells."""
    return "white" if contrast_ratio(rgb, (1.0, 1.0, 1.0)) > contrast_ratio(rgb, (0.0, 0.0, 0.0)) else "black"


def label_color(rate: float, cmap: str = HEATMAP_CMAP, low: float = 0.0, high: float = 1.0) -> str:
    """A heatmap label readable on its cell: the text colour for the colour `cmap` gives `rate`."""
    import matplotlib

    fraction = 0.5 if high == low else (rate - low) / (high - low)
    return text_color_on(matplotlib.colormaps[cmap](min(1.0, max(0.0, fraction))))


def config_words(config: dict[str, Any]) -> str:
    """A config JSON in words for titles: `deck skills, standard accel2, characters P1 VIRIDIAN / P2 EAGLE`."""

    def text(value: Any) -> str:
        return "+".join(map(str, value)) if isinstance(value, list) else str(value)

    words = []
    for key, value in config.items():
        if value is None:
            continue
        if isinstance(value, dict):
            seats = " / ".join(f"{seat} {text(item)}" for seat, item in value.items() if item is not None)
            if seats:
                words.append(f"{key} {seats}")
        else:
            words.append(f"{key} {text(value)}")
    return ", ".join(words) or "default config"


def _pct(value: float) -> str:
    return f"{value:.1%}"


def _interval(ci: list[float]) -> str:
    return f"[{ci[0]:.1%}, {ci[1]:.1%}]"


def _bt_interval(ci: list[float]) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def embedded_png(path: Path | None, alt: str) -> str:
    """An <img> carrying the PNG itself, so the page is one file; empty without the plot."""
    if path is None or not path.exists():
        return ""
    encoded = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{encoded}">'


def html_page(title: str, body: str) -> str:
    """A self-contained report page (no external files) with cardlab's table style."""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; padding: 0 1em; max-width: 60em; color: #222;
        overflow-wrap: anywhere; }}
table {{ border-collapse: collapse; margin: 1em 0; display: block; max-width: 100%; overflow-x: auto; }}
td, th {{ border: 1px solid #ccc; padding: .3em .7em; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
img {{ max-width: 100%; }}
</style></head><body>
{body}
</body></html>
"""


def write_report_html(summary: dict[str, Any], heatmap: Path | None, path: Path, new: int = 0) -> None:
    """One HTML file with the tables and the plot embedded (no external files)."""
    esc = html.escape
    rows = "".join(
        f"<tr><td>{esc(p['a'])} vs {esc(p['b'])}</td>"
        f"<td>{p['a_first_wins']}/{p['a_first_games']} {_interval(p['a_first_ci95'])}"
        f"{' *' if p['a_first_significant'] else ''}</td>"
        f"<td>{p['a_second_wins']}/{p['a_second_games']} {_interval(p['a_second_ci95'])}"
        f"{' *' if p['a_second_significant'] else ''}</td></tr>"
        for p in summary["pairings"] + summary["mirrors"]
    )
    characters = "".join(
        f"<tr><td>{esc(entrant_label(summary, char))}</td><td>{c['wins']}/{c['games']}</td>"
        f"<td>{_pct(c['wins'] / c['games'])}</td>"
        f"<td>{_interval(c['ci95'])}</td><td>{summary['bradley_terry'][char]['strength']:.3f}</td>"
        f"<td>{_bt_interval(summary['bradley_terry'][char]['ci95'])}</td></tr>"
        for char, c in summary[summary["kind"]].items()
    )
    first = summary["first_player"]
    words = seat_words(summary["game"])
    as_first, as_second, first_word = words.as_first, words.as_second, words.heading
    sig = summary["significance"]
    title = game_title(summary["game"])
    credit = game_class(summary["game"]).credit
    image = embedded_png(heatmap, "win-rate heatmap")
    body = f"""<h1>{esc(report_title(summary))}</h1>
<p class="spec"><small>{esc(spec_line(summary))}</small></p>
<p class="validation"><b>Agent {esc(summary["agent"])}: {esc(validation_line(summary))}.</b></p>
<p>Balance table: variant <b>{esc(summary["variant"])}</b>, both seats played by <b>{esc(summary["agent"])}</b>,
{summary["games_per_cell"]} games per pairing and seat ({esc(games_line(summary, new))}).
Rates with 95% Wilson intervals; * marks a cell whose win rate differs from 50%
({esc(sig["test"])}, {esc(sig["correction"])}, α = {sig["alpha"]}).</p>
<h2>Pairings</h2>
<table><tr><th>pairing</th><th>first-named {esc(as_first)}</th><th>first-named {esc(as_second)}</th></tr>
{rows}</table>
<h2>{esc(first_word)}</h2>
<p>{first["wins"]}/{first["games"]} = {_pct(first["rate"])} {_interval(first["ci95"])},
two-sided binomial p = {first["p_value"]:.3g}.</p>
<h2>{esc(summary["kind"].capitalize())}</h2>
<table><tr><th>{esc(summary["kind"].removesuffix("s"))}</th><th>wins</th><th>rate</th><th>95% CI</th>
<th>Bradley–Terry strength</th><th>bootstrap 95% CI</th></tr>{characters}</table>
{equilibrium_html(summary)}<h2>Win-rate matrix</h2>
{image}
<p><small>{esc(credit)} Generated by cardlab.</small></p>"""
    path.write_text(html_page(f"{report_title(summary)} ({title} balance)", body))


def print_balance(summary: dict[str, Any], console: Any, new: int = 0) -> None:
    """The designer's layout on the terminal, fitting 80 columns: per pairing each seat's wins and rate
    with its 95% interval as `rate ±half-width` (* marks a cell that differs from 50%), then the first
    player, the entrants' totals and Bradley-Terry strengths, and how many cells differ."""
    from rich.table import Table

    n = summary["games_per_cell"]
    played = f"{n} games per pairing and seat · {games_line(summary, new)}"
    table = Table(title=f"{report_title(summary)}\n{spec_line(summary)}\n{played}")
    words = seat_words(summary["game"])
    first_word, short = words.heading, words.short
    table.add_column("pairing")  # wraps at its spaces: a long entrant name stays whole, never cut to "…"
    for column in short:
        table.add_column(column, justify="right", no_wrap=True)
        table.add_column("% ±95%", justify="right", no_wrap=True)
    for p in summary["pairings"] + summary["mirrors"]:
        cells = []
        for key in ("a_first", "a_second"):
            mark = "*" if p[f"{key}_significant"] else ""
            cells += [f"{p[f'{key}_wins']}/{p[f'{key}_games']}{mark}", plus_minus(p[f"{key}_wins"], p[f"{key}_games"],
                      p[f"{key}_ci95"])]  # fmt: skip
        table.add_row(f"{p['a']} vs {p['b']}", *cells)
    console.print(table)

    first = summary["first_player"]
    console.print(
        f"{first_word}: {first['wins']}/{first['games']} = {plus_minus(first['wins'], first['games'], first['ci95'])}%"
        f", exact binomial p = {first['p_value']:.3g} (advantage {first['rate'] - 0.5:+.1%})"
    )
    print_names(console, summary["kind"], summary[summary["kind"]], summary.get("entrant_names"))
    chars = Table(title=f"{summary['kind'].capitalize()} (all seats and opponents)")
    chars.add_column(summary["kind"].removesuffix("s"))
    for column in ("wins", "% ±95%", "Bradley–Terry", "its 95%"):
        chars.add_column(column, justify="right", no_wrap=True)
    for char, c in summary[summary["kind"]].items():
        bt = summary["bradley_terry"][char]
        chars.add_row(
            char,
            f"{c['wins']}/{c['games']}",
            plus_minus(c["wins"], c["games"], c["ci95"]),
            f"{bt['strength']:.3f}",
            _bt_interval(bt["ci95"]),
        )
    console.print(chars)
    sig = summary["significance"]
    tested = 2 * (len(summary["pairings"]) + len(summary["mirrors"]))
    console.print(
        f"Cells differing from 50%: {len(sig['significant_cells'])} of {tested}, marked * "
        f"(binomial test, Holm–Bonferroni α = {sig['alpha']})"
    )
    console.print(f"Agent {summary['agent']}: {validation_line(summary)}")
    print_equilibrium(summary, console)


METAGAME_TITLE = "Metagame (Nash mix of the entrants)"


def _weight_rows(summary: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """The metagame's listed entrants as (entrant, weight, its 95% interval, support probability)."""
    from cardlab.sim.equilibrium import shown

    return [
        (entrant_label(summary, entrant), _pct(w["weight"]), _interval(w["ci95"]), _pct(w["support_probability"]))
        for entrant, w in shown(summary["equilibrium"])
    ]


def _left_out_line(summary: Mapping[str, Any]) -> str:
    """How many entrants the metagame table leaves out, and why (never in the mix in 95% of resamples)."""
    from cardlab.sim.equilibrium import SHOWN_SUPPORT, shown

    section = summary["equilibrium"]
    left = len(section["weights"]) - len(shown(section))
    if not left:
        return ""
    return f"{left} other{'s' if left != 1 else ''}: weight 0, in < {SHOWN_SUPPORT:.0%} of resampled mixes"


def print_equilibrium(summary: Mapping[str, Any], console: Any) -> None:
    """The metagame section on the terminal: the Nash mix's entrants with weight, 95% interval and support
    probability, then the 3-cycles (or that none is claimed); nothing for a summary without one."""
    from rich.table import Table

    from cardlab.sim.equilibrium import cycles_line

    section = summary.get("equilibrium")
    if not section or not section["weights"]:
        return
    left = _left_out_line(summary)
    table = Table(title=METAGAME_TITLE, caption=left or None)
    table.add_column(summary["kind"].removesuffix("s"))
    for column in ("weight", "its 95%", "in the mix"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in _weight_rows(summary):
        table.add_row(*row)
    console.print(table)
    console.print(f"Cycles: {cycles_line(section)}")


def equilibrium_html(summary: Mapping[str, Any]) -> str:
    """The metagame section of report.html (as `print_equilibrium`); empty for a summary without one."""
    from cardlab.sim.equilibrium import cycles_line

    section = summary.get("equilibrium")
    if not section or not section["weights"]:
        return ""
    esc = html.escape
    rows = "".join(f"<tr>{''.join(f'<td>{esc(cell)}</td>' for cell in row)}</tr>" for row in _weight_rows(summary))
    left = _left_out_line(summary)
    return f"""<h2>{esc(METAGAME_TITLE)}</h2>
<p>The mix of entrants no opponent mix can beat on average (each pairing's score, seats averaged); its
weights carry 95% bootstrap intervals, and "in the mix" is the share of {section["resamples"]} resamples
whose mix uses the entrant.</p>
<table><tr><th>{esc(summary["kind"].removesuffix("s"))}</th><th>weight</th><th>95% interval</th>
<th>in the mix</th></tr>{rows}</table>
{f"<p><small>{esc(left)}.</small></p>" if left else ""}
<p class="cycles">Cycles: {esc(cycles_line(section))}.</p>
"""


def print_names(console: Any, kind: str, entrants: Iterable[str], names: Mapping[str, str] | None) -> None:
    """Entrants whose ids are codes (`D1/L01`), in words (the deck and its leader or casters), as a small
    table beside the tables that name them by id; nothing where the table has no names."""
    if not names:
        return
    from rich.table import Table

    words = Table(title=f"{kind.capitalize()} by name")
    words.add_column(kind.removesuffix("s"), no_wrap=True)
    words.add_column("name", overflow="fold")
    for entrant in entrants:
        words.add_row(entrant, names.get(entrant, ""))
    console.print(words)


def plus_minus(wins: int, games: int, ci: list[float]) -> str:
    """A rate in percent with its 95% interval as ±half-width, e.g. `39.3 ±0.7` (the Wilson interval
    itself, asymmetric near 0 and 100%, is in summary.json and report.html)."""
    if not games:
        return "-"
    return f"{100 * wins / games:.1f} ±{50 * (ci[1] - ci[0]):.1f}"


def write_balance_files(
    summary: dict[str, Any], games: Sequence[StoredGame], batches: Sequence[StoredBatch], new: int, out: Path
) -> list[str]:
    """table.csv, results.csv, batches.csv (kernel games), summary.json, heatmap.png (with the plots extra) and
    report.html in `out`; returns what was written, in that order."""
    out.mkdir(parents=True, exist_ok=True)
    write_results_csv(games, out / "results.csv", summary.get("entrant_names"))
    write_table_csv(games, batches, summary, out / "table.csv")  # every cell's counts, whatever the engine
    written = ["table.csv", "results.csv"]
    if batches:
        write_batches_csv(batches, out / "batches.csv")
        written.append("batches.csv")
    write_summary_json(summary, out / "summary.json")
    written.append("summary.json")
    heatmap: Path | None = out / "heatmap.png"
    try:
        write_heatmap(summary, out / "heatmap.png")
        written.append("heatmap.png")
    except ImportError:  # the plots extra is missing: the report goes without its plot
        heatmap = None
    write_report_html(summary, heatmap, out / "report.html", new)
    return [*written, "report.html"]
