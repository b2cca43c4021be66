"""Edelweiss's rule options (issue #17): the rulings of E13 a designer may want to change.

Defaults are the spec's rulings, so a config without `rules` plays the game as specified. The
reference engine, the CPU and JAX kernels and the compiled search honour every option.
"""

from __future__ import annotations

from cardlab.core.rules import RuleOption

RULE_OPTIONS = (
    RuleOption(
        "first_draw", "E3.2", "yes", ("yes", "no"),
        "no: the first player skips the draw step of turn 1 (every later draw step as usual)",
    ),
    RuleOption(
        "opening_hand", "E1.4", "standard", ("standard", "3", "4", "5", "6"),
        "cards each player takes at set-up: standard is 4, or 5 in a skills game (E7.1)",
    ),
    RuleOption(
        "accel2_guardian", "E8.1", "spades", ("spades", "symbolic_too"),
        "symbolic_too: under Accel 2, Guardian keeps the Symbolic field guard (any tapped card when the "
        "hand is empty) besides its spade field guard",
    ),
    RuleOption(
        "symbolic_field_guard", "E8.1", "any_suit", ("any_suit", "spades"),
        "spades: the Symbolic field guard may discard a tapped spade only",
    ),
    RuleOption(
        "deck_out_tie", "E6.2", "P2", ("P2", "draw"),
        "draw: a deck-out with equal hands is a draw instead of a win for the second player",
    ),
    RuleOption(
        "accel2_protection", "E8.5", "as_written", ("as_written", "none", "club_still_owed", "defender"),
        "Accel 2's protection (the spec calls its reading uncertain): as_written, tapping an upright club "
        "replaces the counter's discard; none, no protection (the counter is paid as under Symbolic); "
        "club_still_owed, the tap keeps the spade but another upright club is still discarded if there is "
        "one; defender, the attacker countered by a Guardian or Poison Bind holder protects, not the holder",
    ),
    RuleOption(
        "poison_bind_trigger", "E8.4", "any_counter", ("any_counter", "diamond_guard"),
        "diamond_guard: Poison Bind taps a club only after a diamond guard from the hand, not after its owner's "
        "Guardian field guard",
    ),
    RuleOption(
        "poison_bind_timing", "E8.4", "before_counter", ("before_counter", "after_counter"),
        "after_counter: Poison Bind taps the attacker's club once the counter is paid (so it can no longer take "
        "the club the attacker meant to pay or protect with, but it can take the one meant for pursuit)",
    ),
)  # fmt: skip
