"""Strength ladder: every pair of agents head to head on common deals, with Bradley-Terry ratings.

Every pair plays the same deals: deal k's seed derives from (seed, "ladder", k) and games 2k and
2k+1 play it with the seats swapped, so deal luck cancels within a pair and is shared across
pairs. With a kernel engine, the pairs it can play run there, every pair from one batch seed
(derived from (seed, "ladder-ENGINE")), both seat orders of a pair sharing the kernel's deals;
the other pairs run on the reference engine. Ratings are Bradley-Terry strengths on the Elo
scale, 400·log10(s), centred so that the agents' mean rating is 0.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.rng import derive_seed
from cardlab.sim.headtohead import HeadToHead, pooled_decision_ms
from cardlab.sim.stats import bootstrap_bradley_terry, bradley_terry, wilson_interval
from cardlab.sim.tasks import GameTask, TaskResult, Track, no_progress
from cardlab.sim.tournament import TaskList

BOOTSTRAP_RESAMPLES = 200
RATING_SCALE = "Bradley-Terry strength s on the Elo scale, 400·log10(s), mean 0 over the agents"
Runner = Callable[[Sequence[GameTask]], Iterable[TaskResult]]
"""Plays reference-engine tasks and yields their results in task order (workers, progress bar: the caller's)."""


def parse_agents(text: str) -> tuple[str, ...]:
    """The `--agents A,B,C` list: at least two distinct, valid specs."""
    from cardlab.agents import parse_spec

    specs = tuple(part.strip() for part in text.split(","))
    if len(specs) < 2 or not all(specs):
        raise CardlabError(f"--agents takes at least two agent specs separated by commas, got {text!r}")
    if len(set(specs)) != len(specs):
        raise CardlabError(f"--agents names an agent twice: {text!r}")
    for spec in specs:
        parse_spec(spec)
    return specs


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal `deal`, the same for every pair."""
    return derive_seed(seed, "ladder", deal)


def kernel_pairs(engine: str, game: str, pairs: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
    """The pairs the kernel `engine` plays (both agents compiled); none for the reference engine.

    The engine itself (the game, the fast extra) is checked first, so a missing extra is an error
    rather than a silent fall-back to the reference engine.
    """
    from cardlab.sim.engines import check_engine

    if engine == "reference":
        return set()
    check_engine(engine, game, ())
    playable = set()
    for pair in pairs:
        try:
            check_engine(engine, game, pair)
        except CardlabError:
            continue
        playable.add(pair)
    return playable


def ladder_tasks(
    game: str, config: Mapping[str, Any], pairs: Sequence[tuple[str, str]], games: int, seed: int
) -> TaskList:
    """`games` reference tasks per pair: game g plays deal g // 2, seats swapped when g is odd."""

    def task(index: int) -> GameTask:
        pair, g = pairs[index // games], index % games
        return GameTask(
            game,
            config,
            pair if g % 2 == 0 else (pair[1], pair[0]),
            deal_seed(seed, g // 2),
            {"pair": pair, "swapped": g % 2 == 1, "deal": g // 2},
            keep_actions=False,
        )

    return TaskList(len(pairs) * games, task)


def kernel_pair(
    game: str,
    config: Mapping[str, Any],
    pair: tuple[str, str],
    games: int,
    seed: int,
    engine: str,
    advance: Callable[[int], None] = lambda games: None,
) -> HeadToHead:
    """One pair in the kernel: (games + 1) // 2 deals with pair[0] as P1, games // 2 of the same deals swapped;
    `advance` hears of the games as the kernel plays them (piece by piece, see `engines.kernel_run`)."""
    from cardlab.sim import engines

    tally = HeadToHead(pair, engine)
    batch = derive_seed(seed, f"ladder-{engine}")
    for seats, count, swapped in ((pair, (games + 1) // 2, False), ((pair[1], pair[0]), games // 2, True)):
        if count:
            hear = engines.Heard(advance)
            tally.add_kernel_run(engines.kernel_run(game, config, seats, count, batch, engine, advance=hear), swapped)
            hear.rest(count)
    return tally


def play_ladder(
    game: str,
    config: Mapping[str, Any],
    agents: Sequence[str],
    games: int,
    seed: int,
    engine: str,
    run: Runner,
    track: Track = no_progress,
) -> dict[str, Any]:
    """Play every pair `games` times and return the ladder.json summary (`track`: progress of kernel pairs)."""
    if games < 1:
        raise CardlabError("--games must be at least 1")
    pairs = list(combinations(agents, 2))
    in_kernel = kernel_pairs(engine, game, pairs)
    start = time.perf_counter()
    tallies = {pair: HeadToHead(pair) for pair in pairs}
    if in_kernel:
        with track(f"ladder {game} ({engine} engine)", games * len(in_kernel)) as advance:
            for pair in pairs:
                if pair in in_kernel:
                    tallies[pair] = kernel_pair(game, config, pair, games, seed, engine, advance)
    reference = [pair for pair in pairs if pair not in in_kernel]
    for result in run(ladder_tasks(game, config, reference, games, seed)):
        tallies[result.task.labels["pair"]].add_record(result.record, result.task.labels["swapped"])
    summary = summarize_ladder(game, config, agents, games, seed, engine, [tallies[pair] for pair in pairs])
    summary["seconds"] = round(time.perf_counter() - start, 3)
    return summary


def _entry(wins: int, games: int, draws: int) -> dict[str, Any]:
    return {
        "wins": wins,
        "games": games,
        "draws": draws,
        "rate": wins / games if games else 0.0,
        "ci95": list(wilson_interval(wins, games)),
    }


def _elo(strength: float) -> float:
    return 400.0 * math.log10(strength)


def summarize_ladder(
    game: str,
    config: Mapping[str, Any],
    agents: Sequence[str],
    games: int,
    seed: int,
    engine: str,
    tallies: Sequence[HeadToHead],
    bootstrap: int = BOOTSTRAP_RESAMPLES,
) -> dict[str, Any]:
    """The ladder.json numbers from each pair's tally: matrix, ratings with bootstrap intervals, decision cost."""
    matrix: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
    pairwise: dict[tuple[str, str], int] = {}
    outcomes: list[tuple[str, str, str]] = []
    pair_rows = []
    for tally in tallies:
        a, b = tally.agents
        matrix[a][b] = _entry(tally.wins[0], tally.games, tally.draws)
        matrix[b][a] = _entry(tally.wins[1], tally.games, tally.draws)
        pairwise[(a, b)], pairwise[(b, a)] = tally.wins[0], tally.wins[1]
        outcomes += [(a, b, a)] * tally.wins[0] + [(a, b, b)] * tally.wins[1]
        pair_rows.append(
            {
                "agents": [a, b],
                "engine": tally.engine,
                "games": tally.games,
                "wins": list(tally.wins),
                "draws": tally.draws,
                "first_player_wins": tally.first_wins,
                "decisions": tally.decisions,
                "decision_ms": tally.decision_ms,
            }
        )
    strengths = bradley_terry(pairwise, list(agents))
    intervals = bootstrap_bradley_terry(outcomes, list(agents), resamples=bootstrap, seed=seed)
    ratings = {
        agent: {
            "elo": _elo(strengths[agent]),
            "ci95": [_elo(intervals[agent][0]), _elo(intervals[agent][1])],
            "strength": strengths[agent],
        }
        for agent in agents
    }
    return {
        "game": game,
        "config": dict(config),
        "agents": list(agents),
        "games_per_pair": games,
        "seed": seed,
        "engine": engine,
        "matrix": matrix,
        "ratings": ratings,
        "rating_scale": RATING_SCALE,
        "rating_interval": f"95% percentile bootstrap over games, {bootstrap} resamples",
        "decision_ms": pooled_decision_ms(tallies, agents),
        "pairs": pair_rows,
    }


def ranked(summary: Mapping[str, Any]) -> list[str]:
    """The agents, strongest first."""
    return sorted(summary["agents"], key=lambda agent: -summary["ratings"][agent]["elo"])


def write_ladder_plot(summary: Mapping[str, Any], path: Path) -> bool:
    """Win-rate matrix and ratings with intervals as a PNG; False (nothing written) without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    order = ranked(summary)
    size = len(order)
    rates = np.full((size, size), np.nan)
    for i, row in enumerate(order):
        for j, column in enumerate(order):
            if column in summary["matrix"][row]:
                rates[i, j] = summary["matrix"][row][column]["rate"]
    width = 2.6 + 0.8 * size
    fig, (heat, bars) = plt.subplots(1, 2, figsize=(2 * width + 1.5, width), dpi=120)
    image = heat.imshow(rates, cmap="RdBu_r", vmin=0.0, vmax=1.0)
    heat.set_xticks(range(size), order, rotation=45, ha="right")
    heat.set_yticks(range(size), order)
    for i in range(size):
        for j in range(size):
            if not np.isnan(rates[i, j]):
                colour = "white" if abs(rates[i, j] - 0.5) > 0.3 else "black"
                heat.text(j, i, f"{rates[i, j]:.0%}", ha="center", va="center", fontsize=8, color=colour)
    heat.set_xlabel("opponent")
    heat.set_title("win rate of row vs column")
    fig.colorbar(image, ax=heat, label="win rate")
    elo = [summary["ratings"][agent]["elo"] for agent in order]
    low = [summary["ratings"][agent]["ci95"][0] for agent in order]
    high = [summary["ratings"][agent]["ci95"][1] for agent in order]
    positions = np.arange(size)[::-1]
    errors = np.array([np.subtract(elo, low), np.subtract(high, elo)]).clip(min=0)
    bars.errorbar(elo, positions, xerr=errors, fmt="o", capsize=4)
    bars.set_yticks(positions, order)
    bars.axvline(0.0, color="#999", linewidth=0.8)
    bars.set_xlabel("rating (Elo scale, mean 0), bootstrap 95% CI")
    bars.set_title("Bradley-Terry ratings")
    fig.suptitle(f"{summary['game']} ladder · {summary['games_per_pair']} games per pair · {summary['engine']} engine")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def print_ladder(summary: Mapping[str, Any], console: Any) -> None:
    """Ratings (strongest first) with decision cost, then the win-rate matrix."""
    from rich.table import Table

    order = ranked(summary)
    n = summary["games_per_pair"]
    ratings = Table(title=f"{summary['game']} ladder · {n} games per pair, seats swapped per deal")
    for column in ("agent", "rating", "95% CI", "ms/decision"):
        ratings.add_column(column, justify="left" if column == "agent" else "right")
    for agent in order:
        rating = summary["ratings"][agent]
        low, high = rating["ci95"]
        ratings.add_row(
            agent, f"{rating['elo']:+.0f}", f"[{low:+.0f}, {high:+.0f}]", f"{summary['decision_ms'][agent]:.4g}"
        )
    console.print(ratings)
    matrix = Table(title="win rate of row vs column (95% Wilson CI); columns numbered as the rows")
    matrix.add_column("agent")
    for number in range(1, len(order) + 1):
        matrix.add_column(str(number), justify="right")
    for number, row in enumerate(order, 1):
        cells = []
        for column in order:
            entry = summary["matrix"][row].get(column)
            low, high = (0.0, 0.0) if entry is None else entry["ci95"]
            cells.append("—" if entry is None else f"{entry['rate']:.0%} [{low:.0%}, {high:.0%}]")
        matrix.add_row(f"{number}. {row}", *cells)
    console.print(matrix)
    console.print(f"ratings: {summary['rating_scale']}; {summary['rating_interval']}")


def write_ladder_files(summary: Mapping[str, Any], out: Path) -> list[str]:
    """ladder.json and ladder.png in `out`; returns what was written (no plot without the plots extra)."""
    import json

    out.mkdir(parents=True, exist_ok=True)
    (out / "ladder.json").write_text(json.dumps(summary, indent=2) + "\n")
    written = ["ladder.json"]
    if write_ladder_plot(summary, out / "ladder.png"):
        written.append("ladder.png")
    return written
