"""Balance tables: every pairing of a game's entrants, both seats, with honest statistics.

Entrants are what a designer balances, e.g. characters or deck-and-leader combinations
(each game's `Game.lab()` lists them). Seats are swapped with common random
numbers: for a pairing A-B, game i with A first and
game i with B first are dealt from the same seed, so deal luck cancels in the pair totals.
Mirror pairings (A-A) play independent deals per seat instead (swapping would replay the
same game). Game seeds derive from the master seed, the variant, the cell and the index,
so results do not depend on the number of workers, and re-runs continue the index sequence.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import numpy as np

from cardlab.core.extras import needs_extra
from cardlab.core.plugin import KernelRun, Matchups
from cardlab.core.rng import derive_seed
from cardlab.games import game_class
from cardlab.sim.stats import (
    FirstPlayerAdvantage,
    binomial_test_two_sided,
    bootstrap_bradley_terry_counts,
    bradley_terry,
    first_player_advantage,
    holm_bonferroni,
    wilson_interval,
)
from cardlab.sim.tasks import GameTask, TaskResult, Track, no_progress
from cardlab.store.fingerprint import cardlab_version, fingerprint
from cardlab.store.games_db import CellCount, GamesDB, StoredBatch, StoredGame, counts_of

ALPHA = 0.05
DRAW = -1
"""Stored as the winner of a drawn game (A15.5): it counts as a game for both, a win for neither."""


FALLBACK_AGENT = "heuristic"


def default_agent(matchups: Matchups) -> tuple[str, str | None]:
    """The agent a table is played by when none is named, and a note when it is not the strong one.

    The game's strong agent where it can run here (the compiled search needs the fast extra),
    else the heuristic, with a note saying what that table reflects.
    """
    from cardlab.agents import AgentSpecError, make_agent

    strong = matchups.strong_agent
    if strong is None:
        return FALLBACK_AGENT, None
    try:
        make_agent(strong, matchups.game)
    except AgentSpecError:
        note = (
            f"this table is played by the {FALLBACK_AGENT} agent, whose tables differ from strong play "
            f"(docs/balance.md); {needs_extra(f'the default strong agent {strong}', 'fast')}"
        )
        return FALLBACK_AGENT, note
    return strong, None


def matchups_for(game: str, variant: str | None) -> Matchups:
    """The game's own matchups (its `Game.lab()`); `variant` None means the game's default."""
    lab = game_class(game).lab()
    if lab is None:
        raise ValueError(f"no balance matchups for game {game!r}")
    return lab.matchups(variant)


@dataclass(frozen=True)
class BalanceSetup:
    matchups: Matchups
    agent: str
    games_per_cell: int
    seed: int = 0
    mirrors: bool = False

    @property
    def experiment(self) -> str:
        return f"balance/{self.matchups.game}/{self.matchups.variant}/{self.agent}/seed={self.seed}"


def pairings(entrants: Sequence[str], mirrors: bool) -> list[tuple[str, str]]:
    """Every pair in the entrants' order, then the mirrors when asked for."""
    pairs = list(combinations(entrants, 2))
    return pairs + [(entrant, entrant) for entrant in entrants] if mirrors else pairs


Plan = dict[str, tuple[int, int]]
"""Per cell: (first game index, games per seat) of one balance run."""


@dataclass(frozen=True)
class Run:
    """One balance run: its id in the database, its plan, and what of it is stored already."""

    id: int
    plan: Plan
    done: set[tuple[str, int, int]] | None
    """Stored (cell, index, seat) keys when the run resumes an interrupted one, else None."""
    batches: dict[tuple[str, int, int], StoredBatch] | None = None
    """Its kernel batches by (cell, first index, seat) when it resumes an interrupted one (a batch
    Ctrl-C stopped holds the games it finished), else None."""

    def start(self, cell: str) -> int:
        return self.plan[cell][0]

    def count(self, cell: str) -> int:
        return self.plan.get(cell, (0, 0))[1]


def plan_run(setup: BalanceSetup, db: GamesDB, experiment: str) -> Run:
    """The games this run plays: an interrupted run of the same experiment and size is finished
    (its plan resumed, its stored games skipped), else `games_per_cell` new games per cell and seat."""
    wanted = {f"{a}-{b}": setup.games_per_cell for a, b in pairings(setup.matchups.entrants, setup.mirrors)}
    interrupted = db.open_run(experiment)
    if interrupted is not None and {cell: n for cell, (_, n) in interrupted[1].items()} == wanted:
        return Run(interrupted[0], interrupted[1], db.stored_keys(experiment), db.stored_batches(experiment))
    plan = {cell: (db.next_index(experiment, cell), n) for cell, n in wanted.items()}
    return Run(db.start_run(experiment, plan), plan, None)


def balance_tasks(
    setup: BalanceSetup,
    next_index: Callable[[str], int],
    count: Callable[[str], int] | None = None,
    done: set[tuple[str, int, int]] | None = None,
) -> list[GameTask]:
    """`games_per_cell` new games per pairing and seat, continuing each cell's index sequence.

    `count(cell)`, when given, replaces `games_per_cell` per cell (topping a table up to a level);
    games whose (cell, index, seat) is in `done` are stored already (an interrupted run) and skipped.
    The tasks come round by round (every cell's next game, then every cell's one after), so a run
    stopped part-way leaves every cell with about as many new games as the others.
    """
    rounds: list[list[GameTask]] = []
    m = setup.matchups
    for a, b in pairings(m.entrants, setup.mirrors):
        cell = f"{a}-{b}"
        new = setup.games_per_cell if count is None else count(cell)
        if new <= 0:
            continue
        start = next_index(cell)
        for index in range(start, start + new):
            for seat, (first, second) in enumerate(((a, b), (b, a))):
                if done is not None and (cell, index, seat) in done:
                    continue
                labels = ("balance", m.deal_variant, cell, index) + ((seat,) if a == b else ())
                while len(rounds) <= index - start:
                    rounds.append([])
                rounds[index - start].append(
                    GameTask(
                        m.game,
                        m.config(first, second),
                        (setup.agent, setup.agent),
                        derive_seed(setup.seed, *labels),
                        {"cell": cell, "index": index, "seat": seat, "p1": first, "p2": second},
                    )
                )
    return [task for round_ in rounds for task in round_]


def kernel_balance(
    setup: BalanceSetup,
    next_index: Callable[[str], int],
    engine: str = "cpu",
    count: Callable[[str], int] | None = None,
    stored: Mapping[tuple[str, int, int], StoredBatch] | None = None,
    advance: Callable[[int], None] | None = None,
) -> Iterator[StoredBatch]:
    """The same table played by a compiled kernel (`--engine cpu|gpu`): per cell and seat one batch,
    counted from the kernel's result columns, yielded as it is played (so it can be stored at once,
    with `GamesDB.put_batches`); `advance` hears of the games as the kernel plays them, piece by piece.

    Both seat orders of a pairing share the batch seed, so they share their deals; game i of a
    batch is the kernel's stream (seed, i - first index). `count` as in `balance_tasks`. `stored`
    holds an interrupted run's batches by (cell, first index, seat): a whole one is skipped, a part
    one is played on from its last game and yielded whole. On Ctrl-C (`Interrupted`) the batch in
    flight is yielded with the games it finished, then the interrupt goes on.
    """
    from cardlab.sim import engines
    from cardlab.sim.interrupt import Interrupted

    m = setup.matchups
    experiment = f"{setup.experiment}/engine={engine}"
    stamp = (cardlab_version(), fingerprint(m.game, setup.agent, engine))
    for a, b in pairings(m.entrants, setup.mirrors):
        cell = f"{a}-{b}"
        new = setup.games_per_cell if count is None else count(cell)
        if new <= 0:
            continue
        start = next_index(cell)
        for seat, (first, second) in enumerate(((a, b), (b, a))):
            labels = (f"balance-{engine}", m.deal_variant, cell, start) + ((seat,) if a == b else ())
            seed = derive_seed(setup.seed, *labels)
            before = stored.get((cell, start, seat)) if stored is not None else None
            have = before.count if before is not None else 0
            if have >= new or (before is not None and (before.seed, before.fingerprint) != (seed, stamp[1])):
                continue  # whole, or played by other code: kept as it is
            hear = engines.Heard(advance)
            batch = StoredBatch(
                m.game, m.variant, setup.agent, experiment, cell, seat, first, second, seed, start, 0, 0, 0, 0, {},
                0, 0, *stamp,
            )  # fmt: skip
            try:
                run = engines.kernel_run(
                    m.game, m.config(first, second), (setup.agent,) * 2, new - have, seed, engine,
                    first=have, advance=hear,
                )  # fmt: skip
            except Interrupted as stop:
                if isinstance(stop.finished, KernelRun) and len(stop.finished):
                    yield _grown(before or batch, stop.finished)
                raise
            hear.rest(len(run))
            yield _grown(before or batch, run)


def _grown(batch: StoredBatch, run: KernelRun) -> StoredBatch:
    """`batch` with the games of `run` (the next ones of its stream) added to its counts."""
    p1_wins, p2_wins = int((run.winner == 0).sum()), int((run.winner == 1).sum())
    by_reason = np.bincount(run.reason, minlength=len(run.reasons))
    reasons = dict(batch.reasons)
    for name, n in zip(run.reasons, by_reason, strict=True):
        if n:
            reasons[name] = reasons.get(name, 0) + int(n)
    return replace(
        batch,
        count=batch.count + len(run),
        p1_wins=batch.p1_wins + p1_wins,
        p2_wins=batch.p2_wins + p2_wins,
        draws=batch.draws + len(run) - p1_wins - p2_wins,
        reasons=reasons,
        turns=batch.turns + int(run.turns.sum()),
        decisions=batch.decisions + int(run.decisions.sum()),
    )


def stored_game(result: TaskResult, setup: BalanceSetup) -> StoredGame:
    labels, record = result.task.labels, result.record
    return StoredGame(
        game=setup.matchups.game,
        variant=setup.matchups.variant,
        agents=setup.agent,
        experiment=setup.experiment,
        cell=labels["cell"],
        game_index=labels["index"],
        seat=labels["seat"],
        p1=labels["p1"],
        p2=labels["p2"],
        seed=record.seed,
        winner=DRAW if record.winner is None else record.winner,
        reason=record.reason,
        turns=record.turns,
        decisions=record.decisions,
        actions=tuple(record.actions),
        version=cardlab_version(),
        fingerprint=fingerprint(setup.matchups.game, setup.agent, "reference"),
    )


@dataclass
class Played:
    """Games a run has stored so far: read it after a Ctrl-C too (the run stores every finished game first)."""

    games: int = 0


def play_balance(
    db: GamesDB,
    setup: BalanceSetup,
    engine: str,
    run: Callable[[Sequence[GameTask]], Iterable[TaskResult]],
    track: Track = no_progress,
    played: Played | None = None,
    on_resume: Callable[[int], None] | None = None,
) -> int:
    """`cardlab balance` as a library call: play `games_per_cell` new games per pairing and seat (or finish
    an interrupted run of the same size), storing them as they finish; the number stored. `run` plays the
    reference engine's tasks; a kernel plays batches, `track` hearing of their games. `on_resume(stored)`
    is told when an interrupted run is resumed."""
    m = setup.matchups
    tally = played if played is not None else Played()
    experiment = setup.experiment if engine == "reference" else f"{setup.experiment}/engine={engine}"
    plan = plan_run(setup, db, experiment)
    if plan.done is not None and on_resume is not None:
        on_resume(len(plan.done))
    if engine != "reference":
        starts = {(cell, first) for cell, (first, _) in plan.plan.items()}
        stored = sum(b.count for (cell, first, _), b in (plan.batches or {}).items() if (cell, first) in starts)
        total = 2 * sum(count for _, count in plan.plan.values())
        with track(f"balance {m.game} {m.variant} · {setup.agent}", total - stored) as advance:
            for batch in kernel_balance(setup, plan.start, engine, plan.count, plan.batches, advance):
                tally.games += db.put_batches([batch])  # a batch Ctrl-C stopped: the games it finished
    else:
        tasks = balance_tasks(setup, plan.start, plan.count, plan.done)
        tally.games += store_as_played(db, run(tasks), setup)  # on Ctrl-C too: every finished game is kept
    db.finish_run(plan.id)
    return tally.games


def store_as_played(
    db: GamesDB, results: Iterable[TaskResult], setup: BalanceSetup, every: int = 200, seconds: float = 30.0
) -> int:
    """Store games as they finish, `every` at a time or whatever finished in the last `seconds` (so a
    killed run of slow games loses half a minute, not hours); on Ctrl-C (or any error) the finished
    ones are stored before it propagates. Returns how many were stored."""
    stored = 0
    finished: list[StoredGame] = []
    since = time.monotonic()
    try:
        for result in results:
            finished.append(stored_game(result, setup))
            if len(finished) >= every or time.monotonic() - since >= seconds:
                stored += db.add(finished)
                finished, since = [], time.monotonic()
    finally:
        stored += db.add(finished)
    return stored


@dataclass(frozen=True)
class Selection:
    """The stored games a report uses: those of the current code, unless pooling was asked for."""

    counts: list[CellCount]
    games: int
    left_out: int
    fingerprints: tuple[str, ...]
    note: str


def select(stored: Iterable[StoredGame | CellCount], current: Iterable[str], pool: bool = False) -> Selection:
    """The counts a report may pool: those whose fingerprint is one of `current` (the code that plays
    this table now, on any engine), or all of them with `pool`; the note says what was left out or pooled."""
    counts = counts_of(stored)
    wanted = set(current)
    chosen = counts if pool else [c for c in counts if c.fingerprint in wanted]
    left_out = sum(c.games for c in counts) - sum(c.games for c in chosen)
    other = sum(c.games for c in chosen if c.fingerprint not in wanted)
    used = tuple(sorted({c.fingerprint for c in chosen}))
    if pool and other:
        named = ", ".join(f or "before version 2" for f in used)
        note = f"pooled games of {len(used)} code fingerprints ({named}): {other} played by other code"
    elif left_out:
        note = f"left out {left_out} stored games played by other code (other fingerprints); --pool includes them"
    else:
        note = ""
    return Selection(chosen, sum(c.games for c in chosen), left_out, used, note)


def current_fingerprints(game: str, agent: str) -> tuple[str, ...]:
    """The fingerprints this code gives `agent`'s games of `game` on every engine (kernel games have
    been proven the same as the reference engine's, so a table pools them)."""
    return tuple(fingerprint(game, agent, engine) for engine in ("reference", "cpu", "gpu"))


def stored_selection(db: GamesDB, matchups: Matchups, agent: str, pool: bool = False) -> Selection:
    """The stored games of `agent`'s table that a report uses (see `select`)."""
    counts = db.counts(matchups.game, matchups.variant, agent)
    return select(counts, current_fingerprints(matchups.game, agent), pool)


def _rate(wins: int, games: int) -> dict[str, Any]:
    return {"wins": wins, "games": games, "ci95": list(wilson_interval(wins, games))}


def entrant_totals(counts: Iterable[CellCount]) -> dict[str, list[int]]:
    """entrant -> [its wins, its games] over its pairings and seats, mirrors left out (a mirror's win is
    also its loss); a draw is a game without a win."""
    totals: dict[str, list[int]] = {}
    for count in counts:
        if count.p1 == count.p2:
            continue
        for entrant, won in ((count.p1, count.p1_wins), (count.p2, count.p2_wins)):
            tally = totals.setdefault(entrant, [0, 0])
            tally[0] += won
            tally[1] += count.games
    return totals


def first_player_rate(counts: Iterable[CellCount]) -> FirstPlayerAdvantage:
    """The rate at which the player in P1 wins the games between different entrants (mirrors left out)."""
    duels = [count for count in counts if count.p1 != count.p2]
    return first_player_advantage(sum(count.p1_wins for count in duels), sum(count.games for count in duels))


def summarize(
    games: Iterable[StoredGame | CellCount],
    matchups: Matchups,
    agent: str,
    bootstrap: int = 200,
    validation: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The balance report's numbers (the summary.json schema) from stored games or their counts.

    Everything is computed from counts per cell and seat, so a table of millions of kernel games
    costs no more than one of thousands. `validation` is the latest stored comparison of `agent` with
    another agent (see `cardlab.sim.compare.validation_for`), so a report says whether its agent's
    table was checked.
    """
    counted = counts_of(games)
    entrants = matchups.entrants
    cells: dict[tuple[str, str, int], list[int]] = {}  # (a, b, seat) -> [a's wins, games, draws]
    for count in counted:
        a, b = count.cell.split("-")
        tally = cells.setdefault((a, b, count.seat), [0, 0, 0])
        tally[0] += count.first_named_wins  # seat 0: a sits in P1; seat 1: a sits in P2
        tally[1] += count.games
        tally[2] += count.draws

    pair_list = [pair for pair in pairings(entrants, True) if any((*pair, seat) in cells for seat in (0, 1))]
    p_values: list[float] = []
    rows = []
    for a, b in pair_list:
        row: dict[str, Any] = {"a": a, "b": b, "draws": 0}
        for seat, key in ((0, "a_first"), (1, "a_second")):
            wins, played, draws = cells.get((a, b, seat), [0, 0, 0])
            row["draws"] += draws
            row[f"{key}_wins"], row[f"{key}_games"] = wins, played
            row[f"{key}_ci95"] = list(wilson_interval(wins, played))
            row[f"{key}_p_value"] = binomial_test_two_sided(wins, played)
            p_values.append(row[f"{key}_p_value"])
        rows.append(row)
    rejected = holm_bonferroni(p_values, ALPHA) if p_values else []
    significant = []
    for index, row in enumerate(rows):
        for offset, key in enumerate(("a_first", "a_second")):
            row[f"{key}_significant"] = rejected[2 * index + offset]
            if row[f"{key}_significant"]:
                significant.append(f"{row['a']} vs {row['b']} ({row['a']} {key.removeprefix('a_')})")

    duels = [count for count in counted if count.p1 != count.p2]
    totals = entrant_totals(duels)
    pairwise: dict[tuple[str, str], int] = {}
    for count in duels:
        for winner, loser, won in ((count.p1, count.p2, count.p1_wins), (count.p2, count.p1, count.p2_wins)):
            if won:
                pairwise[(winner, loser)] = pairwise.get((winner, loser), 0) + won
    players = [entrant for entrant in entrants if entrant in totals]
    strengths = bradley_terry(pairwise, players) if players else {}
    intervals = bootstrap_bradley_terry_counts(pairwise, players, resamples=bootstrap) if players else {}
    games_total = sum(count.games for count in counted)

    summary: dict[str, Any] = {"game": matchups.game, "variant": matchups.variant, **matchups.summary_fields}
    summary |= {
        "agent": agent,
        "games_per_cell": min((counts[1] for counts in cells.values()), default=0),
        "total_games": games_total,
        "draws": sum(count.draws for count in counted),
        "kind": matchups.kind,
        "pairings": [row for row in rows if row["a"] != row["b"]],
        "mirrors": [row for row in rows if row["a"] == row["b"]],
        "first_player": first_player_rate(duels),
        matchups.kind: {entrant: _rate(*totals[entrant]) for entrant in players},
        "bradley_terry": {e: {"strength": strengths[e], "ci95": list(intervals[e])} for e in players},
        "significance": {
            "test": "exact two-sided binomial test of each cell's win rate against 50%",
            "correction": f"Holm-Bonferroni over {len(p_values)} cells",
            "alpha": ALPHA,
            "significant_cells": significant,
        },
        "matrix": win_matrix(rows, entrants),
        "validation": validation,
    }
    return summary


def win_matrix(rows: Sequence[dict[str, Any]], entrants: Sequence[str]) -> dict[str, Any]:
    """Row entrant's win rate against the column entrant, both seats pooled (None: not played)."""
    index = {entrant: i for i, entrant in enumerate(entrants)}
    rates: list[list[float | None]] = [[None] * len(entrants) for _ in entrants]
    for row in rows:
        wins = row["a_first_wins"] + row["a_second_wins"]
        played = row["a_first_games"] + row["a_second_games"]
        if not played:
            continue
        i, j = index[row["a"]], index[row["b"]]
        rates[i][j] = wins / played
        if i != j:
            rates[j][i] = (played - wins - row["draws"]) / played
    return {"entrants": list(entrants), "win_rate": rates}
