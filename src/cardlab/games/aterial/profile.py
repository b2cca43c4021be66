"""The catalog profile of Soukoku no Aterial (shared/rules/aterial.md), shown by `cardlab games`."""

from __future__ import annotations

from cardlab.core.profile import GameProfile, ProfileEntry

PROFILE = GameProfile(
    title="Soukoku no Aterial",
    summary=(
        "A two-player TCG in which each player's leader and subordinates fight on a 2x3 grid: a card is deployed "
        "where the adjacent units supply enough dominance, and attacks reach the facing and diagonal enemy squares."
    ),
    players=ProfileEntry("2", "A1.1", "three or more players are not supported"),
    deck=ProfileEntry(
        "30 subordinate cards, at most 4 per name, plus 1 leader kept outside the deck",
        "A5.1, A5.2, A5.3, A5.4",
        "any leader goes with any legal deck",
    ),
    starting_life=ProfileEntry(
        "the leader's LP (20-22 for the sample leaders)",
        "A6.5, A4.3, A21.2",
        "healing never raises LP above this starting value (A14.4)",
    ),
    opening_hand=ProfileEntry("5 cards", "A6.3"),
    hand_limit=ProfileEntry(
        "6, enforced only at the end of the player's own turn (discard down to 6)",
        "A13.2, A13.3",
        "no maximum during the turn; the opponent's hand is never adjusted",
    ),
    mulligan=ProfileEntry(
        "once, optional: draw a new 5-card hand, then shuffle the old one back into the deck",
        "A6.4",
        "the first player decides first",
    ),
    first_turn=ProfileEntry(
        "the first player has no attack phase on turn 1",
        "A12.1",
        "that player still draws (A9.2); both players may deploy from their first turn (A11.8)",
    ),
    library_out=ProfileEntry(
        "a player who must draw from an empty deck loses",
        "A9.3, A15.2",
        "an empty deck alone is no loss; draws made by abilities count too (A16.8)",
    ),
    summoning_sickness=ProfileEntry(
        "none: a subordinate deployed in the front row may attack the same turn",
        "A11.4",
        "it cannot move until its owner's next turn (A10.8)",
    ),
    damage_carried=ProfileEntry(
        "damage stays on a subordinate until its owner's next recovery phase; LP loss stays",
        "A8.1, A14.1, A14.4",
        "hits taken during one turn add up; leaders take no damage, only LP loss",
    ),
    win_conditions=ProfileEntry(
        "the opponent's leader at 0 LP or less, or the opponent unable to make a required draw",
        "A1.3, A15.1, A15.2",
        "a player may concede (A15.3); both losing at once is a draw (A15.5)",
    ),
)
