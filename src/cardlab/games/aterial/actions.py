"""Aterial decisions (A18.1) as a fixed action space built from the card set.

Compound choices are sequences of small decisions: `DEPLOY S14` then `TO B1`; `MOVE F1` then
`TO F0`; `ATTACK F0` then `TARGET P2:F1`; `ACTIVATE B0 tap_snipe` then `TARGET P2:F2`;
`HAND S21 hand_rally` then `TARGET P1:F1`. Squares without a seat (`F0`) are the acting
player's own; targets name the seat (`P2:F1`, A3.2 notation). `AterialActions.decode` gives an
action's parts by name (`Decoded`), so that nothing needs to split action texts.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.core.actions import ActionSpace, IndexedAction
from cardlab.core.game import PLAYER_NAMES, Player
from cardlab.games.aterial.board import SQUARE_NAMES

ACTIVATED_KEYS = ("tap_heal", "tap_snipe", "devour")
HAND_KEYS = ("hand_rally", "hand_cycle")
FIXED = ("KEEP", "MULLIGAN", "END_MOVE", "END_ACTION", "END_ATTACK", "BLOCK", "NO_BLOCK")


@dataclass(frozen=True, slots=True)
class Decoded:
    """An action's parts by name; `str()` is the action's text (A18.1).

    `verb` is the first word (`DEPLOY`, `TARGET`, `KEEP`, ...). `square` is a square index
    (0..5 = F0 F1 F2 B0 B1 B2): the acting player's own for MOVE, TO, ATTACK and ACTIVATE, the
    `seat`'s for TARGET. `card` is the card id of DEPLOY, HAND and DISCARD; `key` the ability of
    ACTIVATE and HAND. Parts a verb does not take are None.
    """

    verb: str
    square: int | None = None
    seat: Player | None = None
    card: str | None = None
    key: str | None = None

    def __str__(self) -> str:
        words = [self.verb]
        if self.card is not None:
            words.append(self.card)
        if self.square is not None:
            name = SQUARE_NAMES[self.square]
            words.append(name if self.seat is None else f"{PLAYER_NAMES[self.seat]}:{name}")
        if self.key is not None:
            words.append(self.key)
        return " ".join(words)


@dataclass(frozen=True)
class AterialActions:
    """Ids and texts of every decision for one card set; the groups index by square or card."""

    space: ActionSpace
    keep: IndexedAction
    mulligan: IndexedAction
    end_move: IndexedAction
    end_action: IndexedAction
    end_attack: IndexedAction
    block: IndexedAction
    no_block: IndexedAction
    move: tuple[IndexedAction, ...]  # by own square
    to: tuple[IndexedAction, ...]  # by own square
    attack: tuple[IndexedAction, ...]  # by own square (the attacker)
    target: tuple[tuple[IndexedAction, ...], tuple[IndexedAction, ...]]  # by seat, then square
    activate: dict[tuple[int, str], IndexedAction]  # (own square, key)
    deploy: dict[str, IndexedAction]  # by card id
    hand: dict[tuple[str, str], IndexedAction]  # (card id, key)
    discard: dict[str, IndexedAction]  # by card id
    decoded: tuple[Decoded, ...]  # by action id

    def decode(self, action: IndexedAction) -> Decoded:
        """The action's parts by name (verb, square, seat, card, key)."""
        return self.decoded[action]


def build_actions(card_ids: list[str]) -> AterialActions:
    """The action space for a card set (card ids in file order): stable for that set."""
    squares = range(len(SQUARE_NAMES))
    decoded = [Decoded(verb) for verb in FIXED]
    decoded += [Decoded("MOVE", sq) for sq in squares]
    decoded += [Decoded("TO", sq) for sq in squares]
    decoded += [Decoded("ATTACK", sq) for sq in squares]
    decoded += [Decoded("TARGET", sq, seat) for seat in (0, 1) for sq in squares]
    decoded += [Decoded("ACTIVATE", sq, key=key) for sq in squares for key in ACTIVATED_KEYS]
    decoded += [Decoded("DEPLOY", card=card) for card in card_ids]
    decoded += [Decoded("HAND", card=card, key=key) for card in card_ids for key in HAND_KEYS]
    decoded += [Decoded("DISCARD", card=card) for card in card_ids]
    space = ActionSpace([str(parts) for parts in decoded])
    get = space.parse
    return AterialActions(
        space=space,
        keep=get("KEEP"),
        mulligan=get("MULLIGAN"),
        end_move=get("END_MOVE"),
        end_action=get("END_ACTION"),
        end_attack=get("END_ATTACK"),
        block=get("BLOCK"),
        no_block=get("NO_BLOCK"),
        move=tuple(get(f"MOVE {sq}") for sq in SQUARE_NAMES),
        to=tuple(get(f"TO {sq}") for sq in SQUARE_NAMES),
        attack=tuple(get(f"ATTACK {sq}") for sq in SQUARE_NAMES),
        target=(
            tuple(get(f"TARGET P1:{sq}") for sq in SQUARE_NAMES),
            tuple(get(f"TARGET P2:{sq}") for sq in SQUARE_NAMES),
        ),
        activate={(i, key): get(f"ACTIVATE {sq} {key}") for i, sq in enumerate(SQUARE_NAMES) for key in ACTIVATED_KEYS},
        deploy={card: get(f"DEPLOY {card}") for card in card_ids},
        hand={(card, key): get(f"HAND {card} {key}") for card in card_ids for key in HAND_KEYS},
        discard={card: get(f"DISCARD {card}") for card in card_ids},
        decoded=tuple(decoded),
    )
