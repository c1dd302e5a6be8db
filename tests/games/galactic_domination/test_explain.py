"""Galactic Domination explanations: ship numbers, costs, attack outcomes and refusals
that name the rule in the way; players are called by colour, never confused with
sectors."""

from __future__ import annotations

from rich.console import Console

from starlanes.games.galactic_domination.render import render


def test_attack_description_gives_the_outcome(gd) -> None:
    """GD-UNIT-04/05: damage goes to shields first, the rest to the hull in the same hit;
    the description says what the target is left with."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "O2")
    t = gd.put(s, 1, "explorer", "O2", sh=1, hull=4)
    g = s.game
    dmg = s.content.units[4].damage
    d = g.describe(s, g.read_action(s, f"attack {r} {t}"))
    assert d.kind == "attack" and d.cost == f"1 of the {s.ships[r][5]} AP of {s.ship_word(r)}"
    assert s.ship_word(t) in d.text and f"for {dmg} damage" in d.text
    assert d.changes.startswith(f"shields 0, hull 4 -> {4 - (dmg - 1)}")
    assert "GD-UNIT-05" in d.rules and "GD-RNG-06" in d.rules


def test_build_shows_the_mineral_cost(gd) -> None:
    """GD-BLD-02: building subtracts the unit's mineral cost."""
    s = gd.blank()
    gd.put(s, 0, "raider", "O2")
    s.minerals[0] = 30
    zone = s.board.names[s.board.zone_sectors[s.start[0]][0]]
    g = s.game
    cost = s.content.units[4].cost
    d = g.describe(s, g.read_action(s, f"build raider {zone}"))
    assert d.cost == f"{cost} minerals" and d.changes == f"minerals 30 -> {30 - cost}"


def test_refusals_name_the_rule(gd) -> None:
    """Another player's ship is not yours to command (GD-AP-02); a move skips no sector
    (GD-AP-04); a full sector takes no more ships (GD-MAP-05); a ship without AP cannot act
    (GD-AP-03); minerals cannot go negative (GD-BLD-03); a raider reaches its own sector only
    (GD-RNG-06); placing belongs to set-up."""
    s = gd.blank()
    mine = gd.put(s, 0, "raider", "O2")
    theirs = gd.put(s, 1, "raider", "B2")
    for _ in range(3):
        gd.put(s, 1, "raider", "O1")
    tired = gd.put(s, 0, "raider", "O3", ap=0)
    g = s.game
    ref = g.explain_refusal(s, f"move {theirs} B1")
    assert ref.kind == "not_your_decision" and "purple" in ref.reason
    assert g.explain_refusal(s, f"move {mine} B2").kind == "range"
    ref = g.explain_refusal(s, f"move {mine} O1")
    assert ref.kind == "capacity" and "GD-MAP-05" in ref.rules
    assert g.explain_refusal(s, f"move {tired} O2").kind == "cost"
    zone = s.board.names[s.board.zone_sectors[s.start[0]][0]]
    ref = g.explain_refusal(s, f"build command {zone}")
    assert ref.kind == "cost" and "GD-BLD-03" in ref.rules
    ref = g.explain_refusal(s, f"attack {mine} {theirs}")
    assert ref.kind == "range" and "GD-RNG-06" in ref.rules
    assert g.explain_refusal(s, f"place raider {zone}").kind == "wrong_phase"
    assert g.explain_refusal(s, "attack 999 1").kind == "unknown_token"


def test_ship_numbers_typed_whole(gd) -> None:
    """A number is never read as the prefix of a longer one: 'attack 5 1' is not
    'attack 5 12'."""
    s = gd.blank()
    a = gd.put(s, 0, "raider", "O2")
    for _ in range(11):
        gd.put(s, 1, "miner", "B3")
    t = gd.put(s, 1, "raider", "O2")
    assert t >= 10
    g = s.game
    assert g.explain_refusal(s, f"attack {a} {str(t)[0]}") is not None
    assert str(g.read_action(s, f"ATTACK {a} {t}")) == f"attack {a} {t}"


def test_board_names_players_by_colour_and_shows_ship_numbers(gd) -> None:
    """GD-MAP-03: red is player 1, purple player 2; seats are shown by colour so that seat
    P1 is not mistaken for sector P1, and ships by the number actions use."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "O2")
    con = Console(width=80, record=True, color_system=None)
    con.print(render(s, 0))
    text = con.export_text()
    assert "Legend:" in text and f"r#{r} " in text
    assert "red (P0)" in text and "purple (P1)" in text
    assert max(len(line) for line in text.splitlines()) <= 80
