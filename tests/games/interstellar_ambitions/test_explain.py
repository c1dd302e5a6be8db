"""Explanations of Interstellar Ambitions: game.describe, game.explain_refusal and the
table's legend and names."""

from __future__ import annotations

import pytest
from rich.console import Console

import starlanes
from starlanes.engine.explain import REFUSAL_KINDS
from starlanes.games.interstellar_ambitions.refuse import KIND_WORDS, VERBS
from starlanes.games.interstellar_ambitions.render import LEGEND, render
from starlanes.games.interstellar_ambitions.texts import hook_text
from tests.playouts import playout_states as shared_playouts

GAME = "interstellar-ambitions"


def playout_states(games: int = 3, steps: int = 350):
    """States met in a few seeded random games (3, 4 and 5 players)."""
    return shared_playouts(GAME, 3, games, steps)


def test_every_legal_action_is_described() -> None:
    """Every legal action of random playouts has a text and IA rule IDs; the section is the
    group of the first rule."""
    seen = set()
    for g, s in playout_states():
        for a in s.legal_actions():
            d = g.describe(s, a)
            assert d.notation == str(a)
            assert d.text.strip() and d.kind
            assert d.rules and all(r.startswith("IA-") for r in d.rules), (a, d.rules)
            assert d.section.startswith("IA-") and d.rules[0].startswith(d.section)
            seen.add(s.stack[-1].kind)
    assert {"keep", "start_tech", "step2", "step3", "place"} <= seen
    assert set(seen) <= set(KIND_WORDS)


def test_every_decision_kind_has_words_and_verbs() -> None:
    from starlanes.games.interstellar_ambitions.explain import DESCRIBERS
    from starlanes.games.interstellar_ambitions.explain_fight import FIGHT_DESCRIBERS
    from starlanes.games.interstellar_ambitions.rules import DECISIONS

    assert set(DECISIONS) == set(DESCRIBERS) | set(FIGHT_DESCRIBERS)
    assert set(DECISIONS) <= set(KIND_WORDS)
    used = {k for kinds in VERBS.values() for k in kinds}
    assert used <= set(DECISIONS)


def test_describe_refuses_an_illegal_action(ia) -> None:
    from starlanes.engine.errors import IllegalActionError
    from starlanes.games.interstellar_ambitions.actions import Act

    s = ia.fresh()
    with pytest.raises(IllegalActionError):
        s.game.describe(s, Act("claim", "nothing"))


# ---------------------------------------------------------------------- content text
def test_keep_discard_shows_the_card_text(ia) -> None:
    """IA-SET-14: discarding an opening Shadow card shows its name and text."""
    s = ia.load()
    card = str(s.legal_actions()[0]).split()[1]
    d = s.game.describe(s, s.legal_actions()[0])
    entry = s.content.shadow[card]
    assert entry.name in d.text and entry.text in d.text
    assert "IA-SET-14" in d.rules


def test_start_tech_shows_the_tech_effect(ia) -> None:
    """IA-SET-15: a starting tech shows its name, the effect as its content text words it,
    cost and VP; the catalogue gives the same words for the tech."""
    s = ia.load()
    while s.stack[-1].kind != "start_tech":
        s.apply(s.legal_actions()[0])
    c = s.content
    catalogue = {e.id: e.text for e in s.game.entries("tech")}
    for a in s.legal_actions():
        tech = c.techs[a.a]
        d = s.game.describe(s, a)
        assert tech.name in d.text and f"{tech.vp} VP" in d.text
        assert tech.text and tech.text in d.text
        assert catalogue[tech.id] in d.text
        assert "IA-SET-15" in d.rules


def test_entry_without_text_is_worded_from_its_hooks() -> None:
    """A content override that leaves a tech without ``text`` still explains it: each hook
    kind in its generic words, in the descriptions and the catalogue alike."""
    g = starlanes.load("interstellar-ambitions", players=3, seed=1,
                       content_set=("techs.targeting_computers.text=",))
    tech = g.content.techs["targeting_computers"]
    assert tech.text == ""
    entry = next(e for e in g.entries("tech") if e.id == "targeting_computers")
    for h in tech.effects:
        assert hook_text(h.kind, h.n, h.arg) in entry.text


def test_research_shows_tech_and_cost(ia) -> None:
    """IA-RSCH-02, IA-RSCH-06: research shows the tech's effect and its science cost after
    discounts."""
    s = ia.turn(3, 0, 0)
    ia.tokens(s, 0, "research:basic")
    s.res[0] = (0, 0, 9, 0)
    ia.run(s)
    ia.act(s, "pass")
    ia.act(s, "take research:basic")
    c = s.content
    acts = [a for a in s.legal_actions() if a.verb == "research"]
    assert acts
    for a in acts:
        d = s.game.describe(s, a)
        t = c.tech_index[a.a]
        assert c.techs[a.a].name in d.text
        assert d.cost == f"{max(1, c.tech_cost[t])} science"
        assert "IA-RSCH-06" in d.rules


def test_build_hire_and_colonise_show_costs(ia) -> None:
    """IA-BLD-02 (ore), IA-SHA-05 (coin), IA-COLN-02 (the planet's cost)."""
    s = ia.turn(3, 0, 0)
    ia.tokens(s, 0, "build:moderate")
    s.res[0] = (0, 9, 0, 0)
    ia.run(s)
    ia.act(s, "pass")
    ia.act(s, "take build:moderate")
    d = None
    for a in s.legal_actions():
        if a.verb == "build":
            d = s.game.describe(s, a)
            k = s.content.ship_index[a.a]
            assert d.cost == f"{s.content.ship_cost[k]} ore"
            assert f"combat {s.content.ship_combat[k]}" in d.text
    assert d is not None

    s = ia.turn(3, 0, 0)
    ia.tokens(s, 0, "shadow:strong")
    s.res[0] = (0, 0, 0, 9)
    ia.run(s)
    ia.act(s, "pass")
    ia.act(s, "take shadow:strong")
    ia.act(s, "hire-mercs")
    hires = [a for a in s.legal_actions() if a.verb == "hire"]
    assert hires
    for a in hires:
        d = s.game.describe(s, a)
        card = s.content.ships[a.a]
        assert d.cost == f"{card.cost} coin" and f"upkeep {card.upkeep} coin" in d.text

    s = ia.turn(3, 0, 0)
    ia.tokens(s, 0, "colonise:strong")
    s.res[0] = (9, 9, 9, 9)
    ia.run(s)
    ia.act(s, "pass")
    ia.act(s, "take colonise:strong")
    cols = [a for a in s.legal_actions() if a.verb == "colonise"]
    assert cols
    for a in cols:
        d = s.game.describe(s, a)
        planet = s.content.planets[a.a]
        assert planet.name in d.text and "IA-COLN-02" in d.rules
        assert any(f"{v} " in d.cost for v in planet.cost.as_tuple() if v)


def test_play_and_claim_show_card_and_ambition_text(ia) -> None:
    """IA-SHD-01: a Shadow card played shows its text; IA-AMB-06: a claim its VP."""
    s = ia.turn(3, 0, 0)
    ia.hand(s, 0, "planetary_plague")
    ia.planet(s, 1, "grainhold", 3)
    ia.run(s)
    a = next(x for x in s.legal_actions() if x.verb == "play" and "grainhold" in x.b)
    d = s.game.describe(s, a)
    assert s.content.shadow["planetary_plague"].text in d.text
    assert "IA-SHD-04" in d.rules and "Grainhold" in d.text

    s = ia.turn(3, 0, 4)
    amb = s.ambitions[0]
    aid = s.content.ambition_ids[amb]
    from starlanes.games.interstellar_ambitions import turn as turn_mod

    real = turn_mod.meets
    turn_mod.meets = lambda st, seat, k: k == amb
    try:
        ia.run(s)
        d = s.game.describe(s, next(x for x in s.legal_actions() if x.verb == "claim"))
    finally:
        turn_mod.meets = real
    assert s.content.ambitions[aid].name in d.text and "12 VP" in d.changes


# ---------------------------------------------------------------------- refusals
def refuse(s, text: str):
    r = s.game.explain_refusal(s, text)
    assert r is not None and r.kind in REFUSAL_KINDS and r.reason
    return r


def test_unknown_ids_are_named(ia) -> None:
    """An unknown card, ship, planet or verb is an unknown_token naming it."""
    s = ia.load()
    assert refuse(s, "discard no_such_card").kind == "unknown_token"
    assert "no_such_card" in refuse(s, "discard no_such_card").reason
    assert refuse(s, "frobnicate").kind == "unknown_token"
    s = ia.turn(3, 0, 0)
    ia.tokens(s, 0, "build:moderate")
    s.res[0] = (0, 9, 0, 0)
    ia.run(s)
    ia.act(s, "pass")
    ia.act(s, "take build:moderate")
    r = refuse(s, "build star_destroyer")
    assert r.kind == "unknown_token" and "star_destroyer" in r.reason


def test_not_enough_resources(ia) -> None:
    """IA-RES-02: an exchange needs 3 of a kind; IA-BLD-02: a ship its ore cost."""
    s = ia.turn(3, 0, 0)
    s.res[0] = (2, 1, 0, 0)
    ia.tokens(s, 0, "build:moderate")
    ia.run(s)
    r = refuse(s, "exchange food ore")
    assert r.kind == "cost" and "2" in r.reason
    ia.act(s, "pass")
    ia.act(s, "take build:moderate")
    r = refuse(s, "build battleship")
    assert r.kind == "cost" and "1" in r.reason


def test_basic_build_is_light_only(ia) -> None:
    """IA-BLD-03: BUILD at BASIC refuses a HEAVY ship with the reason."""
    s = ia.turn(3, 0, 0)
    s.res[0] = (0, 9, 0, 0)
    ia.tokens(s, 0, "build:basic")
    ia.run(s)
    ia.act(s, "pass")
    ia.act(s, "take build:basic")
    r = refuse(s, "build battleship")
    assert r.kind == "range" and "LIGHT" in r.reason


def test_action_of_another_step(ia) -> None:
    """IA-TURN-01: a step-3 action typed in step 2 is wrong_phase; no FLEET in round 1
    (IA-TURN-02)."""
    s = ia.turn(3, 0, 0)
    ia.tokens(s, 0, "colonise:basic", "fleet:basic")
    ia.run(s)
    assert s.stack[-1].kind == "step2"
    r = refuse(s, "take colonise:basic")
    assert r.kind == "wrong_phase" and "step 2" in r.reason
    s = ia.turn(3, 0, 0, round_=1)
    ia.tokens(s, 0, "fleet:basic", "build:basic")
    ia.run(s)
    ia.act(s, "pass")
    r = refuse(s, "take fleet:basic")
    assert r.kind == "wrong_phase" and "IA-TURN-02" in r.reason


def test_another_seats_decision(ia) -> None:
    """IA-SHD-09: while the target opposes a check, the turn player's actions are not the
    target's to take; and the turn player cannot oppose."""
    s = ia.turn(3, 0, 0)
    ia.hand(s, 0, "planetary_plague")
    ia.hand(s, 1, "red_tape")
    ia.planet(s, 1, "grainhold", 3)
    ia.tokens(s, 0, "build:basic")
    ia.run(s)
    r = refuse(s, "oppose red_tape")
    assert r.kind == "not_your_decision"
    ia.act(s, next(str(a) for a in s.legal_actions() if a.verb == "play"))
    assert s.stack[-1].kind == "oppose" and s.current_player() == 1
    for text in ("take build:basic", "exchange food ore", "build strike_craft"):
        r = refuse(s, text)
        assert r.kind == "not_your_decision", (text, r)
        assert "P0" in r.reason and "P1" in r.reason


def test_mutated_notations_get_specific_reasons() -> None:
    """Over random playouts: an unknown id is unknown_token; a verb of another decision is
    wrong_phase or not_your_decision; never the generic not_now for these."""
    checked = 0
    for g, s in playout_states(games=3, steps=150):
        legal = s.legal_actions()
        heads = {str(a).split()[0] for a in legal}
        for a in legal[:3]:
            parts = str(a).split()
            if len(parts) >= 2 and parts[0] not in ("raid", "invade", "give", "exchange",
                                                    "develop") and ":" not in parts[1]:
                r = g.explain_refusal(s, f"{parts[0]} zz_{parts[1]}")
                assert r is not None and r.kind == "unknown_token", (str(a), r)
                checked += 1
        for verb in ("produce", "plan", "claim", "oppose", "hire-mercs"):
            if verb not in heads:
                r = g.explain_refusal(s, verb if verb in ("produce", "plan", "hire-mercs")
                                      else f"{verb} red_tape")
                if r is None:
                    continue
                assert r.kind != "not_now", (verb, s.stack[-1].kind, r)
                checked += 1
    assert checked > 300


# ---------------------------------------------------------------------- the table
def test_table_legend_and_names_at_80_columns(ia) -> None:
    """The board has a legend; the hand shows name and id; nothing is cut at 80 columns."""
    s = ia.load(players=6, seed=3)
    con = Console(width=80, record=True, color_system=None)
    con.print(render(s, 0))
    text = con.export_text()
    flat = " ".join(text.replace("│", " ").split())
    assert "Legend:" in text and " ".join(LEGEND.split()) in flat
    assert "…" not in text
    for k in set(s.hands[0]):
        card = s.content.shadow[s.content.shadow_ids[k]]
        assert f"{card.name} ({card.id})" in flat
    for line in text.splitlines():
        assert len(line) <= 80


# ---------------------------------------------------------------------- rare decisions
def describe_all(s) -> list:
    out = []
    for a in s.legal_actions():
        d = s.game.describe(s, a)
        assert d.text and d.rules and all(r.startswith("IA-") for r in d.rules)
        out.append(d)
    return out


def test_spoils_capture_give_away_and_rescue_are_described(ia) -> None:
    """IA-SPOIL-01..08, IA-COLN-04: the decisions after a won invasion are explained, with
    the bombardment's levels and the capture's cost."""
    from tests.games.interstellar_ambitions.test_combat import spoil_state

    s = spoil_state(ia)
    ia.tokens(s, 1, "build:strong")
    ia.tech(s, 1, "shipyards")
    s.planets[1] = ()
    ia.planet(s, 1, "verdant_moon", 1)
    for pid in ("mossfall", "slag_rock", "cinder", "observatory", "crystal_spire", "bazaar",
                "toll_gate"):
        ia.planet(s, 0, pid, 1)
    s.res[0] = (9, 9, 9, 9)
    ds = {d.notation: d for d in describe_all(s)}
    assert "IA-SPOIL-02" in ds["spoil disrupt"].rules
    assert s.content.techs["shipyards"].name in ds["spoil tech shipyards"].text
    assert ds["spoil bombard verdant_moon"].changes == "level 1 -> 1"
    ia.act(s, "spoil bombard verdant_moon")
    assert s.stack[-1].kind == "capture"
    cap = {d.notation: d for d in describe_all(s)}["capture verdant_moon"]
    assert cap.cost == "1 food + 1 ore" and "IA-COL-06" in cap.rules
    ia.act(s, "capture verdant_moon")
    assert s.stack[-1].kind == "give_away"
    give = [d for d in describe_all(s) if d.notation.startswith("give")]
    assert give and all("IA-COLN-04" in d.rules for d in give)
    ia.act(s, "give mossfall P2")
    assert s.stack[-1].kind == "rescue"
    assert all("IA-SPOIL-08" in d.rules for d in describe_all(s))

    s = spoil_state(ia)
    ia.tokens(s, 1, "build:strong", "develop:ultimate")
    ia.act(s, "spoil disrupt")
    ds = describe_all(s)
    assert any("BUILD at STRONG" in d.text for d in ds)


def test_upkeep_and_scrap_are_described(ia) -> None:
    """IA-PROD-06/07: a merc's upkeep shows its coin cost; IA-SHIP-07: a ship discarded to
    make room."""
    s = ia.turn(3, 0, 0)
    ia.ship(s, 0, "captain_rogers")
    s.res[0] = (0, 0, 0, 5)
    ia.run(s)
    ia.act(s, "produce")
    while s.stack[-1].kind == "home_pick":
        ia.act(s, "home coin")
    assert s.stack[-1].kind == "upkeep"
    ds = {d.notation: d for d in describe_all(s)}
    pay = ds["upkeep captain_rogers pay"]
    assert pay.cost == f"{s.content.ships['captain_rogers'].upkeep} coin"
    assert "IA-PROD-07" in ds["upkeep captain_rogers discard"].rules
    s = ia.turn(3, 0, 0)
    for _ in range(8):
        ia.ship(s, 0, "strike_craft")
    ia.tokens(s, 0, "build:moderate")
    s.res[0] = (0, 9, 0, 0)
    ia.run(s)
    ia.act(s, "pass")
    ia.act(s, "take build:moderate")
    d = s.game.describe(s, next(a for a in s.legal_actions() if a.verb == "build"))
    assert "discard one first" in d.text
    ia.act(s, "build destroyer")
    assert s.stack[-1].kind == "scrap"
    assert all("IA-SHIP-07" in d.rules for d in describe_all(s)
               if d.notation.startswith("scrap"))
