"""The Edelweiss rules engine (E3-E8) on the core State protocol.

State is kept flat and small for speed: cards are ints, a field is a list of
`card * 2 + tapped` entries in arrival order, the deck is a list with its top card last.
After every action the state advances through automatic steps and forced windows (E14.3)
until a real choice (two or more legal actions) or the end of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.events import Event, EventLog
from cardlab.core.game import Outcome, Player, State, player_name
from cardlab.games.edelweiss.actions import (
    FIELD_GUARD_BY_SUIT,
    GUARD_BY_SUIT,
    SUMMON_BY_SUIT,
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

# Defense kinds of the attack sequence (E5.0), as stored in `State.defense`.
NO_DEFENSE_YET, GUARD, BLOCK, FIELD_GUARD = range(4)
DEFENSE_NAMES = (None, "guard", "block", "field_guard")

_ATTACK_WINDOWS = (Window.INTERCEPT, Window.DEFENSE, Window.COUNTER, Window.PURSUIT)

# Field-entry patterns: entry >> 1 & 3 is the suit, entry & 1 the tapped bit.
_UPRIGHT_SPADE, _UPRIGHT_HEART, _UPRIGHT_CLUB = 0, 2, 4
_TAPPED_HEART = 3


def _find(field: list[int], pattern: int) -> int:
    """Index of the oldest field entry with the given suit/orientation pattern, or -1."""
    for index, entry in enumerate(field):
        if entry & 7 == pattern:
            return index
    return -1


class EdelweissState(State):
    """A position of Edelweiss; see `cardlab.games.edelweiss.position` for its JSON form."""

    __slots__ = (
        "_game", "skills", "deck", "discard", "hands", "fields", "revealed", "turn", "turn_player",
        "window", "spade", "defense", "guard_card", "blocker", "counter", "pursuit_club",
        "winner", "win_reason", "_legal", "events",
    )  # fmt: skip

    def __init__(self, game: Edelweiss, record_events: bool) -> None:
        self._game = game
        self.skills: tuple[Skill, Skill] = game.skills_of(game.config.characters)
        self.deck: list[int] = []  # top card last
        self.discard: list[int] = []  # oldest first
        self.hands: tuple[list[int], list[int]] = ([], [])
        self.fields: tuple[list[int], list[int]] = ([], [])
        # Cards in each hand that the opponent knows (Diamond Dust, E2.5/E4.3).
        self.revealed: tuple[set[int], set[int]] = (set(), set())
        self.turn = 1
        self.turn_player: Player = 0
        self.window = Window.DRAW
        self._clear_attack()
        self.winner: Player | None = None
        self.win_reason: str | None = None
        self._legal: list[A] = []
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

    def current_player(self) -> Player | None:
        window = self.window
        if window == Window.OVER:
            return None
        if window in (Window.INTERCEPT, Window.DEFENSE):
            return 1 - self.turn_player
        return self.turn_player

    def legal_actions(self) -> list[A]:
        return self._legal

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, self.win_reason or "")

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
        other._legal = self._legal[:]
        other.events = self.events.copy() if record_events and self.events is not None else None
        return other

    def card_zones(self) -> dict[str, list[int]]:
        return {"deck": self.deck, "discard": self.discard, "hand:P1": self.hands[0], "hand:P2": self.hands[1]}

    def unknown_slots(self, player: Player) -> list[tuple[str, int]]:
        """The deck order, and the opponent's hand except cards revealed by Diamond Dust."""
        slots = [("deck", index) for index in range(len(self.deck))]
        opponent = 1 - player
        known = self.revealed[opponent]
        zone = f"hand:{player_name(opponent)}"
        slots += [(zone, index) for index, card in enumerate(self.hands[opponent]) if card not in known]
        return slots

    def position(self) -> dict[str, Any]:
        from cardlab.games.edelweiss.position import dump_position

        return dump_position(self)

    def observation(self, player: Player) -> dict[str, Any]:
        from cardlab.games.edelweiss.position import dump_observation

        return dump_observation(self, player)

    # -- advancing --------------------------------------------------------------------------

    def _apply_legal(self, action: A) -> None:  # type: ignore[override]
        self._do(action)
        self._advance()

    def _advance(self) -> None:
        """Run automatic steps and forced windows until a real choice or the end (E14.3)."""
        while True:
            legal = self._compute_legal()
            if len(legal) != 1:
                self._legal = legal
                return
            self._do(legal[0])

    def _log(self, kind: str, secret: dict[str, Any] | None = None, **public: Any) -> None:
        if self.events is not None:
            secret_to = self.turn_player if secret else None
            self.events.append(Event(kind, public, secret, secret_to))

    def _compute_legal(self) -> list[A]:
        """Legal actions at the current window; automatic steps are run on the way."""
        while True:
            window = self.window
            tp = self.turn_player
            if window == Window.MAIN:
                hand = self.hands[tp]
                legal = [SUMMON_BY_SUIT[suit] for suit in (SPADE, HEART, CLUB) if any(c & 3 == suit for c in hand)]
                if legal:
                    return legal
                if hand:  # E4.3 Diamond Dust: automatic reveal, no summon
                    self.revealed[tp].update(hand)
                    self._log("diamond_dust", player=player_name(tp), cards=[card_name(c) for c in sorted(hand)])
                self.window = Window.ATTACK  # E4.4: an empty hand summons nothing
            elif window == Window.ATTACK:
                if _find(self.fields[tp], _UPRIGHT_SPADE) >= 0:
                    return [A.ATTACK, A.END_TURN]
                return [A.END_TURN]  # E5.1 b
            elif window == Window.DEFENSE:
                return self._defense_options()
            elif window == Window.INTERCEPT:
                field = self.fields[1 - tp]
                if _find(field, _UPRIGHT_CLUB) >= 0 and _find(field, _TAPPED_HEART) >= 0:
                    return [A.LIONHEART, A.PASS]
                return [A.PASS]  # E5.2 ruling: Lionheart needs a tapped heart
            elif window == Window.COUNTER:
                if _find(self.fields[tp], _UPRIGHT_CLUB) < 0:
                    return [A.DISCARD_SPADE]  # E5.4 ruling: forced without an upright club
                if self._game.accel2 and self.skills[tp] & (Skill.GUARDIAN | Skill.POISON_BIND):
                    return [A.DISCARD_SPADE, A.DISCARD_CLUB, A.PROTECT]  # E8.5
                return [A.DISCARD_SPADE, A.DISCARD_CLUB]
            elif window == Window.PURSUIT:
                field = self.fields[tp]
                if _find(field, _UPRIGHT_CLUB) >= 0 and self._index_of(tp, self.spade) >= 0:
                    return [A.PURSUIT, A.PASS]  # E5.5
                return [A.PASS]
            elif window == Window.SPECIAL_SUMMON:
                return [A.SPECIAL_SUMMON, A.PASS]
            elif window == Window.DRAW:
                self._draw_step()
            else:
                return []

    def _defense_options(self) -> list[A]:
        """E5.3 and E8.1: every defense the defender may choose; NO_DEFENSE is always legal."""
        defender = 1 - self.turn_player
        hand = self.hands[defender]
        legal = [GUARD_BY_SUIT[suit] for suit in (SPADE, HEART, CLUB, DIAMOND) if any(c & 3 == suit for c in hand)]
        field = self.fields[defender]
        if _find(field, _UPRIGHT_HEART) >= 0:
            legal.append(A.BLOCK)
        if self.skills[defender] & Skill.GUARDIAN:
            if self._game.accel2:
                suits: tuple[int, ...] = (SPADE,)  # E8.1 Accel 2 (1): tapped spades only, any hand size
            else:
                suits = (SPADE, HEART, CLUB) if not hand else ()  # E8.1 Symbolic: empty hand, any tapped card
            legal += [FIELD_GUARD_BY_SUIT[suit] for suit in suits if _find(field, suit * 2 + TAPPED) >= 0]
        legal.append(A.NO_DEFENSE)
        return legal

    def _draw_step(self) -> None:
        """E3.2: deck-out check, draw, untap the turn player's field."""
        tp = self.turn_player
        if not self.deck:
            sizes = (len(self.hands[0]), len(self.hands[1]))
            self._finish(0 if sizes[0] > sizes[1] else 1, "deck_out")  # E6.2: a tie goes to P2
            return
        card = self.deck.pop()
        self.hands[tp].append(card)
        self._log("draw", {"card": card_name(card)}, player=player_name(tp))
        self.fields[tp][:] = [entry & ~TAPPED for entry in self.fields[tp]]
        self.window = Window.MAIN

    def _finish(self, winner: Player, reason: str) -> None:
        self.winner = winner
        self.win_reason = reason
        self.window = Window.OVER
        self._clear_attack()
        self._log("game_over", winner=player_name(winner), reason=reason)

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
        tp = self.turn_player
        defender = 1 - tp
        me = player_name(tp)
        if action <= A.SUMMON_C:  # E4.1/E4.2 normal summon
            suit = int(action)
            card = self._take_from_hand(tp, suit)
            tapped = suit == SPADE or (suit == CLUB and not self.skills[tp] & Skill.WIZARD)  # E8.3 Wizard
            self.fields[tp].append(card * 2 + tapped)
            self._log("summon", player=me, card=card_name(card), tapped=tapped)
            buddy = suit != HEART and self.skills[tp] & Skill.BUDDY_SUMMONER
            if buddy and any(c & 3 == HEART for c in self.hands[tp]):
                self.window = Window.SPECIAL_SUMMON  # E8.2 trigger
            else:
                self.window = Window.ATTACK
        elif action == A.SPECIAL_SUMMON:  # E8.2: tapped (Symbolic) or upright (Accel 2)
            card = self._take_from_hand(tp, HEART)
            tapped = not self._game.accel2
            self.fields[tp].append(card * 2 + tapped)
            self._log("special_summon", player=me, card=card_name(card), tapped=tapped)
            self.window = Window.ATTACK
        elif action == A.ATTACK:  # E5.1 a: the oldest upright spade attacks
            self._clear_attack()
            self.spade = self._set_tapped(tp, _find(self.fields[tp], _UPRIGHT_SPADE), True)
            self._log("attack", player=me, card=card_name(self.spade))
            self.window = Window.INTERCEPT
        elif action == A.END_TURN:  # E5.1 b: roles swap, next draw step
            self._log("end_turn", player=me)
            self.turn += 1
            self.turn_player = defender
            self.window = Window.DRAW
        elif action == A.LIONHEART:  # E5.2
            field = self.fields[defender]
            club = self._set_tapped(defender, _find(field, _UPRIGHT_CLUB), True)
            heart = self._set_tapped(defender, _find(field, _TAPPED_HEART), False)
            self._log("lionheart", player=player_name(defender), club=card_name(club), heart=card_name(heart))
            self.window = Window.DEFENSE
        elif action == A.PASS:
            actor = defender if self.window == Window.INTERCEPT else tp
            self._log("pass", player=player_name(actor), window=str(self.window))
            if self.window == Window.INTERCEPT:
                self.window = Window.DEFENSE
            elif self.window == Window.PURSUIT:
                self._break_phase()
            else:
                self.window = Window.ATTACK
        elif action <= A.GUARD_D:  # E5.3 a: a diamond guard causes a counter
            suit = action - A.GUARD_S
            self.guard_card = self._take_from_hand(defender, suit)
            self.discard.append(self.guard_card)
            self.defense = GUARD
            self._log("guard", player=player_name(defender), card=card_name(self.guard_card))
            self._after_defense(suit == DIAMOND)
        elif action == A.BLOCK:  # E5.3 b
            self.blocker = self._set_tapped(defender, _find(self.fields[defender], _UPRIGHT_HEART), True)
            self.defense = BLOCK
            self._log("block", player=player_name(defender), card=card_name(self.blocker))
            self._after_defense(False)
        elif action <= A.FIELD_GUARD_C:  # E5.3 c / E8.1: discard a tapped field card, counter
            suit = action - A.FIELD_GUARD_S
            index = _find(self.fields[defender], suit * 2 + TAPPED)
            self.guard_card = self._discard_from_field(defender, index)
            self.defense = FIELD_GUARD
            self._log("field_guard", player=player_name(defender), card=card_name(self.guard_card))
            self._after_defense(True)
        elif action == A.NO_DEFENSE:  # E5.3 d / E6.1
            self._log("no_defense", player=player_name(defender))
            self._finish(tp, "attack")
        elif action == A.DISCARD_SPADE:  # E5.4 a
            card = self._discard_from_field(tp, self._index_of(tp, self.spade))
            self._log("counter_discard", player=me, card=card_name(card))
            self.window = Window.PURSUIT
        elif action == A.DISCARD_CLUB:  # E5.4 b: an upright club only
            card = self._discard_from_field(tp, _find(self.fields[tp], _UPRIGHT_CLUB))
            self._log("counter_discard", player=me, card=card_name(card))
            self.window = Window.PURSUIT
        elif action == A.PROTECT:  # E8.5: tap a club instead of discarding
            card = self._set_tapped(tp, _find(self.fields[tp], _UPRIGHT_CLUB), True)
            self._log("protect", player=me, card=card_name(card))
            self.window = Window.PURSUIT
        elif action == A.PURSUIT:  # E5.5 pursuit stance
            self.pursuit_club = self._set_tapped(tp, _find(self.fields[tp], _UPRIGHT_CLUB), True)
            self._set_tapped(tp, self._index_of(tp, self.spade), False)
            self._log("pursuit", player=me, club=card_name(self.pursuit_club), card=card_name(self.spade))
            self._break_phase()

    def _after_defense(self, counter: bool) -> None:
        """E8.4 Poison Bind resolves after the defense choice, before the counter phase."""
        self.counter = counter
        if not counter:
            self.window = Window.PURSUIT
            return
        tp = self.turn_player
        if self.skills[1 - tp] & Skill.POISON_BIND:
            index = _find(self.fields[tp], _UPRIGHT_CLUB)
            if index >= 0:
                club = self._set_tapped(tp, index, True)
                self._log("poison_bind", player=player_name(1 - tp), club=card_name(club))
        self.window = Window.COUNTER

    def _break_phase(self) -> None:
        """E5.6: block + pursuit stance discards the pursuit club, then the blocking heart."""
        if self.defense == BLOCK and self.pursuit_club != NO_CARD:
            tp = self.turn_player
            self._discard_from_field(tp, self._index_of(tp, self.pursuit_club))
            self._discard_from_field(1 - tp, self._index_of(1 - tp, self.blocker))
            self._log("break", club=card_name(self.pursuit_club), heart=card_name(self.blocker))
        self._clear_attack()
        self.window = Window.ATTACK
