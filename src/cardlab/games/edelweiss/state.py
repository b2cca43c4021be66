"""The Edelweiss rules engine (E3-E8) on the core State protocol.

State is kept flat and small for speed: cards are ints, a field is a list of
`card * 2 + tapped` entries in arrival order, the deck is a list with its top card last.
After every action the state advances through automatic steps and forced windows (E14.3)
until a real choice (two or more legal actions) or the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardlab.core.events import Event, EventLog
from cardlab.core.game import Action, HiddenGroup, Outcome, Player, SteppingState, player_name
from cardlab.games.edelweiss.actions import (
    FIELD_GUARD_BY_SUIT,
    GUARD_BY_SUIT,
    SUMMON_BY_SUIT,
)
from cardlab.games.edelweiss.actions import (
    EdelweissAction as A,
)
from cardlab.games.edelweiss.cards import (
    CLUB,
    DIAMOND,
    HEART,
    SPADE,
    TAPPED,
    Skill,
    Window,
    card_name,
)

if TYPE_CHECKING:
    from cardlab.games.edelweiss.game import Edelweiss

NO_CARD = -1

POSITION_KEYS = ("game", "config", "turn", "turn_player", "window", "deck", "discard", "players", "attack",
                 "winner", "win_reason", "revealed")  # fmt: skip
"""The top-level fields of an E14.5 position JSON (`position()`; `Edelweiss.position_keys`, read by
`load_position`)."""

# Defense kinds of the attack sequence (E5.0), as stored in `State.defense`.
NO_DEFENSE_YET, GUARD, BLOCK, FIELD_GUARD = range(4)
DEFENSE_NAMES = (None, "guard", "block", "field_guard")

# Windows as module constants: enum class attribute lookups are slow on the hot path.
W_DRAW, W_MAIN, W_SPECIAL_SUMMON, W_ATTACK, W_INTERCEPT, W_DEFENSE, W_COUNTER, W_PURSUIT, W_OVER = Window
_ATTACK_WINDOWS = (W_INTERCEPT, W_DEFENSE, W_COUNTER, W_PURSUIT)

# Legal-action tuples that never change, shared instead of rebuilt per decision.
_ATTACK_OR_END = (A.ATTACK, A.END_TURN)
_END_ONLY = (A.END_TURN,)
_LIONHEART_OR_PASS = (A.LIONHEART, A.PASS)
_PURSUIT_OR_PASS = (A.PURSUIT, A.PASS)
_SPECIAL_OR_PASS = (A.SPECIAL_SUMMON, A.PASS)
_PASS_ONLY = (A.PASS,)
_SPADE_ONLY = (A.DISCARD_SPADE,)
_SPADE_OR_CLUB = (A.DISCARD_SPADE, A.DISCARD_CLUB)
_SPADE_CLUB_OR_PROTECT = (A.DISCARD_SPADE, A.DISCARD_CLUB, A.PROTECT)
_NOTHING: tuple[A, ...] = ()
_HAND_ZONES = ("hand:P1", "hand:P2")
# Skills as plain ints: IntFlag arithmetic is slow on the hot path.
GUARDIAN, BUDDY_SUMMONER, WIZARD, POISON_BIND = (int(skill) for skill in Skill)
_PROTECTORS = GUARDIAN | POISON_BIND

# Field-entry patterns: entry >> 1 & 3 is the suit, entry & 1 the tapped bit.
_UPRIGHT_SPADE, _UPRIGHT_HEART, _UPRIGHT_CLUB = 0, 2, 4
_TAPPED_HEART = 3


def _find(field: list[int], pattern: int) -> int:
    """Index of the oldest field entry with the given suit/orientation pattern, or -1."""
    for index, entry in enumerate(field):
        if entry & 7 == pattern:
            return index
    return -1


class EdelweissState(SteppingState[A]):
    """A position of Edelweiss; see `cardlab.games.edelweiss.position` for its JSON form."""

    __slots__ = (
        "_game", "skills", "deck", "discard", "hands", "fields", "revealed", "turn", "turn_player",
        "window", "spade", "defense", "guard_card", "blocker", "counter", "pursuit_club",
        "winner", "win_reason", "_legal", "events",
    )  # fmt: skip

    def __init__(self, game: Edelweiss, record_events: bool) -> None:
        self._game = game
        first, second = game.skills_of(game.config.characters)
        self.skills: tuple[int, int] = (int(first), int(second))
        self.deck: list[int] = []  # top card last
        self.discard: list[int] = []  # oldest first
        self.hands: tuple[list[int], list[int]] = ([], [])
        self.fields: tuple[list[int], list[int]] = ([], [])
        # Cards in each hand that the opponent knows (Diamond Dust, E2.5/E4.3).
        self.revealed: tuple[set[int], set[int]] = (set(), set())
        self.turn = 1
        self.turn_player: Player = 0
        self.window = W_DRAW
        self._clear_attack()
        self.winner: Player | None = None
        self.win_reason: str | None = None
        self._legal: tuple[A, ...] = ()
        self.events: EventLog | None = EventLog() if record_events else None

    def _clear_attack(self) -> None:
        self.spade = NO_CARD
        self.defense = NO_DEFENSE_YET
        self.guard_card = NO_CARD
        self.blocker = NO_CARD
        self.counter = False
        self.pursuit_club = NO_CARD

    # -- protocol ---------------------------------------------------------------------------

    @property
    def game(self) -> Edelweiss:
        return self._game

    @property
    def in_attack(self) -> bool:
        """True while an attack sequence is open (E5.0)."""
        return self.window in _ATTACK_WINDOWS

    def legal_actions(self) -> tuple[A, ...]:
        return self._legal

    def current_player(self) -> Player | None:
        window = self.window
        if window == W_OVER:
            return None
        if window in (W_INTERCEPT, W_DEFENSE):
            return 1 - self.turn_player
        return self.turn_player

    def outcome(self) -> Outcome | None:
        if self.window != W_OVER:
            return None
        return Outcome(self.winner, self.win_reason or "")  # winner None: a deck-out draw (rule deck_out_tie)

    def clone(self, *, record_events: bool = False) -> EdelweissState:
        other = EdelweissState.__new__(EdelweissState)
        other._game = self._game
        other.skills = self.skills
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.hands = (self.hands[0][:], self.hands[1][:])
        other.fields = (self.fields[0][:], self.fields[1][:])
        other.revealed = (set(self.revealed[0]), set(self.revealed[1]))
        other.turn = self.turn
        other.turn_player = self.turn_player
        other.window = self.window
        other.spade = self.spade
        other.defense = self.defense
        other.guard_card = self.guard_card
        other.blocker = self.blocker
        other.counter = self.counter
        other.pursuit_club = self.pursuit_club
        other.winner = self.winner
        other.win_reason = self.win_reason
        other._legal = self._legal
        other.events = self.events.copy() if record_events and self.events is not None else None
        return other

    def card_zones(self) -> dict[str, list[int]]:
        hands = dict(zip(_HAND_ZONES, self.hands, strict=True))
        return {"deck": self.deck, "discard": self.discard, **hands}

    def hidden_cards(self, player: Player) -> list[HiddenGroup]:
        """One shared pool: the whole deck and the opponent's hand except Diamond Dust reveals (E2.5)."""
        opponent = 1 - player
        known = self.revealed[opponent]
        hand = self.hands[opponent]
        indices = [index for index, card in enumerate(hand) if card not in known] if known else None
        return [[("deck", None), (_HAND_ZONES[opponent], indices)]]

    def turn_number(self) -> int:
        return self.turn

    def position(self) -> dict[str, Any]:
        from cardlab.games.edelweiss.position import dump_position

        return dump_position(self)

    def observation(self, player: Player | None) -> dict[str, Any]:
        from cardlab.games.edelweiss.position import dump_observation

        return dump_observation(self, player)

    def open_observation(self) -> dict[str, Any]:
        """The spectator's observation with both hands face up (`hand_complete` true): for replays."""
        from cardlab.games.edelweiss.position import dump_observation

        return dump_observation(self, None, open_hands=True)

    # -- text forms -------------------------------------------------------------------------

    def notation(self) -> str:
        """The one-line position notation (docs/notation.md); `Edelweiss.parse_notation` reads it back."""
        from cardlab.games.edelweiss.notation import dump_notation

        return dump_notation(self)

    def __repr__(self) -> str:
        """`EdelweissState('<notation>')`: the notation inside reloads the state (`parse_notation`)."""
        return f"EdelweissState({self.notation()!r})"

    def __str__(self) -> str:
        """The position for people: turn, who moves, both hands and fields by suit, deck and discard."""
        from cardlab.games.edelweiss.render import position_text

        return position_text(self.position())

    # -- advancing --------------------------------------------------------------------------

    def _resync(self) -> bool:
        if self.window == W_OVER:
            return True
        if self.window == W_MAIN and all(card & 3 == DIAMOND for card in self.hands[self.turn_player]):
            return False  # Diamond Dust would be automatic: no choice to wait for
        self._legal = self._compute_legal()  # pure at every other resting window
        return len(self._legal) >= 2

    def why_illegal(self, action: Action) -> str:
        from cardlab.games.edelweiss.explain import why_illegal

        return why_illegal(self, action) if isinstance(action, A) else ""

    def _log(self, kind: str, secret: dict[str, Any] | None = None, **public: Any) -> None:
        """Record an event; callers check `self.events` first so that no text is built when off."""
        assert self.events is not None
        self.events.append(Event(kind, public, secret, self.turn_player if secret else None))

    def _compute_legal(self) -> tuple[A, ...]:
        """Legal actions at the current window; automatic steps are run on the way."""
        while True:
            window = self.window
            tp = self.turn_player
            if window == W_MAIN:
                hand = self.hands[tp]
                suits = {card & 3 for card in hand}
                legal = tuple(SUMMON_BY_SUIT[suit] for suit in (SPADE, HEART, CLUB) if suit in suits)
                if legal:
                    return legal
                if hand:  # E4.3 Diamond Dust: automatic reveal, no summon
                    self.revealed[tp].update(hand)
                    if self.events is not None:
                        self._log("diamond_dust", player=player_name(tp), cards=[card_name(c) for c in sorted(hand)])
                self.window = W_ATTACK  # E4.4: an empty hand summons nothing
            elif window == W_ATTACK:
                return _ATTACK_OR_END if _find(self.fields[tp], _UPRIGHT_SPADE) >= 0 else _END_ONLY  # E5.1
            elif window == W_DEFENSE:
                return self._defense_options()
            elif window == W_INTERCEPT:
                field = self.fields[1 - tp]
                if _find(field, _UPRIGHT_CLUB) >= 0 and _find(field, _TAPPED_HEART) >= 0:
                    return _LIONHEART_OR_PASS
                return _PASS_ONLY  # E5.2 ruling: Lionheart needs a tapped heart
            elif window == W_COUNTER:
                if _find(self.fields[tp], _UPRIGHT_CLUB) < 0:
                    return _SPADE_ONLY  # E5.4 ruling: forced without an upright club
                holder = self._game.protection_holder  # E8.5 (rule accel2_protection)
                if holder >= 0 and self.skills[tp ^ holder] & _PROTECTORS:
                    return _SPADE_CLUB_OR_PROTECT
                return _SPADE_OR_CLUB
            elif window == W_PURSUIT:
                if _find(self.fields[tp], _UPRIGHT_CLUB) >= 0 and self._index_of(tp, self.spade) >= 0:
                    return _PURSUIT_OR_PASS  # E5.5
                return _PASS_ONLY
            elif window == W_SPECIAL_SUMMON:
                has_heart = any(card & 3 == HEART for card in self.hands[tp])
                return _SPECIAL_OR_PASS if has_heart and self.skills[tp] & BUDDY_SUMMONER else _PASS_ONLY  # E8.2
            elif window == W_DRAW:
                self._draw_step()
            else:
                return _NOTHING

    def _defense_options(self) -> tuple[A, ...]:
        """E5.3 and E8.1: every defense the defender may choose; NO_DEFENSE is always legal."""
        defender = 1 - self.turn_player
        hand = self.hands[defender]
        suits = {card & 3 for card in hand}
        legal = [GUARD_BY_SUIT[suit] for suit in (SPADE, HEART, CLUB, DIAMOND) if suit in suits]
        field = self.fields[defender]
        if _find(field, _UPRIGHT_HEART) >= 0:
            legal.append(A.BLOCK)
        if self.skills[defender] & GUARDIAN:
            game = self._game
            symbolic = game.symbolic_guard_suits if not hand else ()  # E8.1 Symbolic: empty hand, any suit (rule)
            if game.accel2:  # E8.1 Accel 2 (1): tapped spades only, any hand size; Symbolic's too by rule
                kept = symbolic if game.accel2_keeps_symbolic_guard else ()
                guard_suits: tuple[int, ...] = (SPADE, *(suit for suit in kept if suit != SPADE))
            else:
                guard_suits = symbolic
            legal += [FIELD_GUARD_BY_SUIT[suit] for suit in guard_suits if _find(field, suit * 2 + TAPPED) >= 0]
        legal.append(A.NO_DEFENSE)
        return tuple(legal)

    def _draw_step(self) -> None:
        """E3.2: deck-out check, draw, untap the turn player's field."""
        tp = self.turn_player
        if not self.deck:
            sizes = (len(self.hands[0]), len(self.hands[1]))
            if sizes[0] == sizes[1] and self._game.deck_out_tie_is_draw:
                self._finish(None, "deck_out")  # rule deck_out_tie=draw
            else:
                self._finish(0 if sizes[0] > sizes[1] else 1, "deck_out")  # E6.2: a tie goes to P2
            return
        if self.turn == 1 and not self._game.first_draw:  # rule first_draw=no: no draw on turn 1 (E3.2)
            self.window = W_MAIN
            return
        card = self.deck.pop()
        self.hands[tp].append(card)
        if self.events is not None:
            self._log("draw", {"card": card_name(card)}, player=player_name(tp))
        self.fields[tp][:] = [entry & ~TAPPED for entry in self.fields[tp]]
        self.window = W_MAIN

    def _finish(self, winner: Player | None, reason: str) -> None:
        self.winner = winner
        self.win_reason = reason
        self.window = W_OVER
        self._clear_attack()
        if self.events is not None:
            self._log("game_over", winner=None if winner is None else player_name(winner), reason=reason)

    # -- moving cards -----------------------------------------------------------------------

    def _take_from_hand(self, player: Player, suit: int) -> int:
        """E14.2: the lowest-ranked card of `suit` leaves the hand."""
        hand = self.hands[player]
        card = min(c for c in hand if c & 3 == suit)
        hand.remove(card)
        self.revealed[player].discard(card)
        return card

    def _set_tapped(self, player: Player, index: int, tapped: bool) -> int:
        field = self.fields[player]
        entry = field[index] = (field[index] & ~TAPPED) | tapped
        return entry >> 1

    def _discard_from_field(self, player: Player, index: int) -> int:
        card = self.fields[player].pop(index) >> 1
        self.discard.append(card)
        return card

    def _index_of(self, player: Player, card: int) -> int:
        field = self.fields[player]
        for index, entry in enumerate(field):
            if entry >> 1 == card:
                return index
        return -1

    # -- actions ----------------------------------------------------------------------------

    def _do(self, action: A) -> None:
        """Apply one action at the current window and move to the next window (no advancing)."""
        _HANDLERS[action](self)

    def _summon(self, suit: int) -> None:
        """E4.1/E4.2: hearts enter upright, spades and clubs tapped (clubs upright with Wizard, E8.3)."""
        tp = self.turn_player
        card = self._take_from_hand(tp, suit)
        tapped = suit == SPADE or (suit == CLUB and not self.skills[tp] & WIZARD)
        self.fields[tp].append(card * 2 + tapped)
        if self.events is not None:
            self._log("summon", player=player_name(tp), card=card_name(card), tapped=tapped)
        buddy = suit != HEART and self.skills[tp] & BUDDY_SUMMONER
        if buddy and any(c & 3 == HEART for c in self.hands[tp]):
            self.window = W_SPECIAL_SUMMON  # E8.2 trigger
        else:
            self.window = W_ATTACK

    def _special_summon(self) -> None:
        """E8.2: one hand heart enters tapped (Symbolic) or upright (Accel 2)."""
        tp = self.turn_player
        card = self._take_from_hand(tp, HEART)
        tapped = not self._game.accel2
        self.fields[tp].append(card * 2 + tapped)
        if self.events is not None:
            self._log("special_summon", player=player_name(tp), card=card_name(card), tapped=tapped)
        self.window = W_ATTACK

    def _attack(self) -> None:
        """E5.1 a: the oldest upright spade (E14.2) taps and attacks."""
        tp = self.turn_player
        self._clear_attack()
        self.spade = self._set_tapped(tp, _find(self.fields[tp], _UPRIGHT_SPADE), True)
        if self.events is not None:
            self._log("attack", player=player_name(tp), card=card_name(self.spade))
        self.window = W_INTERCEPT

    def _end_turn(self) -> None:
        """E5.1 b: roles swap and the opponent's draw step begins."""
        if self.events is not None:
            self._log("end_turn", player=player_name(self.turn_player))
        self.turn += 1
        self.turn_player = 1 - self.turn_player
        self.window = W_DRAW

    def _lionheart(self) -> None:
        """E5.2: the defender taps an upright club to untap a tapped heart."""
        defender = 1 - self.turn_player
        field = self.fields[defender]
        club = self._set_tapped(defender, _find(field, _UPRIGHT_CLUB), True)
        heart = self._set_tapped(defender, _find(field, _TAPPED_HEART), False)
        if self.events is not None:
            self._log("lionheart", player=player_name(defender), club=card_name(club), heart=card_name(heart))
        self.window = W_DEFENSE

    def _pass(self) -> None:
        """Decline the optional action of the special summon, intercept or pursuit window."""
        window = self.window
        actor = 1 - self.turn_player if window == W_INTERCEPT else self.turn_player
        if self.events is not None:
            self._log("pass", player=player_name(actor), window=str(window))
        if window == W_INTERCEPT:
            self.window = W_DEFENSE
        elif window == W_PURSUIT:
            self._break_phase()
        else:
            self.window = W_ATTACK

    def _guard(self, suit: int) -> None:
        """E5.3 a: discard a hand card, revealing it; a diamond causes a counter."""
        defender = 1 - self.turn_player
        self.guard_card = self._take_from_hand(defender, suit)
        self.discard.append(self.guard_card)
        self.defense = GUARD
        if self.events is not None:
            self._log("guard", player=player_name(defender), card=card_name(self.guard_card))
        self._after_defense(suit == DIAMOND)

    def _block(self) -> None:
        """E5.3 b: tap an upright heart; it is the blocking heart."""
        defender = 1 - self.turn_player
        self.blocker = self._set_tapped(defender, _find(self.fields[defender], _UPRIGHT_HEART), True)
        self.defense = BLOCK
        if self.events is not None:
            self._log("block", player=player_name(defender), card=card_name(self.blocker))
        self._after_defense(False)

    def _field_guard(self, suit: int) -> None:
        """E5.3 c / E8.1: Guardian discards a tapped field card as a guard, causing a counter."""
        defender = 1 - self.turn_player
        index = _find(self.fields[defender], suit * 2 + TAPPED)
        self.guard_card = self._discard_from_field(defender, index)
        self.defense = FIELD_GUARD
        if self.events is not None:
            self._log("field_guard", player=player_name(defender), card=card_name(self.guard_card))
        self._after_defense(True)

    def _no_defense(self) -> None:
        """E5.3 d / E6.1: the attack succeeds and the attacker wins at once."""
        if self.events is not None:
            self._log("no_defense", player=player_name(1 - self.turn_player))
        self._finish(self.turn_player, "attack")

    def _discard_spade(self) -> None:
        """E5.4 a: the attacking spade pays the counter."""
        tp = self.turn_player
        card = self._discard_from_field(tp, self._index_of(tp, self.spade))
        if self.events is not None:
            self._log("counter_discard", player=player_name(tp), card=card_name(card))
        self._counter_paid()

    def _discard_club(self) -> None:
        """E5.4 b: an upright club pays the counter."""
        tp = self.turn_player
        card = self._discard_from_field(tp, _find(self.fields[tp], _UPRIGHT_CLUB))
        if self.events is not None:
            self._log("counter_discard", player=player_name(tp), card=card_name(card))
        self._counter_paid()

    def _protect(self) -> None:
        """E8.5: tapping an upright club replaces the discard (rule accel2_protection=club_still_owed:
        another upright club, if any, is still discarded)."""
        tp = self.turn_player
        field = self.fields[tp]
        card = self._set_tapped(tp, _find(field, _UPRIGHT_CLUB), True)
        if self.events is not None:
            self._log("protect", player=player_name(tp), card=card_name(card))
        owed = _find(field, _UPRIGHT_CLUB) if self._game.protection_owes_club else -1
        if owed >= 0:
            paid = self._discard_from_field(tp, owed)
            if self.events is not None:
                self._log("counter_discard", player=player_name(tp), card=card_name(paid))
        self._counter_paid()

    def _counter_paid(self) -> None:
        """End of the counter phase: Poison Bind resolves now under rule poison_bind_timing=after_counter."""
        if not self._game.poison_bind_before_counter:
            self._poison_bind()
        self.window = W_PURSUIT

    def _pursuit(self) -> None:
        """E5.5: tap an upright club to untap the attacking spade; then the break phase."""
        tp = self.turn_player
        self.pursuit_club = self._set_tapped(tp, _find(self.fields[tp], _UPRIGHT_CLUB), True)
        self._set_tapped(tp, self._index_of(tp, self.spade), False)
        if self.events is not None:
            self._log("pursuit", player=player_name(tp), club=card_name(self.pursuit_club), card=card_name(self.spade))
        self._break_phase()

    def _after_defense(self, counter: bool) -> None:
        """E8.4 Poison Bind resolves after the defense choice, before the counter phase (unless rule
        poison_bind_timing moves it after the counter phase)."""
        self.counter = counter
        if not counter:
            self.window = W_PURSUIT
            return
        if self._game.poison_bind_before_counter:
            self._poison_bind()
        self.window = W_COUNTER

    def _poison_bind(self) -> None:
        """E8.4: a defender with Poison Bind taps the attacker's oldest upright club once a counter is caused
        (rule poison_bind_trigger=diamond_guard: not when the counter came from a field guard)."""
        tp = self.turn_player
        if not self.skills[1 - tp] & POISON_BIND:
            return
        if self.defense == FIELD_GUARD and not self._game.poison_bind_on_field_guard:
            return
        index = _find(self.fields[tp], _UPRIGHT_CLUB)
        if index >= 0:
            club = self._set_tapped(tp, index, True)
            if self.events is not None:
                self._log("poison_bind", player=player_name(1 - tp), club=card_name(club))

    def _break_phase(self) -> None:
        """E5.6: block + pursuit stance discards the pursuit club, then the blocking heart."""
        if self.defense == BLOCK and self.pursuit_club != NO_CARD:
            tp = self.turn_player
            self._discard_from_field(tp, self._index_of(tp, self.pursuit_club))
            self._discard_from_field(1 - tp, self._index_of(1 - tp, self.blocker))
            if self.events is not None:
                self._log("break", club=card_name(self.pursuit_club), heart=card_name(self.blocker))
        self._clear_attack()
        self.window = W_ATTACK


def _suited(method: Callable[[EdelweissState, int], None], suit: int) -> Callable[[EdelweissState], None]:
    return lambda state: method(state, suit)


_S = EdelweissState
_HANDLERS: tuple[Callable[[EdelweissState], None], ...] = (
    _suited(_S._summon, SPADE), _suited(_S._summon, HEART), _suited(_S._summon, CLUB), _S._special_summon,
    _S._attack, _S._end_turn, _S._lionheart,
    _suited(_S._guard, SPADE), _suited(_S._guard, HEART), _suited(_S._guard, CLUB), _suited(_S._guard, DIAMOND),
    _S._block, _suited(_S._field_guard, SPADE), _suited(_S._field_guard, HEART), _suited(_S._field_guard, CLUB),
    _S._no_defense, _S._discard_spade, _S._discard_club, _S._protect, _S._pursuit, _S._pass,
)  # fmt: skip
"""Action id -> handler, in E14.1 id order."""
