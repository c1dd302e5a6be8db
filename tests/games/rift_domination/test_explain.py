"""Rift Domination explanations: descriptions show the content a decision needs (faction
sheet, unit and upgrade costs, card texts) and refusals name the rule in the way."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.engine import NotationError


def _at_faction_offer():
    s = starlanes.load("rift-domination", players=2, seed=4).new_initial_state()
    while s.phase != "setup_faction":
        s.apply(s.legal_actions()[0])
    return s


def _home(s, seat: int = 0) -> str:
    return s.board.planet_ids[s.home[seat]]


def test_faction_offer_shows_the_faction_sheet() -> None:
    """RD-SET-09/10: keep shows the offered faction's ability text and starting materials
    (from the loaded content); repick names what goes back."""
    s = _at_faction_offer()
    g = s.game
    faction = s.content.factions[s.faction_offer]
    keep = g.describe(s, g.read_action(s, "keep"))
    assert faction.text in keep.text and faction.name in keep.text
    assert f"{faction.start_resources} resource" in keep.text
    assert "RD-SET-09" in keep.rules and keep.section == "RD-SET"
    repick = g.describe(s, g.read_action(s, "repick"))
    assert faction.name in repick.text and repick.rules == ("RD-SET-10",)


def test_recruit_shows_cost_stats_and_the_change(rd) -> None:
    """RD-REC-02: a recruit costs the unit's resources; the description gives the cost,
    the unit's numbers and the resources after paying."""
    s = rd.blank(phase="recruit")
    home = _home(s)
    rd.own(s, home, 0, ("military_base",))
    s.resources[0] = 5
    rd.touch(s)
    g = s.game
    unit = s.content.units["carrier"]
    d = g.describe(s, g.read_action(s, f"recruit carrier {home}"))
    assert d.kind == "recruit" and d.cost == f"{unit.cost} resources"
    assert d.changes == f"resources 5 -> {5 - unit.cost}"
    assert f"{unit.lp} LP" in d.text and "RD-REC-02" in d.rules


def test_build_shows_cost_and_slots(rd) -> None:
    """RD-UPG-03: building pays the upgrade's cost; RD-UPG-11: the mine's text is its
    content text with the income filled from the content's rules values."""
    s = rd.blank(phase="build")
    home = _home(s)
    rd.own(s, home, 0, ("military_base",))
    s.resources[0] = 9
    rd.touch(s)
    g = s.game
    d = g.describe(s, g.read_action(s, f"build mine {home}"))
    cost = s.content.upgrades["mine"].cost
    assert d.cost == f"{cost} resources" and f"resources 9 -> {9 - cost}" in d.changes
    assert f"Produces {s.content.rules.mine_income} extra resources" in d.text
    assert "slots on" in d.changes and "RD-UPG-11" in d.rules


def test_upgrade_text_follows_an_overridden_rule_value() -> None:
    """RD-UPG-11: a content override of the mine income changes the words of the mine in
    the descriptions and the catalogue alike (one wording, numbers from the content)."""
    import starlanes
    from starlanes.games.rift_domination.explain import upgrade_line

    g = starlanes.load("rift-domination", players=2, seed=1,
                       content_set=("rules.mine_income.value=5",))
    s = g.new_initial_state()
    entry = next(e for e in g.entries("upgrade") if e.id == "mine")
    assert "Produces 5 extra resources" in entry.text
    assert entry.text.rstrip(".") in upgrade_line(s, "mine")


def test_card_play_shows_the_card_text(rd) -> None:
    """RD-OCC-01: an own-turn card is played from hand; its description carries its text."""
    s = rd.blank(phase="build")
    rd.give(s, 0, "intelligence_report")
    g = s.game
    card = s.content.cards["intelligence_report"]
    d = g.describe(s, g.read_action(s, "play intelligence_report"))
    assert d.kind == "card" and card.text in d.text and card.name in d.text


def test_notation_ignores_case_and_takes_prefixes(rd) -> None:
    """Typed notation: case-insensitive, word prefixes when only one action matches."""
    s = rd.blank(phase="recruit")
    home = _home(s)
    rd.own(s, home, 0, ("military_base",))
    s.resources[0] = 5
    rd.touch(s)
    g = s.game
    assert str(g.read_action(s, f"RECRUIT Carrier {home.lower()}")) == f"recruit carrier {home}"
    assert str(g.read_action(s, f"rec car {home.lower()}")) == f"recruit carrier {home}"
    with pytest.raises(NotationError, match="not a Rift Domination action"):
        g.read_action(s, "recruiting carrier")


def test_refusals_name_the_rule(rd) -> None:
    """Refusals: recruiting in the build step is the wrong step (RD-TURN-01); building on
    another seat's planet is its holder's decision; an unaffordable upgrade is a cost
    (RD-UPG-03); a full planet is capacity (RD-UPG-01); a move along no line is range
    (RD-MOV-05/06)."""
    s = rd.blank(phase="build")
    g = s.game
    home, theirs = _home(s, 0), _home(s, 1)
    rd.own(s, home, 0, ("military_base",))
    s.resources[0] = 1
    rd.touch(s)
    assert g.explain_refusal(s, f"recruit fighter {home}").kind == "wrong_phase"
    ref = g.explain_refusal(s, f"build mine {theirs}")
    assert ref.kind == "not_your_decision" and "P1" in ref.reason
    ref = g.explain_refusal(s, f"build mine {home}")
    assert ref.kind == "cost" and "RD-UPG-03" in ref.rules
    rd.own(s, home, 0, ("military_base", "mine"))
    s.resources[0] = 20
    rd.touch(s)
    assert g.explain_refusal(s, f"build warp {home}").kind == "capacity"

    s = rd.blank(phase="move")
    rd.place(s, 0, "carrier", home)
    far = next(n for n in s.board.names if "|" not in n and n[0] != home[0] and n[1] != home[1])
    ref = s.game.explain_refusal(s, f"move {home} {far}")
    assert ref.kind == "range" and "RD-MOV-05" in ref.rules


def test_card_of_another_timing_is_the_wrong_moment(rd) -> None:
    """RD-OCC-01: a battle card cannot be played in the build step."""
    s = rd.blank(phase="build")
    rd.give(s, 0, "ground_levy")
    ref = s.game.explain_refusal(s, "play ground_levy")
    assert ref.kind == "wrong_phase" and "battle card" in ref.reason


def test_rules_of_the_new_decisions_are_cited() -> None:
    """Over random playouts: Repair Rush (RD-SKL-01), Overload shield by shield (RD-SKL-09),
    the any-time card window between turns (RD-OCC-01) and a landing on a planet with a
    neutral garrison (ruling RD-OPEN-25) each say what they do and cite their rules."""
    import random

    import starlanes
    from starlanes.games.rift_domination.actions import Land, Pass, PlayCard
    from starlanes.games.rift_domination.battle_actions import Overload, RepairRush

    found: dict[str, object] = {}
    for seed in range(12):
        g = starlanes.load("rift-domination", players=2, seed=seed)
        s = g.new_initial_state()
        rng = random.Random(seed)
        steps = 0
        while not s.is_terminal() and steps < 1500 and len(found) < 4:
            steps += 1
            window = bool(s.stack) and s.stack[-1].kind == "window"
            for a in s.legal_actions():
                d = g.describe(s, a)
                if isinstance(a, RepairRush):
                    assert f"negate {a.amount}" in d.text and "RD-SKL-01" in d.rules
                    found["rush"] = d
                elif isinstance(a, Overload):
                    assert "Overload" in d.text and "RD-SKL-09" in d.rules
                    found["overload"] = d
                elif window and isinstance(a, PlayCard | Pass):
                    assert "RD-OCC-01" in d.rules and "turn" in d.text
                    found["window"] = d
                elif isinstance(a, Land):
                    p = s.board.planet_ids.index(a.planet)
                    if (s.planet_owner[p] < 0 and s.board.planet_garrison[p]
                            and s.tile_kind[p] != "civilized"):
                        assert "garrison" in d.text and "RD-OPEN-25" in d.rules
                        found["garrison"] = d
            s.apply(rng.choice(s.legal_actions()))
        if len(found) == 4:
            break
    assert set(found) == {"rush", "overload", "window", "garrison"}, set(found)
