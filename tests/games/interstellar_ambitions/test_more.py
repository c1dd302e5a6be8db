"""Less common paths: the Bribed Captain, hiring at 8 ships, hidden Buy offers under
determinisation, the combat panel, pilfering and the remaining designed Shadow cards."""

from __future__ import annotations

import random

from rich.console import Console

from starlanes.games.interstellar_ambitions.render import render


def at_shadow(ia, *cards: str):
    s = ia.turn(3, 0, 0, round_=2)
    ia.hand(s, 0, *cards)
    return s


def test_bribed_captain_at_eight_ships(ia) -> None:
    """IA-SHIP-07: a merc taken at 8 ships needs a discard first."""
    s = at_shadow(ia, "bribed_captain")
    for _ in range(8):
        ia.ship(s, 0, "strike_craft")
    ia.ship(s, 1, "gunrunner")
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play bribed_captain P1.gunrunner")
    assert s.stack[-1].kind == "scrap"
    ia.act(s, "scrap strike_craft")
    assert s.content.ship_ids[s.ships[0][-1][0]] == "gunrunner" and len(s.ships[0]) == 8
    assert s.ships[1] == ()


def test_hire_at_eight_ships(ia) -> None:
    """IA-SHIP-07, IA-SHA-05: hiring at 8 ships discards a ship first."""
    s = ia.turn(3, 0, 3)
    c = s.content
    for _ in range(8):
        ia.ship(s, 0, "strike_craft")
    s.merc_slots = [c.ship_index["gunrunner"], c.ship_index["ace_pilot"], -1]
    s.res[0] = (0, 0, 0, 9)
    ia.tokens(s, 0, "shadow:moderate")
    ia.run(s)
    ia.act(s, "take shadow:moderate")
    ia.act(s, "hire-mercs")
    ia.act(s, "hire gunrunner")
    ia.act(s, "scrap strike_craft")
    assert len(s.ships[0]) == 8 and s.res[0][3] == 7
    ia.act(s, "done")
    assert all(m >= 0 for m in s.merc_slots)


def test_buy_offer_hidden_and_resampled(ia) -> None:
    """The Buy offer is seen only by the buyer; determinisation for others resamples it."""
    s = ia.turn(3, 0, 3)
    s.res[0] = (0, 0, 0, 9)
    ia.hand(s, 1, "black_market", "informant")
    ia.tokens(s, 0, "shadow:ultimate")
    ia.run(s)
    ia.act(s, "take shadow:ultimate")
    ia.act(s, "buy-cards")
    assert s.observation(1)["offer"] is None and len(s.observation(0)["offer"]) == 5
    seen = set()
    for k in range(10):
        d = s.determinize(1, random.Random(k))
        assert d.hands[1] == s.hands[1] and len(d.offer) == 5
        seen.add(d.offer)
    assert len(seen) > 1
    assert s.determinize(0, random.Random(1)).offer == s.offer


def test_pilfer_steal_lose_damage(ia) -> None:
    """Designed cards: Double Agent, Dock Strike, Reactor Leak, Civil Unrest, Informant."""
    s = at_shadow(ia, "double_agent")
    ia.hand(s, 1, "black_market")
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play double_agent P1")
    ia.act(s, "pass")
    assert s.hands[1] == () and len(s.hands[0]) == 1
    s = at_shadow(ia, "dock_strike")
    s.res[1] = (0, 5, 0, 0)
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play dock_strike P1")
    assert s.res[1] == (0, 2, 0, 0)
    s = at_shadow(ia, "reactor_leak")
    ia.ship(s, 1, "destroyer")
    ia.ship(s, 1, "strike_craft")
    ia.dice(s, [6, 6])
    ia.run(s)
    ia.act(s, "play reactor_leak P1.destroyer")
    assert s.ships[1][0][1] == 2
    s.hands[0] = (s.content.shadow_index["reactor_leak"],)
    s.step, s.seat = 0, 0
    s.stack.clear()
    ia.run(s)
    ia.act(s, "play reactor_leak P1.strike_craft")
    assert len(s.ships[1]) == 1
    s = at_shadow(ia, "civil_unrest")
    ia.planet(s, 1, "tidewater", 3)
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play civil_unrest P1.tidewater")
    assert s.planets[1][-1][1] == 2
    s = at_shadow(ia, "informant")
    ia.run(s)
    ia.act(s, "play informant self")
    assert len(s.hands[0]) == 1


def test_render_combat_panel(ia) -> None:
    s = ia.turn(3, 0, 3, round_=2)
    ia.ship(s, 0, "destroyer")
    ia.ship(s, 0, "strike_craft")
    ia.ship(s, 1, "destroyer")
    ia.ship(s, 1, "cruiser")
    ia.tokens(s, 0, "fleet:moderate")
    ia.run(s)
    ia.act(s, "take fleet:moderate")
    ia.act(s, "invade P1")
    con = Console(width=160, record=True)
    con.print(render(s, 1))
    text = con.export_text()
    assert "Combat" in text and "invade" in text
