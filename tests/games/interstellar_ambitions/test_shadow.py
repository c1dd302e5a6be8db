"""Shadow cards and Shadow Checks (IA-SHD-*)."""

from __future__ import annotations

from starlanes.games.interstellar_ambitions.actions import parse_token


def at_shadow(ia, *cards: str, players: int = 3):
    s = ia.turn(players, 0, 0, round_=2)
    ia.hand(s, 0, *cards)
    return s


def test_one_card_in_step_one(ia) -> None:
    """IA-SHD-01, IA-SHD-02: at most one card, any type, only in step 1."""
    s = at_shadow(ia, "black_market", "black_market", "embezzlement")
    ia.run(s)
    n = ia.notes(s)
    assert "play black_market self" in n and "play embezzlement P1" in n
    ia.act(s, "play black_market self")
    assert s.stack[-1].kind == "step2"
    assert not any(x.startswith("play") for x in ia.notes(s))


def test_standard_always_no_medal(ia) -> None:
    """IA-SHD-03: a STANDARD card always works and earns no medal."""
    s = at_shadow(ia, "black_market")
    ia.run(s)
    ia.act(s, "play black_market self")
    assert s.res[0][3] == 2 and s.medals[0] == (0, 0)
    assert s.content.shadow_index["black_market"] in s.shadow_discard


def check_game(ia, card: str, target_arg: str, rolls, boosts=0, opposes=0,
               extra_mine=(), extra_theirs=()):
    s = at_shadow(ia, card, *extra_mine)
    ia.hand(s, 1, *extra_theirs)
    ia.dice(s, rolls)
    ia.run(s)
    ia.act(s, f"play {card} {target_arg}")
    for _ in range(boosts):
        ia.act(s, [n for n in ia.notes(s) if n.startswith("boost")][0])
    if s.stack[-1].kind == "boost":
        ia.act(s, "done")
    for _ in range(opposes):
        ia.act(s, [n for n in ia.notes(s) if n.startswith("oppose")][0])
    if s.stack and s.stack[-1].kind == "oppose":
        ia.act(s, "pass")
    return s


def test_sabotage_check_success_medal(ia) -> None:
    """IA-SHD-04, IA-SHD-06, IA-SHD-10, IA-SHD-14: Planetary Plague on a 4: medal, -2."""
    s = at_shadow(ia, "planetary_plague")
    ia.planet(s, 1, "singularity", 5)
    ia.dice(s, [4])
    ia.run(s)
    ia.act(s, "play planetary_plague P1.singularity")
    assert s.planets[1][-1][1] == 3
    assert s.medals[0] == (0, 1)


def test_check_failure(ia) -> None:
    """IA-SHD-11, IA-SHD-05: 3 or less fails: no effect, no medal (INFILTRATE too)."""
    s = at_shadow(ia, "embezzlement")
    s.res[1] = (0, 0, 0, 5)
    ia.dice(s, [3])
    ia.run(s)
    ia.act(s, "play embezzlement P1")
    assert s.res[1][3] == 5 and s.medals[0] == (0, 0)
    s = at_shadow(ia, "embezzlement")
    s.res[1] = (0, 0, 0, 5)
    ia.dice(s, [5])
    ia.run(s)
    ia.act(s, "play embezzlement P1")
    assert s.res == [(0, 0, 0, 3), (0, 0, 0, 2), (0, 0, 0, 0)] and s.medals[0] == (0, 1)


def test_boost_and_oppose(ia) -> None:
    """IA-SHD-08, IA-SHD-09: up to 3 discards +1 each, then the target up to 3 at -1."""
    s = at_shadow(ia, "embezzlement", "black_market", "black_market", "black_market",
                  "black_market")
    ia.hand(s, 1, "red_tape", "red_tape", "red_tape", "red_tape")
    s.res[1] = (0, 0, 0, 5)
    ia.dice(s, [1])
    ia.run(s)
    ia.act(s, "play embezzlement P1")
    for _ in range(3):
        ia.act(s, "boost black_market")
    assert s.stack[-1].kind == "oppose" and s.current_player() == 1  # max 3 boosts
    ia.act(s, "oppose red_tape")
    ia.act(s, "pass")
    # 1 + 3 - 1 = 3: fails
    assert s.res[1][3] == 5 and len(s.hands[0]) == 1 and len(s.hands[1]) == 3
    s = at_shadow(ia, "embezzlement", "black_market")
    ia.hand(s, 1, "red_tape", "red_tape", "red_tape", "red_tape")
    s.res[1] = (0, 0, 0, 5)
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play embezzlement P1")
    ia.act(s, "done")
    for _ in range(3):
        ia.act(s, "oppose red_tape")
    # 6 - 3 = 3: fails; the target cannot oppose a 4th time
    assert s.res[1][3] == 5 and len(s.hands[1]) == 1


def test_modifiers_from_tech(ia) -> None:
    """IA-SHD-07: TECH modifiers are totalled; some apply to one check type only."""
    from starlanes.games.interstellar_ambitions.shadow import check_modifier

    s = at_shadow(ia, "embezzlement")
    c = s.content
    ia.tech(s, 0, "cloaked_agents")  # sabotage +1 only
    ia.tech(s, 0, "infiltration_suits")  # infiltrate +1
    ia.tech(s, 1, "firewalls")  # -1 against
    sab = c.shadow_index["dock_strike"]
    inf = c.shadow_index["embezzlement"]
    assert check_modifier(s, 0, 1, sab, "P1") == 0
    assert check_modifier(s, 0, 1, inf, "P1") == 0
    assert check_modifier(s, 0, 2, inf, "P2") == 1


def test_ship_go_boom_boom(ia) -> None:
    """IA-SHD-15: -1 at combat power 3, -2 at 4+; success destroys the ship."""
    from starlanes.games.interstellar_ambitions.shadow import check_modifier

    s = at_shadow(ia, "ship_go_boom_boom")
    ia.ship(s, 1, "battleship")
    ia.ship(s, 1, "cruiser")
    ia.ship(s, 1, "destroyer")
    boom = s.content.shadow_index["ship_go_boom_boom"]
    assert check_modifier(s, 0, 1, boom, "P1.battleship") == -2
    assert check_modifier(s, 0, 1, boom, "P1.cruiser") == -1
    assert check_modifier(s, 0, 1, boom, "P1.destroyer") == 0
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play ship_go_boom_boom P1.battleship")
    assert [s.content.ship_ids[x] for x, _ in s.ships[1]] == ["cruiser", "destroyer"]


def test_exchange_plans(ia) -> None:
    """IA-SHD-12: swap one of your tokens with an opponent's on the same track."""
    s = at_shadow(ia, "exchange_plans")
    ia.tokens(s, 0, "build:basic")
    ia.tokens(s, 1, "build:ultimate", "develop:strong")
    ia.run(s)
    assert "play exchange_plans P1.build:basic.build:ultimate" in ia.notes(s)
    assert not any("develop" in n for n in ia.notes(s) if n.startswith("play exchange"))
    ia.act(s, "play exchange_plans P1.build:basic.build:ultimate")
    assert parse_token("build:ultimate") in s.tokens[0]
    assert parse_token("build:basic") in s.tokens[1]


def test_new_opportunities(ia) -> None:
    """IA-SHD-13: refresh the face-up techs, planets or mercs from the deck."""
    for what in ("tech", "planet", "merc"):
        s = at_shadow(ia, "new_opportunities")
        before = (list(s.tech_slots), [list(x) for x in s.planet_slots], list(s.merc_slots))
        ia.run(s)
        ia.act(s, f"play new_opportunities {what}")
        after = (s.tech_slots, s.planet_slots, s.merc_slots)
        idx = ("tech", "planet", "merc").index(what)
        assert after[idx] != before[idx]
        if what == "tech":
            assert all(t in s.tech_discard for t in before[0])


def test_other_designed_cards(ia) -> None:
    """Designed cards: fast track, red tape, palace coup, shredded plans, steal tech."""
    s = at_shadow(ia, "fast_track")
    ia.tokens(s, 0, "build:strong")
    ia.run(s)
    ia.act(s, "play fast_track build:strong")
    assert s.tokens[0][0] == parse_token("build:ultimate")
    s = at_shadow(ia, "palace_coup")
    ia.tokens(s, 1, "build:ultimate")
    ia.run(s)
    ia.act(s, "play palace_coup P1.build:ultimate")
    assert s.tokens[1][0] == parse_token("build:strong")
    s = at_shadow(ia, "shredded_plans")
    ia.tokens(s, 1, "build:ultimate")
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play shredded_plans P1.build:ultimate")
    assert s.tokens[1][0] == parse_token("build:basic")
    s = at_shadow(ia, "steal_technology")
    ia.tech(s, 1, "shipyards")
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play steal_technology P1.shipyards")
    t = s.content.tech_index["shipyards"]
    assert t in s.known[0] and s.tech_owner[t] == 1 and s.stats[0][2] == 1
