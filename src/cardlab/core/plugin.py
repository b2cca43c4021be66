"""What a game declares so that every tool can handle it without knowing which game it is.

A game package gives its `Game` class a name, a title, its config options (declared once: the
CLI builds its flags from them, the web lobby its form, `Game.from_options` checks them), its
balance matchups, renderers, heuristic, compiled engines and profile. The CLI, the web app, the
lab, the agents and the store read only this; adding a game is adding a package and one line
in the registry (`cardlab.games`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module, resources
from importlib.resources.abc import Traversable
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from cardlab.core.errors import CardlabError, PositionError
from cardlab.core.players import PLAYER_NAMES

if TYPE_CHECKING:
    from rich.console import RenderableType

    from cardlab.core.game import Game, State

OptionValue = str | tuple[str, str] | tuple[str, ...] | None
"""A parsed option: a string, one string per seat (P1, P2), a list of strings (repeatable), or unset."""

RANDOM = "random"
"""The value of a per-seat option left to chance (options with `random_choice`)."""


@dataclass(frozen=True)
class Choice:
    value: str
    label: str = ""

    @property
    def text(self) -> str:
        return self.label or self.value


@dataclass(frozen=True)
class ConfigOption:
    """One option of a game's configuration, e.g. the decks of both seats."""

    name: str
    """The option's key: the CLI flag `--name` and the web form field."""
    help: str
    choices: tuple[Choice, ...] = ()
    """The values offered; with `open_choices` the CLI accepts others too (e.g. a deck file)."""
    open_choices: bool = False
    per_seat: bool = False
    """One value per seat: `A,B` on the command line, two fields in the web form."""
    repeatable: bool = False
    """A list of values (`--name X --name Y`); never offered in the browser."""
    web: bool = True
    """Offered in the web lobby. Options naming files are not: a browser may not make the server read them."""
    random_choice: bool = False
    """A seat's value may be `random`: drawn by the game from the seed."""
    optional: bool = False
    """A value may be left empty in the web form (the game's default for that seat)."""
    default: str | None = None
    """The web form's initial value (`A,B` for a per-seat option); on the command line an option left
    out is None, and `Game.from_options` applies the game's default."""
    shown_when: tuple[str, tuple[str, ...]] | None = None
    """(option, values): the web form shows this field only while that option has one of those values."""
    example: str = ""
    """An example value for error messages and help, e.g. `VIRIDIAN,EAGLE`."""

    @property
    def flag(self) -> str:
        return f"--{self.name.replace('_', '-')}"

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(choice.value for choice in self.choices)

    def parse_text(self, text: str) -> OptionValue:
        """The value of this option written on a command line (`A,B` for a per-seat option)."""
        if not self.per_seat:
            return text
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != 2 or not all(parts):
            example = f", e.g. {self.example}" if self.example else ""
            raise CardlabError(f"{self.flag} takes two values separated by a comma{example}")
        return (parts[0], parts[1])

    def check_web(self, value: Any) -> OptionValue:
        """A value sent by a browser: only the listed choices (a browser never names a file)."""
        where = f"options.{self.name}"
        if not self.web:
            raise PositionError(where, "not accepted over the web")
        allowed = set(self.values) | ({RANDOM} if self.random_choice else set())
        if self.per_seat:
            if not isinstance(value, Mapping) or set(value) != set(PLAYER_NAMES):
                raise PositionError(where, 'expected {"P1": ..., "P2": ...}')
            seats = []
            for seat in PLAYER_NAMES:
                item = value[seat]
                if self.optional and item in (None, ""):
                    seats.append("")
                elif not isinstance(item, str) or item not in allowed:
                    raise PositionError(f"{where}.{seat}", f"expected one of {sorted(allowed)}, got {item!r}")
                else:
                    seats.append(item)
            return (seats[0], seats[1])
        if value is None and (self.optional or self.default is not None):
            return None
        if not isinstance(value, str) or value not in allowed:
            raise PositionError(where, f"expected one of {sorted(allowed)}, got {value!r}")
        return value

    def to_json(self) -> dict[str, Any]:
        """The option as the web lobby reads it from /api/meta."""
        return {
            "name": self.name,
            "help": self.help,
            "choices": [[choice.value, choice.text] for choice in self.choices],
            "per_seat": self.per_seat,
            "random_choice": self.random_choice,
            "optional": self.optional,
            "default": self.default,
            "shown_when": None if self.shown_when is None else [self.shown_when[0], list(self.shown_when[1])],
        }


def seat_values(value: OptionValue) -> tuple[str | None, str | None]:
    """A per-seat option's two values, None where unset (or left empty)."""
    if value is None:
        return (None, None)
    first, second = value[0], value[1]
    return (first or None, second or None)


def draw_random_seats(value: OptionValue, choices: Sequence[str], rng: random.Random) -> OptionValue:
    """Replace `random` seats of a per-seat value by a choice drawn from `rng`."""
    if value is None or RANDOM not in value:
        return value
    first, second = (rng.choice(list(choices)) if item == RANDOM else item for item in value[:2])
    return (first, second)


@dataclass(frozen=True)
class Matchups:
    """What a game's balance table pairs up, and the config that seats two entrants."""

    game: str
    variant: str
    """What reports group tables by (a rule standard, a card pool)."""
    entrants: tuple[str, ...]
    kind: str
    """The word tables and summary.json use for the entrants, e.g. "characters"."""
    config: Callable[[str, str], dict[str, Any]]
    """(first player's entrant, second's) -> config JSON."""
    strong_agent: str | None = None
    """The cheapest agent whose table agrees with converged strong play (docs/balance.md), if any."""
    summary_fields: Mapping[str, Any] = field(default_factory=dict)
    """Extra top-level fields of summary.json naming the variant in the game's own words."""
    deals: str | None = None
    """The variant whose deals (game seeds) this table plays, when not its own: a rule variant or card edit
    plays the deals of the game as specified, so a sweep compares both on common deals."""

    @property
    def deal_variant(self) -> str:
        return self.deals or self.variant

    @property
    def names(self) -> Mapping[str, str]:
        """Entrant id -> the entrant in words (`D1/L01` -> `Vanguard of Dawn · Marshal Odette Renn`), for games
        whose ids are codes: `summary_fields["entrant_names"]`, so summary.json and comparisons carry them."""
        names: Mapping[str, str] = self.summary_fields.get("entrant_names") or {}
        return names


OwnMatchups = Callable[[Matchups, Sequence[str], Sequence[str]], Matchups]
"""(the default matchups, the entrants as written, card files) -> the designer's own table; a CardlabError
(`cardlab.core.datacheck.DataProblems`: every problem at once) for files or entrants that cannot play."""


@dataclass(frozen=True)
class Lab:
    """A game's balance lab: its matchups per variant, and the option that names the variant."""

    matchups: Callable[[str | None], Matchups]
    """The matchups of a variant (None: the default one); a ValueError for an unknown variant."""
    variant_option: ConfigOption | None = None
    """The command-line option choosing the variant (`--standard`), when a game has several."""
    entrants_option: ConfigOption | None = None
    """`--entrants`: the designer's own entrants (with `--cards FILE`), in a deck-building game."""
    own: OwnMatchups | None = None
    """The table of the entrants and card files `entrants_option` and `--cards` name."""


@runtime_checkable
class Renderer(Protocol):
    """A game's text renderer (its `render` module): the terminal board and event lines."""

    @property
    def WINDOW_HINTS(self) -> Mapping[str, str]:
        """Per window, a one-line hint of what the player may do (a module constant of a render module)."""

    def render_board(self, observation: Mapping[str, Any], /) -> RenderableType:
        """The board for one seat's (or a spectator's) observation: text or a rich renderable."""

    def event_text(self, event: Mapping[str, Any], /) -> str: ...

    def option_groups(self, observation: Mapping[str, Any], actions: Sequence[str], /) -> list[tuple[str, list[int]]]:
        """The legal actions (their texts) as (heading, indices) groups for reading; "" heads ungrouped ones
        (`ungrouped`: the list as it comes)."""


def option_labels(renderer: Renderer, observation: Mapping[str, Any], actions: Sequence[str]) -> list[str] | None:
    """Each legal action in the game's words, from the renderer's optional `option_labels(observation, actions)`
    (a label under a heading may leave out what the heading names); None where the game has none and its
    options are shown as action texts. Optional, so that a renderer without it still satisfies `Renderer`."""
    labels = getattr(renderer, "option_labels", None)
    if labels is None:
        return None
    found = list(labels(observation, actions))
    return found if len(found) == len(actions) else None


def destructive_options(renderer: Renderer, actions: Sequence[str]) -> set[int]:
    """The options that throw away a player's own card, from the renderer's optional `DESTRUCTIVE` verbs (an
    action text's first word): clients number them apart from the low numbers a player types by habit."""
    verbs = getattr(renderer, "DESTRUCTIVE", ())
    return {index for index, text in enumerate(actions) if text.split(" ", 1)[0] in verbs}


def ungrouped(observation: Mapping[str, Any], actions: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Every action in one group without a heading: the legal list as it comes."""
    return [("", list(range(len(actions))))]


@dataclass(frozen=True)
class KernelGame:
    """One game's result from a compiled kernel (winner 0 = P1, 1 = P2)."""

    winner: int
    reason: str
    turns: int
    decisions: int


@dataclass(frozen=True)
class KernelRun:
    """A batch of kernel games as columns (one entry per game, no per-game object on this path),
    and what each agent's decisions cost."""

    winner: npt.NDArray[np.int64]
    """0: P1 won, 1: P2 won, -1: a draw."""
    reason: npt.NDArray[np.int64]
    """Index into `reasons` of each game's win reason."""
    reasons: tuple[str, ...]
    turns: npt.NDArray[np.int64]
    decisions: npt.NDArray[np.int64]
    decision_ms: tuple[float, float]
    """Mean wall-clock milliseconds per decision of the P1 agent and the P2 agent of this batch."""
    seat_decisions: tuple[int, int]
    """Decisions of the P1 and P2 agents."""

    def __len__(self) -> int:
        return len(self.winner)

    @property
    def games(self) -> list[KernelGame]:
        """The games one by one (for a few games: tests, a report's examples); the lab reads the columns."""
        return [
            KernelGame(int(w), self.reasons[int(r)], int(t), int(d))
            for w, r, t, d in zip(self.winner, self.reason, self.turns, self.decisions, strict=True)
        ]

    @classmethod
    def of_games(
        cls, games: Sequence[KernelGame], decision_ms: tuple[float, float], seat_decisions: tuple[int, int]
    ) -> KernelRun:
        """A run holding `games` (tests and fakes build runs this way)."""
        reasons = tuple(dict.fromkeys(game.reason for game in games))
        column = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
        return cls(
            column([g.winner for g in games]),
            column([reasons.index(g.reason) for g in games]),
            reasons,
            column([g.turns for g in games]),
            column([g.decisions for g in games]),
            decision_ms,
            seat_decisions,
        )

    @classmethod
    def joined(cls, runs: Sequence[KernelRun]) -> KernelRun:
        """One run of several played one after another (a long run played in pieces): the games in
        order, each agent's mean decision time weighted by its decisions."""
        if len(runs) == 1:
            return runs[0]
        reasons = tuple(dict.fromkeys(name for run in runs for name in run.reasons))
        seats = tuple(sum(run.seat_decisions[seat] for run in runs) for seat in (0, 1))
        ms = tuple(
            sum(run.decision_ms[seat] * run.seat_decisions[seat] for run in runs) / seats[seat] if seats[seat] else 0.0
            for seat in (0, 1)
        )
        recoded = [np.array([reasons.index(name) for name in run.reasons], dtype=np.int64)[run.reason] for run in runs]
        join = lambda name: np.concatenate([getattr(run, name) for run in runs]).astype(np.int64)  # noqa: E731
        return cls(
            join("winner"),
            np.concatenate(recoded) if recoded else np.zeros(0, dtype=np.int64),
            reasons,
            join("turns"),
            join("decisions"),
            (ms[0], ms[1]),
            (seats[0], seats[1]),
        )


class Kernels(Protocol):
    """A game's compiled engines (`--engine cpu|gpu`): batches of whole games off the reference engine."""

    @property
    def engines(self) -> tuple[str, ...]: ...

    def check(self, engine: str, agents: Sequence[str]) -> None:
        """A CardlabError saying why `engine` cannot play these agents (or is not installed)."""

    def warm(self, engine: str, agents: Sequence[str]) -> None:
        """Compile (or load from a cache) what `run` will need for these agents, so that it waits for nothing."""

    def piece(self, engine: str) -> int | None:
        """The games `run` should be given at a time, where the engine compiles per batch size (JAX);
        None: any number (a long run is then played in pieces of about a second)."""

    def run(
        self, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str, first: int = 0
    ) -> KernelRun:
        """`games` games of one config with `agents[0]` as P1; game i's deal comes from (seed, first + i), so a
        long run played in pieces (`first`: the games played before) holds the games of one call."""

    def compiled(self, engine: str, agents: Sequence[str]) -> bool | None:
        """Whether the kernel for these agents is compiled on this machine already (False: the first run
        compiles it, which takes a while; None: cannot tell), so that a command can say so before it waits."""


class CompiledSearch(Protocol):
    """A game's compiled information-set search (`ismcts:...:backend=cpu`)."""

    @property
    def time_capacity(self) -> int:
        """Tree nodes to hold for a search bounded by time rather than iterations."""

    @property
    def cuts_rollouts(self) -> bool:
        """Whether `choose` takes a `depth`: rollouts cut after that many actions, the game's estimate then."""

    def new_tree(self, capacity: int) -> Any: ...

    def choose(
        self, world: State, iterations: int, c: float, rollout: str, seed: int, seconds: float, tree: Any, depth: int
    ) -> int:
        """The action id the search picks in `world` (a canonical world of the player to move)."""


class ModuleSearch:
    """A `CompiledSearch` kept in one module of a game's `fast/` package: its `TIME_CAPACITY`, `Tree(capacity)` and
    `choose(world, iterations, c, rollout, seed, seconds, tree[, depth])` (`depth` only where it `cuts_rollouts`).
    Importing the module raises ImportError without the fast extra, so a game without it has no compiled search."""

    def __init__(self, module: str, *, cuts_rollouts: bool) -> None:
        self._module = import_module(module)
        self.time_capacity: int = self._module.TIME_CAPACITY
        self.cuts_rollouts = cuts_rollouts

    def new_tree(self, capacity: int) -> Any:
        return self._module.Tree(capacity)

    def choose(
        self, world: State, iterations: int, c: float, rollout: str, seed: int, seconds: float, tree: Any, depth: int
    ) -> int:
        cut = (depth,) if self.cuts_rollouts else ()
        return int(self._module.choose(world, iterations, c, rollout, seed, seconds, tree, *cut))


FastRollout = Callable[["State", str, int], tuple[float, float]]
"""A compiled whole-game rollout (state, policy name, seed) -> returns."""


class GameRegistry:
    """Games by name, each a `module:Class` imported only when first asked for."""

    def __init__(self, games: Mapping[str, str]) -> None:
        self._targets = dict(games)
        self._extra: dict[str, str] = {}

    def register(self, name: str, target: str) -> None:
        """Add a game (`module:Class`), e.g. one that lives outside cardlab; worker processes inherit it."""
        self._targets[name] = target
        self._extra[name] = target

    def unregister(self, name: str) -> None:
        self._targets.pop(name, None)
        self._extra.pop(name, None)

    def extra(self) -> dict[str, str]:
        """The games registered at run time, to hand to worker processes."""
        return dict(self._extra)

    def install(self, games: Mapping[str, str]) -> None:
        """Register `games` (a worker's initializer: the parent's `extra()`)."""
        for name, target in games.items():
            self.register(name, target)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._targets)

    def game_class(self, name: str) -> type[Game]:
        """The Game subclass registered under `name`."""
        if not isinstance(name, str) or name not in self._targets:
            raise ValueError(f"unknown game {name!r}; known games: {', '.join(self.names)}")
        module, attr = self._targets[name].split(":")
        cls: type[Game] = getattr(import_module(module), attr)
        return cls

    def load_position(self, data: Mapping[str, Any]) -> State:
        """Load a position JSON of any registered game (its `game` field picks the game)."""
        if not isinstance(data, Mapping):
            raise PositionError("position", "expected a JSON object")
        name = data.get("game")
        if not isinstance(name, str) or name not in self._targets:
            raise PositionError("game", f"unknown game {name!r}; known games: {', '.join(self.names)}")
        return self.game_class(name)().load_position(data)


class PlainRenderer:
    """The text renderer of a game that brings none: the observation and events as plain fields."""

    WINDOW_HINTS: Mapping[str, str] = {}

    def render_board(self, observation: Mapping[str, Any]) -> str:
        return "\n".join(f"{key}: {value}" for key, value in observation.items())

    def option_groups(self, observation: Mapping[str, Any], actions: Sequence[str]) -> list[tuple[str, list[int]]]:
        return ungrouped(observation, actions)

    def event_text(self, event: Mapping[str, Any]) -> str:
        fields = ", ".join(f"{key} {value}" for key, value in event.items() if key not in ("type", "secret_to"))
        return f"{event.get('type', 'event')}: {fields}" if fields else str(event.get("type", "event"))


def web_assets(package: str | None) -> dict[str, Traversable]:
    """A game package's web files (`web/render.js`, `web/style.css`, `web/rules.html`), those that exist."""
    if package is None:
        return {}
    folder = resources.files(package).joinpath("web")
    return {
        name: folder.joinpath(name)
        for name in ("render.js", "style.css", "rules.html")
        if folder.joinpath(name).is_file()
    }


def declared_words(game: type[Game], table: str) -> Mapping[str, Any]:
    """A table of words a game declares as data in its package's `words` module (`WIN_REASONS`, `DRAW_REASONS`,
    `RULE_VALUES`); {} where it declares none, so a game without one shows its bare values."""
    package = game.__module__.rpartition(".")[0]
    module = f"{package}.words"
    found = getattr(import_module(module), table, None) if package and find_spec(module) is not None else None
    return found if isinstance(found, Mapping) else {}


def reason_words(game: type[Game], reason: str, winner: str | None) -> str:
    """Why a game ended, in a player's words: the game's `WIN_REASONS[reason]` (naming `{winner}` and `{loser}`),
    or `DRAW_REASONS[reason]` for a draw; the reason's own word where the game declares none."""
    return outcome_words(declared_words(game, "WIN_REASONS"), declared_words(game, "DRAW_REASONS"), reason, winner)


def outcome_words(wins: Mapping[str, Any], draws: Mapping[str, Any], reason: str, winner: str | None) -> str:
    """`reason_words` from a game's own tables, for its renderer and `str(state)` (#51 item 8: "(hp)" said
    nothing): `wins[reason]` naming `{winner}` and `{loser}`, or `draws[reason]` for a draw (winner None)."""
    text = (wins if winner else draws).get(reason)
    if not isinstance(text, str):
        return reason.replace("_", " ")
    loser = next((seat for seat in PLAYER_NAMES if seat != winner), "")
    return text.format(winner=winner or "", loser=loser)


def reasons_json(game: type[Game]) -> dict[str, dict[str, str]]:
    """Each end reason the game declares -> its words when P1 wins, when P2 wins and for a draw (those it has):
    what the web pages show under a finished game."""
    wins, draws = declared_words(game, "WIN_REASONS"), declared_words(game, "DRAW_REASONS")
    table: dict[str, dict[str, str]] = {}
    for reason in (*wins, *draws):
        seats = {seat: reason_words(game, reason, seat) for seat in PLAYER_NAMES} if reason in wins else {}
        table[reason] = {**seats, **({"draw": reason_words(game, reason, None)} if reason in draws else {})}
    return table
