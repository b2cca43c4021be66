"""The game-agnostic protocol: a Game makes States; agents only ever see InfoSets.

Split as in OpenSpiel: a `Game` holds rules and configuration, a `State` is one position
with its history-free future. Every game stores its cards as small ints in named zones
so that determinization (`sample_world`) is one generic function for all games.
"""

from __future__ import annotations

import random
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from importlib.resources.abc import Traversable
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

from cardlab.core.cardwords import CardWords
from cardlab.core.errors import CardlabError, IllegalActionError
from cardlab.core.events import EventLog
from cardlab.core.players import PLAYER_NAMES as PLAYER_NAMES
from cardlab.core.players import Player as Player
from cardlab.core.players import parse_player as parse_player
from cardlab.core.players import player_name as player_name
from cardlab.core.plugin import Lab, PlainRenderer, Renderer, web_assets
from cardlab.core.profile import GameProfile

if TYPE_CHECKING:
    from cardlab.core.deckspace import DeckSpace
    from cardlab.core.encoding import Encoding
    from cardlab.core.plugin import CompiledSearch, ConfigOption, FastRollout, Kernels, OptionValue
    from cardlab.core.rules import RuleOption

_T = TypeVar("_T")


class Action(Protocol):
    """A game's action value: hashable, with `int()` its id in the game's action space (the RL id, the
    index of `legal_action_mask`) and `str()` round-tripping through `Game.parse_action`. An `IntEnum`
    (a fixed action set) or a `cardlab.core.actions.IndexedAction` (one built at run time) is one."""

    def __int__(self) -> int: ...

    def __hash__(self) -> int: ...


ActionT = TypeVar("ActionT", bound=Action)
"""A game's own action class (`SteppingState`'s parameter)."""

HiddenGroup = list[tuple[str, list[int] | None]]
"""Zones (and slot indices, None for all) whose cards may be re-dealt among each other."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended; `winner` is None only for games that allow draws."""

    winner: Player | None
    reason: str

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)


Policy = Callable[["State", random.Random], Action]
"""A fast policy (state, rng) -> action: a heuristic, or a rollout policy of a search."""

Evaluator = Callable[["State", Player], float]
"""(state, player) -> the player's estimated chance of winning, in [0, 1], from what that player may
know: where a search stops its rollout before the game's end."""


def _checked(value: object, kind: type[_T], where: str) -> _T:
    """`value`, found by convention in a game's package (a module, a constant, what a hook returned), if it
    is the `kind` the hook promises; a TypeError naming `where` otherwise, not an error far from the cause."""
    if not isinstance(value, kind):
        raise TypeError(f"{where} is a {type(value).__name__}, not a {kind.__name__}")
    return value


class Game(ABC):
    """Rules plus configuration; creates states and parses the game's text notations.

    The class also declares what every tool needs to know about the game (see
    `cardlab.core.plugin`): nothing outside a game's own package names a game.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    """The game's full title, as reports and the web app show it."""
    fixed_first_player: ClassVar[bool] = True
    """Whether P1 always plays first; where the first player is decided anew each turn, seats are labels only."""
    options: ClassVar[tuple[ConfigOption, ...]] = ()
    """The config options, declared once for the CLI flags, the web form and `from_options`."""
    rule_options: ClassVar[tuple[RuleOption, ...]] = ()
    """The rule variants a designer may pick (`cardlab rules GAME`, `--rule NAME=VALUE`); a config carries
    the chosen values under `rules` (`cardlab.core.rules`)."""
    card_patches: ClassVar[bool] = False
    """Whether cards have stats an experiment may edit (`--patch CARD.FIELD=VALUE`; config `patches`)."""
    credit: ClassVar[str] = ""
    """One line crediting the game or its card set, printed under reports."""
    search_agent: ClassVar[str] = "ismcts:iterations=1000:backend=cpu"
    """The compiled search the play clients offer as the strongest opponent, where the game has one
    (`compiled_search`) and the fast extra is installed: its spec as the game's search plays best."""
    num_actions: int | None = None
    """Size of the fixed action space when the game has one (ids 0..num_actions-1)."""
    max_turns: int | None = None
    """The turn cap: no game of this configuration goes past this turn (`State.turn_number()`), by the rule
    that ends it (a deck that runs out, an engine safeguard); None where the game declares none."""
    max_turn_decisions: ClassVar[int | None] = None
    """At most how many decisions one turn holds (the set-up's decisions count as one more turn)."""

    position_keys: ClassVar[tuple[str, ...]] = ()
    """The top-level fields of this game's position JSON (a scenario may expect any of them)."""

    @classmethod
    @abstractmethod
    def from_config(cls, data: Mapping[str, Any]) -> Game:
        """The game for a config JSON (as found in positions and game records)."""

    @abstractmethod
    def config_json(self) -> dict[str, Any]:
        """This game's configuration as JSON; `from_config` inverts it."""

    @abstractmethod
    def new_state(self, seed: int, *, record_events: bool = True) -> State:
        """A fresh game whose every random choice is drawn from `seed`."""

    @abstractmethod
    def load_position(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from its position JSON (see `State.position`)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Inverse of `str(action)`; raises ValueError on unknown text."""

    def parse_notation(self, text: str) -> State:
        """The state of a one-line position notation (docs/notation.md): what `repr(state)` holds and
        `State.notation()` writes; like `load_position`, the notation's own config wins. A malformed
        notation raises `PositionError` naming the field and the problem."""
        raise CardlabError(f"{self.name} has no position notation; load a position JSON (load_position)")

    # -- what tools need to know about the game (defaults: the game has none of it) ------------

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue], rng: random.Random) -> Game:
        """The game that option values describe (CLI flags, the web form); unset options keep defaults.

        `rng` draws whatever an option leaves to chance (a seat's `random` value).
        """
        given = sorted(name for name, value in options.items() if value is not None)
        if given:
            raise CardlabError(f"{cls.name} has no option {given[0]!r}")
        return cls()

    @classmethod
    def lab(cls) -> Lab | None:
        """The balance lab's matchups, for a game with entrants to balance: by default the `lab` module
        of its package (`matchups(variant)`, and `VARIANT_OPTION` when the game has several variants;
        `ENTRANTS_OPTION` and `own_matchups` when a designer may bring their own entrants)."""
        module = cls._own_module("lab")
        if module is None:
            return None
        options = (getattr(module, name, None) for name in ("VARIANT_OPTION", "ENTRANTS_OPTION", "own_matchups"))
        return Lab(module.matchups, *options)

    @classmethod
    def heuristic(cls) -> Policy | None:
        """The game's documented heuristic policy, reading only what the player to move may know: by
        default `choose` of its package's `heuristic` module."""
        module = cls._own_module("heuristic")
        return None if module is None else cast("Policy", module.choose)

    @classmethod
    def evaluator(cls) -> Evaluator | None:
        """The heuristic's estimate of a position (`Evaluator`), where a search cuts its rollouts short:
        by default `evaluate` of the package's `heuristic` module, if it has one."""
        module = cls._own_module("heuristic")
        return None if module is None else cast("Evaluator | None", getattr(module, "evaluate", None))

    @classmethod
    def fast_rollout(cls) -> FastRollout | None:
        """A compiled whole-game rollout for searches (`rollout=fast`); ImportError without its extra."""
        return None

    @classmethod
    def compiled_search(cls) -> CompiledSearch | None:
        """The compiled information-set search (`backend=cpu`); ImportError without its extra."""
        return None

    @classmethod
    def kernels(cls) -> Kernels | None:
        """The compiled engines playing whole batches (`--engine cpu|gpu`)."""
        return None

    @classmethod
    def has_deck_space(cls) -> bool:
        """Whether `deck_space` has a pool to search (checked without loading any card)."""
        return find_spec(f"{cls._package()}.meta") is not None

    @classmethod
    def deck_space(cls, card_files: Sequence[str] = ()) -> DeckSpace | None:
        """The card pool as `cardlab meta` searches it (`cardlab.core.deckspace`), with the designer's card files:
        by default `deck_space(cls, card_files)` of the package's `meta` module; None for a game without decks."""
        module = cls._own_module("meta")
        if module is None:
            return None
        from cardlab.core.deckspace import DeckSpace

        return _checked(module.deck_space(cls, card_files), DeckSpace, f"{module.__name__}.deck_space")

    @classmethod
    def renderer(cls) -> Renderer:
        """The text renderer of the terminal client and the web app's event lines: the `render`
        module of the game's package, else `PlainRenderer`."""
        module = cls._own_module("render")
        if module is None:
            return PlainRenderer()
        if not isinstance(module, Renderer):  # a protocol: `_checked` takes concrete classes only
            raise TypeError(f"{module.__name__} lacks what a Renderer has (WINDOW_HINTS, render_board, ...)")
        return module

    @classmethod
    def web_assets(cls) -> Mapping[str, Traversable]:
        """Files the web app serves for this game, from its package's `web/` folder: `render.js` (its
        board; a generic one when absent), `style.css` (the board's styles), `rules.html` (its rules page)."""
        return web_assets(cls._package())

    @classmethod
    def profile(cls) -> GameProfile | None:
        """The game's catalog profile (`cardlab games`): `PROFILE` of its package's `profile` module."""
        module = cls._own_module("profile")
        return None if module is None else _checked(module.PROFILE, GameProfile, f"{module.__name__}.PROFILE")

    def max_length(self) -> int | None:
        """At most how many decisions one game of this configuration takes (OpenSpiel's `max_game_length`),
        from the declared turn cap: the set-up and every turn up to `max_turns`, `max_turn_decisions` each.
        None where either is undeclared."""
        if self.max_turns is None or self.max_turn_decisions is None:
            return None
        return (self.max_turns + 1) * self.max_turn_decisions

    def encoding(self) -> Encoding | None:
        """This game's observation tensor for learning agents (`cardlab.core.encoding`): `make_encoding(game)`
        of its package's `encoding` module; it depends on the config (e.g. the card set)."""
        module = self._own_module("encoding")
        if module is None:
            return None
        from cardlab.core.encoding import Encoding  # numpy: loaded for learning agents only

        return _checked(module.make_encoding(self), Encoding, f"{module.__name__}.make_encoding")

    @classmethod
    def _package(cls) -> str:
        return cls.__module__.rpartition(".")[0]

    @classmethod
    def _own_module(cls, name: str) -> ModuleType | None:
        """A module of the game's own package by convention (`render`, `profile`), imported when asked for."""
        qualified = f"{cls._package()}.{name}"
        return import_module(qualified) if find_spec(qualified) is not None else None

    def card_text(self, card: str) -> str | None:
        """Everything printed on the card `card` (an id or name as the game writes it), for people; None
        when the game has no such card. The terminal's `card ID` command shows it: `card_words` laid out."""
        words = self.card_words(card)
        return None if words is None else words.text()

    def card_words(self, card: str) -> CardWords | None:
        """The card `card` (an id or name, any case) in a player's words, the one source of card text for
        every client; None for an unknown card. By default `card_words(game, card)` of the package's
        `words` module."""
        module = self._own_module("words")
        words = None if module is None else module.card_words(self, card)
        return None if words is None else _checked(words, CardWords, "card_words")

    def card_catalog(self) -> tuple[str, ...]:
        """Every card a player of this configuration can meet, each as `card_words` reads it, in the
        game's order: the card list of `/rules/GAME` and `cardlab games`. By default `card_catalog(game)`
        of the package's `words` module; () without one."""
        module = self._own_module("words")
        return () if module is None or not hasattr(module, "card_catalog") else tuple(module.card_catalog(self))

    def glossary(self) -> Mapping[str, str]:
        """Every keyword, skill and key rule of the game -> one or two sentences in player words ending
        with its rule ids: what `help WORD` answers. By default `glossary(game)` of the `words` module."""
        module = self._own_module("words")
        return {} if module is None else cast("Mapping[str, str]", module.glossary(self))

    def how_to_win(self) -> str:
        """How the game is won, in one line for the top of a client; "" when the game does not say.
        By default `how_to_win(game)` of the `words` module."""
        module = self._own_module("words")
        return "" if module is None else str(module.how_to_win(self))

    deck_files: ClassVar[bool] = False
    """Whether players build decks in deck files (`cardlab deck validate`)."""

    @classmethod
    def check_deck_file(cls, path: Path, card_files: Sequence[Path]) -> tuple[str, list[tuple[str, str]]]:
        """A deck file's (description, deck-rule violations as (rule id, reason)); games with `deck_files`."""
        raise CardlabError(f"{cls.name} has no deck files")

    @classmethod
    def check_web_config(cls, config: Mapping[str, Any]) -> None:
        """Refuse (ValueError) a config a browser may not send, e.g. one naming files on the server."""
        return None


class State(ABC):
    """One position. Mutable: `apply` advances it in place; `clone` is cheap."""

    events: EventLog | None
    """Per-player event log, or None when recording was switched off for speed."""

    _applied: int = 0
    """How many actions `apply` has applied to this object: an `InfoSet` that has not built its
    world yet checks it, to refuse describing a position that has moved on. Clones start at 0."""

    @property
    @abstractmethod
    def game(self) -> Game: ...

    @abstractmethod
    def current_player(self) -> Player | None:
        """The player who must choose now, or None once the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Real choices only: forced moves are applied automatically, so len >= 2 or 0."""

    @abstractmethod
    def _apply_legal(self, action: Action) -> None:
        """Apply an action already checked to be legal."""

    @abstractmethod
    def clone(self, *, record_events: bool = False) -> State:
        """An independent copy; the event log is copied only when asked for."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def position(self) -> dict[str, Any]:
        """The full state as JSON-able data; round-trips through `Game.load_position`."""

    @abstractmethod
    def observation(self, player: Player | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator), as JSON-able data; never a hidden card."""

    def notation(self) -> str:
        """The one-line position notation that `Game.parse_notation` reads back (docs/notation.md)."""
        raise CardlabError(f"{self.game.name} has no position notation; see position()")

    def continues_decision(self) -> bool:
        """Whether the player to move is finishing a choice its previous action began (a destination, a
        target, a payment), so that a search takes the two as one decision. False by default."""
        return False

    def open_observation(self) -> dict[str, Any]:
        """The spectator's observation with every hand face up: what a replay shows once the game is over.

        Never shown while the game runs. Games with hidden hands override it; the default is the
        spectator's view, which hides nothing it should not.
        """
        return self.observation(None)

    @abstractmethod
    def card_zones(self) -> Mapping[str, list[int]]:
        """The state's own mutable card lists, by zone name (for determinization)."""

    @abstractmethod
    def hidden_cards(self, player: Player) -> list[HiddenGroup]:
        """The cards `player` cannot identify, as groups whose cards may trade places.

        A group is a list of (zone, indices), indices None meaning the whole zone. Cards move
        only within their group: e.g. one player's deck and hand, never into the other's.
        """

    @abstractmethod
    def _resync(self) -> bool:
        """Recompute the legal actions after a re-deal, changing nothing else.

        A world handed to a player must not keep the true state's legal actions: they can name
        hidden cards (e.g. which suits the player to move holds). Returns False when the deal
        contradicts the position: the player to move would not face a real choice here.
        """

    def forget_unseen(self, player: Player) -> None:
        """Undo what `player` has not seen happen yet: a secret choice the opponent made first.

        Called on a copy before it is re-dealt for `player`. A game with simultaneous secret choices
        asks them one after the other; the world of the second chooser must not depend on the
        first one's answer (not even on how many cards were set aside). Most games have none.
        """
        return None

    def reseed_hidden(self, seed: int) -> None:
        """Replace randomness the state keeps for later (e.g. a future shuffle) by `seed`.

        Such randomness is hidden from both players; worlds made for a player must not keep it.
        Games whose every random choice is made at set-up have nothing to replace.
        """
        return None

    def apply(self, action: Action | str) -> None:
        """Apply a legal action; on anything else raise and leave the state untouched."""
        legal = self.legal_actions()
        if isinstance(action, str):
            try:
                action = self.game.parse_action(action)
            except ValueError as exc:
                raise IllegalActionError(action, legal, str(exc)) from None
        if action not in legal:
            raise IllegalActionError(action, legal, self.why_illegal(action))
        self._applied += 1
        self._apply_legal(action)

    def why_illegal(self, action: Action) -> str:
        """Why `action` (a parsed action that is not legal now) is refused, for the player choosing: a
        rule in their words ("cost 4 > dominance 2 on F1"), or "" when the legal list says it all.
        Games override it; it must read only what the player to move may know."""
        return ""

    def turn_number(self) -> int:
        """The position's turn (its JSON's `turn`); games override it with a cheaper read."""
        return int(self.position()["turn"])

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def returns(self) -> tuple[float, float]:
        outcome = self.outcome()
        return outcome.returns() if outcome else (0.0, 0.0)

    def legal_action_mask(self) -> list[bool]:
        """Boolean mask over the fixed action space (games with integer action ids)."""
        size = self.game.num_actions
        if size is None:
            raise TypeError(f"{self.game.name} has no fixed action space")
        mask = [False] * size
        for action in self.legal_actions():
            mask[int(action)] = True
        return mask

    def infoset(self, player: Player) -> InfoSet:
        """Everything `player` is entitled to, and nothing else, at this position.

        Lazy: no world is built until the agent reads one (see `InfoSet`), so read it before this
        state is advanced; after `apply` an InfoSet that has not built its world raises
        `StaleInfoSetError` instead of describing the new position.
        """
        legal = tuple(self.legal_actions()) if self.current_player() == player else ()
        return InfoSet._lazy(self, player, legal)


class SteppingState(State, Generic[ActionT]):
    """A state that applies automatic steps and single-option decisions itself.

    Subclasses say what is legal at the current point (`_compute_legal`, which may run automatic
    steps on the way) and how one action changes the state (`_do`); this class keeps the state
    resting at real choices only, as every game's forced-window rule asks. `ActionT` is the game's
    action class: what `_compute_legal` offers and `_do` takes.
    """

    _legal: tuple[ActionT, ...]

    @abstractmethod
    def _compute_legal(self) -> tuple[ActionT, ...]: ...

    @abstractmethod
    def _do(self, action: ActionT) -> None: ...

    def legal_actions(self) -> tuple[ActionT, ...]:
        return self._legal

    def _apply_legal(self, action: Action) -> None:
        self._do(cast(ActionT, action))  # `apply` checked that it is one of `self._legal`
        self._advance()

    def _advance(self) -> None:
        """Run automatic steps and single-option decisions until a real choice or the end."""
        while True:
            legal = self._compute_legal()
            if len(legal) != 1:
                self._legal = legal
                return
            self._do(legal[0])


_MAX_DEALS = 256


def _redeal(state: State, player: Player, rng: random.Random | None) -> State:
    """Copy `state`; within each hidden group, pool the cards `player` cannot know and deal them back.

    With no RNG the first deal is sorted, which erases the true arrangement. Deals that would
    leave the player to move without a real choice contradict what `player` sees (the game is
    waiting for a decision), so they are dealt again (rejection sampling; a canonical world uses
    a fixed sequence of shuffles, so it still depends only on what `player` knows).
    """
    for attempt in range(_MAX_DEALS):
        shuffle = rng if rng is not None else (random.Random(attempt) if attempt else None)
        world = _deal(state, player, shuffle)
        world.reseed_hidden(0 if rng is None else rng.getrandbits(63))
        if world._resync():
            return world
    raise RuntimeError(f"no consistent deal found for {player_name(player)} in {_MAX_DEALS} tries")


def _deal(state: State, player: Player, rng: random.Random | None) -> State:
    world = state.clone()
    world.forget_unseen(player)
    zones = world.card_zones()
    for group in world.hidden_cards(player):
        pool: list[int] = []
        for zone, indices in group:
            cards = zones[zone]
            pool.extend(cards if indices is None else [cards[i] for i in indices])
        pool.sort()  # forget the true arrangement before dealing
        if rng is not None:
            rng.shuffle(pool)
        start = 0
        for zone, indices in group:
            cards = zones[zone]
            if indices is None:
                cards[:] = pool[start : start + len(cards)]
                start += len(cards)
            else:
                for index in indices:
                    cards[index] = pool[start]
                    start += 1
    return world


def canonical_world(state: State, player: Player) -> State:
    """A copy with every card unknown to `player` put back in sorted order.

    It depends only on what `player` knows, so holding it leaks nothing.
    """
    return _redeal(state, player, None)


def sample_world(state: State, player: Player, rng: random.Random) -> State:
    """A full state consistent with all `player` knows: unknown cards re-dealt at random."""
    return _redeal(state, player, rng)


class StaleInfoSetError(CardlabError, RuntimeError):
    """An InfoSet asked for a world or an observation after its state had moved on (or was gone)."""


class InfoSet:
    """The view an agent receives: observation, legal actions and world sampling.

    Lazy, so that an agent that never looks (a random player) costs nothing: `State.infoset` keeps
    only the legal actions, the game and a private weak reference to the true state with its
    action count (`State._applied`). The canonical world is built from that state the first time
    `canonical_world`, `sample_world` or `_world` is used, and from then on the reference is
    dropped; `observation` is read from the true state, or from the world once there is one (the
    same value: a game's observation never shows `player` a card it cannot know).

    Snapshot: an InfoSet describes the position at `State.infoset` time. Reading a world or the
    observation for the first time after the state was advanced (`apply`), or dropped, raises
    `StaleInfoSetError` rather than describing another position: agents read during `act`, which
    every caller (`play_match`, the web manager, the terminal client) runs before applying the
    answer. What was read before stays valid for good (the world is the agent's own copy).

    No leak: the reference is weak (the garbage collector's view of an InfoSet does not reach
    the true state) and name-mangled; nothing public leads to it, and the worlds depend only on
    what `player` knows.
    """

    __slots__ = ("player", "legal_actions", "_game", "__source", "__applied", "__world", "__observation", "__dict__")

    player: Player
    legal_actions: tuple[Action, ...]

    def __init__(self, player: Player, legal_actions: tuple[Action, ...], world: State) -> None:
        """An InfoSet over a world already built (a canonical world, or any world as leak-free)."""
        self.player = player
        self.legal_actions = legal_actions
        self._game = world.game
        self.__source: weakref.ref[State] | None = None
        self.__applied = 0
        self.__world: State | None = world
        self.__observation: dict[str, Any] | None = None

    @classmethod
    def _lazy(cls, state: State, player: Player, legal_actions: tuple[Action, ...]) -> InfoSet:
        """The InfoSet of `state` for `player`, building nothing yet (`State.infoset`)."""
        self = cls.__new__(cls)
        self.player = player
        self.legal_actions = legal_actions
        self._game = state.game
        self.__source = weakref.ref(state)
        self.__applied = state._applied
        self.__world = None
        self.__observation = None
        return self

    def __repr__(self) -> str:
        built = "world built" if self.__world is not None else "lazy"
        return f"<InfoSet {self._game.name} {player_name(self.player)}, {len(self.legal_actions)} legal, {built}>"

    def __reduce__(self) -> tuple[type[InfoSet], tuple[Player, tuple[Action, ...], State]]:
        """Pickled with its world (built now if need be), never with the true state."""
        return (InfoSet, (self.player, self.legal_actions, self._world))

    def __state(self, wanted: str) -> State:
        """The true state, still at the position this InfoSet describes; else StaleInfoSetError."""
        source = self.__source
        state = None if source is None else source()
        if state is None:
            raise StaleInfoSetError(
                f"InfoSet for {player_name(self.player)}: {wanted} was first asked for after the state was "
                "dropped; keep the state alive until the agent has acted"
            )
        if state._applied != self.__applied:
            raise StaleInfoSetError(
                f"InfoSet for {player_name(self.player)}: {wanted} was first asked for after the state had "
                f"moved on ({state._applied - self.__applied} action(s) applied since `State.infoset`); "
                "read it while the agent acts, before the state is advanced"
            )
        return state

    @property
    def _world(self) -> State:
        """The canonical world, built on first use; the reference to the true state is then dropped."""
        world = self.__world
        if world is None:
            world = self.__world = canonical_world(self.__state("the canonical world"), self.player)
            self.__source = None
        return world

    @property
    def observation(self) -> dict[str, Any]:
        """What `player` sees at this position (computed once)."""
        observation = self.__observation
        if observation is None:
            world = self.__world
            source = world if world is not None else self.__state("the observation")
            observation = self.__observation = source.observation(self.player)
        return observation

    @property
    def game(self) -> Game:
        return self._game

    @property
    def canonical_world(self) -> State:
        """A full state in which only what this player knows is real (unknown cards sorted).

        Lets policies read the game through the State API at no risk of a leak. Read-only:
        clone it before applying actions. Built on first use (see the class docstring).
        """
        return self._world

    def sample_world(self, rng: random.Random) -> State:
        """A full state drawn uniformly from the deals consistent with this view.

        Re-dealt from the canonical world (built on first use), so a given `rng` draws the same
        world whatever the true deal, and the same one as before InfoSets were lazy.
        """
        return sample_world(self._world, self.player, rng)
