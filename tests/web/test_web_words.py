"""Play that explains itself, server side (issue #35): every view names its cards in a player's words,
each game serves its glossary and how it is won, and a refused move says which rule refuses it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.games import game_class
from tests.web.helpers import ATERIAL, EDELWEISS_SKILLS, SEATS, act, create, describes_unseen, get_view, ok, to_move

DREADNOUGHT = {"decks": {"P1": "ember_spark", "P2": "tide_grove"}, "casters": {"P1": None, "P2": None}, "cards": None}
GAMES = [("edelweiss", EDELWEISS_SKILLS), ("aterial", ATERIAL), ("dreadnought", DREADNOUGHT)]
ENTRY_KEYS = {"name", "stats", "abilities", "keywords"}
STATIC = Path(__file__).resolve().parents[2] / "src" / "cardlab" / "web" / "static"


def entry_texts(entry: dict) -> list[str]:
    return [entry["name"], entry["stats"], *entry["abilities"]]


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_every_view_names_its_cards_in_player_words(client: Any, game: str, config: Any) -> None:
    """A seat's own hand is described, as the game describes it, without engine notation; the cards
    described are cards the view shows (a spectator's too)."""
    created = create(client, game, config, seed=5)
    game_id, tokens = created["id"], created["tokens"]
    built = game_class(game).from_config(config)
    glossary = built.glossary()
    described: set[str] = set()
    for _ in range(80):
        views = {seat: get_view(client, game_id, tokens[seat] if seat else None) for seat in (*SEATS, None)}
        for seat, view in views.items():
            assert not describes_unseen(view), (seat, describes_unseen(view))
            for word, entry in view["cards"].items():
                assert set(entry) == ENTRY_KEYS
                words = built.card_words(word)
                assert words is not None and entry["name"] == words.name and entry["abilities"] == list(words.abilities)
                assert all(not ENGINE_NOTATION.search(text) for text in entry_texts(entry)), entry
                assert set(entry["keywords"]) <= set(glossary), entry["keywords"]
            if seat is not None:
                hand = view["observation"]["players"][seat]["hand"]
                own = [card.split(":")[0] for card in hand] if isinstance(hand, list) else []
                assert set(own) <= set(view["cards"]), (own, sorted(view["cards"]))
                described |= set(own)
        if views[None]["status"] == "over":
            break
        mover = to_move(views[None])
        act(client, game_id, tokens[mover], views[mover]["legal"][-1])
    assert described, "some hand was described"


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_the_glossary_and_how_to_win(client: Any, game: str, config: Any) -> None:
    default = game_class(game)()
    served = ok(client.get(f"/api/glossary/{game}"))
    assert served["how_to_win"] == default.how_to_win() and served["how_to_win"]
    assert served["glossary"] == dict(default.glossary()) and len(served["glossary"]) >= 10
    assert list(served["glossary"]) == list(default.glossary())  # in the game's own order
    created = create(client, game, config, seed=1)
    built = game_class(game).from_config(config)
    own = ok(client.get(f"/api/games/{created['id']}/glossary"))
    assert own["glossary"] == dict(built.glossary()) and own["how_to_win"] == built.how_to_win()


def test_a_game_glossary_follows_its_configuration(client: Any) -> None:
    """Edelweiss's skills read differently under the Accel 2 standard (E8): the game's page shows its own."""
    symbolic = create(client, "edelweiss", {**EDELWEISS_SKILLS, "standard": "symbolic"}, seed=1)
    accel = create(client, "edelweiss", EDELWEISS_SKILLS, seed=1)
    texts = [ok(client.get(f"/api/games/{g['id']}/glossary"))["glossary"]["Guardian"] for g in (symbolic, accel)]
    assert texts[0] != texts[1]


def test_unknown_games_and_glossaries_are_refused_with_a_reason(client: Any) -> None:
    body = ok(client.get("/api/glossary/chess"), 404)
    assert "unknown game 'chess'" in body["error"]
    assert "no game" in ok(client.get("/api/games/nope/glossary"), 404)["error"]


def _aterial_unaffordable(client: Any) -> tuple[dict, str, dict, str]:
    """P1's action phase with a hand card P1 cannot deploy anywhere: the game, token, view and card."""
    created = create(client, "aterial", {**ATERIAL, "first": "P1"}, seed=2)
    game_id, tokens = created["id"], created["tokens"]
    for _ in range(400):
        view = get_view(client, game_id, tokens["P1"])
        mover = to_move(view)
        if mover == "P1" and view["observation"]["window"] == "action":
            deployable = {a.split()[1] for a in view["legal"] if a.startswith("DEPLOY ")}
            stuck = [card for card in view["observation"]["players"]["P1"]["hand"] if card not in deployable]
            if stuck:
                return created, tokens["P1"], view, stuck[0]
        legal = get_view(client, game_id, tokens[mover])["legal"]
        preferred = [a for a in legal if a.startswith(("KEEP", "DEPLOY", "TO ", "END_"))]
        act(client, game_id, tokens[mover], (preferred or legal)[0])
    pytest.fail("no unaffordable card came up")


def test_a_card_that_cannot_be_played_says_why(client: Any) -> None:
    created, token, view, card = _aterial_unaffordable(client)
    game_id = created["id"]
    live = client.app.state.manager.get(game_id)
    action = f"DEPLOY {card}"
    expected = live.state.why_illegal(live.game.parse_action(action))
    assert expected  # Aterial explains it in the rules' words (A11.2, A11.3)
    answer = ok(client.post(f"/api/games/{game_id}/explain", json={"token": token, "action": action}))
    assert answer == {"action": action, "legal": False, "reason": expected}
    assert get_view(client, game_id, token)["version"] == view["version"]  # asking plays nothing
    refused = ok(client.post(f"/api/games/{game_id}/actions", json={"token": token, "action": action}), 409)
    assert refused["error"] == f"illegal action {action!r}: {expected}"
    legal = view["legal"][0]
    answer = ok(client.post(f"/api/games/{game_id}/explain", json={"token": token, "action": legal}))
    assert answer == {"action": legal, "legal": True, "reason": ""}


def test_explanations_are_refused_with_a_reason(client: Any) -> None:
    created = create(client, "aterial", {**ATERIAL, "first": "P1"}, seed=2)
    game_id, tokens = created["id"], created["tokens"]
    mover = to_move(get_view(client, game_id, tokens["P1"]))
    waiter = "P2" if mover == "P1" else "P1"
    url = f"/api/games/{game_id}/explain"
    refused = ok(client.post(url, json={"token": tokens[waiter], "action": "KEEP"}), 409)
    assert f"not {waiter}'s turn" in refused["error"]
    ok(client.post(url, json={"token": "nope", "action": "KEEP"}), 403)
    ok(client.post(url, json={"token": tokens[mover], "action": "X" * 201}), 422)
    ok(client.post(url, json={"token": tokens[mover]}), 422)
    ok(client.post("/api/games/nope/explain", json={"token": tokens[mover], "action": "KEEP"}), 404)
    answer = ok(client.post(url, json={"token": tokens[mover], "action": "FLY AWAY"}))
    assert answer["legal"] is False and answer["reason"]  # text the game cannot read says so


def test_a_replay_names_its_cards_in_words(client: Any) -> None:
    created = create(client, "aterial", ATERIAL, seed=3)
    game_id, tokens = created["id"], created["tokens"]
    for _ in range(30):
        view = get_view(client, game_id, None)
        mover = to_move(view)
        act(client, game_id, tokens[mover], get_view(client, game_id, tokens[mover])["legal"][0])
    replay = ok(client.get(f"/api/games/{game_id}/replay"))
    shown = {unit["card"] for frame in replay["frames"] for p in frame["observation"]["players"].values()
             for unit in p["field"].values() if unit}  # fmt: skip
    assert shown and shown <= set(replay["cards"])


DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


def test_the_front_end_uses_only_glyphs_a_plain_debian_font_has() -> None:
    """Every character the pages, boards and styles can show is in DejaVu Sans (Debian's default font):
    an emoji such as a shield would be an empty box without an emoji font."""
    ttlib = pytest.importorskip("fontTools.ttLib")
    if not (DEJAVU / "DejaVuSans.ttf").is_file():
        pytest.skip("DejaVu Sans is not installed (apt-get install fonts-dejavu-core)")
    covered: set[int] = set()
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf"):
        covered |= set(ttlib.TTFont(DEJAVU / name).getBestCmap())
    assets = [Path(str(path)) for game, _ in GAMES for path in game_class(game).web_assets().values()]
    files = [*STATIC.iterdir(), *assets]
    missing = {
        f"{path.name}:{number}: {char!r}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for char in line
        if ord(char) > 127 and ord(char) not in covered
    }
    assert not missing, sorted(missing)
    assert any("♥" in path.read_text(encoding="utf-8") for path in files)  # the search does read the files
