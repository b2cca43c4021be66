"""Aterial's rule options (issues #17, #33): the rulings of shared/rules/aterial.md a designer may want to change.

Defaults are the spec's rulings, so a config without `rules` plays the game as specified. The
reference engine (`state.py`) honours every option; `Aterial.__init__` turns them into flags once
(the first five as attributes of the game, the A19 rulings of issue #33 as `game.flags`, a `RuleFlags`).
The rulings that are not options, and why, are in docs/rulings.md ("Rule options").
"""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.core.rules import RuledConfig, RuleOption

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
        "hand_limit", "A13.2", "6", ("6", "4", "5", "7", "8", "none"),
        "the hand size the end-of-turn hand adjustment discards down to; none: no hand adjustment at all",
    ),
    # The A19 rulings a player could read otherwise (issue #33), in the spec's order.
    RuleOption(
        "mulligan", "A6.4", "redraw_first", ("redraw_first", "shuffle_first"),
        "shuffle_first: the set-aside hand is shuffled into the deck before the 5 new cards are drawn, "
        "so the new hand may hold some of the old cards (R12)",
    ),
    RuleOption(
        "draw_count", "A9.1", "1", ("1", "2"),
        "2: each draw phase draws two cards (R3; first_draw still decides turn 1)",
    ),
    RuleOption(
        "deployed_move", "A10.8", "no", ("no", "yes"),
        "yes: units move during the action phase, between deployments, instead of in a move phase "
        "before it, so a subordinate deployed this turn may move (still one move a unit, A10.4; R17)",
    ),
    RuleOption(
        "leader_supplies", "A11.2", "yes", ("yes", "no"),
        "no: the leader supplies no dominance; only subordinates do (R1)",
    ),
    RuleOption(
        "zero_cost", "A11.7", "anywhere", ("anywhere", "supplied"),
        "supplied: a cost-0 subordinate needs a square supplied at least 1 dominance, like any "
        "other card needs its cost (R11)",
    ),
    RuleOption(
        "engaged_row", "A12.4", "defender", ("defender", "both"),
        "both: a player whose front row is empty attacks from its back row as if it were the front row, "
        "as the defender's back row is attacked (R6)",
    ),
    RuleOption(
        "blocker_state", "A12.5", "any", ("any", "ready"),
        "ready: only a ready subordinate may block, and blocking makes it acted, so a unit that attacked "
        "in its own turn cannot block and each blocks at most once a turn (R7)",
    ),
    RuleOption(
        "blocked_attack", "A12.5", "front", ("front", "side"),
        "side: a blocked attack stays a side attack, so flank still adds to it (R8)",
    ),
    RuleOption(
        "retaliation", "A12.7", "no", ("no", "yes"),
        "yes: the target deals its effective attack back to a subordinate attacker at the same time "
        "(armor applies; a leader takes no damage, A14.4) (R9)",
    ),
    RuleOption(
        "leader_attacks", "A12.10", "yes", ("yes", "no"),
        "no: the leader is never an eligible attacker (A12.3); it still supplies dominance (R4)",
    ),
    RuleOption(
        "deck_out", "A15.2", "draw", ("draw", "empty"),
        "empty: a player loses as soon as their deck is empty (at the state check after the draw that "
        "empties it), not at the next draw (R16)",
    ),
    RuleOption(
        "siege_pierce", "A17.23", "no", ("no", "yes"),
        "yes: siege also adds to the LP a pierce attack takes (when its excess is above 0) (R23)",
    ),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class RuleFlags:
    """The issue #33 options as the engine reads them on its hot paths (all False / 1 / 0 at the defaults)."""

    shuffle_first: bool = False
    """mulligan=shuffle_first (A6.4)."""
    draw_count: int = 1
    """draw_count (A9.1): cards each draw phase draws."""
    action_moves: bool = False
    """deployed_move=yes (A10.8): moves are made in the action phase; there is no move window."""
    leader_supplies: bool = True
    """leader_supplies (A11.2)."""
    min_supply: int = 0
    """zero_cost=supplied (A11.7): a deployment needs supply >= max(cost, min_supply)."""
    back_row_attacks: bool = False
    """engaged_row=both (A12.4): with an empty own front row, back-row units attack."""
    blocker_ready: bool = False
    """blocker_state=ready (A12.5): blocking needs a ready blocker and makes it acted."""
    blocked_side: bool = False
    """blocked_attack=side (A12.5): a blocked attack stays a side attack."""
    retaliation: bool = False
    """retaliation=yes (A12.7)."""
    leader_attacks: bool = True
    """leader_attacks (A12.10)."""
    deck_out_empty: bool = False
    """deck_out=empty (A15.2)."""
    siege_pierce: bool = False
    """siege_pierce=yes (A17.23)."""

    @classmethod
    def of(cls, config: RuledConfig) -> RuleFlags:
        rule = config.rule
        return cls(
            shuffle_first=rule("mulligan") == "shuffle_first",
            draw_count=int(rule("draw_count")),
            action_moves=rule("deployed_move") == "yes",
            leader_supplies=rule("leader_supplies") == "yes",
            min_supply=1 if rule("zero_cost") == "supplied" else 0,
            back_row_attacks=rule("engaged_row") == "both",
            blocker_ready=rule("blocker_state") == "ready",
            blocked_side=rule("blocked_attack") == "side",
            retaliation=rule("retaliation") == "yes",
            leader_attacks=rule("leader_attacks") == "yes",
            deck_out_empty=rule("deck_out") == "empty",
            siege_pierce=rule("siege_pierce") == "yes",
        )
