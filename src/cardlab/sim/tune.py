"""`cardlab tune`: the smallest rule and card edits that bring a game's table to a balance target.

The designer declares a space (`--rule NAME=V1,V2`, `--patch CARD.FIELD=V1,V2` or `=LO..HI`, on their own
entrants when they like) and a target (`--target entrants=50:3`: every entrant's overall rate within
50 ± 3 points; `cells=50:10`: every pairing and seat; `first=50:2`: the first player; several combine).
A candidate is a set of at most `--max-edits` edits; its **imbalance** is how far its table is from the
target, in percentage points beyond the tolerance, worst target first (0 or less: on target).

Search (docs/tune.md says why this method): every candidate with at most `max_edits` edits is
enumerated (such spaces grow as dims^k, small for the few edits a designer wants), and games are spent
by **successive halving** (Jamieson & Talwalkar 2016) over rungs of 1/27, 1/9, 1/3 and all of the
confirmation size, with a **racing** rule (Maron & Moore 1994): after each rung a candidate is dropped
when another with no more edits is better beyond doubt (their imbalance intervals, Bonferroni-corrected
over every candidate and rung at `alpha`, do not overlap), and of each edit count only the best third
go on; to the confirmation rung only what can join the front (the best of each edit count, where it beats
the best with fewer edits). Every candidate plays the same deals as the baseline (common random numbers:
game i of a cell is the same deal under every candidate), and a rung only adds games to the previous one's.
The survivors are played at the full size (`confirmed`); the Pareto front over (edits, imbalance) is what
is reported.

Games are stored as they are played as the candidate variant's balance table (`balance/GAME/VARIANT/AGENT/
seed=S`, balance's seeds, issue #51), so a stopped run resumes, a rerun plays nothing new, and the baseline's
numbers are those of `cardlab balance` and `cardlab sweep` for the same seed, agent, games and entrants.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.plugin import Matchups
from cardlab.core.rules import (
    Patches,
    RuleOption,
    Rules,
    check_patches,
    parse_patch,
    rule_values,
    value_list,
    varied_matchups,
)
from cardlab.sim.balance import entrant_totals, first_player_rate, pairings
from cardlab.sim.compare import Runner, compare_tables, difference_figure
from cardlab.sim.prepare import changes_a_card
from cardlab.sim.report import embedded_png, fit_texts, html_page, print_names, table_title
from cardlab.sim.stats import games_to_decide, wilson_interval
from cardlab.sim.sweep import SweepPlan, baseline_source, play_plan
from cardlab.sim.tasks import Track, no_progress
from cardlab.store.fingerprint import fingerprint
from cardlab.store.games_db import CellCount, GamesDB

ETA = 3
"""Successive halving's rate: each rung plays three times the games of the one before and keeps a third."""
RUNGS = 4
"""Rungs of 1/27, 1/9, 1/3 and all of the confirmation size."""
MIN_RUNG_GAMES = 4
MAX_CANDIDATES = 2000
"""Beyond this many candidates the space is refused: fewer values or --max-edits make it searchable."""
TARGET_KINDS = {
    "entrants": "every entrant's overall win rate",
    "cells": "every pairing and seat's win rate",
    "first": "the first player's win rate",
}


@dataclass(frozen=True)
class Target:
    """`KIND=CENTER:TOLERANCE` in percent: what counts as balanced."""

    kind: str
    center: float
    tolerance: float

    @property
    def text(self) -> str:
        return f"{self.kind}={self.center:g}:{self.tolerance:g}"


def parse_targets(texts: Sequence[str]) -> tuple[Target, ...]:
    """`--target` values (default `entrants=50:3`); a CardlabError naming the malformed one."""
    targets = []
    for text in texts or ["entrants=50:3"]:
        kind, sep, rest = text.partition("=")
        center, colon, tolerance = rest.partition(":")
        try:
            target = Target(kind.strip(), float(center), float(tolerance))
        except ValueError:
            target = None
        if not sep or not colon or target is None or target.kind not in TARGET_KINDS:
            kinds = ", ".join(f"{k}=CENTER:TOL ({words})" for k, words in TARGET_KINDS.items())
            raise CardlabError(f"--target takes KIND=CENTER:TOLERANCE in percent, got {text!r}; kinds: {kinds}")
        if not 0 <= target.center <= 100 or target.tolerance < 0:
            raise CardlabError(f"--target {text}: the center is a percentage and the tolerance is not negative")
        targets.append(target)
    return tuple(dict.fromkeys(targets))


@dataclass(frozen=True)
class Budget:
    """`--budget`: games (`20000`) or minutes (`30m`); None for no limit."""

    games: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str | None) -> Budget:
        if not text:
            return cls()
        try:
            if text.strip().lower().endswith("m"):
                minutes = float(text.strip()[:-1])
                if minutes > 0:
                    return cls(seconds=60 * minutes)
            elif int(text) > 0:
                return cls(games=int(text))
        except ValueError:
            pass
        raise CardlabError(f"--budget takes a number of games (20000) or of minutes (30m), got {text!r}")


@dataclass(frozen=True)
class Dimension:
    """One thing the search may change: a rule option or a card field, its value in the game as
    specified, and the values to try instead."""

    kind: str  # "rule" or "patch"
    name: str  # the rule option, or CARD.FIELD
    alternatives: tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    """A set of edits (each `NAME=VALUE` as typed) and what it does to the game's config."""

    edits: tuple[str, ...]
    rules: Rules
    patches: Patches

    @property
    def label(self) -> str:
        return "+".join(self.edits) or "as specified"


def tune_dimensions(
    options: Sequence[RuleOption], rule_args: Sequence[str], patch_args: Sequence[str], base: Matchups | None = None
) -> list[Dimension]:
    """The declared space. A value equal to the spec's, a rule option's default or a card edit that changes no
    card of `base` (the game drops it; it raises for a card, field or value it refuses), is no edit and is
    left out."""
    dimensions = []
    for text in rule_args:
        option, listed = rule_values(options, text)
        alternatives = tuple(v for v in dict.fromkeys(listed) if v != option.default)
        dimensions.append(Dimension("rule", option.name, alternatives))
    for text in patch_args:
        target, sep, values = text.partition("=")
        if not sep:
            raise CardlabError(f"--patch takes CARD.FIELD=V1,V2 or CARD.FIELD=LO..HI, got {text!r}")
        card, field_name, _ = parse_patch(f"{target}=0")
        name = f"{card}.{field_name}"
        listed = [v for v in dict.fromkeys(value_list(values)) if base is None or changes_a_card(base, f"{name}={v}")]
        dimensions.append(Dimension("patch", name, tuple(listed)))
    if not dimensions:
        raise CardlabError("tune needs a space: at least one --rule NAME=V1,V2 or --patch CARD.FIELD=V1,V2")
    names = [d.name for d in dimensions]
    if len(set(names)) != len(names):
        raise CardlabError("each rule or card field may be named once in a tune's space")
    return [d for d in dimensions if d.alternatives]


def tune_candidates(dimensions: Sequence[Dimension], max_edits: int) -> list[Candidate]:
    """The game as specified, then every set of at most `max_edits` edits (one value per dimension), fewest
    edits first."""
    if max_edits < 1:
        raise CardlabError("--max-edits must be at least 1")
    count = sum(
        math.prod(len(d.alternatives) for d in chosen)
        for k in range(1, max_edits + 1)
        for chosen in itertools.combinations(dimensions, k)
    )
    if count + 1 > MAX_CANDIDATES:
        raise CardlabError(
            f"the space has {count + 1:,} candidates with at most {max_edits} edits, more than {MAX_CANDIDATES:,}: "
            "give fewer values or a smaller --max-edits"
        )
    candidates = [Candidate((), (), ())]
    for k in range(1, max_edits + 1):
        for chosen in itertools.combinations(dimensions, k):
            for values in itertools.product(*(d.alternatives for d in chosen)):
                edits = tuple(f"{d.name}={v}" for d, v in zip(chosen, values, strict=True))
                rules = tuple(sorted((d.name, v) for d, v in zip(chosen, values, strict=True) if d.kind == "rule"))
                patches = check_patches([f"{d.name}={v}" for d, v in zip(chosen, values, strict=True)
                                         if d.kind == "patch"])  # fmt: skip
                candidates.append(Candidate(edits, rules, patches))
    return candidates


@dataclass(frozen=True)
class TunePlan(SweepPlan):
    """A candidate's games: indices 0 to N-1 of its variant's balance table (as in `cardlab.sim.sweep`), so a
    later rung adds games to an earlier one's and the baseline is `cardlab balance`'s games."""


def tune_plan(matchups: Matchups, agent: str, games: int, seed: int, mirrors: bool, engine: str) -> TunePlan:
    """Balance's seeds, from the master seed and the deals' variant: every candidate plays the baseline's deals."""
    code = fingerprint(matchups.game, agent, engine)
    return TunePlan(matchups, agent, games, seed, mirrors, seed, code)


@dataclass
class Score:
    """A candidate's table against the targets: each target's worst deviation (pp) with an interval."""

    imbalance: float
    interval: tuple[float, float]
    deviations: dict[str, float]
    games: int


def _deviation(wins: int, games: int, center: float, confidence: float) -> tuple[float, float, float]:
    """|rate - center| in pp, with the interval of that distance from the rate's Wilson interval."""
    rate = wins / games if games else 0.5
    low, high = wilson_interval(wins, games, confidence) if games else (0.0, 1.0)
    value = abs(100 * rate - center)
    near = 0.0 if 100 * low <= center <= 100 * high else min(abs(100 * low - center), abs(100 * high - center))
    far = max(abs(100 * low - center), abs(100 * high - center))
    return value, near, far


def score(counts: Sequence[CellCount], targets: Sequence[Target], confidence: float) -> Score:
    """The imbalance (worst target's deviation beyond its tolerance, pp) and its interval at `confidence`:
    each rate's Wilson interval gives an interval of its deviation; a target's is the largest of its items'."""
    duels = [count for count in counts if count.p1 != count.p2]
    deviations: dict[str, float] = {}
    worst = (-math.inf, -math.inf, -math.inf)
    for target in targets:
        if target.kind == "entrants":
            items = [tuple(total) for total in entrant_totals(duels).values()]
        elif target.kind == "first":
            first = first_player_rate(duels)
            items = [(first["wins"], first["games"])]
        else:
            items = [(count.first_named_wins, count.games) for count in counts if count.p1 != count.p2]
        parts = [_deviation(wins, games, target.center, confidence) for wins, games in items] or [(0.0, 0.0, 0.0)]
        value, near, far = (max(part[i] for part in parts) - target.tolerance for i in range(3))
        deviations[target.text] = value + target.tolerance
        worst = max(worst, (value, near, far))
    return Score(worst[0], (worst[1], worst[2]), deviations, sum(count.games for count in counts))


@dataclass
class Entry:
    """One candidate through the search."""

    candidate: Candidate
    matchups: Matchups
    games_per_cell: int = 0
    score: Score | None = None
    counts: list[CellCount] = field(default_factory=list)
    dropped: str = ""
    """Why the search stopped playing it ("" while it goes on)."""
    played: int = 0
    """Of its games, those this run played (the rest were stored: the baseline's by `cardlab balance`)."""

    @property
    def edits(self) -> int:
        return len(self.candidate.edits)


def _rung_counts(db: GamesDB, plan: TunePlan, engine: str, size: int, counts: list[CellCount]) -> list[CellCount]:
    """The counts a rung decides on: those kept when this rung first had exactly `size` games per cell, so that
    a rerun or a resumed run decides as the first did (a later rung, or another run, may have played more)."""
    key = f"tune/{plan.experiment}/code={plan.code}/engine={engine}"
    kept = db.rung_counts(key, size)
    if kept is not None:
        return kept
    if counts and all(count.games == size for count in counts):
        db.put_rung_counts(key, size, counts)
    return counts


def rung_sizes(confirm: int) -> list[int]:
    """Games per pairing and seat at each rung: a third of the next, from at least MIN_RUNG_GAMES."""
    sizes = [confirm]
    while len(sizes) < RUNGS and sizes[-1] // ETA >= MIN_RUNG_GAMES:
        sizes.append(sizes[-1] // ETA)
    return sizes[::-1]


def _race(entries: Sequence[Entry], rung: int) -> None:
    """Drop what another candidate with no more edits beats beyond doubt, then keep the best third of each
    edit count by imbalance (the baseline always stays: it is what the edits are weighed against)."""
    alive = [entry for entry in entries if not entry.dropped and entry.score is not None]
    for entry in alive:
        assert entry.score is not None
        for other in alive:
            assert other.score is not None
            if other is not entry and other.edits <= entry.edits and other.score.interval[1] < entry.score.interval[0]:
                entry.dropped = f"rung {rung + 1}: beaten beyond doubt by {other.candidate.label}"
                break
    for edits in sorted({entry.edits for entry in alive if entry.edits}):
        level = sorted((e for e in alive if e.edits == edits and not e.dropped), key=_imbalance)
        for entry in level[math.ceil(len(level) / ETA) :]:
            entry.dropped = f"rung {rung + 1}: not among the best third with {edits} edit(s)"


def _finalists(entries: Sequence[Entry], rung: int) -> None:
    """Before the confirmation rung, keep only what can join the front: of each edit count the best, and
    only where it beats the best with fewer edits (the front holds one candidate per edit count, and a
    candidate no better than one with fewer edits is off it). Confirmation is the costly rung: every game
    it plays then decides a front member. The baseline always stays."""
    scored = (e for e in entries if not e.dropped and e.score is not None)
    alive = sorted(scored, key=lambda e: (e.edits, _imbalance(e)))
    best_fewer = math.inf
    for edits, level in itertools.groupby(alive, key=lambda e: e.edits):
        first, *rest = level
        for entry in rest:
            entry.dropped = f"rung {rung + 1}: {first.candidate.label} is better with {edits} edit(s)"
        if edits and _imbalance(first) >= best_fewer:
            first.dropped = f"rung {rung + 1}: no better than a candidate with fewer edits"
        best_fewer = min(best_fewer, _imbalance(first))


def _imbalance(entry: Entry) -> float:
    return entry.score.imbalance if entry.score is not None else math.inf


def pareto_front(entries: Sequence[Entry]) -> list[Entry]:
    """The candidates no other beats on both edits and imbalance (ties kept), fewest edits first."""
    scored = [entry for entry in entries if entry.score is not None]
    front = []
    for entry in scored:
        assert entry.score is not None
        beaten = any(
            other.score is not None
            and other.edits <= entry.edits
            and other.score.imbalance <= entry.score.imbalance
            and (other.edits < entry.edits or other.score.imbalance < entry.score.imbalance)
            for other in scored
        )
        if not beaten:
            front.append(entry)
    return sorted(front, key=lambda e: (e.edits, e.score.imbalance if e.score else 0.0))


def run_tune(
    db: GamesDB,
    base: Matchups,
    candidates: Sequence[Candidate],
    targets: Sequence[Target],
    agent: str,
    confirm: int,
    budget: Budget,
    seed: int,
    mirrors: bool,
    engine: str,
    run: Runner,
    alpha: float = 0.05,
    track: Track = no_progress,
    on_rung: Callable[[int, int, int], None] | None = None,
) -> dict[str, Any]:
    """Search the candidates (module docstring) and return the tune.json numbers. `on_rung(rung, games per
    cell, candidates)` is told as each rung starts."""
    if confirm < 1:
        raise CardlabError("--games must be at least 1")
    started = time.monotonic()
    sizes = rung_sizes(confirm)
    cells = 2 * len(pairings(base.entrants, mirrors))
    confidence = 1 - alpha / (len(candidates) * len(sizes))  # Bonferroni over every candidate and rung
    entries = [Entry(c, varied_matchups(base, c.rules, c.patches)) for c in candidates]
    played = spent = 0
    out_of_budget = False
    for rung, size in enumerate(sizes):
        alive = [entry for entry in entries if not entry.dropped]
        if on_rung is not None:
            on_rung(rung, size, len(alive))
        for entry in alive:
            need = cells * (size - entry.games_per_cell)
            over_games = budget.games is not None and spent + need > budget.games
            over_time = budget.seconds is not None and time.monotonic() - started > budget.seconds
            if over_games or over_time:
                out_of_budget = True
                break
            plan = tune_plan(entry.matchups, agent, size, seed, mirrors, engine)
            now, counts = play_plan(db, plan, engine, run, track, f"tune {base.game} · {entry.candidate.label}")
            counts = _rung_counts(db, plan, engine, size, counts)
            played += now
            entry.played += now
            spent += need
            entry.games_per_cell, entry.counts = size, counts
            entry.score = score(counts, targets, confidence)
        if out_of_budget:
            break
        if rung < len(sizes) - 1:
            _race(entries, rung)
        if rung == len(sizes) - 2:
            _finalists(entries, rung)
    confirmed = [entry for entry in entries if entry.games_per_cell == confirm]
    front = pareto_front(confirmed) if confirmed else pareto_front([e for e in entries if e.score is not None])
    meets = [entry for entry in front if entry.score is not None and entry.score.interval[1] <= 0]
    names = {target.text: TARGET_KINDS[target.kind] for target in targets}
    return {
        "game": base.game,
        "variant": base.variant,
        "agent": agent,
        "engine": engine,
        "seed": seed,
        "kind": base.kind,
        "entrants_list": list(base.entrants),
        "entrant_names": dict(base.names),
        "targets": [{"target": t.text, "means": names[t.text]} for t in targets],
        "imbalance_definition": "the worst target's deviation from its center beyond its tolerance, in percentage "
        "points (0 or less: on target); the interval is the Bonferroni-corrected one the search raced with",
        "method": {
            "search": "every candidate with at most max_edits edits, successive halving with racing",
            "rungs": sizes,
            "keep": f"1/{ETA} of each edit count per rung; to the confirmation rung, the best of each edit count "
            "that beats the best with fewer edits",
            "alpha": alpha,
            "confidence": confidence,
            "common_random_numbers": True,
        },
        "games_per_cell": confirm,
        "space": len(candidates),
        "games": {
            "played_now": played,
            "total": sum(entry.score.games for entry in entries if entry.score is not None),
            "every_candidate_at_confirmation": len(candidates) * cells * confirm,
        },
        "out_of_budget": out_of_budget,
        "seconds": time.monotonic() - started,
        "verdict": tune_verdict(front, confirmed, out_of_budget),
        "meets_target": bool(meets),
        "mirrors": mirrors,
        "baseline_source": _baseline_source(entries[0], seed),
        "baseline": _entry_json(entries[0], base, front, confirm),
        "candidates": [_entry_json(entry, base, front, confirm) for entry in front],
        "evaluated": [_entry_json(entry, base, front, confirm) for entry in entries if entry.score is not None],
    }


def _baseline_source(baseline: Entry, seed: int) -> str:
    games = baseline.score.games if baseline.score is not None else 0
    return baseline_source(baseline.games_per_cell, seed, games - baseline.played, baseline.played)


def tune_verdict(front: Sequence[Entry], confirmed: Sequence[Entry], out_of_budget: bool) -> str:
    """What the intervals say (issue #51): "meets the target" only for a candidate whose whole imbalance
    interval is on target (0 or less); one whose interval straddles the target is the best found, not
    confirmed, with about how many games per pairing and seat would decide it; "nothing meets" only when
    every interval is off target."""
    scored = [entry for entry in front if entry.score is not None]
    on_target = [entry for entry in scored if entry.score is not None and entry.score.interval[1] <= 0]
    if on_target and not on_target[0].edits:
        return "the game as specified meets the target already"
    if on_target:
        best = on_target[0]
        sure = "" if best in confirmed else " (not confirmed: the budget ran out)"
        return f"meets the target with {best.edits} edit(s): {best.candidate.label}{sure}"
    if out_of_budget and not confirmed:
        return "the budget ran out before any candidate was confirmed"
    open_ = [entry for entry in scored if entry.score is not None and entry.score.interval[0] <= 0]
    if not open_:
        return "nothing in this space meets the target"
    best = next((entry for entry in open_ if _imbalance(entry) <= 0), min(open_, key=_imbalance))
    games = decide_games(best)
    decide = f"about {games:,} games per cell would decide" if games else "it sits on the target's edge"
    return f"best found: {best.candidate.label} ({best.edits} edit(s)), not confirmed at this size ({decide})"


def decide_games(entry: Entry) -> int | None:
    """Games per pairing and seat at which `entry`'s imbalance interval would no longer straddle 0."""
    assert entry.score is not None
    value, (low, high) = entry.score.imbalance, entry.score.interval
    half = high - value if value <= 0 else value - low
    return games_to_decide(entry.games_per_cell, half, abs(value))


def _entry_json(entry: Entry, base: Matchups, front: Sequence[Entry], confirm: int) -> dict[str, Any]:
    assert entry.score is not None
    totals = entrant_totals([count for count in entry.counts if count.p1 != count.p2])
    first = first_player_rate(entry.counts)
    return {
        "label": entry.candidate.label,
        "edits": list(entry.candidate.edits),
        "rules": dict(entry.candidate.rules),
        "patches": list(entry.candidate.patches),
        "variant": entry.matchups.variant,
        "imbalance": entry.score.imbalance,
        "imbalance_ci": list(entry.score.interval),
        "deviations": entry.score.deviations,
        "entrants": {name: _rate_json(*totals.get(name, [0, 0])) for name in base.entrants},
        "first_player": {"rate": first["rate"], "ci95": first["ci95"], "games": first["games"]},
        "games_per_cell": entry.games_per_cell,
        "games": entry.score.games,
        "confirmed": entry.games_per_cell == confirm,
        "on_front": entry in front,
        "dropped": entry.dropped or None,
    }


def print_tune(tune: dict[str, Any], console: Any) -> None:
    """The front as a table, then the verdict and what it cost against playing everything."""
    from rich.table import Table

    targets = ", ".join(t["target"] for t in tune["targets"])
    table = Table(
        title=f"{tune['game']} {tune['variant']} · {tune['agent']} · target {targets}",
        caption=f"imbalance: pp beyond the target (0 or less: on target), {100 * tune['method']['confidence']:.2f}% "
        "interval; the Pareto front over edits and imbalance",
    )
    for column in ("edits", "candidate", "imbalance pp", "first %", "games/cell"):
        table.add_column(column, justify="left" if column == "candidate" else "right", no_wrap=column != "candidate")
    for row in [tune["baseline"], *(c for c in tune["candidates"] if c["label"] != tune["baseline"]["label"])]:
        low, high = row["imbalance_ci"]
        first = row["first_player"]
        table.add_row(
            str(len(row["edits"])), row["label"], f"{row['imbalance']:+.1f} [{low:+.1f}, {high:+.1f}]",
            f"{100 * first['rate']:.1f}" if first["games"] else "-",
            str(row["games_per_cell"]) + ("" if row["confirmed"] else " (unconfirmed)"),
        )  # fmt: skip
    console.print(table)
    if tune.get("baseline_source"):
        console.print(tune["baseline_source"], soft_wrap=True, highlight=False)
    games = tune["games"]
    console.print(
        f"{tune['verdict']}. {games['total']:,} games for {tune['space']} candidates "
        f"({games['played_now']:,} played now); every candidate at {tune['games_per_cell']} games per pairing "
        f"and seat would have been {games['every_candidate_at_confirmation']:,}.",
        soft_wrap=True,
        highlight=False,
    )
    print_names(console, tune["kind"], tune["entrants_list"], tune.get("entrant_names"))


def write_tune_files(tune: dict[str, Any], db: GamesDB, base: Matchups, out: Path) -> list[str]:
    """tune.json, and report.html with each front candidate's table against the baseline's (a heatmap of
    the differences where matplotlib is installed)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "tune.json").write_text(json.dumps(tune, indent=2) + "\n")
    written = ["tune.json"]
    baseline = tune["baseline"]
    sections = []
    for index, row in enumerate(tune["candidates"]):
        if row["label"] == baseline["label"]:
            continue
        matchups = varied_matchups(base, tuple(sorted(row["rules"].items())), tuple(row["patches"]))
        counts = _stored(db, tune, matchups)
        versus = compare_tables(_stored(db, tune, base), counts, matchups, ("as specified", row["label"]))
        path = out / f"difference-{index}.png"
        plot = ""
        if _write_difference(versus, tune, row["label"], path):
            written.append(path.name)
            plot = embedded_png(path, row["label"])
        entrants = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{_rate_text(baseline['entrants'][name])}</td>"
            f"<td>{_rate_text(row['entrants'][name])}</td></tr>"
            for name in tune["entrants_list"]
        )
        sections.append(
            f"<h2>{html.escape(row['label'])}</h2><p>imbalance {row['imbalance']:+.1f} pp "
            f"(baseline {baseline['imbalance']:+.1f}); {html.escape(versus['verdict'])}</p>"
            f"<table><tr><th>{html.escape(tune['kind'])}</th><th>as specified</th><th>with the edits</th></tr>"
            f"{entrants}</table>{plot}"
        )
    title = f"Tune: {tune['game']} {tune['variant']}, agent {tune['agent']}"
    targets = ", ".join(t["target"] for t in tune["targets"])
    body = (
        f"<h1>{html.escape(title)}</h1><p>Target {html.escape(targets)}: {html.escape(tune['verdict'])}. "
        f"{tune['games']['total']:,} games for {tune['space']} candidates.</p>"
        + ("".join(sections) or "<p>No edit is on the front: the game as specified is the best found.</p>")
    )
    (out / "report.html").write_text(html_page(title, body))
    written.append("report.html")
    return written


def difference_title(tune: Mapping[str, Any], label: str, verdict: str) -> str:
    """A difference heatmap's title in words, as the balance report's (#51 item 6): the table (game, entrants by
    name, who played), what differs, and the comparison's verdict; not the variant's hash."""
    import textwrap

    table = table_title(tune["game"], tune["entrants_list"], tune.get("entrant_names"), tune["agent"])
    return f"{table}\nwin rate with {label} − as specified (pp)\n{textwrap.shorten(verdict, 160, placeholder=' …')}"


def difference_plot(versus: Mapping[str, Any], tune: Mapping[str, Any], label: str) -> Any:
    """The difference heatmap of one candidate against the game as specified, titled by `difference_title`."""
    fig = difference_figure(versus)
    fit_texts(fig, [fig.suptitle(difference_title(tune, label, versus["verdict"]), fontsize=9)])
    return fig


def _write_difference(versus: Mapping[str, Any], tune: Mapping[str, Any], label: str, path: Path) -> bool:
    """`difference_plot` as a PNG; False (nothing written) without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = difference_plot(versus, tune, label)
    fig.savefig(path)
    plt.close(fig)
    return True


def _stored(db: GamesDB, tune: Mapping[str, Any], matchups: Matchups) -> list[CellCount]:
    plan = tune_plan(matchups, tune["agent"], tune["games_per_cell"], tune["seed"], tune["mirrors"], tune["engine"])
    experiment = plan.experiment if tune["engine"] == "reference" else f"{plan.experiment}/engine={tune['engine']}"
    return db.experiment_counts(experiment, below=tune["games_per_cell"])


def _rate_json(wins: int, games: int) -> dict[str, Any]:
    return {"wins": wins, "games": games, "rate": wins / games if games else None,
            "ci95": list(wilson_interval(wins, games)) if games else None}  # fmt: skip


def _rate_text(rate: Mapping[str, Any]) -> str:
    if not rate["games"]:
        return "-"
    low, high = rate["ci95"]
    return f"{100 * rate['rate']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
