"""Set-up and game start (IA-SET-*, IA-RES-01/03)."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.engine import BadOptionError
from starlanes.games.interstellar_ambitions.actions import parse_token


def test_player_counts(ia) -> None:
    """IA-SET-01: 3 to 6 players."""
    for n in (3, 4, 5, 6):
        assert ia.load(n).n == n
    for n in (2, 7):
        with pytest.raises(BadOptionError):
            starlanes.load("interstellar-ambitions", players=n)


def test_ambitions_three_passive_three_active(ia) -> None:
    """IA-SET-02, IA-SET-03, IA-AMB-01: 3 passive + 3 active drawn at random."""
    seen = set()
    for seed in range(6):
        s = ia.load(4, seed)
        c = s.content
        kinds = [c.ambition_passive[a] for a in s.ambitions]
        assert kinds.count(True) == 3 and kinds.count(False) == 3
        seen.add(s.ambitions)
    assert len(seen) > 1


def test_core_ambitions_option(ia) -> None:
    """IA-OPEN-01 option: 4 core ambitions every game plus one of each kind drawn."""
    s = ia.load(3, 2, ambitions="core")
    c = s.content
    core = {i for i, x in enumerate(c.ambition_core) if x}
    assert core <= set(s.ambitions) and len(s.ambitions) == 6


def test_face_down_decks(ia) -> None:
    """IA-SET-04: Shadow, Emergency and Colony Event decks face down (sizes only show)."""
    s = ia.load(3)
    c = s.content
    assert len(s.emerg_deck) == len(c.emergency_cards)
    assert len(s.colony_deck) == len(c.event_cards)
    assert len(s.shadow_deck) == len(c.shadow_cards) - 4 * 3
    obs = s.observation(0)
    assert obs["deck_sizes"]["shadow"] == len(s.shadow_deck)
    assert "shadow_deck" not in obs


def test_planet_stacks_by_type(ia) -> None:
    """IA-SET-05, IA-PLN-01: planets in 4 face-up stacks by resource type."""
    s = ia.load(3)
    c = s.content
    for t in range(4):
        assert all(c.planet_type[p] == t for p in s.planet_slots[t] + s.planet_decks[t])
        assert all(p >= 0 for p in s.planet_slots[t])


def test_techs_and_start_techs(ia) -> None:
    """IA-SET-06, IA-SET-07: START techs set aside on the tracker, others dealt face up."""
    s = ia.load(3)
    c = s.content
    assert len(c.start_techs) == 6
    assert all(t not in c.start_techs for t in s.tech_slots + s.tech_deck)
    assert len(s.tech_slots) == c.rules["tech_slots"] and all(t >= 0 for t in s.tech_slots)


def test_ships_and_mercs(ia) -> None:
    """IA-SET-08, IA-SET-09: ship cards face up, mercs dealt into face-up slots."""
    s = ia.load(3)
    c = s.content
    assert {"strike_craft", "destroyer", "battleship"} <= {c.ship_ids[i] for i in c.standard_ships}
    assert all(m >= 0 and c.ship_deck[m] == "merc" for m in s.merc_slots)
    assert len(s.merc_deck) + len(s.merc_slots) == len(c.merc_cards)


def test_player_areas(ia) -> None:
    """IA-SET-10, IA-SET-11, IA-SET-12: 6 tokens, home world at 4, strike craft + destroyer."""
    s = ia.load(4)
    c = s.content
    for seat in range(4):
        assert s.tokens[seat] == (-1,) * 6
        (p, lvl, _m), = s.planets[seat]
        assert c.planet_type[p] == 4 and lvl == 4
        assert sorted(c.ship_ids[x] for x, _d in s.ships[seat]) == ["destroyer", "strike_craft"]


def test_start_player_and_clockwise(ia) -> None:
    """IA-SET-13, IA-SET-24: random start player; turns go clockwise from them."""
    starts = {ia.load(4, seed).start for seed in range(12)}
    assert len(starts) > 1
    s = ia.fresh(4, 3)
    assert s.seat == s.start and s.round == 1
    first = s.start
    seen = []
    while s.round == 1:
        if s.seat not in seen:
            seen.append(s.seat)
        s.apply(s.legal_actions()[-1] if s.stack[-1].kind != "step2" else
                next(a for a in s.legal_actions() if str(a) == "produce"))
    assert seen == [(first + i) % 4 for i in range(4)]


def test_keep_two_of_four(ia) -> None:
    """IA-SET-14: 4 Shadow cards dealt, 2 kept, 2 discarded."""
    s = ia.load(3)
    assert all(len(h) == 4 for h in s.hands)
    while s.stack and s.stack[-1].kind == "keep":
        s.apply(s.legal_actions()[0])
    assert all(len(h) == 2 for h in s.hands)
    assert len(s.shadow_discard) == 6


def test_start_techs_reverse_order(ia) -> None:
    """IA-SET-15, IA-SET-16: reverse order choice of one START tech; rest into the deck."""
    s = ia.load(4, 5)
    while s.stack[-1].kind == "keep":
        s.apply(s.legal_actions()[0])
    order = [(s.start + i) % 4 for i in range(4)]
    chosen = []
    while s.stack[-1].kind == "start_tech":
        chosen.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert chosen == order[::-1]
    assert all(sum(1 for t in s.known[i] if s.tech_owner[t] == i) == 1 for i in range(4))
    unclaimed = [t for t in s.content.start_techs if s.tech_owner[t] < 0]
    assert len(unclaimed) == 2 and all(t in s.tech_deck for t in unclaimed)


def test_tokens_placed_one_at_a_time(ia) -> None:
    """IA-SET-17: one token at a time in player order onto BASIC slots."""
    s = ia.load(3, 4)
    while s.stack[-1].kind != "place_start":
        s.apply(s.legal_actions()[0])
    order = [(s.start + i) % 3 for i in range(3)]
    who = []
    while s.stack and s.stack[-1].kind == "place_start":
        who.append(s.current_player())
        s.apply(s.legal_actions()[1])  # develop
    assert who == order * 6
    for seat in range(3):
        assert s.tokens[seat] == (parse_token("develop:basic"),) * 6


def test_resources_and_compensation(ia) -> None:
    """IA-SET-18, IA-SET-19, IA-SET-20, IA-SET-21, IA-SET-22, IA-SET-23: 2 of each; P2 +1; P3 adv 1 +1; P4 adv 1 +2; P5 adv 2 +2; P6 adv 2 +3."""
    s = ia.load(6, 7)
    while s.phase == "setup" and (not s.stack or s.stack[-1].kind != "comp"):
        s.apply(s.legal_actions()[0])
    order = [(s.start + i) % 6 for i in range(6)]
    assert all(s.res[i] == (2, 2, 2, 2) for i in range(6))
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    expect_take = {0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3}
    expect_adv = {0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 2}
    for pos, seat in enumerate(order):
        assert sum(s.res[seat]) == 8 + expect_take[pos]
        advanced = sum(1 for t in s.tokens[seat] if t & 3)
        assert advanced == expect_adv[pos]
    # IA-SET-22/23: two DIFFERENT tokens (each moved once, to MODERATE)
    assert all(t & 3 <= 1 for t in s.tokens[order[4]] + s.tokens[order[5]])


def test_resource_types(ia) -> None:
    """IA-RES-01: four resource types (FOOD, ORE, SCIENCE, COINS); a Home World's output
    can be taken as any of them."""
    s = ia.turn(3, 0, 2)
    assert len(s.res[0]) == 4
    s.planets[0] = ((s.content.homes[0], 5, ()),)
    ia.run(s)
    ia.act(s, "produce")
    for r in ("science", "science", "food", "ore", "coin"):
        assert s.stack[-1].kind == "home_pick"
        ia.act(s, f"home {r}")
    assert s.res[0] == (1, 1, 2, 1)


def _spent(ia, token: str, answers: list[str], setup=None) -> tuple[int, ...]:
    """Take ``token`` with 9 of every resource, answer its decisions, return what it cost
    per type (FOOD, ORE, SCIENCE, COINS)."""
    s = ia.turn(3, 0, 3)
    c = s.content
    s.colony_deck = [c.event_index["boom_town"]]  # no resource effect
    if setup:
        setup(s)
    ia.tokens(s, 0, token)
    s.res[0] = (9, 9, 9, 9)
    ia.run(s)
    ia.act(s, f"take {token}")
    for a in answers:
        ia.act(s, a)
    return tuple(9 - x for x in s.res[0])


def test_what_each_resource_pays_for(ia) -> None:
    """IA-RES-03: FOOD and ORE found colonies, ORE builds and repairs ships, SCIENCE
    researches TECH, COINS pay for Shadow cards and Mercs; each action spends only those."""
    s = ia.load(3)
    c = s.content

    def slot(pid):
        return lambda st: ia.slot_planet(st, pid)

    assert _spent(ia, "colonise:basic", ["colonise grainhold"], slot("grainhold")) == (
        2, 1, 0, 0)
    cost = c.ship_cost[c.ship_index["destroyer"]]
    assert _spent(ia, "build:basic", ["repair cruiser/2", "build destroyer"],
                  lambda st: ia.ship(st, 0, "cruiser", 2)) == (0, 1 + cost, 0, 0)

    def peer(st):
        st.tech_slots[0] = st.content.tech_index["peer_review"]
        st.tech_deck = [t for t in st.tech_deck if t != st.tech_slots[0]]

    spent = _spent(ia, "research:basic", ["research peer_review"], peer)
    assert spent[2] >= 1 and spent[:2] == (0, 0) and spent[3] == 0
    assert _spent(ia, "shadow:basic", ["buy-cards", "buy black_market"],
                  lambda st: setattr(st, "shadow_deck", [c.shadow_index["black_market"]] * 2)
                  ) == (0, 0, 0, 1)

    def mercs(st):
        st.merc_slots = [c.ship_index["gunrunner"], -1, -1]

    hire = c.ship_cost[c.ship_index["gunrunner"]]
    assert _spent(ia, "shadow:moderate", ["hire-mercs", "hire gunrunner"], mercs) == (
        0, 0, 0, hire)


def test_ambition_set_option_fixes_the_ambitions_in_play():
    """IA-SET-02/03 under the designer's ``ambition_set`` option (ruling IA-OPEN-01): the six
    named ambitions are in play instead of a draw; anything but 3 passive + 3 active known
    ambitions is refused."""
    import pytest

    import starlanes
    from starlanes.engine import BadOptionError

    chosen = "expansionist,terraformer,technocrat,warlord,spymaster,decorated"
    for seed in (1, 2, 3):
        s = starlanes.load("interstellar-ambitions", players=3, seed=seed,
                           ambition_set=chosen).new_initial_state()
        assert [s.content.ambition_ids[i] for i in s.ambitions] == chosen.split(",")
    for bad, why in (("expansionist,nope", "unknown ambition"),
                     ("expansionist,expansionist", "twice"),
                     ("expansionist,terraformer,technocrat,warlord,spymaster",
                      "3 passive and 3 active")):
        with pytest.raises(BadOptionError, match=why):
            starlanes.load("interstellar-ambitions", players=3, ambition_set=bad)
