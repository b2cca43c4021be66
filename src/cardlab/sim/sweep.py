"""`cardlab sweep`: the balance table under each rule variant or card edit, side by side (issue #17).

A sweep names dimensions (`--rule first_draw=yes,no`, `--patch S14.cost=2,3,4`); every combination is
a variant, and the game as specified (no rules, no edits) is always the first, the baseline. Each
variant's table is the one `cardlab balance` would store for it (same seeds and experiment, topped up
to `--games` per pairing and seat, so a rerun plays nothing new), under its own variant name, so
tables of different variants are never pooled. What a designer reads first is printed side by side:
the first player's rate, each entrant's overall rate, the most unbalanced cell, and the `compare`
verdict of the variant's table against the baseline's, cell by cell.
"""

from __future__ import annotations

import html
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
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
    rules_label,
    varied_matchups,
)
from cardlab.sim.balance import stored_selection, summarize
from cardlab.sim.compare import Runner, compare_tables, top_up
from cardlab.sim.report import embedded_png, html_page
from cardlab.sim.tournament import Track, no_progress
from cardlab.store.games_db import GamesDB

BASELINE = "as specified"
VERSUS_KEYS = ("verdict", "significant_cells", "max_abs_diff", "max_abs_diff_cell", "test", "correction")
"""What sweep.json keeps of each variant's comparison with the baseline (the compare.json fields)."""


@dataclass(frozen=True)
class Variant:
    """One combination of a sweep's rule values and card edits."""

    rules: Rules
    patches: Patches

    @property
    def label(self) -> str:
        return "+".join(part for part in (rules_label(self.rules), "+".join(self.patches)) if part) or BASELINE


def sweep_variants(options: Sequence[RuleOption], rule_args: Sequence[str], patch_args: Sequence[str]) -> list[Variant]:
    """The baseline, then every combination of the dimensions (`NAME=V1,V2`, `CARD.FIELD=V1,V2`), in order."""
    dimensions: list[list[tuple[str, str]]] = []
    for text in rule_args:
        name, sep, values = text.partition("=")
        listed = [value.strip() for value in values.split(",") if value.strip()]
        if not sep or not name.strip() or not listed:
            raise CardlabError(f"--rule takes NAME=VALUE[,VALUE...], got {text!r} (see: cardlab rules GAME)")
        dimensions.append([("rule", f"{name.strip()}={value}") for value in listed])
    for text in patch_args:
        target, sep, values = text.partition("=")
        listed = [value.strip() for value in values.split(",") if value.strip()]
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
        variant = Variant(check_rules(options, rules, "--rule"), check_patches(patches, "--patch"))
        if variant not in variants:
            variants.append(variant)
    return variants


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
    on_variant: Callable[[str, int], None] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Top each variant's table up to `games` per pairing and seat, then compare each with the baseline;
    the sweep.json numbers and each variant's full balance summary (for its heatmap)."""
    if games < 1:
        raise CardlabError("--games must be at least 1")
    tables = []
    for variant in variants:
        matchups = varied_matchups(base, variant.rules, variant.patches)
        played = top_up(db, matchups, agent, games, seed, mirrors, engine, run, track)
        if on_variant is not None:
            on_variant(variant.label, played)
        counts = stored_selection(db, matchups, agent).counts
        tables.append((variant, matchups, counts, played))
    baseline_counts = tables[0][2]
    rows, summaries = [], []
    for variant, matchups, counts, played in tables:
        summary = summarize(counts, matchups, agent)
        summaries.append(summary)
        versus = compare_tables(baseline_counts, counts, matchups, (BASELINE, variant.label))
        rows.append(
            {
                "label": variant.label,
                "variant": matchups.variant,
                "rules": dict(variant.rules),
                "patches": list(variant.patches),
                "played": played,
                "total_games": summary["total_games"],
                "draws": summary["draws"],
                "first_player": summary["first_player"],
                base.kind: summary[base.kind],
                "most_unbalanced": most_unbalanced(summary),
                "vs_baseline": {key: versus[key] for key in VERSUS_KEYS},
            }
        )
    sweep = {
        "game": base.game,
        "variant": base.variant,
        "agent": agent,
        "engine": engine,
        "games_per_cell": games,
        "seed": seed,
        "kind": base.kind,
        "entrants": list(base.entrants),
        "baseline": BASELINE,
        "variants": rows,
    }
    return sweep, summaries


def _pct(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    value = rate["rate"] if "rate" in rate else rate["wins"] / rate["games"] if rate["games"] else 0.0
    return f"{100 * value:.1f} ±{50 * (high - low):.1f}"


def print_sweep(sweep: dict[str, Any], console: Any) -> None:
    """Two tables that fit 80 columns: per variant the headline numbers, then the entrants by variant."""
    from rich.table import Table

    kind = sweep["kind"]
    games = sweep["games_per_cell"]
    head = Table(title=f"{sweep['game']} {sweep['variant']} · {sweep['agent']} · {games} games per cell and seat")
    for column in ("variant", "first player %", "most unbalanced cell", f"vs {BASELINE}"):
        head.add_column(column, overflow="fold", justify="left" if column != "first player %" else "right")
    for row in sweep["variants"]:
        worst = row["most_unbalanced"]
        cell = "-" if worst is None else f"{worst['cell']}: {_pct({'rate': worst['rate'], 'ci95': worst['ci95']})}"
        versus = (
            "-"
            if row["label"] == BASELINE
            else f"{row['vs_baseline']['verdict']} (max {100 * row['vs_baseline']['max_abs_diff']:.1f} pp)"
        )
        head.add_row(row["label"], _pct(row["first_player"]), cell, versus)
    console.print(head)
    table = Table(title=f"{kind} win rate % ±95% by variant")
    table.add_column(kind.removesuffix("s"))
    for row in sweep["variants"]:
        table.add_column(row["label"], justify="right", overflow="fold")
    for entrant in sweep["entrants"]:
        table.add_row(
            entrant, *(_pct(row[kind][entrant]) if entrant in row[kind] else "-" for row in sweep["variants"])
        )
    console.print(table)


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
                row["vs_baseline"]["verdict"],
                *(_pct(row[kind][e]) if e in row[kind] else "-" for e in sweep["entrants"]),
            )) + "</tr>"
        )  # fmt: skip
    header = "".join(f"<th>{html.escape(name)}</th>" for name in ("variant", "first player %", "most unbalanced cell",
                                                                  f"vs {BASELINE}", *sweep["entrants"]))  # fmt: skip
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
    body = (f"<h1>{html.escape(title)}</h1><p>{sweep['games_per_cell']} games per pairing and seat for every variant; "
            f"each variant's table compared with the game {BASELINE} cell by cell (two-proportion z-tests, "
            f"Holm-Bonferroni).</p><table><tr>{header}</tr>{''.join(rows)}</table>{''.join(plots)}")  # fmt: skip
    (out / "sweep.html").write_text(html_page(title, body))
    written.append("sweep.html")
    return written
