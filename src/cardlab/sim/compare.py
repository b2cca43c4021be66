"""Two agents' balance tables side by side: does a cheap agent's table say what a strong agent's says?

A cell is one pairing and seat of the balance table; its rate is the first-named entrant's win
rate in that seat (the table's "A as first" / "A as second"). For every cell with games of both
agents: `diff = b_rate - a_rate` (the second agent's rate minus the first's), a 95% Newcombe
hybrid score interval for it (from the two Wilson intervals), and a two-sided pooled
two-proportion z-test of equal rates; the cells' p-values are Holm-Bonferroni corrected
together, and a cell is `significant` when Holm rejects it at ALPHA. Games come from the games
database; `top_up` first plays what is missing with the balance machinery, continuing each
cell's index sequence (after the gaps a stopped top-up left, so sittings add up to one run).

The verdict says what the test could tell. Where cells differ it lists them ("2 cells differ:
GARU vs EAGLE (GARU first), ..."). Where none does it gives the test's resolution: "no difference
found, resolution ±X pp", X (also `resolution_pp`) being the smallest difference the test could have
flagged at these sample sizes — the critical difference of the pooled two-proportion z-test at even
odds (p = 0.5, where its variance is largest) at Holm's first, strictest step (alpha / number of
cells), in the least-played cell: X = 100 z(1 - alpha / 2m) sqrt(0.25 (1/n_a + 1/n_b))
(`cardlab.sim.stats.detectable_difference`). A real difference of X is flagged about half the time;
with 10 games per cell and seat over 30 cells X is about 70 points, so "no difference found" then
says nothing about the game. "Converged" is never said: with X above 10 points it would be false
comfort, and below it the resolution says more.
"""

from __future__ import annotations

import html
import json
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.plugin import Matchups
from cardlab.sim.balance import (
    BalanceSetup,
    Plan,
    balance_tasks,
    entrant_totals,
    first_player_rate,
    kernel_balance,
    pairings,
    store_as_played,
    stored_selection,
)
from cardlab.sim.report import embedded_png, entrant_label, html_page, print_names, seat_words
from cardlab.sim.stats import (
    detectable_difference,
    holm_adjusted,
    holm_bonferroni,
    newcombe_interval,
    two_proportion_z_test,
    wilson_interval,
)
from cardlab.sim.tasks import GameTask, TaskResult, Track, no_progress
from cardlab.store.games_db import CellCount, GamesDB, StoredGame, counts_of

ALPHA = 0.05
NO_DIFFERENCE = "no difference found"
LISTED = 4
"""How many differing cells a verdict names (the rest are counted)."""
Runner = Callable[[Sequence[GameTask]], Iterable[TaskResult]]


def verdict(differing: Sequence[str], resolution_pp: float | None) -> str:
    """The one-line verdict: the cells that differ ('1 cell differs: A vs B (A first)'), or
    'no difference found, resolution ±X pp' (see the module docstring; never 'converged')."""
    if differing:
        count = len(differing)
        named = ", ".join(differing[:LISTED]) + (f" and {count - LISTED} more" if count > LISTED else "")
        return f"{count} cell differs: {named}" if count == 1 else f"{count} cells differ: {named}"
    if resolution_pp is None:
        return f"{NO_DIFFERENCE}: no cell has games of both tables"
    if resolution_pp > 100:  # wider than any difference of two rates
        return f"{NO_DIFFERENCE}, resolution ±{resolution_pp:.1f} pp: too few games for any difference to be flagged"
    return f"{NO_DIFFERENCE}, resolution ±{resolution_pp:.1f} pp"


def resolution_pp(cells: Sequence[Mapping[str, Any]], alpha: float = ALPHA) -> float | None:
    """The smallest difference (percentage points) the Holm-corrected test over `cells` could flag in
    its least-played cell (`detectable_difference`), or None without cells."""
    if not cells:
        return None
    return 100 * max(detectable_difference(cell["a_games"], cell["b_games"], len(cells), alpha) for cell in cells)


def cell_counts(games: Iterable[StoredGame | CellCount]) -> dict[tuple[str, int], list[int]]:
    """(cell, seat) -> [the first-named entrant's wins, games]; a draw is a game without a win."""
    counts: dict[tuple[str, int], list[int]] = {}
    for count in counts_of(games):
        tally = counts.setdefault((count.cell, count.seat), [0, 0])
        tally[0] += count.first_named_wins
        tally[1] += count.games
    return counts


def compare_entrants(
    counts_a: Iterable[CellCount], counts_b: Iterable[CellCount], alpha: float = ALPHA
) -> list[dict[str, Any]]:
    """Each entrant's overall win rate under both agents, with the cells' diff, interval and test (Holm over
    the entrants): does the stronger play rank the entrants as the cheaper one does?"""
    totals_a, totals_b = entrant_totals(counts_a), entrant_totals(counts_b)
    rows: list[dict[str, Any]] = []
    for entrant in [name for name in totals_a if name in totals_b]:
        (wins_a, played_a), (wins_b, played_b) = totals_a[entrant], totals_b[entrant]
        rows.append(
            {
                "entrant": entrant,
                "a_wins": wins_a,
                "a_games": played_a,
                "a_rate": wins_a / played_a,
                "a_ci95": list(wilson_interval(wins_a, played_a)),
                "b_wins": wins_b,
                "b_games": played_b,
                "b_rate": wins_b / played_b,
                "b_ci95": list(wilson_interval(wins_b, played_b)),
                "diff": wins_b / played_b - wins_a / played_a,
                "ci95": list(newcombe_interval(wins_a, played_a, wins_b, played_b)),
                "p_value": two_proportion_z_test(wins_a, played_a, wins_b, played_b),
            }
        )
    p_values = [row["p_value"] for row in rows]
    for row, rejected, adjusted in zip(rows, holm_bonferroni(p_values, alpha), holm_adjusted(p_values), strict=True):
        row["p_holm"], row["significant"] = adjusted, rejected
    return sorted(rows, key=lambda row: (-row["b_rate"], row["entrant"]))


def missing_games(
    games: Iterable[StoredGame | CellCount], matchups: Matchups, target: int, mirrors: bool
) -> dict[str, int]:
    """New games per seat each pairing needs so that both of its seats hold at least `target` games."""
    counts = cell_counts(games)
    missing = {}
    for a, b in pairings(matchups.entrants, mirrors):
        cell = f"{a}-{b}"
        have = min(counts.get((cell, seat), [0, 0])[1] for seat in (0, 1))
        missing[cell] = max(0, target - have)
    return missing


def top_up(
    db: GamesDB,
    matchups: Matchups,
    agent: str,
    target: int,
    seed: int,
    mirrors: bool,
    engine: str,
    run: Runner,
    track: Track = no_progress,
) -> int:
    """Play and store what `agent` lacks of `target` games per cell and seat; returns how many were played.

    The games are those `cardlab balance` would play next (same experiment, seeds and index sequence),
    only fewer where some are stored already.
    """
    stored = stored_selection(db, matchups, agent).counts
    missing = missing_games(stored, matchups, target, mirrors)
    if not any(missing.values()):
        return 0
    setup = BalanceSetup(matchups, agent, target, seed, mirrors)
    if engine != "reference":
        experiment = f"{setup.experiment}/engine={engine}"
        played = 0
        with track(f"compare {matchups.game} {matchups.variant} · {agent}", 2 * sum(missing.values())) as advance:
            next_index = lambda cell: db.next_index(experiment, cell)  # noqa: E731
            for batch in kernel_balance(setup, next_index, engine, missing.__getitem__, advance=advance):
                played += db.put_batches([batch])  # each stored as it comes; on Ctrl-C, the games it finished
        return played
    done = db.stored_keys(setup.experiment)
    have = {key: games for key, (_, games) in cell_counts(stored).items()}
    plan = continuation(done, have, missing, target, lambda cell: db.next_index(setup.experiment, cell))
    tasks = balance_tasks(setup, lambda cell: plan[cell][0], lambda cell: plan.get(cell, (0, 0))[1], done)
    return store_as_played(db, run(tasks), setup)


def continuation(
    done: set[tuple[str, int, int]],
    have: Mapping[tuple[str, int], int],
    missing: Mapping[str, int],
    target: int,
    next_index: Callable[[str], int],
) -> Plan:
    """Per cell: (first index, indices to cover) of a top-up that skips the `done` keys. It starts at
    the cell's first gap (the seats an interrupted top-up had not played yet), so a table played in
    several sittings holds the same games as one played in one, then adds new indices until both
    seats have `target` games of the current code (`have`, per cell and seat)."""
    plan: Plan = {}
    for cell, lacking in missing.items():
        if lacking <= 0:
            continue
        end = next_index(cell)
        start = next((i for i in range(end) if (cell, i, 0) not in done or (cell, i, 1) not in done), end)
        gaps = [sum((cell, i, seat) not in done for i in range(start, end)) for seat in (0, 1)]
        new = max(target - have.get((cell, seat), 0) - gaps[seat] for seat in (0, 1))
        plan[cell] = (start, end - start + max(0, new))
    return plan


def compare_tables(
    games_a: Iterable[StoredGame | CellCount],
    games_b: Iterable[StoredGame | CellCount],
    matchups: Matchups,
    agents: tuple[str, str],
    alpha: float = ALPHA,
) -> dict[str, Any]:
    """The comparison.json numbers: per cell both rates, diff with its interval and test, Holm over all cells."""
    games_a, games_b = counts_of(games_a), counts_of(games_b)  # tallied once, read per cell and per entrant
    counts_a, counts_b = cell_counts(games_a), cell_counts(games_b)
    cells: list[dict[str, Any]] = []
    unmatched = []
    for a, b in pairings(matchups.entrants, True):
        pairing = f"{a}-{b}"
        for seat in (0, 1):
            wins_a, played_a = counts_a.get((pairing, seat), [0, 0])
            wins_b, played_b = counts_b.get((pairing, seat), [0, 0])
            if not played_a or not played_b:
                if played_a or played_b:
                    unmatched.append({"pairing": pairing, "seat": seat, "a_games": played_a, "b_games": played_b})
                continue
            a_rate, b_rate = wins_a / played_a, wins_b / played_b
            cells.append(
                {
                    "pairing": pairing,
                    "seat": seat,
                    "p1": a if seat == 0 else b,
                    "p2": b if seat == 0 else a,
                    "a_wins": wins_a,
                    "a_games": played_a,
                    "a_rate": a_rate,
                    "b_wins": wins_b,
                    "b_games": played_b,
                    "b_rate": b_rate,
                    "diff": b_rate - a_rate,
                    "ci95": list(newcombe_interval(wins_a, played_a, wins_b, played_b)),
                    "p_value": two_proportion_z_test(wins_a, played_a, wins_b, played_b),
                }
            )
    p_values = [cell["p_value"] for cell in cells]
    for cell, rejected, adjusted in zip(cells, holm_bonferroni(p_values, alpha), holm_adjusted(p_values), strict=True):
        cell["p_holm"], cell["significant"] = adjusted, rejected
    significant = sum(cell["significant"] for cell in cells)
    # Totals over the cells both agents played, so that an unmatched cell (a run stopped early) cannot
    # weigh one agent's totals with opponents the other never met.
    matched = {(cell["pairing"], cell["seat"]) for cell in cells}
    matched_a = [count for count in games_a if (count.cell, count.seat) in matched]
    matched_b = [count for count in games_b if (count.cell, count.seat) in matched]
    largest = max(cells, key=lambda cell: abs(cell["diff"]), default=None)
    resolution = resolution_pp(cells, alpha)
    differing = [_label_of(matchups.game, cell) for cell in cells if cell["significant"]]
    summary: dict[str, Any] = {"game": matchups.game, "variant": matchups.variant, **matchups.summary_fields}
    return summary | {
        "agents": list(agents),
        "kind": matchups.kind,
        "rate_definition": "win rate of the pairing's first-named entrant in that seat (seat 0: it sits in P1)",
        "diff_definition": "b_rate - a_rate: the second agent's rate minus the first agent's",
        "interval": "95% Newcombe hybrid score interval for diff (from the two Wilson intervals)",
        "test": "two-sided pooled two-proportion z-test of a_rate == b_rate",
        "correction": f"Holm-Bonferroni over {len(cells)} cells",
        "alpha": alpha,
        "games": [sum(n for _, n in counts_a.values()), sum(n for _, n in counts_b.values())],
        "cells": cells,
        "unmatched_cells": unmatched,
        "max_abs_diff": abs(largest["diff"]) if largest else 0.0,
        "max_abs_diff_cell": None if largest is None else {"pairing": largest["pairing"], "seat": largest["seat"]},
        "significant_cells": significant,
        "resolution_pp": resolution,
        "resolution_definition": "the smallest difference the test could flag in the least-played cell: "
        "critical difference of the pooled z-test at p = 0.5, Holm's first step (alpha / cells)",
        "verdict": verdict(differing, resolution),
        "first_player": [first_player_rate(matched_a), first_player_rate(matched_b)],
        "entrants": compare_entrants(matched_a, matched_b, alpha),
    }


def restated(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A comparison summary with its verdict and resolution in today's words, from its own cells: for a
    comparison.json kept from before the verdict said what the test could tell (issue #33)."""
    cells = summary["cells"]
    resolution = resolution_pp(cells, summary.get("alpha", ALPHA))
    differing = [_label_of(summary["game"], cell) for cell in cells if cell["significant"]]
    return {**summary, "resolution_pp": resolution, "verdict": verdict(differing, resolution)}


def now_utc() -> str:
    """SQLite's datetime('now') format, so stored and fresh timestamps compare as text."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def validation_text(against: str, created: str, summary: Mapping[str, Any]) -> str:
    return (
        f"validated against {against} on {created[:10]}: {summary['verdict']} "
        f"(max |diff| {100 * summary['max_abs_diff']:.1f} pp)"
    )


def validation_for(db: GamesDB, game: str, variant: str, agent: str) -> dict[str, Any] | None:
    """How `agent`'s table was last validated: its newest stored comparison with another agent, or None.

    A comparison of an agent with itself validates nothing and is skipped.
    """
    for stored in db.comparisons(game, variant, agent):
        if stored.agent_a == stored.agent_b:
            continue
        against = stored.agent_b if stored.agent_a == agent else stored.agent_a
        summary = stored.summary
        return {
            "against": against,
            "created": stored.created,
            "verdict": summary["verdict"],
            "max_abs_diff": summary["max_abs_diff"],
            "significant_cells": summary["significant_cells"],
            "cells": len(summary["cells"]),
            "text": validation_text(against, stored.created, summary),
        }
    return None


def _seat_name(game: str, seat: int) -> str:
    return seat_words(game).cell[seat]


def resolution_note(summary: Mapping[str, Any]) -> str:
    """What the resolution of a comparison means, in words ('' for an older summary without one)."""
    resolution = summary.get("resolution_pp")
    if resolution is None:
        return ""
    return (
        f"resolution ±{resolution:.1f} pp: the smallest difference of a cell that this test could have flagged "
        f"with these games (pooled z-test at 50%, Holm's first step over {len(summary['cells'])} cells); a smaller "
        "one can go unseen, and more games per cell narrow it"
    )


def _label(summary: Mapping[str, Any], cell: Mapping[str, Any]) -> str:
    return _label_of(summary["game"], cell)


def _label_of(game: str, cell: Mapping[str, Any]) -> str:
    """'A vs B (A first)': a cell as tables name it."""
    a, b = cell["pairing"].split("-")
    return f"{a} vs {b} ({a} {_seat_name(game, cell['seat'])})"


def write_difference_plot(summary: Mapping[str, Any], path: Path) -> bool:
    """Each pairing's diff per seat as a diverging heatmap PNG; False (nothing written) without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = difference_figure(summary)
    fig.savefig(path)
    plt.close(fig)
    return True


def difference_figure(summary: Mapping[str, Any]) -> Any:
    """The diff heatmap as a figure: numbers in black or white by their cell's luminance (black on navy was
    unreadable), the colour bar's unit above it (its label ran into the ticks), title wrapped to fit."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from cardlab.sim.report import fit_texts, label_color

    rows = list(dict.fromkeys(cell["pairing"] for cell in summary["cells"]))
    values = np.full((len(rows), 2), np.nan)
    marks = [["", ""] for _ in rows]
    for cell in summary["cells"]:
        i = rows.index(cell["pairing"])
        values[i, cell["seat"]] = 100 * cell["diff"]
        marks[i][cell["seat"]] = "*" if cell["significant"] else ""
    limit = max(5.0, 100 * summary["max_abs_diff"])
    fig, ax = plt.subplots(figsize=(6.4, 2.0 + 0.32 * len(rows)), dpi=120)
    image = ax.imshow(values, cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto")
    ax.set_xticks([0, 1], [_seat_name(summary["game"], seat) for seat in (0, 1)])
    ax.set_xlabel("seat of the first-named entrant")
    ax.set_yticks(range(len(rows)), [row.replace("-", " vs ") for row in rows])
    for i in range(len(rows)):
        for j in (0, 1):
            if not np.isnan(values[i, j]):
                colour = label_color(values[i, j], "RdBu_r", -limit, limit)
                ax.text(j, i, f"{values[i, j]:+.1f}{marks[i][j]}", ha="center", va="center", fontsize=8, color=colour)
    a, b = summary["agents"]
    verdict_text = textwrap.shorten(summary["verdict"], 160, placeholder=" …")
    title = fig.suptitle(
        f"{summary['game']} {summary['variant']}: win rate of {b} − {a} (pp)\n{verdict_text}", fontsize=9
    )
    bar = fig.colorbar(image, ax=ax)
    bar.ax.set_title("diff (pp)", fontsize=8, pad=12)  # above the top tick label, not on it
    fit_texts(fig, [title])
    return fig


def _colour(diff: float) -> str:
    """Red where the second agent's rate is higher, blue where lower; saturated at 20 pp."""
    strength = min(1.0, abs(diff) / 0.2)
    return f"rgba(202, 0, 32, {0.6 * strength:.2f})" if diff > 0 else f"rgba(5, 113, 176, {0.6 * strength:.2f})"


def _rates_html(row: Mapping[str, Any]) -> str:
    """A cell's or an entrant's cells of the page: both agents' tallies, the coloured diff, its interval."""
    return (
        f"<td>{row['a_wins']}/{row['a_games']} = {row['a_rate']:.1%}</td>"
        f"<td>{row['b_wins']}/{row['b_games']} = {row['b_rate']:.1%}</td>"
        f'<td style="background: {_colour(row["diff"])}">{100 * row["diff"]:+.1f}'
        f"{' *' if row['significant'] else ''}</td>"
        f"<td>[{100 * row['ci95'][0]:+.1f}, {100 * row['ci95'][1]:+.1f}]</td>"
    )


def write_comparison_html(summary: Mapping[str, Any], plot: Path | None, path: Path) -> None:
    """One self-contained page: the verdict, the plot embedded, and the cell table coloured by diff."""
    esc = html.escape
    a, b = summary["agents"]
    rows = "".join(
        f"<tr><td>{esc(_label(summary, cell))}</td>{_rates_html(cell)}"
        f"<td>{cell['p_value']:.3g}</td><td>{cell['p_holm']:.3g}</td></tr>"
        for cell in summary["cells"]
    )
    note = resolution_note(summary)
    body = f"""<h1>{esc(summary["game"])} {esc(summary["variant"])} — {esc(a)} vs {esc(b)}</h1>
<p><b>{esc(summary["verdict"])}</b> (max |diff| {100 * summary["max_abs_diff"]:.1f} pp over {len(summary["cells"])}
cells; {summary["games"][0]} and {summary["games"][1]} games).</p>
<p>Rate: {esc(summary["rate_definition"])}. diff = {esc(summary["diff_definition"])}, in percentage points, with a
{esc(summary["interval"])}; * marks a cell whose rates differ ({esc(summary["test"])},
{esc(summary["correction"])}, α = {summary["alpha"]}){esc(f"; {note}" if note else "")}.</p>
{embedded_png(plot, "difference heatmap")}
<table><tr><th>cell</th><th>{esc(a)}</th><th>{esc(b)}</th><th>diff (pp)</th><th>95% CI</th><th>p</th>
<th>Holm p</th></tr>{rows}</table>
{f"<p>The player in P1 wins: {esc(_first_player_text(summary))}.</p>" if "first_player" in summary else ""}
{_entrants_html(summary)}
<p><small>Generated by cardlab.</small></p>"""
    path.write_text(html_page(f"{summary['game']} {summary['variant']}: {a} vs {b}", body))


def _first_player_text(summary: Mapping[str, Any]) -> str:
    """'a 52.1% [50.3%, 53.9%], b 48.0% [...]': the rate of the player in P1 under each agent."""
    return ", ".join(
        f"{agent} {100 * rate['rate']:.1f}% [{100 * rate['ci95'][0]:.1f}%, {100 * rate['ci95'][1]:.1f}%]"
        for agent, rate in zip(summary["agents"], summary["first_player"], strict=True)
    )


def _entrants_html(summary: Mapping[str, Any]) -> str:
    """Each entrant's overall rate under both agents (`compare_entrants`), or nothing for an older summary."""
    esc = html.escape
    a, b = summary["agents"]
    rows = "".join(
        f"<tr><td>{esc(entrant_label(summary, row['entrant']))}</td>{_rates_html(row)}<td>{row['p_holm']:.3g}</td></tr>"
        for row in summary.get("entrants") or []
    )
    if not rows:
        return ""
    return (
        f"<h2>Each {esc(summary['kind'].removesuffix('s'))} overall</h2><p>Win rate over all its pairings and seats "
        "(mirrors left out); * marks a rate that differs (same test, Holm over the entrants).</p>"
        f"<table><tr><th></th><th>{esc(a)}</th><th>{esc(b)}</th><th>diff (pp)</th><th>95% CI</th><th>Holm p</th></tr>"
        f"{rows}</table>"
    )


def write_comparison_files(summary: Mapping[str, Any], out: Path) -> list[str]:
    """comparison.json, difference.png (with the plots extra) and comparison.html in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "comparison.json").write_text(json.dumps(summary, indent=2) + "\n")
    plot = out / "difference.png"
    written = ["comparison.json"]
    if write_difference_plot(summary, plot):
        written.append("difference.png")
    else:
        plot.unlink(missing_ok=True)  # a stale plot from an earlier run would be embedded
    write_comparison_html(summary, plot if "difference.png" in written else None, out / "comparison.html")
    return [*written, "comparison.html"]


def print_comparison(summary: Mapping[str, Any], console: Any, rows: int = 10) -> None:
    """The cells that differ and the largest differences (at least `rows` cells), then the verdict line."""
    from rich.table import Table

    a, b = summary["agents"]
    largest = sorted(summary["cells"], key=lambda cell: -abs(cell["diff"]))
    shown = [cell for rank, cell in enumerate(largest) if rank < rows or cell["significant"]]
    table = Table(title=f"{summary['game']} {summary['variant']} · {b} − {a} per cell (pp), largest first")
    for column in ("cell", a, b, "diff", "95% CI", "Holm p"):
        table.add_column(column, justify="left" if column == "cell" else "right")
    for cell in shown:
        table.add_row(
            _label(summary, cell),
            f"{cell['a_wins']}/{cell['a_games']}",
            f"{cell['b_wins']}/{cell['b_games']}",
            f"{100 * cell['diff']:+.1f}{'*' if cell['significant'] else ''}",
            f"[{100 * cell['ci95'][0]:+.1f}, {100 * cell['ci95'][1]:+.1f}]",
            f"{cell['p_holm']:.3g}",
        )
    console.print(table)
    if len(shown) < len(largest):
        console.print(f"… and {len(largest) - len(shown)} smaller differences, none significant (comparison.json)")
    console.print(
        f"{summary['verdict']} (max |diff| {100 * summary['max_abs_diff']:.1f} pp; {summary['test']}, "
        f"{summary['correction']}, α = {summary['alpha']})"
    )
    if resolution_note(summary):
        console.print(resolution_note(summary))
    if "first_player" in summary:
        console.print(f"the player in P1 wins: {_first_player_text(summary)}")
    entrants = summary.get("entrants") or []
    if entrants:
        ranks = Table(title=f"each {summary['kind'].removesuffix('s')}'s win rate overall")
        for column in ("", a, b, "diff", "Holm p"):
            ranks.add_column(column, justify="left" if not column else "right")
        for row in entrants:
            ranks.add_row(
                row["entrant"],
                f"{100 * row['a_rate']:.1f}%",
                f"{100 * row['b_rate']:.1f}%",
                f"{100 * row['diff']:+.1f}{'*' if row['significant'] else ''}",
                f"{row['p_holm']:.3g}",
            )
        console.print(ranks)
        print_names(console, summary["kind"], [row["entrant"] for row in entrants], summary.get("entrant_names"))


def stored_agents_hint(db: GamesDB, game: str, variant: str, flag: str = "--agent") -> str:
    """'; the database holds games of this table by: heuristic (1,800 games); name one with --agent': what
    a command asked for an agent without games can be asked for instead."""
    held = db.agents(game, variant)
    if held:
        listed = ", ".join(f"{agent} ({games:,} games)" for agent, games in held.items())
        return f"; the database holds games of {game} {variant} by: {listed}; name one with {flag}"
    others = [agent for agent in db.agents(game) if agent not in held]
    if others:
        return f"; the database holds no games of {game} {variant} (games of other variants by: {', '.join(others)})"
    return f"; the database holds no games of {game}"


def run_comparison(
    db: GamesDB,
    matchups: Matchups,
    agents: tuple[str, str],
    games: int | None,
    seed: int,
    mirrors: bool,
    engine: str,
    run: Runner,
    on_top_up: Callable[[str, int], None] | None = None,
    track: Track = no_progress,
) -> dict[str, Any]:
    """Top up both agents to `games` per cell and seat (if given), compare their stored tables, store the result."""
    if games is not None:
        if games < 1:
            raise CardlabError("--games must be at least 1")
        for agent in dict.fromkeys(agents):
            played = top_up(db, matchups, agent, games, seed, mirrors, engine, run, track)
            if on_top_up is not None:
                on_top_up(agent, played)
    stored = [stored_selection(db, matchups, agent).counts for agent in agents]
    for agent, agent_games in zip(agents, stored, strict=True):
        if not agent_games:
            raise CardlabError(
                f"no stored games for {matchups.game} {matchups.variant} with agent {agent!r}"
                f"{stored_agents_hint(db, matchups.game, matchups.variant, '--agents A,B')}; "
                "play them with --games N (or cardlab balance)"
            )
    summary = compare_tables(stored[0], stored[1], matchups, agents)
    if not summary["cells"]:
        raise CardlabError("no cell has games of both agents; play them with --games N")
    summary["created"] = now_utc()
    summary["id"] = db.add_comparison(
        matchups.game, matchups.variant, agents[0], agents[1], summary, summary["created"]
    )
    return summary
