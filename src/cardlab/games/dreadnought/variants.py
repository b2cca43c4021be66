"""Dreadnought's rule options (issues #17, #33): the rulings of shared/rules/dreadnought.md a designer may want to
change, or a player could read otherwise (how each alternative works: docs/rulings.md R-V6, R-VD1 to R-VD6; the
rulings that are not options and why: R-VD7).

Defaults are the spec's rulings, so a config without `rules` plays the game as specified. The reference
engine (`frames`, `decisions`), positions and the heuristic honour every option; the game precomputes
each one as a plain attribute (`Dreadnought.__init__`) so that the hot path reads no config.
"""

from __future__ import annotations

from cardlab.core.rules import RuleOption

DRAW_COUNTS = {"1_2": (1, 2), "1_1": (1, 1), "2_2": (2, 2), "0_1": (0, 1)}
"""`draw_counts` values: (F's draws, S's draws) in the draw phase (D7.1)."""

RULE_OPTIONS = (
    RuleOption(
        "draw_counts", "D7.1", "1_2", tuple(DRAW_COUNTS),
        "F_S cards drawn in the draw phase by F and by S: 1_1 drops S's catch-up card, 2_2 gives both a "
        "second card, 0_1 slows both hands (S still one ahead)",
    ),
    RuleOption(
        "draw_bursts", "D7.2", "1", ("1", "0", "2"),
        "bursts each player adds from the deck in the draw phase: 0 leaves log to HP loss and effects, "
        "2 doubles the log income",
    ),
    RuleOption(
        "library_out", "D20.2", "draws", ("draws", "every_use"),
        "every_use: an empty deck is replaced by an HP card (the player picks the caster) for every deck use, "
        "not only draws: speed reveals, draw-phase bursts, enchant and engrave material, burst and hp_gain",
    ),
    RuleOption(
        "god_draw_windows", "D17.2", "seed", ("seed", "every_window"),
        "every_window: god draws are also allowed during speed actions (D6.3-D6.4) and fast actions (D9.2)",
    ),
    RuleOption(
        "token_to", "D6.7", "second", ("second", "first"),
        "first: the tiebreak token goes to this turn's F instead of S, so the faster player also wins next "
        "turn's speed ties (no catch-up)",
    ),
    RuleOption(
        "mulligan_to", "D4.6", "discard", ("discard", "deck"),
        "deck: the set-aside cards are shuffled back into the deck before the redraw, not discarded (the discard "
        "starts empty)",
    ),
    RuleOption(
        "tie_reveals", "D6.6", "3", ("3", "0", "1", "no_limit"),
        "re-reveals on a speed tie before the token decides: 0 none, 1 one, no_limit until the speeds differ or a "
        "player cannot reveal",
    ),
    RuleOption(
        "trigger_order", "D5.5", "first", ("first", "second"),
        "second: S's simultaneous triggers resolve before F's (before F is decided: the player without the token "
        "first)",
    ),
    RuleOption(
        "reaction_first", "D10.4", "defender", ("defender", "actor"),
        "actor: the reaction right goes first to the player who attacked or played the ACTION item",
    ),
    RuleOption(
        "reactions", "D10.4", "immediate", ("immediate", "stack"),
        "stack: reactions wait until the window closes, then resolve last played first, before the action or "
        "the attack damage",
    ),
    RuleOption(
        "blocker", "D10.7", "fixed", ("fixed", "rechosen"),
        "rechosen: a blocker that leaves the attacked area before damage is replaced by the defender's new choice "
        "(and a new reaction window)",
    ),
    RuleOption(
        "bp_filter", "D22.6", "current", ("current", "printed"),
        "printed: bp filters (Riptide's bp<=120, Soul Reap's bp<=100) read printed BP, not current BP",
    ),
)  # fmt: skip

TIE_REVEAL_COUNTS = {"3": 3, "0": 0, "1": 1, "no_limit": 10**9}
"""`tie_reveals` values: re-reveals allowed on a speed tie (D6.6); no_limit ends when a deck cannot reveal."""
