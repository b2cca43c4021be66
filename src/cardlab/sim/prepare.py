"""What a command settles before it plays (issue #50), so that a bad option fails at once and named, not
in a worker an hour in: the game or balance table its options describe, the agent a table is played by,
and the pre-flight (`prepare_run`) that builds every agent and checks that the engine can play them.

A command's options come as a mapping of option name to value (`vars(args)` in the CLI): the game's
declared options, `rule` and `patch`, and the lab's variant option, `entrants` and `cards`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.game import Game
from cardlab.core.plugin import Matchups
from cardlab.core.rng import derive_seed, make_rng
from cardlab.core.rules import (
    Patches,
    Rules,
    check_patches,
    check_rules,
    parse_rule_args,
    varied_matchups,
    with_patches,
    with_rules,
)
from cardlab.games import game_class

Options = Mapping[str, Any]
"""A command's option values by name."""


def variants(game: str, given: Options) -> tuple[Rules, Patches]:
    """The `--rule NAME=VALUE` and `--patch CARD.FIELD=VALUE` values, checked against the game's rule options."""
    rules = check_rules(game_class(game).rule_options, parse_rule_args(given.get("rule")), "--rule")
    return rules, check_patches(given.get("patch") or [], "--patch")


def game_from_options(game: str, given: Options, seed: int) -> Game:
    """The game and configuration the options describe; options left to chance draw from the seed."""
    cls = game_class(game)
    values = {}
    for option in cls.options:
        value = given.get(option.name)
        if isinstance(value, str):
            value = option.parse_text(value)
        elif isinstance(value, list):
            value = tuple(value)
        values[option.name] = value
    try:
        built = cls.from_options(values, make_rng(derive_seed(seed, "options")))
        rules, patches = variants(game, given)
        if rules or patches:
            built = cls.from_config(with_patches(with_rules(built.config_json(), dict(rules)), patches))
        return built
    except ValueError as exc:
        raise CardlabError(str(exc)) from None


def lab_base(game: str, given: Options) -> Matchups:
    """The table before rule variants and card edits: the variant option's (`--standard`), or the designer's
    own entrants and card files (`--entrants`, `--cards`), every problem of those files listed at once."""
    lab = game_class(game).lab()
    if lab is None:
        raise CardlabError(f"{game} has no balance lab")
    try:
        base = lab.matchups(given.get(lab.variant_option.name) if lab.variant_option else None)
        entrants, cards = given.get("entrants"), given.get("cards")
        if lab.own is not None and (entrants or cards):
            base = lab.own(base, entrants.split(",") if entrants else [], cards or [])
    except ValueError as exc:
        raise CardlabError(str(exc)) from None
    return base


def effective_patches(base: Matchups, rules: Rules, patches: Patches) -> Patches:
    """The card edits that change a card (the game drops one that sets a printed value), checked by building
    the game: a bad rule value or card edit fails here, named, before anything is played."""
    matchups = varied_matchups(base, rules, patches)
    try:
        built = game_class(base.game).from_config(matchups.config(matchups.entrants[0], matchups.entrants[-1]))
    except ValueError as exc:
        raise CardlabError(str(exc)) from None
    return tuple(built.config_json().get("patches") or ())


def changes_a_card(base: Matchups, patch: str) -> bool:
    """Whether the card edit `CARD.FIELD=VALUE` changes a card of `base` (the game raises for one it refuses)."""
    return bool(effective_patches(base, (), (patch,)))


def lab_matchups(game: str, given: Options) -> Matchups:
    """The table a lab command's options describe: the base table under its rules and card edits."""
    base = lab_base(game, given)
    rules, patches = variants(game, given)
    return varied_matchups(base, rules, effective_patches(base, rules, patches))


def table_agent(named: str | None, matchups: Matchups) -> tuple[str, str | None]:
    """`--agent`, else the game's default table agent, with a note when that is not the strong one."""
    from cardlab.sim.balance import default_agent

    return (named, None) if named else default_agent(matchups)


def expected_agent(named: str | None, matchups: Matchups) -> str:
    """The agent `table_agent` will choose, named before anything slow is imported (numba takes half a
    second), for a command's first line: the strong agent wherever the fast extra is installed."""
    if named:
        return named
    return matchups.strong_agent if matchups.strong_agent and find_spec("numba") else "heuristic"


def check_agents(specs: Sequence[str], game: str) -> None:
    """Build each agent for `game` now: a spec it cannot play fails here, not in a worker mid-run."""
    from cardlab.agents import make_agent

    for spec in specs:
        make_agent(spec, game)


def choose_engine(engine: str, game: str, agents: Sequence[str]) -> str:
    """`--engine auto`: the cpu kernel where it can play all `agents` of `game`, else the reference engine."""
    from cardlab.sim.engines import check_engine

    if engine != "auto":
        return engine
    try:
        check_engine("cpu", game, agents, warm=False)
    except CardlabError:
        return "reference"
    return "cpu"


@dataclass(frozen=True)
class PreparedRun:
    """Agents that can play `game`, and the engine that will play them, checked but not yet compiled."""

    game: str
    agents: tuple[str, ...]
    engine: str

    @property
    def searches(self) -> bool:
        """Whether an agent is a compiled search, which takes minutes to compile (a kernel of policies seconds)."""
        from cardlab.agents import parse_spec

        return any(parse_spec(spec)[1].get("backend") == "cpu" for spec in self.agents)

    def compiled(self) -> bool | None:
        """Whether the kernel is compiled on this machine already (None: the kernel cannot tell)."""
        from cardlab.sim.engines import compiled

        return compiled(self.engine, self.game, self.agents)

    def warm(self) -> None:
        """Compile the kernel, or load it from numba's cache, so that the games start at once after."""
        from cardlab.sim.engines import check_engine

        check_engine(self.engine, self.game, self.agents)


def prepare_run(game: str, agents: Sequence[str], engine: str) -> PreparedRun:
    """The pre-flight of every command that plays: each agent built for `game`, `--engine auto` resolved,
    and the engine checked to play these agents (a kernel is compiled later, by `PreparedRun.warm`)."""
    from cardlab.sim.engines import check_engine

    check_agents(agents, game)
    chosen = choose_engine(engine, game, agents)
    check_engine(chosen, game, agents, warm=False)
    return PreparedRun(game, tuple(agents), chosen)
