"""Explanations of Galactic Empires: game.describe, game.explain_refusal, the table's legend
and names, and the allocation log."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import starlanes
from starlanes.engine.explain import REFUSAL_KINDS
from starlanes.games.galactic_empires.refuse import KIND_PHASES
from starlanes.games.galactic_empires.render import LEGEND, render
from starlanes.games.galactic_empires.texts import display
from tests.playouts import playout_states as shared_playouts

GAME = "galactic-empires"


def playout_states(games: int = 3, steps: int = 300):
    """States met in a few seeded random games (2, 3 and 4 players)."""
    return shared_playouts(GAME, 2, games, steps)


def test_every_legal_action_is_described() -> None:
    """Every legal action of random playouts has a text and GE rule IDs."""
    kinds = set()
    for g, s in playout_states():
        for a in s.legal_actions():
            d = g.describe(s, a)
            assert d.notation == str(a) and d.text.strip() and d.kind
            assert d.rules and all(r.startswith("GE-") for r in d.rules), (a, d.rules)
            assert d.rules[0].startswith(d.section)
            kinds.add(a.kind)
    assert {"play", "done", "draw", "discard"} <= kinds
    assert kinds <= set(KIND_PHASES)


def test_describe_refuses_an_illegal_action(ge) -> None:
    from starlanes.engine.errors import IllegalActionError
    from starlanes.games.galactic_empires.actions import GEAction

    s = ge.blank()
    with pytest.raises(IllegalActionError):
        s.game.describe(s, GEAction("draw", 5, label="draw 5"))


# ---------------------------------------------------------------------- content text
def test_played_card_shows_name_empire_type_stats_and_text(ge) -> None:
    """GE-PLAY-01: the card played shows name, empire, type, strength, shields, weapons
    and its text, and costs one of the three card plays; the first ship of an empire also
    shows what sets the empire apart, in the words of its content entry (GE-EMP-ARG-01)."""
    s = ge.blank(phase="playA")
    (inst,) = ge.give(s, 0, "arg_battleship")
    c = s.card(inst)
    empire = s.content.empires[c.empire]
    d = s.game.describe(s, next(a for a in s.legal_actions() if a.kind == "play"))
    assert empire.text and "GE-EMP-ARG-01" in d.rules
    for bit in (c.name, empire.name, empire.text, "ship", f"strength {c.strength}", f"shields {c.shields}",
                c.text):
        assert bit in d.text, bit
    # named as printed: the instance a player types is the notation's, never the text's
    assert d.notation == f"play arg_battleship#{inst}" and "#" not in d.text
    assert "phaser" in d.text
    assert d.cost.startswith("1 card play (3 of 3 left")
    assert "GE-PLAY-01" in d.rules and "GE-PTS-07" in d.rules


def test_fire_target_and_reaction_show_the_cards(ge) -> None:
    """GE-FIRE-01: a fire target shows the target card; GE-FIRE-03: a reaction shows the
    reaction card's text; commit shows the damage allocated."""
    s = ge.blank(phase="fire")
    a = ge.put(s, "arg_frigate", 0, engaged=True)
    t = ge.put(s, "arg_scout", 1)
    (defl,) = ge.give(s, 1, "re_hard_deflector")
    aim = next(x for x in s.legal_actions() if x.kind == "aim")
    d = s.game.describe(s, aim)
    assert s.card(t).name in d.text and "GE-FIRE-07" in d.rules
    ge.do(s, f"aim arg_scout#{t}", f"volley arg_frigate#{a}")
    d = s.game.describe(s, next(x for x in s.legal_actions() if x.kind == "commit"))
    assert "Allocate 2 damage" in d.text
    ge.do(s, "commit")
    react = next(x for x in s.legal_actions() if x.kind == "react")
    d = s.game.describe(s, react)
    assert s.card(defl).text in d.text and "GE-PLAY-04" in d.rules


def test_engage_shows_points_needed(ge) -> None:
    """GE-PTS-04: engaging shows the energy and supply it costs."""
    s = ge.blank(phase="alloc")
    i = ge.put(s, "arg_battleship", 0)
    need = s.card(i).requires
    s.pool[0], s.pool[1] = 9, 9
    d = s.game.describe(s, next(a for a in s.legal_actions() if a.kind == "engage"))
    assert f"{need.energy} energy" in d.cost and "GE-PTS-04" in d.rules


# ---------------------------------------------------------------------- refusals
def refuse(s, text: str):
    r = s.game.explain_refusal(s, text)
    assert r is not None and r.kind in REFUSAL_KINDS and r.reason
    return r


def test_unknown_card_ids(ge) -> None:
    """An unknown card id or instance is an unknown_token naming it."""
    s = ge.blank(phase="playA")
    ge.give(s, 0, "arg_scout")
    r = refuse(s, "play warp_gate#3")
    assert r.kind == "unknown_token" and "warp_gate" in r.reason
    r = refuse(s, "play arg_scout#9999")
    assert r.kind == "unknown_token" and "arg_scout#9999" in r.reason
    assert refuse(s, "teleport").kind == "unknown_token"


def test_card_not_in_hand_is_named_without_revealing_where(ge) -> None:
    s = ge.blank(phase="playA")
    (theirs,) = ge.give(s, 1, "arg_scout")
    r = refuse(s, f"play arg_scout#{theirs}")
    assert r.kind == "forbidden" and "not in your hand" in r.reason and "P1" not in r.reason


def test_not_enough_points(ge) -> None:
    """GE-PTS-04: a unit short of energy or supply cannot be Engaged."""
    s = ge.blank(phase="alloc")
    i = ge.put(s, "arg_battleship", 0)
    r = refuse(s, f"engage arg_battleship#{i}")
    assert r.kind == "cost" and "energy" in r.reason


def test_plays_and_command_points(ge) -> None:
    """GE-PLAY-01: three plays a turn; GE-FLEET-05: command points."""
    s = ge.blank(phase="playA")
    (inst,) = ge.give(s, 0, "arg_scout")
    s.plays = 3
    ge.touch(s)
    assert refuse(s, f"play arg_scout#{inst}").kind == "capacity"
    s = ge.blank(phase="playA")
    for _ in range(s.n):
        ge.put(s, "arg_frigate", 0)
    (inst,) = ge.give(s, 0, "arg_scout")
    r = refuse(s, f"play arg_scout#{inst}")
    assert r.kind == "capacity" and "GE-FLEET-05" in r.reason


def test_action_of_another_phase(ge) -> None:
    """GE-TURN-01: an action of another phase names the phase it belongs to."""
    s = ge.blank(phase="alloc")
    t = ge.put(s, "arg_scout", 1)
    r = refuse(s, f"aim arg_scout#{t}")
    assert r.kind == "wrong_phase" and "Weapons Fire" in r.reason
    r = refuse(s, "draw 2")
    assert r.kind == "wrong_phase" and "Draw phase" in r.reason


def test_another_seats_decision(ge) -> None:
    """GE-PLAY-06: while the target's owner answers a reaction window, the firing player's
    actions are not his."""
    s = ge.blank(phase="fire")
    a = ge.put(s, "arg_frigate", 0, engaged=True)
    t = ge.put(s, "arg_scout", 1)
    ge.give(s, 1, "re_hard_deflector")
    ge.do(s, f"aim arg_scout#{t}", f"volley arg_frigate#{a}", "commit")
    assert s.current_player() == 1 and s.stack[-1].kind == "react"
    for text in (f"aim arg_scout#{t}", "cease", "draw 1"):
        r = refuse(s, text)
        assert r.kind == "not_your_decision" and "P0" in r.reason and "P1" in r.reason
    (other,) = ge.give(s, 0, "re_deflector")
    r = refuse(s, f"react re_deflector#{other}")
    assert r.kind == "forbidden" and "not in your hand" in r.reason


def test_draw_allowance(ge) -> None:
    """GE-TURN-08..10: the draw allowance is named."""
    s = ge.blank(phase="discard")
    ge.give(s, 0, *["arg_scout"] * 10)
    ge.do(s, "done")
    r = refuse(s, "draw 2")
    assert r.kind == "capacity" and "10 cards" in r.reason


def test_mutated_notations_get_specific_reasons() -> None:
    """Over random playouts: an unknown card instance is unknown_token; an action word of
    another phase is wrong_phase or not_your_decision, never the generic not_now."""
    checked = 0
    for g, s in playout_states(games=3, steps=90):
        legal = s.legal_actions()
        heads = {a.kind for a in legal}
        for a in legal[:4]:
            text = str(a)
            if "#" in text:
                bad = text.replace("#", "#99", 1)
                r = g.explain_refusal(s, bad)
                assert r is not None and r.kind == "unknown_token", (bad, r)
                checked += 1
        for word in ("aim", "engage", "draw", "discard", "react"):
            if word in heads:
                continue
            sample = {"aim": "aim HQ0", "engage": "engage arg_scout#0", "draw": "draw 1",
                      "discard": "discard arg_scout#0", "react": "react re_deflector#0"}[word]
            r = g.explain_refusal(s, sample)
            if r is None:
                continue
            assert r.kind != "not_now", (sample, s.phase, r)
            checked += 1
    assert checked > 150


# ---------------------------------------------------------------------- table and log
def test_names_are_the_same_on_board_hand_and_notation(ge) -> None:
    """The hand, the board and the actions show the id a user types next to the name."""
    s = ge.blank(phase="playA")
    (h,) = ge.give(s, 0, "blue_giant")
    u = ge.put(s, "arg_scout", 0)
    con = Console(width=80, record=True, color_system=None)
    con.print(render(s, 0))
    text = con.export_text()
    flat = " ".join(text.replace("│", " ").split())
    assert display(s, h) in flat and f"blue_giant#{h}" in flat
    assert display(s, u) in flat
    assert any(str(a) == f"play blue_giant#{h}" for a in s.legal_actions())
    assert " ".join(LEGEND.split()) in flat
    assert all(len(line) <= 80 for line in text.splitlines())


def test_allocation_log_names_the_points() -> None:
    """The log line of each turn's points says what was produced, or that nothing was."""
    g = starlanes.load(GAME, players=2, seed=1)
    s = g.new_initial_state()
    rng = random.Random(1)
    for _ in range(200):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    lines = [x for x in s.action_log() if x.startswith("turn ")]
    assert lines
    assert all(x.endswith("to allocate") and " has  " not in x for x in lines)
    assert all(("no points" in x) or any(k in x for k in ("energy", "supply", "ammo",
               "research", "repair", "healing", "economy")) for x in lines)
