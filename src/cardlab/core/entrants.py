"""A designer's own entrants in a balance table: their deck and card files, every problem listed first.

`--entrants ID_OR_FILE[:OVERRIDE],...` names the table's entrants in a deck-building game: a deck (a packaged
id or a deck file) and, after `:`, what replaces the deck's own part of it (a leader, a caster pair; the
deck's own when left out); an entrant id of the default table (`D1/L01`) is accepted as written.
`--cards FILE` (repeatable) adds card files to the packaged set. Before anything is played every file and
entrant is checked, and every problem is reported at once (file, line, rule id); nothing is played while
one remains.

Each entrant's id in the table is `DECK/OVERRIDE`, DECK being a packaged id or the deck file's name
without `.toml`, and the table names it in words (the deck's name and its leader's or casters' names).
Tables of other entrants or other cards are other tables: their variant name carries a hash of what
decides their games (the entrants, the deck files' contents, the card files' contents), so a rerun with
the same files tops up the same table, and a changed file starts another one. They play the deals of
the game's default table (the same seeds: common random numbers).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import import_module
from pathlib import Path
from typing import Any

from cardlab.core.datacheck import DataProblem, DataProblems, DeckFile, card_file_problems, deck_file_problems
from cardlab.core.decks import SeatDecks, _exists
from cardlab.core.errors import CardlabError
from cardlab.core.plugin import Matchups

ENTRANTS_FLAG = "--entrants"


@dataclass(frozen=True)
class Entrant:
    """One entrant of a table of own decks: its id, how it was written, and what seats it."""

    id: str
    text: str
    deck: str
    """The config's deck: a packaged id, or the deck file's absolute path."""
    override: str | None
    name: str


def split_entrant(text: str, packaged: Sequence[str], default_ids: Sequence[str]) -> tuple[str, str | None]:
    """(deck, override or None) of `DECK[:OVERRIDE]`; a default table's id `DECK/OVERRIDE` as written there."""
    if text in default_ids:
        deck, _, override = text.partition("/")
        return deck, override
    deck, sep, override = text.rpartition(":")
    if not sep or (_exists(text) and not _exists(deck) and deck not in packaged):  # `C:\\deck.toml`
        return text, None
    return deck, override.strip() or None


def _digest(parts: Sequence[str | bytes]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:10]


def _label(path: str, taken: set[str]) -> str:
    """The deck part of a file entrant's id: the file's name without `.toml`, in letters, digits, `_` and `.`
    (a `-` would split the table's cell names), made unique."""
    base = re.sub(r"[^A-Za-z0-9_.]", "_", Path(path).stem) or "deck"
    label, number = base, 2
    while label in taken:
        label, number = f"{base}_{number}", number + 1
    return label


def _id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_./+]", "_", text)


def deck_matchups(
    cls: type[SeatDecks[Any]], base: Matchups, texts: Sequence[str], card_files: Sequence[str]
) -> Matchups:
    """The game's default table `base` with the entrants `texts` (all of `base`'s when empty) and the card
    files added to the packaged set; a `DataProblems` listing every problem of the files and entrants."""
    data = import_module(cls.cards_module)
    rules = cls.data_rules
    card_paths = [Path(path) for path in card_files]
    problems: list[DataProblem] = card_file_problems(card_paths, data.sample_cards(), data.parse_card, rules)
    cards = tuple(str(path.resolve()) for path in card_paths) if card_paths else None
    packaged = tuple(cls.packaged_decks)
    specs = [text.strip() for text in texts] if texts else list(base.entrants)
    if any(not spec for spec in specs):
        raise CardlabError(f"{ENTRANTS_FLAG} takes entrants separated by commas, with none empty")
    templates = [data.packaged_deck_file(deck_id) for deck_id in packaged]
    files: dict[Path, DeckFile] = {}
    labels: dict[Path, str] = {}
    taken = set(packaged)
    entrants: list[Entrant] = []
    unchecked = 0
    for spec in specs:
        where = f"{ENTRANTS_FLAG} {spec}"
        deck, override = split_entrant(spec, packaged, base.entrants)
        file: DeckFile | None = None
        if deck in packaged:
            label, value = deck, deck
        elif _exists(deck):
            path = Path(deck).resolve()
            if path not in files:
                files[path] = deck_file_problems(Path(deck), data.parse_deck, templates, rules)
                problems += files[path].problems
                labels[path] = _label(deck, taken)
                taken.add(labels[path])
            file, label, value = files[path], labels[path], str(path)
        else:
            message = f"{deck!r} is neither a packaged deck nor a deck file; packaged decks: {', '.join(packaged)}"
            problems.append(DataProblem(where, None, rules.of("deck", "", ""), message))
            continue
        if (file is not None and file.deck is None) or card_problems(problems, card_paths):
            unchecked += 1  # deck rules are checked once the deck file and the card files read
            continue
        entrant = _checked_entrant(cls, spec, where, label, value, override, cards, file, problems)
        if entrant is not None:
            entrants.append(entrant)
    if not problems:
        seen: dict[str, str] = {}
        for entrant in entrants:
            if entrant.id in seen:
                message = f"the same entrant as {seen[entrant.id]} ({entrant.id}); each entrant is listed once"
                problems.append(DataProblem(f"{ENTRANTS_FLAG} {entrant.text}", None, "", message))
            seen[entrant.id] = entrant.text
    if problems:
        note = "" if not unchecked else (
            f"({unchecked} of the entrants' decks are checked against the deck rules once their files read)"
        )  # fmt: skip
        raise DataProblems(problems, note)
    if len(entrants) < 2:
        raise CardlabError(f"a table needs at least two entrants; {ENTRANTS_FLAG} names {len(entrants)}")
    return _matchups(cls, base, entrants, texts, card_paths, cards)


def card_problems(problems: Sequence[DataProblem], card_paths: Sequence[Path]) -> bool:
    """Whether any problem is in a card file (then no deck is checked against the rules: its cards are unknown)."""
    names = {str(path) for path in card_paths}
    return any(problem.where in names for problem in problems)


def _checked_entrant(
    cls: type[SeatDecks[Any]],
    spec: str,
    where: str,
    label: str,
    deck: str,
    override: str | None,
    cards: tuple[str, ...] | None,
    file: DeckFile | None,
    problems: list[DataProblem],
) -> Entrant | None:
    """The entrant, after its deck's rules are checked with its override (problems added to `problems`)."""
    try:
        game = cls.from_config(cls.lab_config((deck, deck), (override, override), cards))
        written = game._read_deck(deck) if file is None else file.deck
    except (CardlabError, ValueError) as exc:  # an override not written as one, a card file a patch broke
        problems.append(DataProblem(where, None, "", str(exc)))
        return None
    seat = game._seat_deck(0, written)
    own = game._deck_problems(written)
    found = False
    for rule, message in game._deck_problems(seat):
        found = True
        if (rule, message) not in own:  # the override broke the rule (e.g. an unknown leader)
            problems.append(DataProblem(where, None, rule, message))
        elif file is not None:
            problems.append(DataProblem(str(file.path), file.line_naming(message), rule, message))
        else:
            problems.append(DataProblem(where, None, rule, f"deck {deck}: {message}"))
    if found:
        return None
    text = override or game.override_text(seat)
    return Entrant(_id(f"{label}/{text}"), spec, deck, override, game.deck_title(seat))


def _matchups(
    cls: type[SeatDecks[Any]],
    base: Matchups,
    entrants: Sequence[Entrant],
    texts: Sequence[str],
    card_paths: Sequence[Path],
    cards: tuple[str, ...] | None,
) -> Matchups:
    by_id = {entrant.id: entrant for entrant in entrants}
    ids = tuple(by_id)
    if not card_paths and ids == tuple(base.entrants) and all(e.deck in cls.packaged_decks for e in entrants):
        return base  # the default table's entrants, spelled out: the default table
    parts = []
    if texts:
        identity: list[str | bytes] = []
        for entrant in entrants:
            source = entrant.deck if entrant.deck in cls.packaged_decks else Path(entrant.deck).read_bytes()
            identity += [entrant.id, source, entrant.override or ""]
        parts.append(f"entrants={_digest(identity)}")
    if card_paths:
        parts.append(f"cards={_digest([path.read_bytes() for path in card_paths])}")

    def config(first: str, second: str) -> dict[str, Any]:
        one, two = by_id[first], by_id[second]
        return cls.lab_config((one.deck, two.deck), (one.override, two.override), cards)

    sources: Mapping[str, Any] = {
        "entrant_names": {entrant.id: entrant.name for entrant in entrants},
        "entrant_sources": {entrant.id: entrant.text for entrant in entrants},
        **({"card_files": [str(path) for path in card_paths]} if card_paths else {}),
    }
    fields = {**base.summary_fields, **sources}
    variant = "+".join([base.variant, *parts])
    return replace(base, variant=variant, entrants=ids, config=config, summary_fields=fields, deals=base.deal_variant)
