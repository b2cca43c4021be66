"""The catalog profile of Arcana Fight! Edelweiss (shared/rules/edelweiss.md), shown by `cardlab games`."""

from __future__ import annotations

from cardlab.core.profile import GameProfile, ProfileEntry

PROFILE = GameProfile(
    title="Arcana Fight! Edelweiss",
    summary=(
        "A two-player tactics game for ordinary playing cards in which only suits matter: spades attack, "
        "hearts block, clubs support and diamonds punish an attack with a counter."
    ),
    players=ProfileEntry("2", "E0.1"),
    deck=ProfileEntry(
        "52 cards (full), 36 (short/skills: 2-10 only), one deck shared by both players",
        "E1.1, E1.2",
        "no deck building, no jokers; a skills game sets the queens and kings aside for choosing skills and plays "
        "one standard, Symbolic or Accel 2 (E7.1, E7.4)",
    ),
    starting_life=ProfileEntry(
        "none",
        "E6.1, E6.3",
        "there is no life total: a single attack the defender does not defend wins the game",
    ),
    opening_hand=ProfileEntry("4 cards (full/short), 5 (skills)", "E1.4"),
    hand_limit=ProfileEntry("none", "E1.5", "no limit on cards in hand or on a field"),
    mulligan=ProfileEntry("none", "E1.5"),
    first_turn=ProfileEntry(
        "nobody can attack in their first turn",
        "E3.3, E4.2",
        "a spade always enters the field tapped; the first player still draws on turn 1 (E3.2)",
    ),
    library_out=ProfileEntry(
        "the game ends when a draw step finds the deck empty: the larger hand wins, a tie goes to the second player",
        "E3.2, E6.2",
        "taking the last card does not end the game; only hand cards are counted",
    ),
    summoning_sickness=ProfileEntry(
        "in effect: a summoned spade or club enters tapped, a heart upright",
        "E4.2, E3.3",
        "a new spade can attack from its owner's next turn; with the Wizard skill clubs enter upright (E8.3)",
    ),
    damage_carried=ProfileEntry(
        "not applicable: there is no damage",
        "E5.3, E6.1",
        "an attack is either defended or wins at once; what carries over is tapped cards, until their owner's "
        "next draw step (E3.3)",
    ),
    win_conditions=ProfileEntry(
        "an attack the defender does not defend; or, at deck-out, the larger hand (tie: second player)",
        "E6.1, E6.2, E6.3",
        "no other way to win or lose, and no drawn games",
    ),
)
