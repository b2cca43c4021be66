"""Every cardlab game as an OpenSpiel game (`pip install -e '.[openspiel]'`); `cardlab.envs.openspiel` is
the public module (it adds cardlab agents as OpenSpiel bots and `save_policy`).

    import pyspiel, cardlab.envs.openspiel       # importing registers python_cardlab_<game> for every game
    game = pyspiel.load_game(f"python_cardlab_{GAME}(rule_first_draw=no)")   # GAME: a name `cardlab games` lists
    state = game.new_initial_state()             # a chance node: which deal
    state.apply_action(7)                        # deal 7 of `deals`; then the players' decisions
    state.information_state_tensor(0)            # P1's encoding (`Game.encoding()`): only what P1 may know

Built from what every game declares (docs/openspiel.md): its parameters are the game's options, as the
CLI flags write them (a per-seat option is two, `decks_p1` and `decks_p2`; a repeatable one is one string,
its values joined by `os.pathsep`), its rule options (`rule_<name>`), and the adapter's own `deals` and
`seed`; `max_game_length` is the game's own bound (`Game.max_length()`, from its turn cap). The deal is one
chance node over `deals` seeds (deal i plays `derive_seed(seed, "openspiel-deal", i)`): the game's own
set-up draws everything from its seed, so no card is named here and the chance node stays small for
OpenSpiel's samplers. Actions are the game's fixed action space; the information state and the
observation are the seat's observation (canonical JSON, and its tensor), which is already everything the
seat knows (cardlab's observations are its information sets), so the two coincide;
`resample_from_infostate` deals a world with `InfoSet.sample_world`.

It stands below the agents (docs/architecture.md): the `openspiel:bot` agent searches through it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from cardlab.adapters.common import SEATS, legal_by_id, make_game
from cardlab.core.encoding import Encoding, information_state_string
from cardlab.core.errors import CardlabError, IllegalActionError
from cardlab.core.game import Game, State
from cardlab.core.rng import derive_seed, make_rng
from cardlab.core.rules import with_rules
from cardlab.games import game_class, game_names, load_position

PREFIX = "python_cardlab_"
ADAPTER_PARAMETERS: dict[str, int] = {"deals": 4096, "seed": 0}
"""The adapter's own parameters: how many deals the chance node offers, and the seed they derive from (it also
draws a seat an option leaves to chance)."""

ParamValue = str | int


def short_name(game: str) -> str:
    """The OpenSpiel name of a cardlab game: `python_cardlab_<game>`."""
    return PREFIX + game


def _seat_names(option: str) -> tuple[str, str]:
    return (f"{option}_{SEATS[0].lower()}", f"{option}_{SEATS[1].lower()}")


def _is_number(text: str) -> bool:
    """Whether OpenSpiel reads `text` in a game string as a number or a bool rather than a string."""
    return text in ("True", "true", "False", "false") or (bool(text) and not text.strip("+-0123456789."))


def _rule_default(values: tuple[str, ...]) -> ParamValue:
    """A rule parameter's default: an int where every value is one, else a string, a number in it written
    `#N` (OpenSpiel reads a bare number in a game string as an int, which a string parameter refuses)."""
    if all(_is_number(value) and value.lstrip("+-").isdigit() for value in values):
        return int(values[0])
    return f"#{values[0]}" if _is_number(values[0]) else values[0]


def _param_text(value: Any) -> str:
    """A parameter's value as the game's option or rule writes it (`#N` unescaped)."""
    text = str(value)
    return text[1:] if text.startswith("#") else text


def parameters(game: str) -> dict[str, ParamValue]:
    """Every parameter of the OpenSpiel game with its default: "" for an option means the game's default."""
    cls = game_class(game)
    spec: dict[str, ParamValue] = dict(ADAPTER_PARAMETERS)
    names: list[tuple[str, ParamValue]] = []
    for option in cls.options:
        names.extend((name, "") for name in (_seat_names(option.name) if option.per_seat else (option.name,)))
    names.extend((f"rule_{rule.name}", _rule_default(rule.values)) for rule in cls.rule_options)
    for name, default in names:
        if name in spec:
            raise CardlabError(f"{game}: option {name!r} collides with another OpenSpiel parameter")
        spec[name] = default
    return spec


def cardlab_game(game: str, params: Mapping[str, Any]) -> Game:
    """The cardlab game that OpenSpiel parameters describe; a CardlabError naming a bad one."""
    cls = game_class(game)
    spec = parameters(game)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise CardlabError(f"{short_name(game)}: unknown parameter {unknown[0]!r}; parameters: {', '.join(spec)}")
    given = {**spec, **params}
    values: dict[str, Any] = {}
    for option in cls.options:
        if option.per_seat:
            seats = tuple(_param_text(given[name]) for name in _seat_names(option.name))
            values[option.name] = seats if any(seats) else None
        elif option.repeatable:
            files = [part for part in _param_text(given[option.name]).split(os.pathsep) if part]
            values[option.name] = tuple(files) if files else None
        else:
            values[option.name] = _param_text(given[option.name]) or None
    rules = {rule.name: _param_text(given[f"rule_{rule.name}"]) for rule in cls.rule_options}
    try:
        built = cls.from_options(values, make_rng(derive_seed(int(given["seed"]), "options")))
        return cls.from_config(with_rules(built.config_json(), rules))
    except ValueError as exc:  # the game's own message names the option or rule
        raise CardlabError(f"{short_name(game)}: {exc}") from None


def _game_type(game: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"cardlab {game_class(game).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


class OpenSpielGame(pyspiel.Game):
    """One cardlab game and configuration as an OpenSpiel game."""

    game_name: str
    """The cardlab game: each registered subclass names one (`register_all`)."""

    def __init__(self, params: Mapping[str, Any] | None = None, *, built: Game | None = None) -> None:
        """`built`: play this cardlab game instead of one the parameters describe (an agent's search: its
        parameters are then the defaults and say nothing of the game)."""
        game = self.game_name
        given = {**parameters(game), **(params or {})}
        config = (built or cardlab_game(game, given)).config_json()
        cardlab, encoding, actions = make_game(game, config)
        deals, max_length = int(given["deals"]), cardlab.max_length()
        if deals < 1:
            raise CardlabError(f"{short_name(game)}: deals must be at least 1")
        if max_length is None:
            raise CardlabError(f"{game} declares no turn cap (Game.max_turns, max_turn_decisions) for max_game_length")
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=deals,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_length,
        )
        super().__init__(_game_type(game), info, given)
        self.cardlab, self.encoding = cardlab, encoding
        self.deals, self.seed, self.max_length = deals, int(given["seed"]), max_length
        self.max_turns = cardlab.max_turns

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self)

    def state_of(self, world: State) -> OpenSpielState:
        """An OpenSpiel state at a cardlab position of this game (no history: it was not dealt here)."""
        state = OpenSpielState(self)
        state._deal = _Deal(world)
        return state

    def deal_seed(self, deal: int) -> int:
        """The cardlab seed of chance outcome `deal`."""
        return derive_seed(self.seed, "openspiel-deal", deal)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        if params:
            raise CardlabError(f"{self.get_type().short_name}: observers take no parameters, got {dict(params)}")
        return Observer(self.encoding, iig_obs_type)


class _Deal:
    """The dealt cardlab state, held so that OpenSpiel's `clone` (a deepcopy of the state's attributes)
    copies it with the game's cheap `clone` and pickles it as its position JSON (`serialize`)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return _Deal(self.state.clone())

    def __reduce__(self) -> tuple[Callable[[dict[str, Any]], _Deal], tuple[dict[str, Any]]]:
        return (_load_deal, (self.state.position(),))


def _load_deal(position: dict[str, Any]) -> _Deal:
    return _Deal(load_position(position))


class OpenSpielState(pyspiel.State):
    """A chance node (which deal) until dealt, then the cardlab state's decisions."""

    def __init__(self, game: OpenSpielGame) -> None:
        super().__init__(game)
        self._deal: _Deal | None = None

    @property
    def cardlab(self) -> State | None:
        """The cardlab state (None before the deal)."""
        return None if self._deal is None else self._deal.state

    def current_player(self) -> int:
        if self._deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = self._deal.state.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        assert self._deal is not None
        return sorted(int(action) for action in self._deal.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.get_game().deals
        return [(deal, 1.0 / deals) for deal in range(deals)]

    def _apply_action(self, action: int) -> None:
        game: OpenSpielGame = self.get_game()
        if self._deal is None:
            if not 0 <= action < game.deals:
                raise CardlabError(f"deal {action} is not one of the {game.deals} deals")
            self._deal = _Deal(game.cardlab.new_state(game.deal_seed(action), record_events=False))
            return
        state = self._deal.state
        chosen = legal_by_id(state, action)
        if chosen is None:
            raise IllegalActionError(action, state.legal_actions(), "not a legal action id")
        if self.move_number() > game.max_length:  # the deal is move 0
            raise CardlabError(f"{game.game_name} ran past its declared max_game_length={game.max_length}")
        state.apply(chosen)
        if game.max_turns is not None and state.turn_number() > game.max_turns:
            raise CardlabError(f"{game.game_name} ran past its declared turn cap (max_turns={game.max_turns})")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        chosen = None if self._deal is None else legal_by_id(self._deal.state, action)
        return f"action {action}" if chosen is None else str(chosen)

    def is_terminal(self) -> bool:
        return self._deal is not None and self._deal.state.outcome() is not None

    def returns(self) -> list[float]:
        return [0.0, 0.0] if self._deal is None else list(self._deal.state.returns())

    def resample_from_infostate(self, player: int, probability_sampler: Callable[[], float]) -> OpenSpielState:
        """A state drawn from `player`'s information set (`InfoSet.sample_world`), seeded by the sampler."""
        if self._deal is None:
            return self.clone()
        rng = make_rng(int(probability_sampler() * 2**53))
        return self.get_game().state_of(self._deal.state.infoset(player).sample_world(rng))

    def __str__(self) -> str:
        return "(not dealt yet)" if self._deal is None else str(self._deal.state)


class Observer:
    """OpenSpiel's Python observer over the game's encoding: `tensor`, its named segments in `dict`, and the
    canonical JSON of the observation as the string. Always one seat's view, public and private information
    together, as the encodings are: any other observation type is refused."""

    def __init__(self, encoding: Encoding, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise CardlabError("cardlab observations are one seat's view: public_info=True, private_info=SINGLE_PLAYER")
        self.encoding = encoding
        self.tensor: npt.NDArray[np.float32] = np.zeros(encoding.size, np.float32)
        self.dict = {
            segment.name: self.tensor[encoding.offsets[segment.name] : encoding.offsets[segment.name] + segment.size]
            for segment in encoding.segments
        }

    def set_from(self, state: OpenSpielState, player: int) -> None:
        world = state.cardlab
        self.tensor[:] = 0.0 if world is None else self.encoding.encode(world.observation(player))

    def string_from(self, state: OpenSpielState, player: int) -> str:
        world = state.cardlab
        return "" if world is None else information_state_string(world.observation(player))


_CLASSES: dict[str, type[OpenSpielGame]] = {}
_GAMES: dict[tuple[str, str], OpenSpielGame] = {}


def game_type_class(game: str) -> type[OpenSpielGame]:
    """The OpenSpielGame subclass of one cardlab game: what `register_all` registers.

    A class per game rather than a closure, as OpenSpiel's own Python games register: OpenSpiel keeps the
    factory until the process ends, and a closure freed after the interpreter has gone aborts the exit."""
    if game not in _CLASSES:
        _CLASSES[game] = type(f"OpenSpiel_{game}", (OpenSpielGame,), {"game_name": game})
    return _CLASSES[game]


def openspiel_state(world: State) -> OpenSpielState:
    """An OpenSpiel state at a cardlab position, e.g. an InfoSet's canonical world: what an OpenSpiel bot
    playing as a cardlab agent searches from (it holds only what the seat knows)."""
    game = world.game
    key = (game.name, information_state_string(game.config_json()))
    if key not in _GAMES:  # one OpenSpiel game per cardlab config
        _GAMES[key] = game_type_class(game.name)(built=game)
    return _GAMES[key].state_of(world.clone())


def register_all() -> None:
    """Register `python_cardlab_<game>` for every game in the registry (again after registering your own)."""
    registered = set(pyspiel.registered_names())
    for name in game_names():
        if short_name(name) not in registered:
            pyspiel.register_game(_game_type(name), game_type_class(name))


register_all()
