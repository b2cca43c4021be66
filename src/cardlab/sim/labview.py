"""The lab's answers for a reader of the database rather than a command's run (the web lab, issue #53): a stored
table's summary.json numbers without its files, a stored variant's table rebuilt from its name, and the turn
where a stored game swung. Each is the library call the CLI makes (`balance_table`, `lab_matchups`), so that
what a page shows is what `cardlab report` prints."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from importlib import import_module
from itertools import pairwise
from pathlib import Path
from typing import Any

from cardlab.core.datacheck import DataProblem, card_file_problems, deck_validation
from cardlab.core.errors import CardlabError
from cardlab.core.plugin import Matchups
from cardlab.games import game_class
from cardlab.sim.balance import stored_selection, summarize
from cardlab.sim.compare import validation_for
from cardlab.sim.equilibrium import equilibrium
from cardlab.sim.prepare import Options, lab_base, lab_matchups
from cardlab.sim.table import default_agent_backing
from cardlab.store.games_db import GamesDB

DECK_TABLE = re.compile(r"^\s*\[\[\s*deck\s*\]\]", re.MULTILINE)
"""A deck file holds one `[[deck]]` table; any other TOML file is read as a card file."""


def table_summary(db: GamesDB, matchups: Matchups, agent: str, pool: bool = False) -> dict[str, Any] | None:
    """summary.json of `agent`'s stored table of `matchups`, as `balance_table` builds it (None: no games)."""
    selection = stored_selection(db, matchups, agent, pool)
    if not selection.games:
        return None
    validation = validation_for(db, matchups.game, matchups.variant, agent)
    summary = summarize(selection.counts, matchups, agent, validation=validation)
    summary["fingerprints"], summary["pooled"] = list(selection.fingerprints), selection.note
    summary["default_agent_backing"] = default_agent_backing(matchups, agent)
    summary["equilibrium"] = equilibrium(summary)
    return summary


def variant_parts(game: str, variant: str) -> tuple[str, list[str], list[str]]:
    """A stored variant's name split as `varied_matchups` joined it: (base, rules NAME=VALUE, patches)."""
    base, *parts = variant.split("+")
    names = {option.name for option in game_class(game).rule_options}
    rules = [part for part in parts if part.partition("=")[0] in names]
    return base, rules, [part for part in parts if part not in rules]


def stored_matchups(game: str, variant: str) -> Matchups:
    """The table a stored variant name describes (its base, rules and card edits), as the CLI's options build it;
    a CardlabError where the name is not one this code can rebuild (a designer's own entrants, older code)."""
    cls = game_class(game)
    lab = cls.lab()
    if lab is None:
        raise CardlabError(f"{game} has no balance lab")
    base, rules, patches = variant_parts(game, variant)
    given: dict[str, Any] = {"rule": rules, "patch": patches}
    if lab.variant_option is not None:
        given[lab.variant_option.name] = base
    try:
        matchups = lab_matchups(game, given)
    except (CardlabError, ValueError) as exc:
        raise CardlabError(f"cannot rebuild the table {variant!r} of {game}: {exc}") from None
    if matchups.variant != variant:
        raise CardlabError(f"cannot rebuild the table {variant!r} of {game} (this code names it {matchups.variant!r})")
    return matchups


def swing_step(game: str, config: Any, seed: int, actions: Sequence[str]) -> dict[str, Any] | None:
    """The step after which the game's own evaluation of the position (its heuristic's `evaluate`, from P1's
    side) moved most, or None where the game has no evaluation or the game has no steps."""
    cls = game_class(game)
    evaluate = cls.evaluator()
    if evaluate is None or not actions:
        return None
    state = cls.from_config(config).new_state(seed, record_events=False)
    values = [float(evaluate(state, 0))]
    for action in actions:
        state.apply(action)
        if state.current_player() is None:
            break  # the end's value is the result, not an estimate
        values.append(float(evaluate(state, 0)))
    if len(values) < 2:
        return None
    moves = [(abs(after - before), step) for step, (before, after) in enumerate(pairwise(values), 1)]
    change, step = max(moves)
    if not math.isfinite(change):
        return None
    return {"step": step, "change": change, "before": values[step - 1], "after": values[step]}


def file_problems(game: str, path: Path, card_paths: Sequence[Path]) -> tuple[str, list[DataProblem]]:
    """A designer's card or deck file checked as `cardlab deck validate` checks it: a deck file (one `[[deck]]`)
    with the card files it may use, else a card file on top of the packaged set; (what it is, every problem)."""
    cls: Any = game_class(game)  # a deck game (`cardlab.core.decks.SeatDecks`): its cards module and data rules
    if not cls.deck_files:
        raise CardlabError(f"{game} has no card or deck files")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardlabError(f"cannot read {path.name}: {exc}") from None
    if DECK_TABLE.search(text):
        return deck_validation(cls, path, card_paths)
    data = import_module(cls.cards_module)
    problems = card_file_problems([*card_paths, path], data.sample_cards(), data.parse_card, cls.data_rules)
    return "card file", problems


def planned_games(command: str, given: Options) -> int:
    """How many games a lab command's options ask for at most (before what is stored already is reused), checked
    as the command checks them: a bad option fails here, named (a CardlabError)."""
    from cardlab.sim.balance import pairings
    from cardlab.sim.sweep import sweep_variants
    from cardlab.sim.tune import Budget

    game, games, mirrors = given["game"], int(given.get("games") or 0), bool(given.get("mirrors"))
    if command in ("balance", "compare"):
        cells = len(pairings(lab_matchups(game, given).entrants, mirrors))
        return 2 * cells * games * (2 if command == "compare" else 1)
    base = lab_base(game, given)
    cells = len(pairings(base.entrants, mirrors))
    if command == "sweep":
        variants = sweep_variants(
            game_class(game).rule_options, given.get("rule") or [], given.get("patch") or [], base
        )
        return len(variants) * 2 * cells * games
    budget = Budget.parse(given.get("budget"))
    if budget.games is None:
        raise CardlabError("a tune started from the lab needs --budget as a number of games (e.g. 20000)")
    return budget.games + 2 * cells * games
