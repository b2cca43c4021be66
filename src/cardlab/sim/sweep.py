"""`cardlab sweep`: the balance table under each rule variant or card edit, side by side (issue #17).

A sweep names dimensions (`--rule first_draw=yes,no`, `--patch S14.cost=2,3,4`); every combination is
a variant, and the game as specified (no rules, no edits) is always the first, the baseline. A
combination that is the game as specified (the spec's values, e.g. `S14.cost=2` where S14 costs 2)
is that row, labelled as asked with "(as specified)".

Every row is played with the same plan (issue #33): `--games` games per pairing and seat, game
indices 0 to N-1. Since issue #51 a row *is* the `cardlab balance` table of its variant: its games are
stored under balance's experiment (`balance/GAME/VARIANT/AGENT/seed=S`, plus `/engine=cpu` for a
kernel) with balance's seeds, reused where stored and played there otherwise, so `balance`, `sweep`
and `tune` give the same baseline numbers for the same seed, agent, games and entrants, and a report
never pools a deal twice. Balance's seeds derive from the master seed, the deals' variant (a rule or
card edit keeps the game's deals), the cell and the index, so every row plays the same deals (common
random numbers). Stored games are reused only when they are of that same plan (same agent, master
seed, engine and code, indices below N): a rerun plays nothing new, and a stopped sweep finishes where
it stopped, but a table played another way (another seed) is never mixed into a row. A kernel batch
cannot be cut: where balance stored a larger one, the row holds all of it. The header says how many
games were stored already, and that the baseline is the balance table's.

What a designer reads first is printed side by side: the first player's rate, each entrant's overall
rate, the most unbalanced cell, and the `compare` verdict of the variant's table against the
baseline's, cell by cell: the cells that differ, or "no difference found, resolution ±X pp", X being
the smallest difference the test could have flagged with N games per cell and seat (see
`cardlab.sim.compare`).
"""

from __future__ import annotations

import html
import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.plugin import Matchups
from cardlab.core.rules import (
    Patches,
    RuleOption,
    Rules,
    check_patches,
    check_rules,
    parse_patch,
    rule_values,
    rules_label,
    value_list,
    varied_matchups,
)
from cardlab.sim.balance import (
    ALPHA,
    BalanceSetup,
    balance_tasks,
    current_fingerprints,
    kernel_balance,
    pairings,
    select,
    store_as_played,
    summarize,
)
from cardlab.sim.compare import Runner, compare_tables
from cardlab.sim.prepare import effective_patches
from cardlab.sim.report import embedded_png, entrant_label, html_page, print_names
from cardlab.sim.tasks import Track, no_progress
from cardlab.store.fingerprint import fingerprint
from cardlab.store.games_db import CellCount, GamesDB

BASELINE = "as specified"
VERSUS_KEYS = (
    "verdict",
    "significant_cells",
    "max_abs_diff",
    "max_abs_diff_cell",
    "resolution_pp",
    "test",
    "correction",
)
"""What sweep.json keeps of each variant's comparison with the baseline (the compare.json fields)."""


@dataclass(frozen=True)
class Variant:
    """One combination of a sweep's rule values and card edits (`asked`: as typed, for its label)."""

    rules: Rules
    patches: Patches
    asked: tuple[str, ...] = field(default=(), compare=False)

    @property
    def as_specified(self) -> bool:
        return not self.rules and not self.patches

    @property
    def label(self) -> str:
        """As asked (`S14.cost=3`), the spec's own values marked (`S14.cost=2 (as specified)`)."""
        if self.asked:
            text = "+".join(self.asked)
            return f"{text} ({BASELINE})" if self.as_specified else text
        return "+".join(part for part in (rules_label(self.rules), "+".join(self.patches)) if part) or BASELINE


def sweep_variants(
    options: Sequence[RuleOption], rule_args: Sequence[str], patch_args: Sequence[str], base: Matchups | None = None
) -> list[Variant]:
    """The baseline, then every other combination of the dimensions (`NAME=V1,V2`, a bare `NAME` for every
    value, `CARD.FIELD=V1,V2`), in order. Only card edits that change a card of `base` count (the game drops
    one setting a printed value), so a combination equal to the game as specified is the baseline row,
    labelled as asked."""
    dimensions: list[list[tuple[str, str]]] = []
    for text in rule_args:
        option, listed = rule_values(options, text)
        dimensions.append([("rule", f"{option.name}={value}") for value in listed])
    for text in patch_args:
        target, sep, values = text.partition("=")
        listed = value_list(values)
        if not sep or not listed:
            raise CardlabError(f"--patch takes CARD.FIELD=VALUE[,VALUE...], got {text!r}")
        dimensions.append([("patch", f"{target.strip()}={value}") for value in listed])
    if not dimensions:
        raise CardlabError("a sweep needs at least one --rule NAME=V1,V2 or --patch CARD.FIELD=V1,V2")
    variants = [Variant((), ())]
    for combination in itertools.product(*dimensions):
        rules = dict(text.split("=", 1) for kind, text in combination if kind == "rule")
        patches = [text for kind, text in combination if kind == "patch"]
        for text in patches:
            parse_patch(text)  # a malformed edit is refused before anything is played
        checked_rules, checked_patches = check_rules(options, rules, "--rule"), check_patches(patches, "--patch")
        if base is not None:
            checked_patches = effective_patches(base, checked_rules, checked_patches)
        variant = Variant(checked_rules, checked_patches, tuple(text for _, text in combination))
        if variant.as_specified and not variants[0].asked:
            variants[0] = variant  # the spec's own values: the baseline, named as asked
        elif variant not in variants:
            variants.append(variant)
    return variants


@dataclass(frozen=True)
class SweepPlan(BalanceSetup):
    """One row's games: `games_per_cell` per pairing and seat, indices 0 to N-1 of the variant's balance
    experiment (module docstring); only games of the current code count (`select`)."""

    master_seed: int = 0
    code: str = ""
    """The fingerprint of the code that plays the plan (stored games of other code are not this plan)."""


def sweep_plan(matchups: Matchups, agent: str, games: int, seed: int, mirrors: bool, engine: str) -> SweepPlan:
    """The plan of one row: balance's table of the variant (balance's seeds and experiment), its first
    `games` per pairing and seat."""
    code = fingerprint(matchups.game, agent, engine)
    return SweepPlan(matchups, agent, games, seed, mirrors, seed, code)


def play_plan(
    db: GamesDB, plan: SweepPlan, engine: str, run: Runner, track: Track = no_progress, label: str = ""
) -> tuple[int, list[CellCount]]:
    """Play and store what the plan lacks; (games played now, the plan's counts)."""
    experiment = plan.experiment if engine == "reference" else f"{plan.experiment}/engine={engine}"
    played = 0
    if engine != "reference":  # one batch per cell and seat, from index 0; a stopped one is played on
        stored = db.stored_batches(experiment)
        cells = [f"{a}-{b}" for a, b in pairings(plan.matchups.entrants, plan.mirrors)]
        have = [stored[(cell, 0, seat)].count if (cell, 0, seat) in stored else 0 for cell in cells for seat in (0, 1)]
        missing = sum(max(0, plan.games_per_cell - count) for count in have)
        if missing:
            with track(label or f"sweep {plan.matchups.variant}", missing) as advance:
                for batch in kernel_balance(plan, lambda cell: 0, engine, None, stored, advance):
                    played += db.put_batches([batch])  # each stored as it comes: a stopped sweep keeps it
    else:
        tasks = balance_tasks(plan, lambda cell: 0, None, db.stored_keys(experiment))
        if tasks:
            played = store_as_played(db, run(tasks), plan)
    counts = db.experiment_counts(experiment, below=plan.games_per_cell)
    return played, select(counts, current_fingerprints(plan.matchups.game, plan.agent)).counts


def games_for(resolution_pp: float, tests: int, alpha: float = ALPHA) -> int:
    """Games per cell and seat on both sides that bring `detectable_difference` down to `resolution_pp`."""
    z = NormalDist().inv_cdf(1 - alpha / (2 * tests))
    return math.ceil(0.5 * (100 * z / resolution_pp) ** 2)


def most_unbalanced(summary: dict[str, Any]) -> dict[str, Any] | None:
    """The pairing and seat whose rate is farthest from 50%: the cell a designer looks at first."""
    best: dict[str, Any] | None = None
    for row in summary["pairings"]:
        for key, seat in (("a_first", "first"), ("a_second", "second")):
            games = row[f"{key}_games"]
            if not games:
                continue
            rate = row[f"{key}_wins"] / games
            if best is None or abs(rate - 0.5) > abs(best["rate"] - 0.5):
                best = {"cell": f"{row['a']} vs {row['b']} ({row['a']} {seat})", "rate": rate,
                        "ci95": row[f"{key}_ci95"], "games": games}  # fmt: skip
    return best


def run_sweep(
    db: GamesDB,
    base: Matchups,
    variants: Sequence[Variant],
    agent: str,
    games: int,
    seed: int,
    mirrors: bool,
    engine: str,
    run: Runner,
    track: Track = no_progress,
    on_variant: Callable[[str, int, int], None] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play each variant's plan (`games` per pairing and seat, the same for every row), then compare each
    with the baseline; the sweep.json numbers and each variant's full balance summary (for its heatmap).
    `on_variant(label, played now, reused)` is told each row's games as it is done."""
    if games < 1:
        raise CardlabError("--games must be at least 1")
    tables = []
    for variant in variants:
        matchups = varied_matchups(base, variant.rules, variant.patches)
        plan = sweep_plan(matchups, agent, games, seed, mirrors, engine)
        played, counts = play_plan(db, plan, engine, run, track, f"sweep {base.game} · {variant.label}")
        reused = sum(count.games for count in counts) - played
        if on_variant is not None:
            on_variant(variant.label, played, reused)
        tables.append((variant, matchups, counts, played, reused))
    baseline_counts = tables[0][2]
    rows, summaries = [], []
    for variant, matchups, counts, played, reused in tables:
        summary = summarize(counts, matchups, agent)
        summaries.append(summary)
        versus = compare_tables(baseline_counts, counts, matchups, (BASELINE, variant.label))
        rows.append(
            {
                "label": variant.label,
                "as_specified": variant.as_specified,
                "asked": list(variant.asked),
                "variant": matchups.variant,
                "rules": dict(variant.rules),
                "patches": list(variant.patches),
                "played": played,
                "reused": reused,
                "games_per_cell": summary["games_per_cell"],
                "total_games": summary["total_games"],
                "draws": summary["draws"],
                "first_player": summary["first_player"],
                base.kind: summary[base.kind],
                "most_unbalanced": most_unbalanced(summary),
                "vs_baseline": {key: versus[key] for key in VERSUS_KEYS},
            }
        )
    cells = 2 * len(pairings(base.entrants, mirrors))
    resolutions = [row["vs_baseline"]["resolution_pp"] for row in rows[1:]]
    resolution = max((r for r in resolutions if r is not None), default=None)
    sweep = {
        "game": base.game,
        "variant": base.variant,
        "agent": agent,
        "engine": engine,
        "games_per_cell": games,
        "seed": seed,
        "kind": base.kind,
        "entrants": list(base.entrants),
        "entrant_names": dict(base.names),
        "baseline": rows[0]["label"],
        "plan": {
            "games_per_cell": games,
            "seed": seed,
            "engine": engine,
            "reused": sum(row["reused"] for row in rows),
            "total_games": sum(row["total_games"] for row in rows),
            "rule": "every row plays the same games per pairing and seat; stored games are reused only from an "
            "earlier run of this same plan (agent, seed, games per cell, engine, code)",
            "baseline": baseline_source(rows[0]["games_per_cell"], seed, rows[0]["reused"], rows[0]["played"]),
        },
        "resolution_pp": resolution,
        "games_for_10_pp": games_for(10.0, cells),
        "variants": rows,
    }
    return sweep, summaries


def baseline_source(games: int, seed: int, reused: int, played: int) -> str:
    """Where the baseline row's games come from: `cardlab balance`'s table (issue #51), so `balance`,
    `sweep` and `tune` agree on it; what was reused, what was played with balance's seeds."""
    where = f"the baseline row is `cardlab balance`'s games (seed {seed}, game indices 0 to {games - 1})"
    if not played:
        return f"{where}, all stored already"
    if not reused:
        return f"{where}, played now with balance's seeds and stored as balance's (no balance games stored)"
    return f"{where}: {reused:,} stored, {played:,} played now with balance's seeds"


def plan_line(sweep: dict[str, Any]) -> str:
    """What the rows are played with, and whether stored games were reused (only of this same plan)."""
    plan = sweep.get("plan") or {}
    reused, total = plan.get("reused", 0), plan.get("total_games", 0)
    games = sweep["games_per_cell"]
    where = f"seed {sweep['seed']}, {sweep['engine']} engine"
    if not reused:
        line = f"every row: {games} games per pairing and seat ({where}), all played by this run"
        return f"{line}; {plan['baseline']}" if plan.get("baseline") else line
    stored = "all" if reused == total else f"{reused:,} of {total:,}"
    line = (
        f"every row: {games} games per pairing and seat ({where}); {stored} games stored by an earlier run of "
        "this same plan (same agent, seed, games per cell, engine and code), no others"
    )
    return f"{line}; {plan['baseline']}" if plan.get("baseline") else line


def resolution_line(sweep: dict[str, Any]) -> str:
    """What 'no difference found' can mean at this sample size, and how many games would resolve 10 points."""
    resolution = sweep.get("resolution_pp")
    if resolution is None:
        return ""
    more = (
        f"; about {sweep['games_for_10_pp']:,} games per pairing and seat would resolve 10 pp"
        if resolution > 10
        else ""
    )
    return (
        f"resolution ±{resolution:.1f} pp: the smallest difference of one cell from the baseline's that the test "
        f"could have flagged with {sweep['games_per_cell']} games per pairing and seat (pooled two-proportion "
        f"z-test at 50%, Holm's first step){more}"
    )


def _versus(row: dict[str, Any]) -> str:
    if row.get("as_specified", row["label"] == BASELINE):
        return "-"
    return f"{row['vs_baseline']['verdict']} (max {100 * row['vs_baseline']['max_abs_diff']:.1f} pp)"


def _pct(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    value = rate["rate"] if "rate" in rate else rate["wins"] / rate["games"] if rate["games"] else 0.0
    return f"{100 * value:.1f} ±{50 * (high - low):.1f}"


def print_sweep(sweep: dict[str, Any], console: Any) -> None:
    """Two tables that fit 80 columns: per variant the headline numbers, then the entrants by variant."""
    from rich.table import Table

    kind = sweep["kind"]
    games = sweep["games_per_cell"]
    head = Table(
        title=f"{sweep['game']} {sweep['variant']} · {sweep['agent']} · {games} games per cell and seat in every row",
        caption=plan_line(sweep),
    )
    for column in ("variant", "first player %", "most unbalanced cell", f"vs {BASELINE}"):
        head.add_column(column, overflow="fold", justify="left" if column != "first player %" else "right")
    for row in sweep["variants"]:
        worst = row["most_unbalanced"]
        cell = "-" if worst is None else f"{worst['cell']}: {_pct({'rate': worst['rate'], 'ci95': worst['ci95']})}"
        head.add_row(row["label"], _pct(row["first_player"]), cell, _versus(row))
    console.print(head)
    if resolution_line(sweep):
        console.print(resolution_line(sweep))
    table = Table(title=f"{kind} win rate % ±95% by variant")
    table.add_column(kind.removesuffix("s"))
    for row in sweep["variants"]:
        table.add_column(row["label"], justify="right", overflow="fold")
    for entrant in sweep["entrants"]:
        table.add_row(
            entrant, *(_pct(row[kind][entrant]) if entrant in row[kind] else "-" for row in sweep["variants"])
        )
    console.print(table)
    print_names(console, kind, sweep["entrants"], sweep.get("entrant_names"))


def write_sweep_files(sweep: dict[str, Any], summaries: Sequence[dict[str, Any]], out: Path) -> list[str]:
    """sweep.json, and sweep.html with the headline table and one small heatmap per variant (without the
    plots extra the page has its tables only)."""
    from cardlab.sim.report import write_heatmap

    out.mkdir(parents=True, exist_ok=True)
    (out / "sweep.json").write_text(json.dumps(sweep, indent=2) + "\n")
    kind = sweep["kind"]
    rows = []
    for row in sweep["variants"]:
        worst = row["most_unbalanced"]
        rows.append(
            "<tr>" + "".join(f"<td>{html.escape(str(value))}</td>" for value in (
                row["label"], _pct(row["first_player"]),
                "-" if worst is None else f"{worst['cell']}: {100 * worst['rate']:.1f}%",
                _versus(row),
                *(_pct(row[kind][e]) if e in row[kind] else "-" for e in sweep["entrants"]),
            )) + "</tr>"
        )  # fmt: skip
    columns = ("variant", "first player %", "most unbalanced cell", f"vs {BASELINE}",
               *(entrant_label(sweep, e) for e in sweep["entrants"]))  # fmt: skip
    header = "".join(f"<th>{html.escape(name)}</th>" for name in columns)
    plots = []
    written = ["sweep.json"]
    for index, (row, summary) in enumerate(zip(sweep["variants"], summaries, strict=True)):
        path = out / f"heatmap-{index}.png"
        try:
            write_heatmap(summary, path)
        except ImportError:
            break
        written.append(path.name)
        plots.append(f'<figure style="display:inline-block;width:30em">{embedded_png(path, row["label"])}'
                     f"<figcaption>{html.escape(row['label'])}</figcaption></figure>")  # fmt: skip
    title = f"Sweep: {sweep['game']} {sweep['variant']}, agent {sweep['agent']}"
    body = (f"<h1>{html.escape(title)}</h1><p>{html.escape(plan_line(sweep))}. Each variant's table compared with "
            f"the game {BASELINE} cell by cell (two-proportion z-tests, Holm-Bonferroni); "
            f"{html.escape(resolution_line(sweep) or 'no variant to compare')}.</p>"
            f"<table><tr>{header}</tr>{''.join(rows)}</table>{''.join(plots)}")  # fmt: skip
    (out / "sweep.html").write_text(html_page(title, body))
    written.append("sweep.html")
    return written
