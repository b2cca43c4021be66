"""The balance table of stored games, what `cardlab balance` and `cardlab report` end with: the games this
code played (every code's with `pool`), summarized with the agent's latest validation, and its files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.plugin import Matchups
from cardlab.sim.balance import stored_selection, summarize
from cardlab.sim.compare import stored_agents_hint, validation_for
from cardlab.sim.equilibrium import equilibrium
from cardlab.sim.report import write_balance_files
from cardlab.store.games_db import GamesDB

DEFAULT_AGENT_BACKING = "the game's default agent: its convergence is measured in docs/balance.md"


def default_agent_backing(matchups: Matchups, agent: str) -> str | None:
    """What backs `agent` when it is the game's declared default table agent (the convergence study chose it,
    issue #51), else None: a report then says "not validated" unless a stored comparison exists."""
    return DEFAULT_AGENT_BACKING if agent == matchups.strong_agent else None


@dataclass(frozen=True)
class BalanceTable:
    summary: dict[str, Any]
    """summary.json"""
    note: str
    """What the selection left out or pooled ("" when it took every stored game of this code)."""
    written: list[str]
    """The files written, in order."""


def balance_table(db: GamesDB, matchups: Matchups, agent: str, pool: bool, new: int, out: Path) -> BalanceTable:
    """The table of `agent`'s stored games of `matchups` and its files in `out` (`new`: games this run played);
    a CardlabError naming the agents the database holds games of when `agent` has none."""
    selection = stored_selection(db, matchups, agent, pool)
    if not selection.games:
        other = f" ({selection.note})" if selection.note else ""
        raise CardlabError(
            f"no stored games for {matchups.game} {matchups.variant} with agent {agent!r} in the database{other}"
            f"{stored_agents_hint(db, matchups.game, matchups.variant)}"
        )
    validation = validation_for(db, matchups.game, matchups.variant, agent)
    summary = summarize(selection.counts, matchups, agent, validation=validation)
    summary["fingerprints"], summary["pooled"] = list(selection.fingerprints), selection.note
    summary["default_agent_backing"] = default_agent_backing(matchups, agent)
    summary["equilibrium"] = equilibrium(summary)  # the metagame: which entrants an adapting field keeps
    used = set(selection.fingerprints)
    games = [game for game in db.games(matchups.game, matchups.variant, agent) if game.fingerprint in used]
    batches = [batch for batch in db.batches(matchups.game, matchups.variant, agent) if batch.fingerprint in used]
    return BalanceTable(summary, selection.note, write_balance_files(summary, games, batches, new, out))
