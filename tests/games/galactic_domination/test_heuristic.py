"""The heuristic bot uses each special where it pays off: warp (GD-DS-01), a chosen arrival
and collision (GD-DS-05/06), the black hole shot (GD-SPC-04..06) and the fleet jump
(GD-SPC-07..09); it keeps out of sectors an enemy destroyer aims at."""

from __future__ import annotations

from collections import Counter

import starlanes
from starlanes.games.galactic_domination.heuristic import HeuristicAgent


def _bot(s, seed=0):
    bot = HeuristicAgent(seed)
    bot.patience = 0
    return bot


def _turn(s, bot, limit: int, until: str = "") -> list[str]:
    """The bot's actions while seat 0 is to act: at most ``limit``, stopping after ``until``."""
    picks: list[str] = []
    while s.current_player() == 0 and len(picks) < limit:
        a = bot.act(s)
        picks.append(str(a))
        s.apply(a)
        if picks[-1] == until:
            break
    return picks


def _holes(s, *names: str) -> None:
    for name in names:
        s.holes[s.board.index[name]] = True


def test_explorer_shoots_then_warps(gd):
    """GD-DS-01: the explorer spends all but its last AP shooting, then warps out."""
    s = gd.blank()
    e = gd.put(s, 0, "explorer", "G1")
    gd.put(s, 0, "raider", "R1")
    gd.put(s, 0, "raider", "R2")
    foe = gd.put(s, 1, "command", "G3")
    picks = _turn(s, _bot(s), 5, until=f"warp {e}")
    assert picks == [f"attack {e} {foe}", f"attack {e} {foe}", f"warp {e}"]


def test_explorer_stays_when_needed(gd):
    """GD-WIN-02: the bot does not warp when too few own ships would stay on the board."""
    s = gd.blank()
    e = gd.put(s, 0, "explorer", "R1")
    gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P2")
    assert str(_bot(s).act(s)) != f"warp {e}"


def test_chosen_arrival_collides_for_profit(gd):
    """GD-DS-05/06: with a command ship in the arrival zone the bot collides on purpose
    when the cheapest enemy non-miner in the full sector is worth more than the explorer."""
    s = gd.blank()
    gd.put(s, 0, "command", "G2")
    gd.put(s, 0, "raider", "R1")
    full = [gd.put(s, 1, "destroyer", "G1") for _ in range(3)]
    gd.put(s, 1, "raider", "P2")
    e = gd.put(s, 0, "explorer", "R2")
    gd.do(s, f"warp {e}", "end")
    gd.rolls(s, gd.d10(5), gd.segment(s, "void"))
    gd.do(s, "end")
    assert s.stack and s.stack[-1].kind == "arrive"
    assert str(_bot(s).act(s)) == f"arrive {e} G1"
    gd.do(s, f"arrive {e} G1")
    assert s.current_player() == 1  # the defender picks (GD-DS-06)
    gd.do(s, str(_bot(s, 1).act(s)))
    assert e not in s.ships and sum(u in s.ships for u in full) == 2


def test_destroyer_charges_at_attached_miners(gd):
    """GD-SPC-04/05: with dark matter and minerals the destroyer aims a black hole shot at
    a sector of attached enemy miners; GD-SPC-06: and fires it next turn."""
    s = gd.blank()
    d = gd.put(s, 0, "destroyer", "O2", ap=1)  # one AP left: no kill is possible with it
    gd.put(s, 0, "raider", "R1")
    miners = [gd.put(s, 1, "miner", "G3", att=1) for _ in range(3)]
    gd.put(s, 1, "raider", "P2")
    for _ in range(4):
        gd.put(s, 0, "miner", "R3", att=1)
    s.minerals[0], s.dark[0] = 6, 1  # short of a raider, so no build comes first
    bot = _bot(s)
    a = bot.act(s)
    assert str(a) == f"charge {d} G3"  # the last AP buys more as a shot than as a hit
    s.apply(a)
    s.ships.update({u: (*s.ships[u][:5], 0, *s.ships[u][6:]) for u in miners})  # they stay
    gd.do(s, "end", "end")
    gd.do(s, str(bot.act(s)))
    assert s.holes[s.board.index["G3"]] and not any(u in s.ships for u in miners)


def test_ships_leave_an_aimed_sector(gd):
    """GD-BH-02: a ship in a sector an enemy destroyer aims at moves out first."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "G2")
    m = gd.put(s, 0, "miner", "G1", att=1)
    gd.put(s, 1, "destroyer", "B2", chg=1, aim="G2")
    gd.put(s, 1, "destroyer", "B1", chg=1, aim="G1")
    bot = _bot(s)
    moved = set()
    while s.current_player() == 0 and len(moved) < 2:
        a = bot.act(s)
        s.apply(a)
        if str(a).startswith("move"):
            moved.add(a.ship)
        if str(a) == "end":
            break
    assert gd.sec(s, r) not in ("G1", "G2") and gd.sec(s, m) not in ("G1", "G2")


def test_command_ship_jumps_with_its_group(gd):
    """GD-SPC-07: far from the fight and safe, the command ship charges a jump; the ship
    beside it waits; GD-SPC-08/09: next turn it jumps first, taking that ship along."""
    s = gd.blank()
    c = gd.put(s, 0, "command", "R2")
    d = gd.put(s, 0, "destroyer", "R2")
    gd.put(s, 1, "raider", "P2")
    s.minerals[0] = s.content.specials.jump_minerals
    bot = _bot(s)
    first = bot.act(s)
    assert str(first) == f"charge {c}"
    while s.current_player() == 0:
        s.apply(bot.act(s))
    assert gd.sec(s, d) == "R2"
    gd.do(s, "end")
    a = bot.act(s)
    assert str(a).startswith(f"jump {c} ")
    s.apply(a)
    assert gd.sec(s, d) == gd.sec(s, c) != "R2"
    assert s.board.dist[s.board.index[gd.sec(s, c)]][s.board.index["P2"]] <= 2


def test_specials_in_heuristic_play():
    """Over a few heuristic games every special is used (counts in docs/agents.md)."""
    seen = Counter()
    for g in range(12):
        s = starlanes.load("galactic-domination", seed=g).new_initial_state()
        bots = [HeuristicAgent(g * 10), HeuristicAgent(g * 10 + 1)]
        while not s.is_terminal():
            a = bots[s.current_player()].act(s)
            seen[type(a).__name__] += 1
            s.apply(a)
    for kind in ("Warp", "Sacrifice", "ChargeShot", "Fire", "ChargeJump", "Jump"):
        assert seen[kind] > 0, kind


def test_no_build_in_an_aimed_sector(gd):
    """GD-BLD-04 with GD-BH-02: the bot builds only where no enemy destroyer aims."""
    s = gd.blank()
    gd.put(s, 0, "raider", "O2")
    gd.put(s, 1, "destroyer", "O1", chg=1, aim="R1")
    gd.put(s, 1, "destroyer", "O3", chg=1, aim="R3")
    s.minerals[0] = 4
    assert str(_bot(s).act(s)) == "build miner R2"
    s.ships.clear()
    gd.put(s, 0, "raider", "O2")
    for aim, at in (("R1", "O1"), ("R2", "O2"), ("R3", "O3")):
        gd.put(s, 1, "destroyer", at, chg=1, aim=aim)
    s._legal = None
    assert not str(_bot(s).act(s)).startswith("build")


def test_no_black_hole_that_walls_the_board(gd):
    """GD-SPC-04..06 with GD-BH-04: with G1 and G2 already black holes, a hole at G3 would
    cut the board in two; the bot neither charges at G3 nor fires a charged shot at it while
    it is empty, but still fires it at enemy ships worth more than its own there."""
    s = gd.blank()
    _holes(s, *("G1", "G2"))
    gd.put(s, 0, "destroyer", "O2", ap=1)
    gd.put(s, 0, "raider", "R1")
    for _ in range(3):
        gd.put(s, 1, "miner", "G3", att=1)
    gd.put(s, 1, "raider", "P2")
    for _ in range(4):
        gd.put(s, 0, "miner", "R3", att=1)
    s.minerals[0], s.dark[0] = 6, 1
    assert not str(_bot(s).act(s)).startswith("charge")
    s = gd.blank()
    _holes(s, *("G1", "G2"))
    d = gd.put(s, 0, "destroyer", "O2", chg=2, aim="G3")
    gd.put(s, 1, "raider", "P2")
    assert str(_bot(s).act(s)) != f"fire {d}"
    gd.put(s, 1, "command", "G3")
    assert str(_bot(s).act(s)) == f"fire {d}"


def test_walled_off_fleet_jumps_over(gd):
    """GD-SPC-07..09 with GD-BH-03/04: when black holes wall a fleet off from every firing
    sector, the command ship charges a fleet jump and a cut-off raider joins it to go along
    (distances count around black holes)."""
    s = gd.blank()
    _holes(s, *("G1", "G2", "G3"))
    c = gd.put(s, 0, "command", "O2")
    r = gd.put(s, 0, "raider", "R1")
    gd.put(s, 1, "raider", "P2")
    s.minerals[0] = s.content.specials.jump_minerals
    bot = _bot(s)
    assert f"charge {c}" in _turn(s, bot, 8)
    assert gd.sec(s, r) == "O2"
    gd.do(s, "end")
    a = bot.act(s)
    assert str(a).startswith(f"jump {c} ")
    s.apply(a)
    assert gd.sec(s, r) == gd.sec(s, c) and s.board.zone_of[s.board.index[gd.sec(s, c)]] > 2


def test_heuristic_games_end_without_the_turn_limit():
    """Seeds whose heuristic games once reached the 150-turn limit with the board walled off
    by black holes (docs/soak.md) now end with a destroyed fleet (GD-WIN-02/03)."""
    for seed in (200315, 200563):
        s = starlanes.load("galactic-domination", seed=seed).new_initial_state()
        bots = [HeuristicAgent(seed * 16), HeuristicAgent(seed * 16 + 1)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].act(s))
        assert s.end_reason == "fleet_destroyed"
