"""Decks of one's own (issue 30): the Standard Game's construction rules (ruling GE-OPEN-01,
GE-EMP-MIN-01), one test per rule through the API that loads a game; deck codes round trip
over random legal decks and refuse edited, cut and foreign codes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import starlanes
from starlanes.engine import BadOptionError
from starlanes.games.galactic_empires import deck_code, decks, seat_setup
from starlanes.games.galactic_empires.content import MAJOR_EMPIRES, load_content

CONTENT = load_content()


def _legal(major: str = "argonian") -> decks.DeckList:
    return decks.from_content(CONTENT, major)


def _with(deck: decks.DeckList, **changes: int) -> decks.DeckList:
    cards = dict(deck.cards)
    for cid, k in changes.items():
        if k:
            cards[cid] = k
        else:
            cards.pop(cid, None)
    return deck.model_copy(update={"cards": cards})


def _load(deck: decks.DeckList) -> starlanes.Game:
    code = deck_code.encode(CONTENT, deck)
    return starlanes.load("galactic-empires", players=2, seed=1, structure="standard",
                          seat_setup=("", code))


def _refused(deck: decks.DeckList, rule: str, card: str = "") -> str:
    with pytest.raises(BadOptionError) as e:
        _load(deck)
    text = str(e.value)
    assert f"rule {rule}" in text and card in text
    assert [p.rule for p in decks.check(CONTENT, deck)][0] == rule
    return text


def test_packaged_standard_decks_are_legal_and_play() -> None:
    for ident, d in CONTENT.decks.items():
        if d.structure == "standard":
            assert decks.check(CONTENT, _legal(ident)) == []
    game = _load(_legal("dragon"))
    state = game.new_initial_state()
    assert state.major == ["krebiz", "dragon"]
    dealt = [c.split("#")[0] for c in state.observation(1)["players"][1]["hand"]]
    assert set(dealt) <= set(CONTENT.decks["dragon"].cards)


def test_rule_size_at_least_40_cards() -> None:
    deck = _legal()
    small = deck.model_copy(update={"cards": dict(list(deck.cards.items())[:30])})
    assert small.size < 40
    assert "cards; a Standard deck needs at least 40" in _refused(small, "GE-OPEN-01 size")


def test_rule_copies_at_most_3() -> None:
    text = _refused(_with(_legal(), arg_frigate=4), "GE-OPEN-01 copies", "arg_frigate")
    assert "4 copies of Argonian Vapor Frigate" in text


def test_rule_terrain_at_least_12() -> None:
    deck = _legal()
    cards = {cid: k for cid, k in deck.cards.items() if CONTENT.cards[cid].type != "T"}
    cards.update(blue_giant=3, red_dwarf=3, ocean_world=3, crew_gunner=3, crew_engineer=3,
                 crew_tactician=3, eq_shield_gen=3)
    thin = deck.model_copy(update={"cards": cards})
    assert thin.size >= 40
    _refused(thin, "GE-OPEN-01 terrain")


def test_rule_no_ship_of_another_major_empire() -> None:
    text = _refused(_with(_legal(), mch_drone=1), "GE-OPEN-01 empire", "mch_drone")
    assert "mechad" in text
    # minor empires and generic cards are always allowed
    assert decks.check(CONTENT, _with(_legal(), bol_corsair=1, gen_patrol=1)) == []


def test_rule_declared_major_empire() -> None:
    _refused(_legal().model_copy(update={"major": "generic"}), "GE-EMP-MIN-01")
    # a minor empire may lead a deck (GE-EMP-MIN-01), then no major empire's ships
    bolaar = _legal("bolaar")
    assert bolaar.major == "bolaar" and decks.check(CONTENT, bolaar) == []
    assert [p.card for p in decks.check(CONTENT, _with(bolaar, arg_scout=1))] == ["arg_scout"]


def test_rule_name() -> None:
    bad = _legal().model_copy(update={"name": "x" * 41})
    _refused(bad, "GE-OPEN-01 name")
    assert decks.check(CONTENT, _legal().model_copy(update={"name": "a\x1b[2Jb"}))


def test_rule_unknown_card_named() -> None:
    problems = decks.check(CONTENT, _with(_legal(), no_such_card=1))
    assert [(p.rule, p.card) for p in problems] == [("GE-OPEN-05", "no_such_card")]
    with pytest.raises(deck_code.DeckCodeError, match="not a card of this content"):
        deck_code.encode(CONTENT, _with(_legal(), no_such_card=1))


def test_basic_game_takes_no_own_deck() -> None:
    code = deck_code.encode(CONTENT, _legal())
    with pytest.raises(BadOptionError, match="Standard Game"):
        starlanes.load("galactic-empires", players=2, seat_setup=(code,))
    with pytest.raises(BadOptionError, match="3 texts for 2 seats"):
        starlanes.load("galactic-empires", players=2, structure="standard",
                       seat_setup=(code, code, code))
    assert starlanes.load("galactic-empires", players=2).seat_setup_kind() == ""


def test_own_deck_numbers_do_not_follow_its_sorted_list() -> None:
    """Card numbers (card#n) that other seats see do not tell an own deck's sorted list."""
    game = _load(_legal("argonian"))
    own = list(game.defs[-len(_legal("argonian").card_ids()):])  # the last seat's deck
    assert sorted(own) != own and sorted(own) == _legal("argonian").card_ids()


# ---------------------------------------------------------------------- deck codes
@st.composite
def legal_decks(draw: st.DrawFn) -> decks.DeckList:
    major = draw(st.sampled_from([*MAJOR_EMPIRES, "bolaar", "dragon"]))
    allowed = sorted(cid for cid, c in CONTENT.cards.items()
                     if not (c.type in "SBD" and c.empire in MAJOR_EMPIRES
                             and c.empire != major))
    terrain = [cid for cid in allowed if CONTENT.cards[cid].type == "T"]
    cards: dict[str, int] = {}
    for cid in draw(st.lists(st.sampled_from(terrain), min_size=4, max_size=12, unique=True)):
        cards[cid] = 3
    picks = draw(st.lists(st.tuples(st.sampled_from(allowed), st.integers(1, 3)),
                          min_size=10, max_size=60))
    for cid, k in picks:
        cards[cid] = k
    while sum(cards.values()) < 40 or sum(k for c, k in cards.items() if c in terrain) < 12:
        cid = next(c for c in allowed if cards.get(c, 0) < 3)
        cards[cid] = cards.get(cid, 0) + 1
    name = draw(st.text(st.characters(categories=("L", "N", "P", "Zs")), min_size=1,
                        max_size=40).filter(lambda t: 0 < len(decks.clean_name(t)) <= 40))
    return decks.DeckList(name=decks.clean_name(name), major=major, cards=cards)


@settings(max_examples=60, deadline=None)
@given(legal_decks())
def test_code_round_trips_exactly(deck: decks.DeckList) -> None:
    assert decks.check(CONTENT, deck) == []
    code = deck_code.encode(CONTENT, deck)
    assert code.startswith("GE1-") and len(code) < 200
    back = deck_code.decode(CONTENT, code)
    assert back == deck and back.name == deck.name and back.cards == deck.cards
    assert deck_code.decode(CONTENT, f"  {code[:30]}\n{code[30:]} ") == deck  # chat wraps


@settings(max_examples=40, deadline=None)
@given(legal_decks(), st.data())
def test_edited_code_is_refused(deck: decks.DeckList, data: st.DataObject) -> None:
    code = deck_code.encode(CONTENT, deck)
    i = data.draw(st.integers(4, len(code) - 1))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    ch = data.draw(st.sampled_from(alphabet).filter(lambda c: c != code[i]))
    edited = code[:i] + ch + code[i + 1:]
    with pytest.raises(deck_code.DeckCodeError, match="damaged"):
        deck_code.decode(CONTENT, edited)
    with pytest.raises(deck_code.DeckCodeError, match="damaged"):
        deck_code.decode(CONTENT, code[:-3])


def test_code_for_other_content_is_refused() -> None:
    code = deck_code.encode(CONTENT, _legal())
    other = load_content(overrides=("cards.crew_gunner.name=Old Gunner",))
    assert other.fingerprint != CONTENT.fingerprint
    with pytest.raises(deck_code.DeckCodeError, match="made for other card content"):
        deck_code.decode(other, code)
    with pytest.raises(deck_code.DeckCodeError, match="version 2"):
        deck_code.decode(CONTENT, "GE2-" + code[4:])
    with pytest.raises(deck_code.DeckCodeError, match="not a Galactic Empires deck code"):
        deck_code.decode(CONTENT, "hello")


def test_code_of_a_draft_keeps_more_than_three_copies() -> None:
    draft = _with(_legal(), arg_frigate=7, gen_patrol=0)
    assert deck_code.decode(CONTENT, deck_code.encode(CONTENT, draft)) == draft


def test_deck_file_round_trip(tmp_path) -> None:
    deck = _legal("krebiz").model_copy(update={"name": 'Tide "and" \\ Lance'})
    path = tmp_path / "k.toml"
    path.write_text(decks.to_toml(deck), encoding="utf-8")
    assert decks.load_file(path) == deck
    path.write_text('name = "x"\nmajor = "krebiz"\n[cards]\nblue_giant = "two"\n')
    with pytest.raises(BadOptionError, match="cards.blue_giant"):
        decks.load_file(path)


def test_builder_and_draft_check() -> None:
    game = starlanes.load("galactic-empires", players=2, structure="standard")
    data = seat_setup.builder(game)
    assert len(data["cards"]) == len(CONTENT.cards) and data["rules"] == decks.RULES
    assert {d["id"] for d in data["decks"]} >= {"argonian", "krebiz", "corporate", "mechad"}
    checked = seat_setup.check_draft(game, {"name": "n", "major": "argonian",
                                            "cards": {"blue_giant": 3}})
    assert not checked["legal"] and checked["code"]
    assert {p["rule"] for p in checked["problems"]} == {"GE-OPEN-01 size",
                                                         "GE-OPEN-01 terrain"}
    assert checked["summary"]["generates"] == {"energy": 9}
    read = seat_setup.read_code(game, data["decks"][0]["code"])
    assert read["legal"] and read["deck"]["major"] == data["decks"][0]["major"]
