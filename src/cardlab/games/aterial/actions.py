"""Aterial decisions (A18.1) as a fixed action space built from the card set.

Compound choices are sequences of small decisions: `DEPLOY S14` then `TO B1`; `MOVE F1` then
`TO F0`; `ATTACK F0` then `TARGET P2:F1`; `ACTIVATE B0 tap_snipe` then `TARGET P2:F2`;
`HAND S21 hand_rally` then `TARGET P1:F1`. Squares without a seat (`F0`) are the acting
player's own; targets name the seat (`P2:F1`, A3.2 notation).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.core.actions import ActionSpace, IndexedAction
from cardlab.games.aterial.board import SQUARE_NAMES

ACTIVATED_KEYS = ("tap_heal", "tap_snipe", "devour")
HAND_KEYS = ("hand_rally", "hand_cycle")
FIXED = ("KEEP", "MULLIGAN", "END_MOVE", "END_ACTION", "END_ATTACK", "BLOCK", "NO_BLOCK")


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


def build_actions(card_ids: list[str]) -> AterialActions:
    """The action space for a card set (card ids in file order): stable for that set."""
    texts = list(FIXED)
    texts += [f"MOVE {sq}" for sq in SQUARE_NAMES]
    texts += [f"TO {sq}" for sq in SQUARE_NAMES]
    texts += [f"ATTACK {sq}" for sq in SQUARE_NAMES]
    texts += [f"TARGET {seat}:{sq}" for seat in ("P1", "P2") for sq in SQUARE_NAMES]
    texts += [f"ACTIVATE {sq} {key}" for sq in SQUARE_NAMES for key in ACTIVATED_KEYS]
    texts += [f"DEPLOY {card}" for card in card_ids]
    texts += [f"HAND {card} {key}" for card in card_ids for key in HAND_KEYS]
    texts += [f"DISCARD {card}" for card in card_ids]
    space = ActionSpace(texts)
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
        target=tuple(tuple(get(f"TARGET {seat}:{sq}") for sq in SQUARE_NAMES) for seat in ("P1", "P2")),  # type: ignore[arg-type]
        activate={(i, key): get(f"ACTIVATE {sq} {key}") for i, sq in enumerate(SQUARE_NAMES) for key in ACTIVATED_KEYS},
        deploy={card: get(f"DEPLOY {card}") for card in card_ids},
        hand={(card, key): get(f"HAND {card} {key}") for card in card_ids for key in HAND_KEYS},
        discard={card: get(f"DISCARD {card}") for card in card_ids},
    )
