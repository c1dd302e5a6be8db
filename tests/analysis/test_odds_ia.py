"""Interstellar Ambitions combat odds (FLEET RAID, INVADE, IA-RAID-*, IA-INV-*, IA-SHIP-*,
IA-SHD-08..11): exact results by hand, against Monte Carlo runs of the game's own combat
code, orders, emergency ships, shadow checks and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import starlanes
from starlanes.analysis.odds import (
    IACombatSpec,
    OddsError,
    battle_odds_for_state,
    ia_odds,
    parse_ships,
    shadow_check_odds,
)
from starlanes.analysis.odds.ia import hits_dist
from starlanes.analysis.odds.ia_sim import ia_simulate


def spec(a: str, d: str, **kw) -> IACombatSpec:
    return IACombatSpec(parse_ships(a), parse_ships(d), **kw)


def test_one_strike_craft_each_raid_by_hand():
    """IA-RAID-07/08/10/12: one die each, 4+ hits; a strike craft (combat 1) hit once is
    damaged to 0 (not destroyed: it needs more damage than its combat value). Raid at
    level 1 adds 2 to the attacker; MORE wins: totals 3 or 2 vs 1 or 0."""
    r = ia_odds(spec("strike_craft", "strike_craft", emergency="none"))
    assert r.attacker_wins == pytest.approx(1.0, abs=1e-12)
    inv = ia_odds(spec("strike_craft", "strike_craft", kind="invade", emergency="none"))
    # invade at level 1 adds nothing; EQUAL OR MORE wins (IA-INV-07): lose only if the
    # attacker is hit (1/2) and the defender is not (1/2)
    assert inv.attacker_wins == pytest.approx(0.75, abs=1e-12)
    assert sum(inv.outcomes.values()) == pytest.approx(1, abs=1e-12)


def test_hit_distribution_natural_six_and_armour():
    """IA-SHIP-06/12: a natural 6 scores an extra hit; armour ignores one hit."""
    d = hits_dist(1, 4, 1, 0)
    assert d == pytest.approx([3 / 6, 2 / 6, 1 / 6], abs=1e-12)
    a = hits_dist(2, 4, 0, 1)
    assert a == pytest.approx([3 / 4, 1 / 4], abs=1e-12)


@pytest.mark.parametrize(("a", "d", "kind"), [
    ("cruiser, battleship, destroyer/1", "2 corvette, armoured_barge, sniper_frigate", "invade"),
    ("captain_rogers, 2 strike_craft, squadron_leader",
     "strike_craft, ace_pilot, ghost_runner, shield_tender", "invade"),
    ("2 destroyer, corvette", "void_corsair", "raid"),  # emergency draw
])
def test_exact_matches_engine_monte_carlo(a, d, kind):
    s = spec(a, d, kind=kind, orders=("strongest", "strongest"))
    exact = ia_odds(s)
    mc = ia_simulate(s, 2000, seed=5)
    assert abs(exact.attacker_wins - mc["p"]) <= 4 * max(mc["se"], 0.002)


def test_random_fleets_agree():
    rng = random.Random(9)
    light = ["strike_craft", "destroyer", "corvette", "void_corsair", "gunrunner",
             "sniper_frigate", "ace_pilot", "ghost_runner", "squadron_leader"]
    for _ in range(4):
        a = ", ".join(rng.choice(light) for _ in range(rng.randint(1, 4)))
        d = ", ".join(rng.choice(light) for _ in range(rng.randint(1, 4)))
        s = spec(a, d, orders=("strongest", "strongest"))
        exact = ia_odds(s)
        mc = ia_simulate(s, 1000, seed=3)
        assert abs(exact.attacker_wins - mc["p"]) <= 4 * max(mc["se"], 0.003), (a, d)


def test_best_order_is_at_least_as_good():
    a, d = "destroyer, 2 strike_craft, squadron_leader", "cruiser, battleship, corvette, destroyer"
    listed = ia_odds(spec(a, d, kind="invade", orders=("listed", "strongest")))
    best = ia_odds(spec(a, d, kind="invade", orders=("best", "strongest")))
    assert best.attacker_wins >= listed.attacker_wins - 1e-12
    assert best.policies["orders"].startswith("attacker best")


def test_emergency_ship_mixture():
    """IA-RAID-03: an outnumbered defender draws an emergency ship; a raid redraws HEAVY
    ones, so no heavy emergency ship ever fights in a raid."""
    r = ia_odds(spec("2 destroyer", "destroyer"))
    rows = r.extra["tables"]["orders (attacker | defender) per scenario"]
    assert any("converted_freighter" in row for row in rows)
    assert not any("old_monitor" in row or "armed_ore_hauler" in row for row in rows)
    none = ia_odds(spec("2 destroyer", "destroyer", emergency="none"))
    assert none.attacker_wins > r.attacker_wins


def test_shadow_check_table():
    """IA-SHD-08..11: d6 + modifier + boosts - opposes >= 4 succeeds."""
    t = shadow_check_odds(0)
    assert t[(0, 0)] == pytest.approx(0.5)
    assert t[(3, 0)] == pytest.approx(1.0)
    assert t[(0, 3)] == pytest.approx(0.0)
    assert shadow_check_odds(-1)[(1, 0)] == pytest.approx(0.5)


@pytest.mark.parametrize(("a", "d", "kw", "match"), [
    ("cruiser", "destroyer", {}, "HEAVY"),
    ("mining_tug", "destroyer", {"kind": "invade"}, "only defends"),
    ("frigate", "destroyer", {}, "unknown attacker ship"),
    ("destroyer/5", "destroyer", {}, "more damage"),
    ("destroyer", "destroyer", {"kind": "siege"}, "raid or invade"),
    ("destroyer", "destroyer", {"orders": ("best", "best")}, "only one side"),
    ("destroyer", "destroyer", {"emergency": "cruiser"}, "not an emergency ship"),
])
def test_bad_input(a, d, kw, match):
    with pytest.raises(OddsError, match=match):
        ia_odds(spec(a, d, **kw))


def test_state_odds_while_orders_are_open():
    """battle_odds_for_state on a real game: the combat waiting for orders."""
    from starlanes.agents.registry import make_agent

    for seed in range(6):
        s = starlanes.load("interstellar-ambitions", players=3, seed=seed).new_initial_state()
        bots = [make_agent("heuristic", "interstellar-ambitions", i) for i in range(3)]
        for _ in range(20000):
            if s.is_terminal():
                break
            cb = getattr(s, "combat", None)
            if cb is not None and cb.stage == "order" and s.stack:
                r = battle_odds_for_state(s, cb.seats[0])
                assert r is not None
                assert sum(r.outcomes.values()) == pytest.approx(1, abs=1e-9)
                outsider = next(x for x in range(3) if x not in cb.seats)
                assert battle_odds_for_state(s, outsider) is None
                return
            s.apply(bots[s.current_player()].act(s))
    pytest.skip("no combat reached in the sampled games")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "starlanes.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_cli():
    p = _cli("odds", "interstellar-ambitions", "--attacker", "2 destroyer", "--defender",
             "corvette", "--emergency", "none", "--json", "--shadow-mod", "1")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["method"] == "exact" and data["kind"] == "raid"
    assert data["shadow_check"]["0,0"] == pytest.approx(4 / 6)
    p = _cli("odds", "interstellar-ambitions", "--attacker", "cruiser", "--defender", "corvette")
    assert p.returncode == 2 and "HEAVY" in p.stderr
    p = _cli("odds", "interstellar-ambitions", "--shadow-mod", "0")
    assert p.returncode == 0 and "50.0%" in p.stdout


def test_rulebook_raid_example_duel_through_the_shared_volley():
    """IA-RAID-22, IA-SHIP-13: Carl's Strike Craft, given an extra die by his Squadron
    Leader, rolls 4 and 6 against Ade's Converted Freighter: 2 damage markers. The odds and
    the combat code take the dice from the same ``volley``."""
    from starlanes.games.interstellar_ambitions import combat

    s = starlanes.load("interstellar-ambitions", players=3, seed=1).new_initial_state()
    c = s.content
    sc, sl, cf = (c.ship_index[x] for x in ("strike_craft", "squadron_leader",
                                             "converted_freighter"))
    allies = [(sc, 0, 0, 0), (sl, 0, 1, 0)]
    n, need, six, armour = combat.volley(c, allies, allies[0], (cf, 0, 0, 0))
    assert (n, need, six, armour) == (2, 4, 0, 0)
    assert hits_dist(n, need, six, armour)[2] == pytest.approx(1 / 4, abs=1e-12)
    cb = combat.Combat("raid", 0, 1, 3)
    cb.entries = [allies, [(cf, 0, 0, 0)]]
    rolls = iter([4, 6])
    s.rng.d6 = lambda: next(rolls)
    assert combat._hits(s, cb, 0, allies[0], cb.entries[1][0]) == 2


def test_cli_from_record(tmp_path):
    """--from-record FILE --at N: the combat waiting for orders in a saved game."""
    from starlanes.agents.registry import make_agent

    for seed in range(20):  # the first heuristic game with a combat waiting for orders
        s = starlanes.load("interstellar-ambitions", players=3, seed=seed).new_initial_state()
        bots = [make_agent("heuristic", "interstellar-ambitions", i) for i in range(3)]
        n = 0
        while not (s.combat is not None and s.combat.stage == "order" and s.stack
                   or s.is_terminal()):
            s.apply(bots[s.current_player()].act(s))
            n += 1
        if not s.is_terminal():
            break
    assert not s.is_terminal(), "no heuristic game of seeds 0-19 had a combat with orders"
    rec = tmp_path / "ia.json"
    s.record(["heuristic"] * 3).save(rec)
    p = _cli("odds", "interstellar-ambitions", "--from-record", str(rec), "--at", str(n),
             "--orders", "strongest,strongest", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert sum(data["outcomes"].values()) == pytest.approx(1, abs=1e-12)
    assert data["policies"]["emergency"] == "none"  # already drawn in the game
    p = _cli("odds", "interstellar-ambitions", "--from-record", str(rec), "--at", "0")
    assert p.returncode == 2 and "no combat" in p.stderr
