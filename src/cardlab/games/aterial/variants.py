"""Aterial's rule options (issue #17): the rulings of shared/rules/aterial.md a designer may want to change.

Defaults are the spec's rulings, so a config without `rules` plays the game as specified. The
reference engine (`state.py`) honours every option; `Aterial.__init__` turns them into flags once.
"""

from __future__ import annotations

from cardlab.core.rules import RuleOption

RULE_OPTIONS = (
    RuleOption(
        "first_draw", "A9.2", "yes", ("yes", "no"),
        "no: the first player skips the draw phase of turn 1 (every later draw phase as usual)",
    ),
    RuleOption(
        "first_turn_deploy", "A11.8", "both", ("both", "second_only"),
        "second_only: the first player may not deploy a subordinate on turn 1 (abilities still allowed); "
        "the second player deploys from its first turn as usual",
    ),
    RuleOption(
        "supply_check", "A11.6", "deploy", ("deploy", "upkeep"),
        "upkeep: supply is also checked at the start of each turn, after the ready step: every subordinate "
        "of the active player whose square is supplied less than its cost is retired (A14.7, not destroyed)",
    ),
    RuleOption(
        "heal_cap", "A14.4", "starting_lp", ("starting_lp", "none"),
        "none: LP gains are not capped, so healing may raise LP above the leader's starting LP",
    ),
    RuleOption(
        "hand_limit", "A13.2", "6", ("4", "5", "6", "7", "8", "none"),
        "the hand size the end-of-turn hand adjustment discards down to; none: no hand adjustment at all",
    ),
)  # fmt: skip
