"""Aterial in a player's words: each card, each ability keyword and the key rules (A4, A17), one source
for the terminal, the browser and `cardlab games`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from cardlab.core.cardwords import CardWords
from cardlab.games.aterial.cards import ANY_RACE, Ability, CardDef

if TYPE_CHECKING:
    from cardlab.games.aterial.game import Aterial


def _aura(ability: Ability) -> str:
    gains = " and ".join(f"+{value} {label}" for value, label in ((ability.attack, "ATK"), (ability.hp, "HP")) if value)
    race = "" if ability.race == ANY_RACE else f"{ability.race} "
    return f"Aura: every other friendly {race}subordinate gets {gains}."


ABILITY_WORDS: dict[str, tuple[str, Callable[[Ability], str]]] = {
    "cannot_attack": ("cannot attack", lambda a: "Cannot attack."),
    "evasive": ("evasive", lambda a: "Evasive: its attacks cannot be blocked."),
    "ranged": ("ranged", lambda a: "Ranged: may attack from the back row too."),
    "armor": ("armor", lambda a: f"Armor {a.amount}: each hit on it deals {a.amount} less damage."),
    "pierce": (
        "pierce",
        lambda a: "Pierce: when its attack destroys a subordinate, the enemy leader loses the damage left over as LP.",
    ),
    "flank": ("flank", lambda a: f"Flank {a.amount}: +{a.amount} ATK when it makes a side attack."),
    "siege": ("siege", lambda a: f"Siege {a.amount}: its attacks on the enemy leader take {a.amount} more LP."),
    "kinship": ("kinship", lambda a: f"Kinship: +{a.amount} ATK while another friendly {a.race} stands next to it."),
    "aura": ("aura", _aura),
    "wide_reach": ("wide reach", lambda a: "Wide reach: also supplies its dominance to diagonal squares."),
    "rear_support": ("rear support", lambda a: f"Rear support: +{a.amount} dominance while in the back row."),
    "nimble": ("nimble", lambda a: "Nimble: may move twice in the move phase."),
    "deploy_draw": ("deploy draw", lambda a: f"When deployed: draw {_cards(a.amount)}."),
    "deploy_strike": (
        "deploy strike",
        lambda a: f"When deployed: deal {a.amount} damage to an enemy subordinate of your choice.",
    ),
    "deploy_heal": ("deploy heal", lambda a: f"When deployed: your leader gains {a.amount} LP."),
    "farewell_heal": ("farewell heal", lambda a: f"When destroyed: your leader gains {a.amount} LP."),
    "tap_heal": ("tap heal", lambda a: f"Tap heal: tap it in your action phase; your leader gains {a.amount} LP."),
    "tap_snipe": (
        "tap snipe",
        lambda a: f"Tap snipe: tap it in your action phase to deal {a.amount} damage to an enemy subordinate.",
    ),
    "devour": (
        "devour",
        lambda a: f"Devour: once a turn, remove a subordinate card of your discard pile from the "
        f"game; it gets +{a.amount} ATK this turn.",
    ),
    "hand_rally": (
        "hand rally",
        lambda a: f"Hand rally: discard it from your hand; a friendly unit gets +{a.amount} ATK this turn.",
    ),
    "hand_cycle": ("hand cycle", lambda a: "Hand cycle: discard it from your hand to draw a card."),
}
"""A17: each ability key -> its glossary word and its text on a card."""


def _cards(count: int) -> str:
    return "a card" if count == 1 else f"{count} cards"


GLOSSARY: dict[str, str] = {
    "cannot attack": "This unit is never declared as an attacker (A17.1).",
    "evasive": "A side attack by this unit cannot be blocked (A17.2, A12.5).",
    "ranged": "This unit may attack from its back row too, reaching the squares it would reach from the front "
    "square of its column (A17.3).",
    "armor": "Every hit on this subordinate, by attack or ability, is reduced by the armor value; it never "
    "protects LP (A17.4, A14.2).",
    "pierce": "When this unit's attack destroys a subordinate, the enemy leader also loses the damage beyond "
    "what the target had left (A17.5).",
    "flank": "Extra attack while this unit makes a side attack; a blocked attack is a front attack, so no "
    "bonus then (A17.6, A12.5).",
    "siege": "An attack by this unit on the enemy leader takes that much more LP, even for a cost-0 unit; "
    "never added to pierce (A17.7, A17.23).",
    "kinship": "Extra attack while another friendly unit of the named race (the leader counts) stands "
    "orthogonally next to this one (A17.8).",
    "aura": "Every other friendly subordinate of the named race gets the listed ATK and HP while this unit is "
    "on the field (A17.9).",
    "wide reach": "This unit supplies its dominance to the diagonal squares of its own field as well (A17.10, A11.2).",
    "rear support": "Extra dominance while this unit stands in its back row (A17.11).",
    "nimble": "This unit may make two moves in a move phase instead of one (A17.12, A10.4).",
    "deploy draw": "When this subordinate is deployed, its controller draws cards; a draw from an empty deck "
    "loses (A17.13, A15.2).",
    "deploy strike": "When this subordinate is deployed, its controller deals damage to one enemy subordinate "
    "of their choice (A17.14).",
    "deploy heal": "When this subordinate is deployed, its controller's leader gains LP, never above its "
    "starting LP (A17.15, A14.4).",
    "farewell heal": "When this subordinate is destroyed (not when retired), its owner's leader gains LP "
    "(A17.16, A14.7).",
    "tap heal": "In your action phase, tap this ready unit: your leader gains LP, never above its starting LP; "
    "a tapped unit cannot attack this turn (A17.17, A16.4).",
    "tap snipe": "In your action phase, tap this ready unit to deal damage to one enemy subordinate (A17.18, A16.4).",
    "devour": "Once a turn, without tapping, remove a subordinate card of your discard pile from the game: this "
    "unit gets extra attack until end of turn (A17.19).",
    "hand rally": "In your action phase, discard this card from your hand: a friendly unit gets extra attack "
    "until end of turn (A17.20, A16.5).",
    "hand cycle": "In your action phase, discard this card from your hand to draw one card (A17.21, A16.5).",
    "leader": "Your leader starts on the field and never leaves it; it has LP instead of HP and you lose when "
    "it reaches 0 LP (A1.2, A14.5, A15.1).",
    "subordinate": "Every card of your deck: deployed from the hand onto an empty square of your field (A4.3, A11.3).",
    "cost": "A subordinate's cost is never paid: it is the dominance a square needs for it to be deployed "
    "there, and the LP it takes when it attacks the enemy leader (A1.4, A11.3, A12.7).",
    "dominance": "Each unit supplies its dominance to the squares orthogonally next to it; a card can be "
    "deployed on an empty square whose supply is at least its cost (A11.2, A11.3).",
    "deploy": "Put a subordinate from your hand on an empty square of your field whose dominance supply covers "
    "its cost; it may attack this very turn (A11.3, A11.4).",
    "move": "In your move phase each unit may step once to an empty orthogonal square of your field; the "
    "leader may step onto a subordinate, which is retired (A10.2-A10.4).",
    "front attack": "An attack on the unit on the square facing the attacker; it cannot be blocked (A12.4).",
    "side attack": "An attack on a unit diagonal to the attacker; the subordinate facing the attacker may "
    "block it (A12.4, A12.5).",
    "engaged row": "The defender's front row, or the back row when the front row is empty: attacks reach only "
    "that row (A12.4).",
    "block": "Against a side attack, the defender may let the subordinate facing the attacker take it instead; "
    "the attack becomes a front attack (A12.5).",
    "attack": "A ready unit in your front row (or a ranged one) attacks the facing or a diagonal enemy unit of "
    "the engaged row; attacking makes it acted (A12.3, A12.4).",
    "damage": "An attack deals its ATK as damage to a subordinate; the target deals none back. Damage stays "
    "until the start of its controller's next turn (A12.7, A8.1).",
    "LP loss": "An attack on a leader takes LP equal to the attacker's cost (plus siege), whatever its ATK "
    "(A12.7, A14.6).",
    "destroyed": "A subordinate whose damage reaches its HP goes to the discard pile (A14.3).",
    "retire": "A subordinate leaving the field for any reason goes to its owner's discard pile; only one "
    "destroyed by damage counts as destroyed (A14.7).",
    "ready": "A unit that has not attacked or tapped this turn; every unit becomes ready at its controller's "
    "turn start (A8.2, A12.3).",
    "acted": "A unit that attacked or tapped this turn: it cannot attack again until its controller's next "
    "turn (A12.3, A16.4).",
    "tap": "Make a ready unit acted to pay for an ability; it cannot attack later this turn (A16.4).",
    "recovery": "At the start of your turn all damage on your subordinates is removed and your units become "
    "ready (A8.1, A8.2).",
    "hand limit": "At the end of your turn you discard down to 6 cards (A13.2).",
    "mulligan": "Before the game you may once redraw your opening 5 cards (A6.4).",
    "race": "A card's races (human, angel, demon, beast, machine); kinship and aura read them (A4.2, A17.8, A17.9).",
}
"""Every A17 keyword and the key rules a new player meets, in player words."""

HOW_TO_WIN = (
    "Bring the enemy leader to 0 LP: an attack on it takes LP equal to the attacker's cost. "
    "A player who must draw from an empty deck loses (A15.1, A15.2, A12.7)."
)


def ability_tag(ability: Ability) -> str:
    """An ability as a short tag for lists: its glossary word and numbers ('armor 1', 'aura human +0/+1')."""
    word = ABILITY_WORDS[ability.key][0]
    if ability.key == "aura":
        return f"{word} {ability.race} +{ability.attack}/+{ability.hp}"
    if ability.key == "kinship":
        return f"{word} {ability.race} +{ability.amount}"
    return f"{word} {ability.amount}" if ability.amount else word


def ability_text(ability: Ability) -> str:
    return ABILITY_WORDS[ability.key][1](ability)


def card_words_of(card: CardDef) -> CardWords:
    """A loaded card in player words (A4.2-A4.4, A17)."""
    life = f"LP {card.lp}" if card.type == "leader" else f"HP {card.hp}"
    stats = [f"cost {card.cost}", f"ATK {card.attack}", life, f"dominance {card.dominance}"]
    if card.type == "leader":
        stats.insert(0, "leader")
    if card.races:
        stats.append("/".join(sorted(card.races)))
    keywords = tuple(dict.fromkeys(ABILITY_WORDS[ability.key][0] for ability in card.abilities))
    return CardWords(
        f"{card.id} {card.name}", " · ".join(stats), tuple(ability_text(a) for a in card.abilities), keywords
    )


def card_words(game: Aterial, card: str) -> CardWords | None:
    """The card with id or name `card` (any case) in player words; None when the game has none."""
    wanted = card.strip().upper()
    cards = game.card_set.cards
    found = cards.get(wanted) or next((c for c in cards.values() if c.name.upper() == wanted), None)
    return None if found is None else card_words_of(found)


def card_catalog(game: Aterial) -> tuple[str, ...]:
    """Every card of the game's card set (packaged and the designer's files), leaders first as filed."""
    return tuple(game.card_set.cards)


def glossary(game: Aterial) -> Mapping[str, str]:
    return GLOSSARY


def how_to_win(game: Aterial) -> str:
    return HOW_TO_WIN


# Why a game ended, as the result banner and the terminal's last line say it ({winner}, {loser}: seats).
WIN_REASONS: dict[str, str] = {
    "lp": "{loser}'s leader has no LP left",
    "deck_out": "{loser} had to draw from an empty deck",
    "concede": "{loser} conceded",
}
DRAW_REASONS: dict[str, str] = {"simultaneous_loss": "both players lost at the same time"}

# Each rule variant's values in words, for the lobby's advanced rules (rule name -> value -> words).
RULE_VALUES: dict[str, dict[str, str]] = {
    "first_draw": {"yes": "the first player draws on turn 1", "no": "the first player skips the turn-1 draw"},
    "first_turn_deploy": {"both": "both players deploy from turn 1", "second_only": "no deploy on the first turn"},
    "supply_check": {"deploy": "checked when deploying", "upkeep": "also checked each upkeep"},
    "heal_cap": {"starting_lp": "healing stops at the starting LP", "none": "healing has no cap"},
    "hand_limit": {**{limit: f"{limit} cards" for limit in ("4", "5", "6", "7", "8")}, "none": "no hand limit"},
    "mulligan": {"redraw_first": "draw a new hand, then shuffle", "shuffle_first": "shuffle the old hand in first"},
    "draw_count": {"1": "1 card a turn", "2": "2 cards a turn"},
    "deployed_move": {"no": "a move phase before deploying", "yes": "move between deployments"},
    "leader_supplies": {"yes": "the leader supplies dominance", "no": "only subordinates supply"},
    "zero_cost": {"anywhere": "cost 0 deploys anywhere", "supplied": "cost 0 needs a supplied square"},
    "engaged_row": {"defender": "only the defender's back row steps up", "both": "both back rows step up"},
    "blocker_state": {"any": "any subordinate may block", "ready": "only a ready one blocks"},
    "blocked_attack": {"front": "a blocked attack is frontal", "side": "a blocked attack stays a side attack"},
    "retaliation": {"no": "no strike back", "yes": "the target strikes back"},
    "leader_attacks": {"yes": "the leader may attack", "no": "the leader never attacks"},
    "deck_out": {"draw": "lose when drawing from an empty deck", "empty": "lose as soon as the deck is empty"},
    "siege_pierce": {"no": "siege adds nothing to pierce", "yes": "siege adds to pierce"},
}
