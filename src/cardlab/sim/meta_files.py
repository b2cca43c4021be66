"""What `cardlab meta` reports: the cards' effects, meta.json, matchups.csv, map.png, report.html and the
printed verdict (the search itself: `cardlab.sim.meta`)."""

from __future__ import annotations

import csv
import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.sim.stats import wilson_interval

if TYPE_CHECKING:
    from cardlab.sim.meta import Meta, SearchState

Z95 = 1.959964
DOMINANT = 0.60
"""The game director's yardstick: a deck beating the field more than this (its interval's lower end) dominates."""


@dataclass
class Effects:
    """Per card id: its effect in points and 95% interval (cards of the top decks only), and the games played."""

    effects: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    top: list[str] = field(default_factory=list)
    resolution_pp: float = 0.0
    agent: str = ""
    played: int = 0


def _vs(summary: Mapping[str, Any], entrant: str, against: Sequence[str]) -> tuple[int, int, int]:
    """The entrant's (wins, games, draws) against `against`, both seats pooled, from a balance summary."""
    wins = games = draws = 0
    for row in summary["pairings"]:
        for me, other, sign in ((row["a"], row["b"], 1), (row["b"], row["a"], -1)):
            if me != entrant or other not in against:
                continue
            played = row["a_first_games"] + row["a_second_games"]
            a_wins = row["a_first_wins"] + row["a_second_wins"]
            wins += a_wins if sign == 1 else played - a_wins - row["draws"]
            games += played
            draws += row["draws"]
    return wins, games, draws


def _rate(wins: int, games: int, draws: int) -> dict[str, Any]:
    """A score (draws count half) with its 95% Wilson interval."""
    points = wins + draws / 2
    low, high = wilson_interval(round(points), games) if games else (0.0, 1.0)
    return {"rate": points / games if games else None, "ci95": [low, high], "games": games}


def rate_against(summary: Mapping[str, Any], entrant: str, against: Sequence[str]) -> dict[str, Any]:
    """The entrant's score against `against` (both seats pooled) with its 95% Wilson interval."""
    return _rate(*_vs(summary, entrant, against))


def _vs_mix(summary: Mapping[str, Any], entrant: str, weights: Mapping[str, float]) -> dict[str, Any]:
    """The entrant's score against the equilibrium mix (its own share scoring one half), normal 95% interval."""
    mean = variance = 0.0
    for other, weight in weights.items():
        if weight <= 1e-9:
            continue
        if other == entrant:
            mean += weight * 0.5
            continue
        wins, games, draws = _vs(summary, entrant, [other])
        rate = (wins + draws / 2) / games if games else 0.5
        mean += weight * rate
        variance += weight**2 * rate * (1 - rate) / max(games, 1)
    spread = Z95 * math.sqrt(variance)
    return {"rate": mean, "ci95": [max(0.0, mean - spread), min(1.0, mean + spread)]}


def _verdict(decks: Sequence[dict[str, Any]], section: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """In a designer's words: a dominant deck, a cycle, or how far the best deck beats the packaged decks."""
    scored = [deck for deck in decks if deck["win_vs_field"]["rate"] is not None]
    best = max(scored, key=lambda d: (d["win_vs_field"]["ci95"][0], d["id"]), default=None)
    if best is not None and best["win_vs_field"]["ci95"][0] > DOMINANT:
        rate, (low, high) = best["win_vs_field"]["rate"], best["win_vs_field"]["ci95"]
        return (f"dominant deck: {best['id']} ({best['name']}) wins {100 * rate:.0f}% [{100 * low:.0f}, "
                f"{100 * high:.0f}] against the field")  # fmt: skip
    if section.get("cycles"):
        cycle = section["cycles"][0]
        return "the metagame is a cycle: " + " beats ".join([*cycle, cycle[0]])
    if best is None:
        return "no deck was scored"
    top = max(scored, key=lambda d: (d["win_vs_field"]["rate"], d["id"]))
    rate, (low, high) = top["win_vs_field"]["rate"], top["win_vs_field"]["ci95"]
    points = max(0.0, 100 * (rate - 0.5))
    return (f"no deck found beats the packaged decks by more than {points:.0f} points "
            f"(resolution ±{100 * (high - low) / 2:.0f})")  # fmt: skip


def meta_summary(
    meta: Meta,
    state: SearchState,
    summary: Mapping[str, Any],
    section: Mapping[str, Any],
    finalists: Sequence[str],
    ids: Mapping[str, str],
    effects: Effects,
) -> dict[str, Any]:
    """meta.json: the decks, the equilibrium, the cards, the verdict, the games and the decks evaluated."""
    space = meta.space
    packaged_ids = [ids[p] for p in meta.packaged]
    weights = {entrant: w["weight"] for entrant, w in section["weights"].items()}
    names: Mapping[str, str] = summary.get("entrant_names") or {}
    decks = []
    for deck in finalists:
        entry, entrant = meta.entries[deck], ids[deck]
        field_ids = [p for p in packaged_ids if p != entrant]
        decks.append(
            {
                "id": entrant,
                "name": names.get(entrant, entrant),
                "packaged": deck in meta.packaged,
                "file": None if deck in meta.packaged else f"decks/{deck}.toml",
                "cards": dict(entry.pick.cards),
                space.override_field: space.override_json(entry.pick.override),
                "traits": {t.name: round(t.value(entry.pick), 4) for t in space.traits},
                "win_vs_field": _rate(*_vs(summary, entrant, field_ids)),
                "win_vs_equilibrium": _vs_mix(summary, entrant, weights),
                "search_score": round(state.fitness.get(deck, meta.versus_packaged(deck)), 4),
            }
        )
    shares_random = meta.random_shares()
    elites = sorted(set(state.grid.values()))
    size = space.deck_size
    by_entrant = {ids[d]: meta.entries[d].pick.counts() for d in finalists}
    cards = []
    for card in space.cards:
        share_elites = sum(meta.entries[d].pick.counts().get(card.id, 0) for d in elites) / (size * max(len(elites), 1))
        share_mix = sum(w * by_entrant[e].get(card.id, 0) for e, w in weights.items()) / size
        effect = effects.effects.get(card.id)
        cards.append(
            {
                "id": card.id,
                "name": card.name,
                "share_elites": round(share_elites, 4),
                "share_equilibrium": round(share_mix, 4),
                "share_random": round(shares_random[card.id], 4),
                "effect_pp": None
                if effect is None
                else {"value": round(effect[0], 2), "ci95": [round(effect[1], 2), round(effect[2], 2)]},
                "flagged": effect is not None and effect[1] > 0,
            }
        )
    cards.sort(key=lambda c: (not c["flagged"], -(c["effect_pp"]["value"] if c["effect_pp"] else -1e9), c["id"]))
    games = state.games + summary["total_games"] + _effect_games(meta, effects)
    return {
        "game": space.game,
        "variant": meta.base.variant,
        "seed": meta.setup.seed,
        "search_agent": meta.setup.search_agent,
        "agent": meta.setup.agent,
        "traits": [{"name": t.name, "description": t.description, "low": t.low, "high": t.high} for t in space.traits],
        "construction_rule": space.rule,
        "decks": decks,
        "equilibrium": {
            entrant: {"weight": w["weight"], "ci95": w["ci95"], "support_probability": w["support_probability"]}
            for entrant, w in section["weights"].items()
        },
        "cycles": section.get("cycles", []),
        "cards": cards,
        "effects": {
            "agent": effects.agent,
            "top_decks": [ids[d] for d in effects.top],
            "resolution_pp": round(effects.resolution_pp, 2),
        },
        "verdict": _verdict(decks, section, names),
        "search": {
            "converged": state.converged,
            "oracle_steps": state.oracle_steps,
            "niches": len(state.grid),
            "matrix": [ids.get(m, m) for m in state.members],
        },
        "games": games,
        "evaluated_decks": state.evaluated,
    }


def _effect_games(meta: Meta, effects: Effects) -> int:
    """The games the effects rest on (stored or new): 2 seats x games per pairing x packaged decks, per deck."""
    decks = sum(len(meta.entries[d].pick.cards) + 1 for d in effects.top)
    return 2 * meta.setup.confirm_games * len(meta.packaged) * decks


def write_meta_files(
    result: Mapping[str, Any], state: SearchState, meta: Meta, summary: Mapping[str, Any]
) -> list[str]:
    """matchups.csv, map.png (with the plots extra), report.html and meta.json in the output folder (the deck
    files are written before the confirmation table plays them)."""
    out = meta.setup.out
    out.mkdir(parents=True, exist_ok=True)
    with (out / "matchups.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["a", "b", "a_first_wins", "a_first_games", "a_second_wins", "a_second_games", "draws",
                         "a_score"])  # fmt: skip
        for row in summary["pairings"]:
            games = row["a_first_games"] + row["a_second_games"]
            score = (row["a_first_wins"] + row["a_second_wins"] + row["draws"] / 2) / games if games else ""
            writer.writerow([row["a"], row["b"], row["a_first_wins"], row["a_first_games"], row["a_second_wins"],
                             row["a_second_games"], row["draws"], score])  # fmt: skip
    written = ["decks/", "matchups.csv"]
    plot: Path | None = out / "map.png"
    try:
        _write_map(meta, state, out / "map.png")
        written.append("map.png")
    except ImportError:
        plot = None
    (out / "meta.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    _write_report(result, plot, out / "report.html")
    return [*written, "meta.json", "report.html"]


def _write_map(meta: Meta, state: SearchState, path: Path) -> None:
    """The trait map: each niche coloured by its elite's score against the final mix."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    grid = np.full((state.bins, state.bins), np.nan)
    for (i, j), deck in state.grid.items():
        grid[j, i] = state.fitness[deck]
    one, two = meta.space.traits
    fig, ax = plt.subplots(figsize=(6, 5))
    extent = (
        one.low,
        one.high if one.high > one.low else one.low + 1,
        two.low,
        two.high if two.high > two.low else two.low + 1,
    )
    image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0.0, vmax=1.0, extent=extent, aspect="auto")
    ax.set_xlabel(one.name)
    ax.set_ylabel(two.name)
    ax.set_title(f"{meta.space.game}: elites' score against the equilibrium mix")
    fig.colorbar(image, ax=ax, label="score")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _write_report(result: Mapping[str, Any], plot: Path | None, path: Path) -> None:
    from cardlab.sim.report import embedded_png, html_page

    rows = "".join(
        f"<tr><td>{html.escape(d['id'])}</td><td>{html.escape(d['name'])}</td>"
        f"<td>{_pct(d['win_vs_field'])}</td><td>{_pct(d['win_vs_equilibrium'])}</td>"
        f"<td>{100 * result['equilibrium'].get(d['id'], {}).get('weight', 0.0):.0f}%</td></tr>"
        for d in result["decks"]
    )
    cards = "".join(
        f"<tr><td>{html.escape(c['id'])} {html.escape(c['name'])}</td><td>{100 * c['share_elites']:.1f}%</td>"
        f"<td>{100 * c['share_random']:.1f}%</td><td>{_effect(c['effect_pp'])}</td>"
        f"<td>{'flagged' if c['flagged'] else ''}</td></tr>"
        for c in result["cards"]
    )
    body = (
        f"<h1>Metagame of {html.escape(result['game'])}</h1><p><b>{html.escape(result['verdict'])}</b></p>"
        f"<p>{result['evaluated_decks']:,} decks scored by {html.escape(result['search_agent'])}; finalists confirmed "
        f"by {html.escape(result['agent'])}; {result['games']:,} games.</p>"
        + embedded_png(plot, "trait map")
        + "<h2>Decks</h2><table><tr><th>deck</th><th>name</th><th>vs the packaged decks</th>"
        f"<th>vs the equilibrium</th><th>weight</th></tr>{rows}</table>"
        "<h2>Cards</h2><table><tr><th>card</th><th>share in elites</th><th>share in random decks</th>"
        f"<th>effect (points)</th><th></th></tr>{cards}</table>"
    )
    path.write_text(html_page(f"cardlab meta {result['game']}", body), encoding="utf-8")


def _pct(rate: Mapping[str, Any]) -> str:
    if rate.get("rate") is None:
        return "–"
    low, high = rate["ci95"]
    return f"{100 * rate['rate']:.0f}% [{100 * low:.0f}, {100 * high:.0f}]"


def _effect(effect: Mapping[str, Any] | None) -> str:
    if effect is None:
        return "–"
    low, high = effect["ci95"]
    return f"{effect['value']:+.1f} [{low:+.1f}, {high:+.1f}]"


def print_meta(result: Mapping[str, Any], console: Any) -> None:
    """The verdict, the decks and the flagged cards, as a designer reads them first."""
    console.print(f"verdict: {result['verdict']}", soft_wrap=True, highlight=False)
    for deck in result["decks"]:
        weight = result["equilibrium"].get(deck["id"], {}).get("weight", 0.0)
        console.print(f"  {deck['id']}: {_pct(deck['win_vs_field'])} vs the packaged decks, "
                      f"{_pct(deck['win_vs_equilibrium'])} vs the equilibrium, weight {100 * weight:.0f}%",
                      soft_wrap=True, highlight=False)  # fmt: skip
    flagged = [c for c in result["cards"] if c["flagged"]]
    resolution = result["effects"]["resolution_pp"]
    if flagged:
        for card in flagged:
            console.print(f"  flagged: {card['id']} {card['name']} {_effect(card['effect_pp'])} points",
                          soft_wrap=True, highlight=False)  # fmt: skip
    else:
        console.print(f"  no card's effect has an interval above zero (resolution ±{resolution:.0f} points)",
                      soft_wrap=True, highlight=False)  # fmt: skip
