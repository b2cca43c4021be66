"""The catalog profile of Dreadnought (shared/rules/dreadnought.md), shown by `cardlab games`."""

from __future__ import annotations

from cardlab.core.profile import GameProfile, ProfileEntry

PROFILE = GameProfile(
    title="Dreadnought",
    summary=(
        "A two-player TCG in which each player defends two casters with hidden stacks of HP cards, a race of speed "
        "grades decides who acts first each turn, and any card can double as a resource."
    ),
    players=ProfileEntry(
        "2",
        "D0.2",
        "both players act in every phase; who is first player is decided anew each turn (D6)",
    ),
    deck=ProfileEntry(
        "50 cards plus 2 casters with different names; at most 4 per name unless the card sets its own limit",
        "D1.1, D3.1, D3.2, D3.3, D3.4",
        "each card's deck-building condition must match the casters' clusters",
    ),
    starting_life=ProfileEntry(
        "each caster's HP: that many cards from the deck as its HP stack (3-4 for the sample casters)",
        "D4.3, D2.4, D23.1",
        "an attack on a caster removes one HP card per 50 damage (D10.7)",
    ),
    opening_hand=ProfileEntry(
        "6 cards",
        "D4.5",
        "dealt after the HP stacks and one burst card (D4.3, D4.4)",
    ),
    hand_limit=ProfileEntry(
        "7, enforced in every end phase for both players (first player, then second)",
        "D11.2",
        "speed-area cards do not count as hand cards (D5.7)",
    ),
    mulligan=ProfileEntry(
        "once, optional, both players at the same time: discard any number of cards and draw as many",
        "D4.6",
        "the cards go to the discard pile, not back into the deck",
    ),
    first_turn=ProfileEntry(
        "none: nobody skips a draw, and the first player is decided each turn by speed",
        "D4.8, D6.5",
        "the first player draws 1 card, the second 2 (D7.1); a coin decides turn 1's tie-break token (D4.7)",
    ),
    library_out=ProfileEntry(
        "no loss: each draw from an empty deck takes one of the player's own HP cards into hand instead",
        "D20.1, D20.3",
        "with no HP card left the draw does nothing; speed reveals and bursts just do nothing (D20.2)",
    ),
    summoning_sickness=ProfileEntry("none: a unit may attack and use abilities the turn it is cast", "D8.2"),
    damage_carried=ProfileEntry(
        "no: each damage instance is compared alone and never accumulates, even within a turn",
        "D13.2, D11.5",
        "HP cards a caster loses stay lost; only hp_gain effects add HP (D13.6)",
    ),
    win_conditions=ProfileEntry(
        "both of the opponent's casters at 0 HP",
        "D21.1",
        "both players at once is a draw; a game with no result when turn 100 ends is a draw (D21.3)",
    ),
)
