"""Battle odds for the skills and battle cards the calculator offers (rulebook UNIT-SKILLS,
OCC-cards; RD-SKL-09..13, RD-OCC-06/07): support ships, shield generators, engineers and
the cards that act before the first die are exact and agree with battles played on the
engine; kamikaze drones, repair ships, defending engineers and the cards whose effect lasts
past the first volley get an estimate named as one, with the reason; Interstellar
Ambitions fleets follow the game's fleet limit."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from starlanes.analysis.odds import (
    IACombatSpec,
    OddsError,
    RiftBattleSpec,
    ia_odds,
    parse_fleet,
    parse_ships,
    rift_odds,
)
from starlanes.analysis.odds.policies import METHODS

OUTCOMES = ("attacker_wins", "defender_wins", "mutual_destruction")
TRIALS = 1500


def spec(a: str, d: str, cards: tuple = ((), ()), **kw) -> RiftBattleSpec:
    return RiftBattleSpec(parse_fleet(a), parse_fleet(d), cards=cards, **kw)


def _agree(sp: RiftBattleSpec, seed: int) -> None:
    """Exact odds against TRIALS engine battles (fixed seed): every outcome within 4
    standard errors."""
    exact = rift_odds(sp, method="exact")
    mc = rift_odds(sp, method="monte-carlo", trials=TRIALS, seed=seed)
    assert exact.method == "exact" and mc.method == "monte-carlo"
    assert sum(exact.outcomes.values()) == pytest.approx(1, abs=1e-9)
    for k in OUTCOMES:
        se = max(mc.stderr[k], math.sqrt(0.25 / TRIALS) / 10)
        assert abs(exact.outcomes[k] - mc.outcomes[k]) <= 4 * se, (k, exact.outcomes,
                                                                   mc.outcomes)
    for side in (0, 1):
        assert exact.expected["units_lost"][side] == pytest.approx(
            mc.expected["units_lost"][side], abs=0.25)


EXACT = {
    "support ship (Overload)": spec("3 fighter, support", "2 destroyer, fighter"),
    "support ships both sides": spec("support, 2 fighter, carrier", "support, destroyer"),
    "engineers carried in space": spec("carrier, 2 engineer, fighter", "destroyer"),
    "engineers attacking a planet": spec("2 engineer, 2 infantry", "infantry", ground=True),
    "shield generator (Overload)": spec("4 infantry", "infantry", ground=True,
                                        upgrades=("shield_generator",)),
    "jamming field against support": spec("3 fighter, carrier", "support, 2 fighter",
                                          cards=(("jamming_field",), ())),
    "shield surge": spec("3 fighter, carrier", "destroyer, 2 fighter",
                         cards=(("shield_surge",), ())),
    "capacitor overload": spec("2 fighter, carrier", "destroyer, fighter",
                               cards=((), ("capacitor_overload",))),
    "emergency recruitment": spec("2 fighter", "destroyer, carrier",
                                  cards=(("emergency_recruitment",), ())),
    "ground levy": spec("3 infantry", "2 infantry", ground=True,
                        cards=((), ("ground_levy",))),
    "targeting uplink": spec("4 fighter, carrier", "cruiser, 2 fighter",
                             cards=(("targeting_uplink",), ())),
    "ambush": spec("destroyer, 2 fighter", "2 carrier, 2 fighter",
                   cards=(("ambush",), ())),
}


@pytest.mark.parametrize("name", list(EXACT))
def test_newly_exact_battles_agree_with_the_engine(name):
    _agree(EXACT[name], seed=11)


def test_cards_and_overload_change_the_exact_answer():
    """The modelled effects are not ignored: each moves the exact chance."""
    base = rift_odds(spec("3 fighter, carrier", "destroyer, 2 fighter"), method="exact")
    for card in ("shield_surge", "emergency_recruitment", "targeting_uplink", "ambush"):
        r = rift_odds(spec("3 fighter, carrier", "destroyer, 2 fighter",
                           cards=((card,), ())), method="exact")
        assert r.attacker_wins > base.attacker_wins + 0.01, card
    plain = rift_odds(spec("3 fighter, destroyer", "2 destroyer, fighter"), method="exact")
    sup = rift_odds(spec("3 fighter, support", "2 destroyer, fighter"), method="exact")
    assert sup.attacker_wins != pytest.approx(plain.attacker_wins, abs=0.01)


ESTIMATED = {
    "kamikaze drone": (spec("3 fighter, 2 kamikaze_drone", "destroyer, 2 fighter"),
                       "kamikaze drone"),
    "repair ship": (spec("repair_ship, 2 fighter", "destroyer"), "Repair Rush"),
    "defending engineer": (spec("3 infantry", "engineer", ground=True), "Repair Bldg"),
    "weapon industry": (spec("3 fighter, carrier", "destroyer, 2 fighter",
                             cards=(("weapon_industry",), ())), "Weapon Industry"),
    "field repairs": (spec("3 fighter, carrier", "destroyer, 2 fighter",
                           cards=((), ("field_repairs",))), "Field Repairs"),
    "nanite swarm": (spec("3 fighter, carrier", "destroyer, 2 fighter",
                          cards=((), ("nanite_swarm",))), "Repair Rush"),
    "missile salvo": (spec("destroyer", "4 fighter", cards=(("missile_salvo",), ())),
                      "missile salvo"),
}


@pytest.mark.parametrize("name", list(ESTIMATED))
def test_battles_outside_the_model_get_a_labelled_estimate(name):
    sp, reason = ESTIMATED[name]
    r = rift_odds(sp)
    assert r.method == "monte-carlo"
    assert reason in r.note and "estimate" in r.note
    assert r.trials >= 20 and r.stderr["attacker_wins"] >= 0
    with pytest.raises(OddsError, match="method auto"):
        rift_odds(sp, method="exact")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "starlanes.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_cli_exact_refusal_names_a_method_that_answers():
    """The refusal's hint names a real method, and that method answers with the reason on
    its note line."""
    fleet = ("--attacker", "3 fighter, 2 kamikaze_drone", "--defender", "destroyer, fighter")
    p = _cli("odds", "rift-domination", *fleet, "--method", "exact")
    assert p.returncode == 2
    hint = p.stderr.split("method ")[-1].split()[0]
    assert hint in METHODS and hint != "exact", p.stderr
    p = _cli("odds", "rift-domination", *fleet, "--method", hint)
    assert p.returncode == 0, p.stderr
    note = next(line for line in p.stdout.splitlines() if line.strip().startswith("note:"))
    assert "kamikaze drone" in note and "estimate" in note


def test_ia_fleet_limit_is_the_game_rule():
    """IA-SHIP-07: a player never has more than 8 ships, so 8 against 8 is answered and a
    ninth ship is refused with the reason."""
    eight = parse_ships("3 destroyer, 2 corvette, 2 strike_craft, squadron_leader")
    other = parse_ships("2 cruiser, battleship, 2 destroyer, 3 corvette")
    r = ia_odds(IACombatSpec(eight, other, kind="invade", level=2,
                             orders=("strongest", "strongest")))
    assert r.method == "exact" and sum(r.outcomes.values()) == pytest.approx(1, abs=1e-9)
    with pytest.raises(OddsError, match="at most 8 ships.*fleet limit"):
        ia_odds(IACombatSpec([*eight, "destroyer"], other, kind="invade", level=2))


def test_ia_outcome_matches_full_enumeration():
    """The ship-by-ship outcome equals the sum over every damage combination (7 v 6, so
    the smaller fleet also takes unmatched fire)."""
    from starlanes.analysis.odds import ia as ia_mod

    a = parse_ships("destroyer, corvette, 2 strike_craft, squadron_leader, void_corsair, "
                    "destroyer")
    d = parse_ships("2 cruiser, battleship, destroyer, 2 corvette")
    sp = IACombatSpec(a, d, kind="invade", level=2, emergency="none")
    c = ia_mod._content()
    ents = [ia_mod._entries(c, a, "attacker", False, True),
            ia_mod._entries(c, d, "defender", False, False)]
    ev = ia_mod._Eval(c, sp, ents)
    orders = [list(range(len(ents[0]))), list(range(len(ents[1])))]
    ja, jd = ev.run(*orders)
    m = len(orders[1])
    per = []
    for i in range(m):
        dist = ev.shot(0, ents[0][i], ents[1][i])
        per.append({})
        for h, q in enumerate(dist):
            k = ev.cap(ents[1][i], h)
            per[-1][k] = per[-1].get(k, 0.0) + q
    joint = ev._joint(per)
    joint = ev._fire(0, ents[0][m], joint)
    total: dict[int, float] = {}
    for dmg, q in joint.items():
        t = sum(ev._part(1, i, x)[0] for i, x in enumerate(dmg))
        total[t] = total.get(t, 0.0) + q
    got = ev.totals(jd, 1)
    for t, q in total.items():
        assert got[t + ev.bonus(1)] == pytest.approx(q, abs=1e-12)
    assert sum(ja[0].values()) == pytest.approx(1, abs=1e-12)
