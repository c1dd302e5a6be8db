"""Battle odds (Rift Domination BATTLE, WEAPONS AND RANGE, UNIT-SKILLS): exact dynamic
programming against hand-computed cases and against Monte Carlo runs of the engine's own
battle code; policies; the ``starlanes odds`` command."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest

import starlanes
from starlanes.agents.registry import make_agent
from starlanes.analysis.odds import (
    OUTCOMES,
    OddsError,
    RiftBattleSpec,
    action_odds,
    battle_odds_for_state,
    parse_fleet,
    rift_odds,
)
from starlanes.engine import BadOptionError


def spec(a: str, d: str, **kw) -> RiftBattleSpec:
    return RiftBattleSpec(parse_fleet(a), parse_fleet(d), **kw)


def test_one_fighter_each_space_far_phase_by_hand():
    """RD-HIT-06, RD-BAT-05/10: close weapons hit at far range on 5-6 (p = 1/3); with
    simultaneous fire both may die in the same phase."""
    r = rift_odds(spec("fighter", "fighter"))
    far = r.by_phase["far"]
    assert far["attacker_wins"] == pytest.approx(2 / 9, abs=1e-12)
    assert far["mutual_destruction"] == pytest.approx(1 / 9, abs=1e-12)
    mid = r.by_phase["mid"]  # RD-HIT-05: 4-6 at mid range, reached with P = 4/9
    assert mid["attacker_wins"] == pytest.approx(4 / 9 * 1 / 4, abs=1e-12)
    assert mid["mutual_destruction"] == pytest.approx(4 / 9 * 1 / 4, abs=1e-12)
    # RD-HIT-04: 2-6 at close; close rounds repeat until a side falls
    reach = 4 / 9 * 1 / 4
    q = 5 / 6
    first_close = reach * q * (1 - q)
    assert r.by_phase["close"]["attacker_wins"] == pytest.approx(first_close, abs=1e-12)
    assert sum(r.outcomes.values()) == pytest.approx(1.0, abs=1e-12)
    assert r.outcomes["attacker_wins"] == pytest.approx(r.outcomes["defender_wins"], abs=1e-12)


def test_long_gun_against_fighter_sequential_fire():
    """RD-HIT-12 and RD-BAT-04 with sequential fire: a long gun (2-6 at far) fires first
    and a destroyed fighter no longer fires back."""
    r = rift_odds(spec("missile_frigate", "fighter", options={"battle_fire": "sequential"}))
    # missile frigate: Rocket Barrage first (RD-SKL-02: the fighter dies on 4+), then
    # 1 mid + 2 long dice at far: mid 3+ (2/3), long 2+ (5/6)
    p_miss = (1 / 2) * (1 / 3) * (1 / 6) ** 2
    assert r.by_phase["far"]["attacker_wins"] == pytest.approx(1 - p_miss, abs=1e-12)
    assert r.by_phase["far"]["mutual_destruction"] == 0


def test_carrier_needs_two_damage():
    """RD-HIT-14/16/18: a carrier (1 shield, 1 LP) at far range needs two hits of 5-6."""
    r = rift_odds(spec("2 fighter", "carrier"))
    p = 1 / 3
    # both attacking dice hit in the far phase: the carrier dies; its one die can take
    # at most one fighter, so the attacker always keeps one
    assert r.by_phase["far"]["attacker_wins"] == pytest.approx(p * p, abs=1e-12)
    assert r.by_phase["far"]["mutual_destruction"] == 0
    one = rift_odds(spec("fighter", "carrier"))
    assert one.by_phase["far"]["attacker_wins"] == 0  # one hit only breaks the shield


def test_ground_battle_against_the_outpost():
    """RD-BAT-03/14: a ground battle starts at mid range against the outpost (2 LP, one
    close weapon); one infantry needs two mid-range hits of 4-6."""
    r = rift_odds(spec("infantry", "", ground=True))
    assert "far" not in r.by_phase
    assert r.by_phase["mid"]["attacker_wins"] == 0
    assert r.by_phase["mid"]["defender_wins"] == pytest.approx(1 / 2, abs=1e-12)
    assert sum(r.outcomes.values()) == pytest.approx(1.0, abs=1e-12)


def _agree(a: str, d: str, trials: int, **kw) -> None:
    exact = rift_odds(spec(a, d, **kw.pop("spec", {})), method="exact", **kw)
    mc = rift_odds(spec(a, d), method="monte-carlo", trials=trials, seed=7, **kw)
    assert exact.method == "exact" and mc.method == "monte-carlo"
    for k in OUTCOMES:
        se = max(mc.stderr[k], math.sqrt(0.25 / trials) / 10)
        assert abs(exact.outcomes[k] - mc.outcomes[k]) <= 4 * se, (a, d, k)


@pytest.mark.parametrize(("a", "d"), [
    ("3 fighter, 2 carrier, destroyer", "2 cruiser, 2 fighter"),
    ("flagship, 2 fighter", "6 fighter, goliath"),  # RD-SKL-02 barrage, RD-SKL-12 taunt
    ("2 bomber, missile_frigate", "sentinel, 2 corvette"),
])
def test_exact_matches_engine_monte_carlo(a, d):
    """The exact model and the engine's battle code agree within 4 standard errors."""
    _agree(a, d, 1500)


def test_random_fleets_agree():
    """Random small fleets of modelled units: exact vs engine Monte Carlo."""
    rng = random.Random(3)
    kinds = ["fighter", "carrier", "corvette", "destroyer", "bomber", "cruiser",
             "missile_frigate", "goliath", "flagship"]
    for _ in range(4):
        a = ", ".join(rng.choice(kinds) for _ in range(rng.randint(1, 3)))
        d = ", ".join(rng.choice(kinds) for _ in range(rng.randint(1, 3)))
        _agree(a, d, 600)


def test_policies_change_the_odds_and_are_stated():
    """Targeting policy: killing the weakest first beats focusing the most expensive
    against a fleet of one big and many small ships; the defaults are named."""
    h = rift_odds(spec("4 fighter", "cruiser, 4 fighter"))
    w = rift_odds(spec("4 fighter", "cruiser, 4 fighter"), casualties="weakest")
    assert h.policies["casualties"] == "heuristic (default)"
    assert h.policies["retreat"] == "never (default)"
    assert w.policies["casualties"] == "weakest"
    assert w.outcomes["attacker_wins"] != pytest.approx(h.outcomes["attacker_wins"], abs=1e-6)
    # RD-BAT-08: with the heuristic's retreat rule the outmatched side leaves after close
    never = rift_odds(spec("goliath", "3 fighter, destroyer"))
    r = rift_odds(spec("goliath", "3 fighter, destroyer"), retreat="heuristic")
    assert never.outcomes["defender_retreats"] == 0
    assert r.outcomes["defender_retreats"] > 0.01
    assert r.outcomes["attacker_wins"] < never.outcomes["attacker_wins"]


def test_skills_outside_the_model_fall_back_to_monte_carlo():
    r = rift_odds(spec("repair_ship", "2 fighter"), trials=200)
    assert r.method == "monte-carlo" and "Repair Rush" in r.note
    assert r.stderr["attacker_wins"] > 0
    with pytest.raises(OddsError, match="Repair Rush.*method auto"):
        rift_odds(spec("repair_ship", "2 fighter"), method="exact")


def test_too_large_falls_back():
    r = rift_odds(spec("5 fighter, 3 cruiser", "4 destroyer, 4 carrier"), max_states=5,
                  trials=100)
    assert r.method == "monte-carlo" and "too large" in r.note


@pytest.mark.parametrize(("kw", "match"), [
    ({"casualties": "random"}, "casualty policy"),
    ({"retreat": "sometimes"}, "retreat policy"),
    ({"method": "guess"}, "method"),
])
def test_bad_policies(kw, match):
    with pytest.raises(BadOptionError, match=match):
        rift_odds(spec("fighter", "fighter"), **kw)


@pytest.mark.parametrize(("a", "d", "kw", "match"), [
    ("3 fihgter", "fighter", {}, "unknown attacker unit"),
    ("fighter", "", {}, "defender has no units"),
    ("infantry", "fighter", {}, "only ground units"),
    ("fighter", "fighter", {"factions": ("nobody", None)}, "unknown faction"),
])
def test_bad_fleets(a, d, kw, match):
    with pytest.raises(OddsError, match=match):
        rift_odds(spec(a, d, **kw))
    with pytest.raises(OddsError, match="cannot read"):
        parse_fleet("3 fighter; carrier")


def play_to_battle(seed: int = 4):
    """Heuristic bots play until a battle waits for a decision; returns the state and the
    number of actions played, and the state one action before the battle began."""
    s = starlanes.load("rift-domination", players=2, seed=seed).new_initial_state()
    bots = [make_agent("heuristic", "rift-domination", i) for i in range(2)]
    before = None
    for i in range(20000):
        assert not s.is_terminal()
        if s.battle is not None and s.battle.pending is not None:
            return s, i, before
        before = (s.clone(), i)
        s.apply(bots[s.current_player()].act(s))
    raise AssertionError("no battle")


def test_state_and_action_odds_for_tables():
    """battle_odds_for_state: the battle a seat is in; action_odds: the battle the action
    that started it would start (on a clone, the state is unchanged)."""
    s, n, before = play_to_battle()
    r = battle_odds_for_state(s, s.battle.attacker)
    assert r is not None and sum(r.outcomes.values()) == pytest.approx(1, abs=1e-9)
    third = [x for x in range(s.n) if x not in s.battle.seats]
    assert all(battle_odds_for_state(s, x) is None for x in third)
    prev, i = before
    digest = prev.digest()
    rec = s.record(["a", "b"])
    act = prev.game.parse_action(prev, rec.actions[i])
    r2 = action_odds(prev, act)
    assert prev.digest() == digest
    assert r2 is not None
    assert r2.outcomes["attacker_wins"] == pytest.approx(r.outcomes["attacker_wins"], abs=0.05)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "starlanes.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_cli_table_json_chart(tmp_path):
    p = _cli("odds", "rift-domination", "--attacker", "fighter", "--defender", "fighter")
    assert p.returncode == 0, p.stderr
    assert "exact" in p.stdout and "casualties = heuristic (default)" in p.stdout
    assert "34.92%" in p.stdout
    png = tmp_path / "odds.png"
    p = _cli("odds", "rift-domination", "--attacker", "2 fighter", "--defender", "carrier",
             "--json", "--chart", str(png))
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["method"] == "exact"
    assert sum(data["outcomes"].values()) == pytest.approx(1, abs=1e-12)
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_cli_bad_input():
    p = _cli("odds", "rift-domination", "--attacker", "3 fihgter", "--defender", "fighter")
    assert p.returncode == 2 and "unknown attacker unit" in p.stderr
    p = _cli("odds", "galactic-empires", "--attacker", "x")
    assert p.returncode == 2 and "rift-domination" in p.stderr
    p = _cli("odds", "rift-domination", "--attacker", "fighter", "--defender", "fighter",
             "--casualties", "nope")
    assert p.returncode == 2 and "casualty policy" in p.stderr


def test_cli_from_record(tmp_path):
    """--from-record FILE --at N: the battle running at that position of a saved game."""
    s, at, _ = play_to_battle()
    rec = tmp_path / "game.json"
    s.record(["random", "random"]).save(rec)
    p = _cli("odds", "rift-domination", "--from-record", str(rec), "--at", str(at), "--json",
             "--trials", "200")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert sum(data["outcomes"].values()) == pytest.approx(1, abs=1e-9)
    p = _cli("odds", "rift-domination", "--from-record", str(rec), "--at", "0")
    assert p.returncode == 2 and "no battle" in p.stderr
    p = _cli("odds", "rift-domination", "--from-record", str(rec), "--at", "99999")
    assert p.returncode == 2 and "outside the record" in p.stderr


def test_rulebook_example_fighter_and_carrier_against_a_carrier():
    """RD-HIT-17/18: white (fighter + carrier) attacks green's carrier; white rolls two
    dice at far range, each hitting on 5-6, and must deal 2 damage (shield, then LP) to
    destroy it. Green's one die cannot destroy both white ships."""
    r = rift_odds(spec("fighter, carrier", "carrier"))
    assert r.by_phase["far"]["attacker_wins"] == pytest.approx(1 / 9, abs=1e-12)
    assert r.by_phase["far"]["mutual_destruction"] == 0
    assert r.by_phase["far"]["defender_wins"] == 0


def test_heuristic_odds_agent_spec():
    """heuristic:odds=1 uses the exact odds in its attack decision (rift-domination)."""
    from starlanes.engine import AgentSpecError

    bot = make_agent("heuristic:odds=1", "rift-domination", 0)
    assert bot.odds and bot.name == "heuristic:odds=1"
    assert not make_agent("heuristic", "rift-domination", 0).odds
    with pytest.raises(AgentSpecError, match="only offered for rift-domination"):
        make_agent("heuristic:odds=1", "galactic-empires", 0)
    with pytest.raises(AgentSpecError, match="use 0 or 1"):
        make_agent("heuristic:odds=yes", "rift-domination", 0)
    s, _, before = play_to_battle()
    prev, _ = before
    moves = [a for a in prev.legal_actions() if type(a).__name__ == "Move"]
    for a in moves:
        p = bot._attack_odds(prev, a)
        assert p is None or 0 <= p <= 1


@pytest.mark.parametrize(("sp", "kw"), [
    (spec("6 infantry", "infantry", ground=True, upgrades=("artillery",)), {}),  # RD-BAT-14/15
    (spec("3 destroyer, 2 fighter", "cruiser, 3 fighter",
          factions=("pyre_legion", "thane_vigil")), {}),  # hit bonus, first strike
    (spec("3 destroyer, 2 fighter", "cruiser, 3 fighter",
          options={"battle_fire": "sequential"}), {}),
    (spec("goliath, 3 fighter", "2 destroyer, 2 fighter"),
     {"retreat": "heuristic", "casualties": "weakest"}),  # RD-BAT-08, RD-SKL-12
])
def test_exact_matches_engine_in_every_mode(sp, kw):
    """Ground battles, factions, sequential fire and the other policies: the exact model
    and the engine's battle code agree within 4 standard errors on every outcome."""
    exact = rift_odds(sp, method="exact", **kw)
    mc = rift_odds(sp, method="monte-carlo", trials=1200, seed=3, **kw)
    for k in OUTCOMES:
        se = max(mc.stderr[k], 0.002)
        assert abs(exact.outcomes[k] - mc.outcomes[k]) <= 4 * se, k
