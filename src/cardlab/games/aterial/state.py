"""The Soukoku no Aterial rules engine (A6-A17) on the core State protocol.

Every physical card is an instance id; per-instance lists hold unit state (ready, damage,
moves, once-per-turn flags, modifiers until end of turn), reset whenever a card leaves the
field (A2.3). Zones hold instance ids; a deck's top card is its last element. After every
decision the state advances through automatic steps and single-choice windows (A7.4) until a
real choice, or the end of the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from cardlab.core.actions import IndexedAction
from cardlab.core.errors import IllegalActionError
from cardlab.core.events import Event, EventLog
from cardlab.core.game import Action, HiddenGroup, Outcome, Player, SteppingState, player_name
from cardlab.core.rng import derive_seed
from cardlab.games.aterial.board import (
    ATTACK_SQUARES,
    DIAGONAL,
    ORTHOGONAL,
    SQUARE_NAMES,
    column_of,
)
from cardlab.games.aterial.cards import CardDef

if TYPE_CHECKING:
    from cardlab.games.aterial.game import Aterial

EMPTY = -1
HAND_LIMIT = 6  # A13.2 (the default of rule option hand_limit)
OPENING_HAND = 5  # A6.3

POSITION_KEYS = ("game", "config", "turn", "active", "first", "window", "chooser", "pending", "triggers",
                 "shuffle_seed", "players", "winner", "draw", "reason")  # fmt: skip
"""The top-level fields of a position JSON (`position()`; `Aterial.position_keys`, read by `load_position`)."""

# Windows (decision points and resting points of the position JSON).
WINDOWS = (
    "mulligan",
    "move",
    "move_to",
    "action",
    "deploy_to",
    "ability_target",
    "trigger_target",
    "attack",
    "attack_target",
    "block",
    "discard",
    "over",
)
(
    W_MULLIGAN,
    W_MOVE,
    W_MOVE_TO,
    W_ACTION,
    W_DEPLOY_TO,
    W_ABILITY_TARGET,
    W_TRIGGER_TARGET,
    W_ATTACK,
    W_ATTACK_TARGET,
    W_BLOCK,
    W_DISCARD,
    W_OVER,
) = range(len(WINDOWS))
_CONTINUATIONS = frozenset({W_MOVE_TO, W_DEPLOY_TO, W_ABILITY_TARGET, W_TRIGGER_TARGET, W_ATTACK_TARGET})
"""Windows that finish the choice the active player's previous action began (`continues_decision`)."""


class Trigger(NamedTuple):
    """A triggered ability waiting to resolve (A16.3)."""

    controller: Player
    key: str
    amount: int
    source: int
    """The instance whose ability it is."""


class AterialState(SteppingState[IndexedAction]):
    """A position of Aterial; see `cardlab.games.aterial.position` for its JSON form."""

    __slots__ = (
        "_game",
        "cards",
        "owner",
        "keys",
        "amounts",
        "move_limit",
        "leader",
        "decks",
        "hands",
        "discards",
        "removed",
        "field",
        "square_of",
        "ready",
        "damage",
        "moves",
        "devoured",
        "temp_attack",
        "lp",
        "turn",
        "active",
        "first",
        "window",
        "chooser",
        "selected",
        "selected_key",
        "pending_amount",
        "attacker",
        "target",
        "side",
        "triggers",
        "winner",
        "draw",
        "reason",
        "lost",
        "shuffle_seed",
        "_legal",
        "events",
    )

    def __init__(self, game: Aterial, cards: tuple[CardDef, ...], owner: tuple[int, ...], record_events: bool) -> None:
        self._game = game
        self.cards = cards  # per instance, shared between clones
        self.owner = owner
        # Per instance: ability keys and summed amounts, read on the hot path.
        self.keys: tuple[frozenset[str], ...] = tuple(game.keys[card.id] for card in cards)
        self.amounts: tuple[dict[str, int], ...] = tuple(game.amounts[card.id] for card in cards)
        self.move_limit: tuple[int, ...] = tuple(2 if "nimble" in keys else 1 for keys in self.keys)  # A10.4, A17.12
        n = len(cards)
        self.leader = [EMPTY, EMPTY]
        self.decks: tuple[list[int], list[int]] = ([], [])
        self.hands: tuple[list[int], list[int]] = ([], [])
        self.discards: tuple[list[int], list[int]] = ([], [])
        self.removed: tuple[list[int], list[int]] = ([], [])
        self.field: tuple[list[int], list[int]] = ([EMPTY] * 6, [EMPTY] * 6)
        self.square_of = [EMPTY] * n
        self.ready = [True] * n
        self.damage = [0] * n
        self.moves = [0] * n
        self.devoured = [False] * n
        self.temp_attack = [0] * n
        self.lp = [0, 0]
        self.turn = 0
        self.active: Player = 0
        self.first: Player = 0
        self.window = W_MULLIGAN
        self.chooser: Player = 0  # who decides at the mulligan window
        self.selected = EMPTY  # square or instance picked by the first half of a compound choice
        self.selected_key = ""  # the ability whose target is being chosen
        self.pending_amount = 0  # ... and its amount
        self.attacker = EMPTY
        self.target = EMPTY
        self.side = False
        self.triggers: list[Trigger] = []
        self.winner: Player | None = None
        self.draw = False
        self.reason = ""
        self.lost = [False, False]  # a losing condition met, awaiting the state check (A15.4)
        self.shuffle_seed = 0
        self._legal: tuple[IndexedAction, ...] = ()
        self.events: EventLog | None = EventLog() if record_events else None

    # -- protocol ---------------------------------------------------------------------------

    @property
    def game(self) -> Aterial:
        return self._game

    def current_player(self) -> Player | None:
        window = self.window
        if window == W_OVER:
            return None
        if window == W_MULLIGAN:
            return self.chooser
        if window == W_BLOCK:
            return 1 - self.active
        return self.active

    def outcome(self) -> Outcome | None:
        if self.window != W_OVER:
            return None
        return Outcome(None if self.draw else self.winner, self.reason)

    def clone(self, *, record_events: bool = False) -> AterialState:
        other = AterialState.__new__(AterialState)
        for name in (
            "_game",
            "cards",
            "owner",
            "keys",
            "amounts",
            "move_limit",
            "turn",
            "active",
            "first",
            "window",
            "chooser",
            "selected",
            "selected_key",
            "pending_amount",
            "attacker",
            "target",
            "side",
            "winner",
            "draw",
            "reason",
            "shuffle_seed",
            "_legal",
        ):
            setattr(other, name, getattr(self, name))
        for name in (
            "leader",
            "square_of",
            "ready",
            "damage",
            "moves",
            "devoured",
            "temp_attack",
            "lp",
            "lost",
            "triggers",
        ):
            setattr(other, name, getattr(self, name)[:])
        for name in ("decks", "hands", "discards", "removed", "field"):
            pair = getattr(self, name)
            setattr(other, name, (pair[0][:], pair[1][:]))
        other.events = self.events.copy() if record_events and self.events is not None else None
        return other

    def card_zones(self) -> dict[str, list[int]]:
        zones = {}
        for p, seat in enumerate(("P1", "P2")):
            zones[f"deck:{seat}"] = self.decks[p]
            zones[f"hand:{seat}"] = self.hands[p]
            zones[f"discard:{seat}"] = self.discards[p]
            zones[f"removed:{seat}"] = self.removed[p]
        return zones

    def hidden_cards(self, player: Player) -> list[HiddenGroup]:
        """A18.4: the own deck's order; the opponent's hand and deck order (their own pool).

        A card the opponent has chosen to deploy (window `deploy_to`) is known and stays put.
        """
        me, them = player_name(player), player_name(1 - player)
        hand = self.hands[1 - player]
        if self.window == W_DEPLOY_TO and self.active != player:
            hand_slots: list[int] | None = [i for i, inst in enumerate(hand) if inst != self.selected]
        else:
            hand_slots = None
        return [[(f"deck:{me}", None)], [(f"hand:{them}", hand_slots), (f"deck:{them}", None)]]

    def reseed_hidden(self, seed: int) -> None:
        self.shuffle_seed = seed

    def why_illegal(self, action: Action) -> str:
        from cardlab.games.aterial.explain import why_illegal

        return why_illegal(self, action) if isinstance(action, IndexedAction) else ""

    def turn_number(self) -> int:
        return self.turn

    def position(self) -> dict[str, Any]:
        from cardlab.games.aterial.position import dump_position

        return dump_position(self)

    def observation(self, player: Player | None) -> dict[str, Any]:
        from cardlab.games.aterial.position import dump_observation

        return dump_observation(self, player)

    def open_observation(self) -> dict[str, Any]:
        """The spectator's observation with both hands face up: for replays of finished games."""
        from cardlab.games.aterial.position import dump_observation

        return dump_observation(self, None, open_hands=True)

    def legal_actions(self) -> tuple[IndexedAction, ...]:
        return self._legal

    def continues_decision(self) -> bool:
        """A square after MOVE or DEPLOY, a target after ATTACK, an ability's or trigger's target."""
        return self.window in _CONTINUATIONS

    def status(self) -> str:
        """'turn 4, P2 to move (window main)', or once over 'turn 13, over: P1 wins (P2's leader has no LP left)'."""
        to_move = self.current_player()
        if to_move is None:
            from cardlab.core.plugin import outcome_words
            from cardlab.games.aterial.words import DRAW_REASONS, WIN_REASONS

            winner = None if self.winner is None else player_name(self.winner)
            words = outcome_words(WIN_REASONS, DRAW_REASONS, self.reason, winner)
            return f"turn {self.turn}, over: {'draw' if winner is None else f'{winner} wins'} ({words})"
        return f"turn {self.turn}, {player_name(to_move)} to move (window {WINDOWS[self.window]})"

    def notation(self) -> str:
        """The one-line position notation (docs/notation.md); `Aterial.parse_notation` reads it back."""
        from cardlab.games.aterial.notation import dump_notation

        return dump_notation(self)

    def __repr__(self) -> str:
        """`AterialState('<notation>')`: the notation inside reloads the state (`parse_notation`)."""
        return f"AterialState({self.notation()!r})"

    def __str__(self) -> str:
        """The position for people: both 2x3 fields with unit stats, LP and zone sizes, both hands."""
        from cardlab.games.aterial.render import board_text

        return board_text(self.open_observation())

    def concede(self, player: Player) -> None:
        """A15.3: `player` concedes and loses at once (never offered as a legal action, R-A1)."""
        if self.window == W_OVER:
            raise IllegalActionError("CONCEDE", (), "the game is over")
        if self.events is not None:
            self._log("concede", player=player_name(player))
        self._finish(1 - player, "concede")
        self._legal = ()

    # -- effective values (A4.6, A16.2) -----------------------------------------------------

    def _units(self, player: Player) -> list[int]:
        return [inst for inst in self.field[player] if inst != EMPTY]

    def _aura_bonus(self, inst: int) -> tuple[int, int]:
        """A17.9: (attack, HP) given to a subordinate by the auras of other friendly units."""
        card = self.cards[inst]
        attack = hp = 0
        for other in self.field[self.owner[inst]]:
            if other in (EMPTY, inst):
                continue
            for aura in self._game.auras[self.cards[other].id]:
                if aura.race == "any" or aura.race in card.races:
                    attack += aura.attack
                    hp += aura.hp
        return attack, hp

    def attack_value(self, inst: int, side_attack: bool = False) -> int:
        """Effective attack: printed + auras + kinship + until-end-of-turn + flank (side attacks)."""
        card = self.cards[inst]
        value = card.attack + self.temp_attack[inst]
        if card.type == "subordinate":
            value += self._aura_bonus(inst)[0]
        kinships = self._game.kinships[card.id]
        if kinships:
            field = self.field[self.owner[inst]]
            square = self.square_of[inst]
            for kinship in kinships:  # A17.8: another friendly unit of that race orthogonally adjacent
                if any(field[n] != EMPTY and kinship.race in self.cards[field[n]].races for n in ORTHOGONAL[square]):
                    value += kinship.amount
        if side_attack:
            value += self.amounts[inst].get("flank", 0)  # A17.6
        return max(0, value)

    def hp_value(self, inst: int) -> int:
        """Effective HP of a subordinate: printed + aura HP (A4.6)."""
        return self.cards[inst].hp + self._aura_bonus(inst)[1]

    def supply(self, player: Player, square: int) -> int:
        """A11.2: dominance supplied to a square by orthogonal neighbours (diagonal with wide_reach).

        Rule leader_supplies=no: the leader supplies nothing."""
        field = self.field[player]
        cards = self.cards
        table = self._game.dominance
        silent = EMPTY if self._game.flags.leader_supplies else self.leader[player]
        total = 0
        for n in ORTHOGONAL[square]:
            inst = field[n]
            if inst != EMPTY and inst != silent:
                dominance, rear_support, _ = table[cards[inst].id]
                total += dominance + rear_support if n >= 3 else dominance
        for n in DIAGONAL[square]:
            inst = field[n]
            if inst != EMPTY and inst != silent:
                dominance, rear_support, wide_reach = table[cards[inst].id]
                if wide_reach:
                    total += dominance + rear_support if n >= 3 else dominance
        return total

    def supply_needed(self, card: CardDef) -> int:
        """A11.3, A11.7: the supply a square needs for `card`: its cost (at least 1 under rule zero_cost=supplied)."""
        return max(card.cost, self._game.flags.min_supply)

    # -- advancing --------------------------------------------------------------------------

    def _resync(self) -> bool:
        if self.window == W_OVER:
            return True
        self._legal = self._compute_legal()  # pure: automatic steps run only inside actions
        return len(self._legal) >= 2

    def _log(
        self, kind: str, secret: dict[str, Any] | None = None, secret_to: Player | None = None, **public: Any
    ) -> None:
        """Record an event; callers check `self.events` first so that no text is built when off."""
        assert self.events is not None
        self.events.append(Event(kind, public, secret, secret_to))

    def _compute_legal(self) -> tuple[IndexedAction, ...]:
        return _OPTIONS[self.window](self)

    # -- legal choices per window -------------------------------------------------------------

    def _no_options(self) -> tuple[IndexedAction, ...]:
        return ()  # the game is over

    def _mulligan_options(self) -> tuple[IndexedAction, ...]:
        return (self._game.actions.keep, self._game.actions.mulligan)

    def _attack_window_options(self) -> tuple[IndexedAction, ...]:
        if self.turn == 1:  # A12.1: the first player's first turn has no attack phase
            return (self._game.actions.end_attack,)
        return self._attack_options()

    def _move_to_options(self) -> tuple[IndexedAction, ...]:
        to = self._game.actions.to
        return tuple(to[sq] for sq in self._move_destinations(self.active, self.selected))

    def _deploy_to_options(self) -> tuple[IndexedAction, ...]:
        to = self._game.actions.to
        return tuple(to[sq] for sq in self._deploy_squares(self.active, self.cards[self.selected]))

    def _attack_target_options(self) -> tuple[IndexedAction, ...]:
        target = self._game.actions.target[1 - self.active]
        return tuple(target[sq] for sq in self.attack_targets(self.selected)[0])

    def _target_options(self) -> tuple[IndexedAction, ...]:
        me = self.active
        seat = me if self.selected_key == "hand_rally" else 1 - me
        target = self._game.actions.target[seat]
        return tuple(target[sq] for sq in self._ability_targets(self.selected_key, me))

    def _block_options(self) -> tuple[IndexedAction, ...]:
        return (self._game.actions.block, self._game.actions.no_block)

    def _discard_options(self) -> tuple[IndexedAction, ...]:
        discard = self._game.actions.discard
        return tuple(discard[card_id] for card_id in sorted({self.cards[i].id for i in self.hands[self.active]}))

    # -- legal-choice helpers ---------------------------------------------------------------

    def _move_destinations(self, player: Player, square: int) -> list[int]:
        """A10.2-A10.3: orthogonal, empty, or (for the leader) holding a friendly subordinate."""
        field = self.field[player]
        inst = field[square]
        if inst == EMPTY or self.moves[inst] >= self.move_limit[inst]:
            return []
        is_leader = inst == self.leader[player]
        return [n for n in ORTHOGONAL[square] if field[n] == EMPTY or is_leader]

    def _move_options(self) -> tuple[IndexedAction, ...]:
        """A10.1: `MOVE sq` for every unit with a move left and somewhere to go, and END_MOVE."""
        return (*self._unit_moves(), self._game.actions.end_move)

    def _unit_moves(self) -> list[IndexedAction]:
        """`MOVE sq` for every unit of the active player with a move left and somewhere to go (A10.2-A10.4)."""
        acts = self._game.actions
        me = self.active
        field = self.field[me]
        leader = self.leader[me]
        moves, move_limit = self.moves, self.move_limit
        options = []
        for square, inst in enumerate(field):
            if inst == EMPTY or moves[inst] >= move_limit[inst]:
                continue
            if inst == leader or EMPTY in [field[n] for n in ORTHOGONAL[square]]:
                options.append(acts.move[square])  # the leader can always step (onto a subordinate if need be)
        return options

    def _attack_options(self) -> tuple[IndexedAction, ...]:
        """A12.3-A12.4: `ATTACK sq` for every eligible unit with a legal target, and END_ATTACK."""
        acts = self._game.actions
        me = self.active
        defender = self.field[1 - me]
        row = self._engaged_row(1 - me)
        options = []
        for square in range(6):
            if not self.can_attack(square):
                continue
            facing, diagonals = ATTACK_SQUARES[square % 3][row]
            if defender[facing] != EMPTY or any(defender[sq] != EMPTY for sq in diagonals):
                options.append(acts.attack[square])
        options.append(acts.end_attack)
        return tuple(options)

    def can_attack(self, square: int) -> bool:
        """A12.3: the active player's unit on `square` is an eligible attacker: ready, without
        `cannot_attack`, in the front row or `ranged`. Rule engaged_row=both: any unit in the back row
        while its own front row is empty (A12.4); rule leader_attacks=no: never the leader (A12.10)."""
        me = self.active
        field = self.field[me]
        inst = field[square]
        if inst == EMPTY or not self.ready[inst]:
            return False
        keys = self.keys[inst]
        if "cannot_attack" in keys:
            return False
        flags = self._game.flags
        if not flags.leader_attacks and inst == self.leader[me]:
            return False
        if square >= 3 and "ranged" not in keys:
            return flags.back_row_attacks and field[0] == EMPTY and field[1] == EMPTY and field[2] == EMPTY
        return True

    def _deploy_squares(self, player: Player, card: CardDef) -> list[int]:
        """A11.3: empty squares whose supply covers the card's cost (A11.7: at least 1 under zero_cost=supplied)."""
        field = self.field[player]
        needed = self.supply_needed(card)
        return [sq for sq in range(6) if field[sq] == EMPTY and self.supply(player, sq) >= needed]

    def _engaged_row(self, defender: Player) -> int:
        """A12.4: the defender's front row if it holds a unit, else the back row."""
        field = self.field[defender]
        return 0 if field[0] != EMPTY or field[1] != EMPTY or field[2] != EMPTY else 1  # F0 F1 F2

    def attack_targets(self, square: int) -> tuple[list[int], int]:
        """A12.3-A12.4: the enemy squares the active player's unit on `square` may attack, and its facing square.

        Public information only (fields, ready states, abilities): the observation shows the same
        squares for each unit as `attack_targets`. ([], EMPTY) when no unit stands there or it is not
        an eligible attacker (`can_attack`: acted, `cannot_attack`, back row without `ranged`). A target on the
        facing square is a front attack, any other a side attack (A12.4 step 4). The phase is not
        checked: on turn 1 there is no attack phase at all (A12.1).
        """
        me = self.active
        if not self.can_attack(square):
            return [], EMPTY
        defender = self.field[1 - me]
        facing, diagonals = ATTACK_SQUARES[column_of(square)][self._engaged_row(1 - me)]
        return [sq for sq in (facing, *diagonals) if defender[sq] != EMPTY], facing

    def _ability_targets(self, key: str, player: Player) -> list[int]:
        """Squares an ability may target: friendly units (rally) or enemy subordinates."""
        if key == "hand_rally":
            return [sq for sq in range(6) if self.field[player][sq] != EMPTY]
        enemy = 1 - player
        return [sq for sq in range(6) if self.field[enemy][sq] not in (EMPTY, self.leader[enemy])]

    def _action_options(self) -> tuple[IndexedAction, ...]:
        """A11.1: deployments, activated and hand abilities with their requirements met, END_ACTION."""
        game = self._game
        acts = game.actions
        me = self.active
        cards = self.cards
        hand_cards = {cards[inst].id: cards[inst] for inst in self.hands[me]}
        hand_ids = sorted(hand_cards)
        field = self.field[me]
        if self.turn == 1 and not game.first_turn_deploy:  # rule first_turn_deploy=second_only (A11.8)
            best_supply = -1
        else:
            best_supply = max([self.supply(me, sq) for sq in range(6) if field[sq] == EMPTY], default=-1)
        options: list[IndexedAction] = [
            acts.deploy[card_id]
            for card_id in hand_ids
            if hand_cards[card_id].type == "subordinate" and self.supply_needed(hand_cards[card_id]) <= best_supply
        ]  # A11.3
        activate = acts.activate
        for sq, inst in enumerate(field):
            if inst != EMPTY:
                for key in game.activated_keys[cards[inst].id]:
                    if self._can_activate(inst, key):
                        options.append(activate[(sq, key)])
        for card_id in hand_ids:
            options.extend(game.hand_actions[card_id])  # a friendly unit (the leader) always exists
        if game.flags.action_moves:  # rule deployed_move=yes: moves in the action phase (A10.8)
            options.extend(self._unit_moves())
        options.append(acts.end_action)
        return tuple(options)

    def _can_activate(self, inst: int, key: str) -> bool:
        """A16.4: tap abilities need a ready unit; devour once per turn with a subordinate in discard."""
        me = self.owner[inst]
        if key == "devour":
            return not self.devoured[inst] and bool(self.discards[me])
        if not self.ready[inst]:
            return False
        return key == "tap_heal" or bool(self._ability_targets("tap_snipe", me))

    # -- zone moves -------------------------------------------------------------------------

    def _draw(self, player: Player, count: int = 1) -> None:
        """A9 / A16.8: a required draw from an empty deck loses (A15.2)."""
        for _ in range(count):
            deck = self.decks[player]
            if not deck:
                self.lost[player] = True
                return
            inst = deck.pop()
            self.hands[player].append(inst)
            if self.events is not None:
                self._log("draw", {"card": self.cards[inst].id}, player, player=player_name(player))

    def _leave_field(self, inst: int) -> None:
        """A2.3: a card leaving the field loses damage, state and modifiers."""
        player = self.owner[inst]
        self.field[player][self.square_of[inst]] = EMPTY
        self.square_of[inst] = EMPTY
        self.ready[inst] = True
        self.damage[inst] = 0
        self.moves[inst] = 0
        self.devoured[inst] = False
        self.temp_attack[inst] = 0

    def _heal(self, player: Player, amount: int) -> None:
        """A14.4: LP gains never exceed the leader's starting LP (uncapped under rule heal_cap=none)."""
        if self._game.heal_capped:
            self.lp[player] = min(self.cards[self.leader[player]].lp, self.lp[player] + amount)
        else:
            self.lp[player] += amount

    def _damage_event(self, player: Player, inst: int, hit: int, dealt: int, cause: str, back: int = 0) -> None:
        """Log damage as a player sees it: the unit, its square, armor's share, the HP left (A14.2, A14.3);
        for an attack, what its target dealt back (0 unless a rule says otherwise, A12.7)."""
        self._log("damage", player=player_name(player), card=self.cards[inst].id, amount=dealt, cause=cause,
                  square=SQUARE_NAMES[self.square_of[inst]], armor=hit - dealt,
                  left=self.hp_value(inst) - self.damage[inst], back=back)  # fmt: skip

    def _deal_damage(self, inst: int, amount: int) -> int:
        """A14.2: armor reduces each damage event (A17.4); returns the damage dealt."""
        dealt = max(0, amount - self.amounts[inst].get("armor", 0))
        self.damage[inst] += dealt
        return dealt

    def _shuffle(self, cards: list[int], label: str) -> None:
        """Shuffle from the state's hidden seed; sorting first makes the result depend on card ids only."""
        cards.sort(key=lambda inst: (self.cards[inst].id, inst))
        random.Random(derive_seed(self.shuffle_seed, label, self.turn)).shuffle(cards)

    # -- state check and triggers (A15.4, A16.3) --------------------------------------------

    def _state_check(self) -> bool:
        """Destroy, queue farewells, check losses; True if the game ended."""
        damage = self.damage
        while True:
            doomed = [
                inst
                for inst in (*self.field[0], *self.field[1])
                if inst != EMPTY and damage[inst] and damage[inst] >= self.hp_value(inst)
            ]
            if not doomed:
                break
            for inst in doomed:  # simultaneous (A15.4 step 1)
                player = self.owner[inst]
                self._leave_field(inst)
                self.discards[player].append(inst)
                if self.events is not None:
                    self._log("destroyed", player=player_name(player), card=self.cards[inst].id)
                for farewell in self.cards[inst].abilities_of("farewell_heal"):
                    self.triggers.append(Trigger(player, "farewell_heal", farewell.amount, inst))
        deck_out_empty = self._game.flags.deck_out_empty  # rule deck_out=empty (A15.2)
        for p in (0, 1):
            if self.lp[p] <= 0 or (deck_out_empty and not self.decks[p]):
                self.lost[p] = True
        if self.lost[0] or self.lost[1]:
            if self.lost[0] and self.lost[1]:
                self._finish(None, "simultaneous_loss")  # A15.5
            else:
                loser = 0 if self.lost[0] else 1
                self._finish(1 - loser, "lp" if self.lp[loser] <= 0 else "deck_out")
            return True
        return False

    def _finish(self, winner: Player | None, reason: str) -> None:
        self.winner = winner
        self.draw = winner is None
        self.reason = reason
        self.window = W_OVER
        self.triggers.clear()
        if self.events is not None:
            self._log("game_over", winner=None if winner is None else player_name(winner), reason=reason)

    def _resolve_triggers(self, then: int) -> None:
        """A16.3: resolve queued triggers (active player's first); stop at a target choice."""
        self.triggers.sort(key=lambda trigger: trigger.controller != self.active)
        while self.triggers and self.window != W_OVER:
            controller, key, amount, source = self.triggers[0]
            if key == "deploy_strike":
                if self._ability_targets(key, controller):
                    self.selected_key = key
                    self.pending_amount = amount
                    self.window = W_TRIGGER_TARGET
                    return
                self.triggers.pop(0)  # no legal target: the ability does nothing
                continue
            self.triggers.pop(0)
            if key in ("deploy_heal", "farewell_heal"):
                self._heal(controller, amount)
            elif key == "deploy_draw":
                self._draw(controller, amount)
            if self.events is not None:
                self._log(
                    "trigger", player=player_name(controller), ability=key, amount=amount, source=self.cards[source].id
                )
            if self._state_check():
                return
        if self.window != W_OVER:
            self.window = then

    # -- turn structure (A7-A13) ------------------------------------------------------------

    def _start_turn(self) -> None:
        """A7.3, A8, A9: next player; remove damage, ready, reset counters; draw one."""
        self.turn += 1
        if self.turn > 1:
            self.active = 1 - self.active
        me = self.active
        game = self._game
        for inst in self._units(me):
            self.damage[inst] = 0
            self.ready[inst] = True
            self.moves[inst] = 0
            self.devoured[inst] = False
        if self.events is not None:
            self._log("turn", player=player_name(me), turn=self.turn)
        if game.upkeep_supply:
            self._upkeep(me)
        if self.turn > 1 or game.first_draw:  # A9.2; rule first_draw=no skips the first player's turn-1 draw
            self._draw(me, game.flags.draw_count)  # A9.1: one card (rule draw_count)
        if not self._state_check():
            # Rule deployed_move=yes: moves are made in the action phase (A10.8), so no move window.
            self.window = W_ACTION if game.flags.action_moves else W_MOVE

    def _upkeep(self, me: Player) -> None:
        """Rule supply_check=upkeep (A11.6): after the ready step, every subordinate of the active player
        whose square is supplied less than its cost is retired (A14.7: not destroyed, no farewell), all
        at once against the field as it stands; the state check after the draw sees any aura lost."""
        leader = self.leader[me]
        cards = self.cards
        starved = [
            inst
            for inst in self.field[me]
            if inst not in (EMPTY, leader) and self.supply(me, self.square_of[inst]) < self.supply_needed(cards[inst])
        ]
        for inst in starved:
            self._leave_field(inst)
            self.discards[me].append(inst)
            if self.events is not None:
                self._log("retired", player=player_name(me), card=cards[inst].id)

    def _end_turn(self) -> None:
        """A13.1: until-end-of-turn modifiers expire, state check; A13.2: hand limit."""
        for inst in self._units(0) + self._units(1):
            self.temp_attack[inst] = 0
        if self._state_check():
            return
        limit = self._game.hand_limit  # A13.2: 6 unless rule hand_limit says otherwise (None: no limit)
        if limit is not None and len(self.hands[self.active]) > limit:
            self.window = W_DISCARD
        else:
            self._start_turn()

    # -- decisions --------------------------------------------------------------------------

    def _do(self, action: IndexedAction) -> None:
        _HANDLERS[self.window](self, action)

    def _on_mulligan(self, action: IndexedAction) -> None:
        """A6.4: redraw 5, then shuffle the old 5 into the deck; first player decides first.

        Rule mulligan=shuffle_first: the old 5 are shuffled into the deck first, then 5 are drawn."""
        player = self.chooser
        if action == self._game.actions.mulligan:
            old = self.hands[player][:]
            self.hands[player].clear()
            if self._game.flags.shuffle_first:
                self.decks[player].extend(old)
                self._shuffle(self.decks[player], f"mulligan:{player}")
                self._draw(player, OPENING_HAND)
            else:
                self._draw(player, OPENING_HAND)
                self.decks[player].extend(old)
                self._shuffle(self.decks[player], f"mulligan:{player}")
        if self.events is not None:
            self._log("mulligan" if action == self._game.actions.mulligan else "keep", player=player_name(player))
        if player == self.first:
            self.chooser = 1 - player
        else:
            self.turn = 0
            self.active = self.first
            self._start_turn()

    def _on_move(self, action: IndexedAction) -> None:
        acts = self._game.actions
        if action == acts.end_move:
            self.window = W_ACTION
            return
        self.selected = acts.move.index(action)
        self.window = W_MOVE_TO

    def _on_move_to(self, action: IndexedAction) -> None:
        """A10.3: the leader may step onto a friendly subordinate, which is retired first."""
        me = self.active
        field = self.field[me]
        destination = self._game.actions.to.index(action)
        inst = field[self.selected]
        occupant = field[destination]
        if occupant != EMPTY:
            self._leave_field(occupant)
            self.discards[me].append(occupant)
            if self.events is not None:
                self._log("retired", player=player_name(me), card=self.cards[occupant].id)
        field[self.selected] = EMPTY
        field[destination] = inst
        self.square_of[inst] = destination
        self.moves[inst] += 1
        if self.events is not None:
            self._log(
                "move",
                player=player_name(me),
                card=self.cards[inst].id,
                frm=SQUARE_NAMES[self.selected],
                to=SQUARE_NAMES[destination],
            )
        self.window = W_ACTION if self._game.flags.action_moves else W_MOVE  # rule deployed_move (A10.8)

    def _on_action(self, action: IndexedAction) -> None:
        acts = self._game.actions
        me = self.active
        move = acts.decoded[action]
        verb, card_id, key = move.verb, move.card, move.key
        if action == acts.end_action:
            self.window = W_ATTACK
        elif verb == "MOVE":  # rule deployed_move=yes: a move in the action phase (A10.8)
            assert move.square is not None
            self.selected = move.square
            self.window = W_MOVE_TO
        elif verb == "DEPLOY":
            self.selected = min(inst for inst in self.hands[me] if self.cards[inst].id == card_id)
            self.window = W_DEPLOY_TO
        elif verb == "ACTIVATE":
            assert move.square is not None and key is not None
            self._activate(self.field[me][move.square], key)
        else:  # HAND <card> <key>: A16.5, the card is discarded as the cost
            assert card_id is not None and key is not None
            inst = min(i for i in self.hands[me] if self.cards[i].id == card_id)
            self.hands[me].remove(inst)
            self.discards[me].append(inst)
            if self.events is not None:
                self._log("hand_ability", player=player_name(me), card=card_id, ability=key)
            if key == "hand_cycle":  # A17.21
                self._draw(me)
                if not self._state_check():
                    self.window = W_ACTION
            else:  # A17.20 hand_rally: choose a friendly unit
                self.selected_key = key
                self.pending_amount = self.amounts[inst].get(key, 0)
                self.window = W_ABILITY_TARGET

    def _activate(self, inst: int, key: str) -> None:
        """A16.4 activated abilities: tap_heal, tap_snipe (then a target), devour."""
        me = self.active
        card = self.cards[inst]
        amount = self.amounts[inst].get(key, 0)
        if self.events is not None:
            self._log("activate", player=player_name(me), card=card.id, ability=key)
        if key == "devour":  # A17.19: no tap, once per turn
            self.devoured[inst] = True
            self.removed[me].append(self.discards[me].pop(0))
            self.temp_attack[inst] += amount
            self.window = W_ACTION
            return
        self.ready[inst] = False
        if key == "tap_heal":  # A17.17
            self._heal(me, amount)
            self.window = W_ACTION
        else:  # A17.18 tap_snipe: choose the target next
            self.selected_key = key
            self.pending_amount = amount
            self.window = W_ABILITY_TARGET

    def _on_deploy_to(self, action: IndexedAction) -> None:
        """A11.4: enters ready with no damage; then its deploy triggers resolve."""
        me = self.active
        inst = self.selected
        square = self._game.actions.to.index(action)
        self.hands[me].remove(inst)
        self.field[me][square] = inst
        self.square_of[inst] = square
        if self.events is not None:
            self._log("deploy", player=player_name(me), card=self.cards[inst].id, square=SQUARE_NAMES[square])
        for ability in self.cards[inst].abilities:
            if ability.key in ("deploy_draw", "deploy_strike", "deploy_heal"):
                self.triggers.append(Trigger(me, ability.key, ability.amount, inst))
        if not self._state_check():
            self._resolve_triggers(W_ACTION)

    def _on_target(self, action: IndexedAction) -> None:
        """The target of tap_snipe, hand_rally (ability window) or deploy_strike (trigger window)."""
        me = self.active
        key = self.selected_key
        seat = me if key == "hand_rally" else 1 - me
        square = self._game.actions.target[seat].index(action)
        target = self.field[seat][square]
        amount = self.pending_amount
        if self.events is not None:
            self._log(
                "ability_target",
                player=player_name(me),
                ability=key,
                target=self.cards[target].id,
                square=f"{player_name(seat)}:{SQUARE_NAMES[square]}",
            )
        if key == "hand_rally":
            self.temp_attack[target] += amount
        else:  # tap_snipe, deploy_strike: damage to an enemy subordinate
            dealt = self._deal_damage(target, amount)
            if self.events is not None:
                self._damage_event(seat, target, amount, dealt, key)
        resume_triggers = self.window == W_TRIGGER_TARGET
        if resume_triggers:
            self.triggers.pop(0)
        self.selected_key = ""
        self.pending_amount = 0
        if self._state_check():
            return
        if resume_triggers or self.triggers:
            self._resolve_triggers(W_ACTION)
        else:
            self.window = W_ACTION

    def _on_attack(self, action: IndexedAction) -> None:
        acts = self._game.actions
        if action == acts.end_attack:
            self._end_turn()
            return
        self.selected = acts.attack.index(action)
        self.window = W_ATTACK_TARGET

    def _on_attack_target(self, action: IndexedAction) -> None:
        """A12.4 step 5a: the attacker becomes acted; then a block window if one is possible."""
        me = self.active
        enemy = 1 - me
        square = self._game.actions.target[enemy].index(action)
        _, facing = self.attack_targets(self.selected)
        self.attacker = self.field[me][self.selected]
        self.target = self.field[enemy][square]
        self.side = square != facing
        self.ready[self.attacker] = False
        if self.events is not None:
            self._log(
                "attack",
                player=player_name(me),
                card=self.cards[self.attacker].id,
                target=self.cards[self.target].id,
                square=f"{player_name(enemy)}:{SQUARE_NAMES[square]}",
                side=self.side,
            )
        blocker = self.field[enemy][facing]
        can_block = (
            self.side
            and "evasive" not in self.keys[self.attacker]
            and blocker != EMPTY
            and blocker != self.leader[enemy]
            and (self.ready[blocker] or not self._game.flags.blocker_ready)  # rule blocker_state=ready (A12.5)
        )
        if can_block:  # A12.5
            self.window = W_BLOCK
        else:
            self._combat()

    def _on_block(self, action: IndexedAction) -> None:
        """A12.5: a block redirects the attack to the facing subordinate; it becomes a front attack.

        Rule blocker_state=ready: the blocker becomes acted; rule blocked_attack=side: the attack stays a
        side attack."""
        if action == self._game.actions.block:
            enemy = 1 - self.active
            flags = self._game.flags
            self.target = self.field[enemy][self.facing_square()]
            self.side = flags.blocked_side
            if flags.blocker_ready:
                self.ready[self.target] = False
            if self.events is not None:
                self._log("block", player=player_name(enemy), card=self.cards[self.target].id)
        self._combat()

    def facing_square(self) -> int:
        """The facing square, in the defender's engaged row, of the attack now declared (A3.5)."""
        row = self._engaged_row(1 - self.active)
        return ATTACK_SQUARES[column_of(self.square_of[self.attacker])][row][0]

    def _combat(self) -> None:
        """A12.7 step 5d and A12.8 step 5e.

        Rule retaliation=yes: the target (leader or subordinate) deals its effective attack to a
        subordinate attacker in the same step, read before either is damaged. Rule siege_pierce=yes:
        siege adds to a pierce excess above 0 (A17.23)."""
        enemy = 1 - self.active
        attacker, target = self.attacker, self.target
        card = self.cards[attacker]
        flags = self._game.flags
        back = self.attack_value(target) if flags.retaliation and attacker != self.leader[self.active] else 0
        if target == self.leader[enemy]:
            loss = card.cost + self.amounts[attacker].get("siege", 0)  # A12.7, A17.7
            self.lp[enemy] -= loss
            if self.events is not None:
                self._log("lp_loss", player=player_name(enemy), amount=loss, lp=self.lp[enemy], cause="attack",
                          attacker=card.id, cost=card.cost)  # fmt: skip
        else:
            left = self.hp_value(target) - self.damage[target]
            hit = self.attack_value(attacker, self.side)
            dealt = self._deal_damage(target, hit)
            if self.events is not None:
                self._damage_event(enemy, target, hit, dealt, "attack", back=back)
            if "pierce" in self.keys[attacker] and dealt > left:  # A17.5: the excess goes to the enemy leader
                excess = dealt - left
                if flags.siege_pierce:
                    excess += self.amounts[attacker].get("siege", 0)
                self.lp[enemy] -= excess
                if self.events is not None:
                    self._log("lp_loss", player=player_name(enemy), amount=excess, lp=self.lp[enemy], cause="pierce",
                              attacker=card.id)  # fmt: skip
        if back:
            taken = self._deal_damage(attacker, back)
            if self.events is not None:
                self._damage_event(self.active, attacker, back, taken, "retaliation")
        self.attacker = self.target = EMPTY
        self.side = False
        if not self._state_check():
            self._resolve_triggers(W_ATTACK)

    def _on_discard(self, action: IndexedAction) -> None:
        """A13.2: discard down to the hand limit (rule hand_limit), one card at a time."""
        me = self.active
        card_id = self._game.actions.decoded[action].card
        inst = min(i for i in self.hands[me] if self.cards[i].id == card_id)
        self.hands[me].remove(inst)
        self.discards[me].append(inst)
        if self.events is not None:
            self._log("discard", player=player_name(me), card=card_id)
        limit = self._game.hand_limit
        if limit is None or len(self.hands[me]) <= limit:
            self._start_turn()


_OPTIONS: dict[int, Callable[[AterialState], tuple[IndexedAction, ...]]] = {
    W_MULLIGAN: AterialState._mulligan_options,
    W_MOVE: AterialState._move_options,
    W_MOVE_TO: AterialState._move_to_options,
    W_ACTION: AterialState._action_options,
    W_DEPLOY_TO: AterialState._deploy_to_options,
    W_ABILITY_TARGET: AterialState._target_options,
    W_TRIGGER_TARGET: AterialState._target_options,
    W_ATTACK: AterialState._attack_window_options,
    W_ATTACK_TARGET: AterialState._attack_target_options,
    W_BLOCK: AterialState._block_options,
    W_DISCARD: AterialState._discard_options,
    W_OVER: AterialState._no_options,
}
"""The legal choices at each window (A10-A13, A6.4)."""

_HANDLERS: dict[int, Callable[[AterialState, IndexedAction], None]] = {
    W_MULLIGAN: AterialState._on_mulligan,
    W_MOVE: AterialState._on_move,
    W_MOVE_TO: AterialState._on_move_to,
    W_ACTION: AterialState._on_action,
    W_DEPLOY_TO: AterialState._on_deploy_to,
    W_ABILITY_TARGET: AterialState._on_target,
    W_TRIGGER_TARGET: AterialState._on_target,
    W_ATTACK: AterialState._on_attack,
    W_ATTACK_TARGET: AterialState._on_attack_target,
    W_BLOCK: AterialState._on_block,
    W_DISCARD: AterialState._on_discard,
}
