"""BUILD, RESEARCH, SHADOW action, techs (IA-BLD-*, IA-RSCH-*, IA-SHA-*, IA-TECH-*,
IA-SHIP-02/07)."""

from __future__ import annotations


def take(ia, s, token: str) -> None:
    ia.tokens(s, 0, token)
    ia.run(s)
    ia.act(s, f"take {token}")


def test_build_levels(ia) -> None:
    """IA-BLD-02, IA-BLD-03, IA-BLD-04, IA-BLD-05, IA-SHIP-02, IA-SHIP-04: builds per level; BASIC LIGHT only."""
    s = ia.turn(3, 0, 3)
    s.res[0] = (0, 20, 0, 0)
    take(ia, s, "build:basic")
    n = ia.notes(s)
    assert "build destroyer" in n and "build battleship" not in n
    ia.act(s, "build destroyer")
    assert [x for x in ia.notes(s) if x.startswith("build")] == []
    for level, count in (("moderate", 2), ("strong", 3)):
        s = ia.turn(3, 0, 3)
        s.res[0] = (0, 30, 0, 0)
        take(ia, s, f"build:{level}")
        for _ in range(count):
            ia.act(s, "build battleship")
        assert not any(x.startswith("build") for x in ia.notes(s))
        assert len(s.ships[0]) == count and s.res[0][1] == 30 - 4 * count


def test_build_ultimate(ia) -> None:
    """IA-BLD-06: free repair, 4 builds at -1 ORE, minimum 1."""
    s = ia.turn(3, 0, 3)
    ia.ship(s, 0, "cruiser", 2)
    s.res[0] = (0, 8, 0, 0)
    take(ia, s, "build:ultimate")
    assert s.ships[0][0][1] == 0
    ia.act(s, "build strike_craft")  # 1 - 1 -> minimum 1
    ia.act(s, "build battleship")  # 4 - 1 = 3
    ia.act(s, "build destroyer")  # 1
    ia.act(s, "build cruiser")  # 2
    assert s.res[0][1] == 8 - 1 - 3 - 1 - 2
    assert len(s.ships[0]) == 5


def test_repair_rounds_up(ia) -> None:
    """IA-BLD-01: repairs cost 1 ORE per 2 markers over the action, rounded up."""
    s = ia.turn(3, 0, 3)
    ia.ship(s, 0, "cruiser", 1)
    ia.ship(s, 0, "battleship", 1)
    ia.ship(s, 0, "battleship", 3)
    s.res[0] = (0, 10, 0, 0)
    take(ia, s, "build:basic")
    ia.act(s, "repair cruiser/1")
    assert s.res[0][1] == 9
    ia.act(s, "repair battleship/1")  # 2 markers in all: still 1 ORE
    assert s.res[0][1] == 9
    ia.act(s, "repair battleship/3")  # 5 in all: 3 ORE
    assert s.res[0][1] == 7


def test_eight_ship_limit(ia) -> None:
    """IA-SHIP-07: at 8 ships, discard one first (mercs count too)."""
    s = ia.turn(3, 0, 3)
    for _ in range(7):
        ia.ship(s, 0, "strike_craft")
    ia.ship(s, 0, "gunrunner")
    s.res[0] = (0, 10, 0, 0)
    take(ia, s, "build:moderate")
    ia.act(s, "build cruiser")
    assert s.stack[-1].kind == "scrap"
    ia.act(s, "scrap gunrunner")
    assert len(s.ships[0]) == 8 and s.res[0][1] == 7
    assert s.content.ship_index["gunrunner"] in s.merc_discard


def test_research_caps_and_owner(ia) -> None:
    """IA-RSCH-01, IA-RSCH-03, IA-RSCH-04, IA-RSCH-06, IA-RSCH-07, IA-RSCH-08, IA-TECH-02: VP caps 2/4/any;
    owner marker; slot refilled."""
    c_ids = ("peer_review", "fusion_agriculture", "monuments")  # vp 1, 3, 6
    for level, allowed in (("basic", {"peer_review"}),
                           ("moderate", {"peer_review", "fusion_agriculture"}),
                           ("strong", set(c_ids))):
        s = ia.turn(3, 0, 3)
        c = s.content
        s.tech_slots = [c.tech_index[t] for t in c_ids] + [-1]
        s.tech_deck = [t for t in s.tech_deck if t not in s.tech_slots]
        s.res[0] = (0, 0, 10, 0)
        take(ia, s, f"research:{level}")
        got = {n.split()[1] for n in ia.notes(s) if n.startswith("research ")}
        assert got == allowed
    ia.act(s, "research monuments")
    t = c.tech_index["monuments"]
    assert s.tech_owner[t] == 0 and t in s.known[0] and s.res[0][2] == 4
    assert all(x >= 0 for x in s.tech_slots)


def test_research_minimum_and_ultimate(ia) -> None:
    """IA-RSCH-02, IA-RSCH-09, IA-TECH-05: discounts, minimum 1; ULTIMATE replaces and
    researches 2 at -1; no tech limit."""
    s = ia.turn(3, 0, 3)
    c = s.content
    ia.tech(s, 0, "grand_academy")  # -2
    s.res[0] = (0, 0, 10, 0)
    take(ia, s, "research:ultimate")
    assert s.stack[-1].kind == "replace_tech"
    old = s.tech_slots[0]
    ia.act(s, f"replace {c.tech_ids[old]}")
    assert old in s.tech_discard
    ia.act(s, "done")
    s.tech_slots[0] = c.tech_index["peer_review"]  # cost 2 - 2 - 1 -> 1
    s.tech_slots[1] = c.tech_index["monuments"]  # 6 - 3 = 3
    ia.touch(s)
    ia.act(s, "research peer_review")
    ia.act(s, "research monuments")
    assert s.res[0][2] == 10 - 1 - 2  # peer review (-1) applies at once (IA-TECH-04)
    assert len(s.known[0]) == 3


def test_tech_deck_reshuffle(ia) -> None:
    """IA-RSCH-05, IA-RSCH-04: after RESEARCH the slot is refilled; an empty Tech deck first
    takes back its discards."""
    s = ia.turn(3, 0, 3)
    c = s.content
    s.tech_slots[0] = c.tech_index["peer_review"]
    s.tech_deck = [t for t in s.tech_deck if t != c.tech_index["peer_review"]]
    s.tech_discard = list(s.tech_deck)
    s.tech_deck = []
    s.res[0] = (0, 0, 9, 0)
    take(ia, s, "research:basic")
    ia.act(s, "research peer_review")
    assert s.tech_slots[0] >= 0 and s.tech_slots[0] != c.tech_index["peer_review"]
    assert len(s.tech_deck) + len(s.tech_discard) > 0 and not s.tech_discard


def test_tech_acquirer_same_effect_no_vp(ia) -> None:
    """IA-TECH-03, IA-TECH-04, IA-TECH-01: an acquirer gets the effect, not the VP."""
    from starlanes.games.interstellar_ambitions.common import bonus
    from starlanes.games.interstellar_ambitions.scoring import breakdown

    s = ia.turn(3, 0, 0)
    ia.tech(s, 1, "strike_doctrine")
    ia.tech(s, 0, "strike_doctrine", owner=False)
    assert bonus(s, 0, "raid_bonus") == bonus(s, 1, "raid_bonus") == 3
    assert breakdown(s, 0)["techs"] == 0 and breakdown(s, 1)["techs"] == 3


def test_shadow_buy(ia) -> None:
    """IA-SHA-01, IA-SHA-02, IA-SHA-03, IA-SHA-08, IA-SHA-09, IA-SHA-10, IA-SHA-11 (buy limits 2/3/4/5), IA-SHA-04."""
    for level, limit in (("basic", 2), ("moderate", 3), ("strong", 4), ("ultimate", 5)):
        s = ia.turn(3, 0, 3)
        s.res[0] = (0, 0, 0, 9)
        take(ia, s, f"shadow:{level}")
        n = ia.notes(s)
        assert ("hire-mercs" in n) is (level != "basic")
        ia.act(s, "buy-cards")
        assert len(s.offer) == limit
    offered = list(s.offer)
    ia.act(s, ia.notes(s)[0])
    assert s.res[0][3] == 8 and len(s.hands[0]) == 1
    ia.act(s, "done")
    assert s.offer == () and all(x in s.shadow_discard for x in offered[1:] if x not in s.hands[0])
    s = ia.turn(3, 0, 3)
    ia.hand(s, 0, *["black_market"] * 7)
    s.res[0] = (0, 0, 0, 9)
    take(ia, s, "shadow:basic")
    ia.act(s, "buy-cards")
    assert all(n.startswith("discard") or n in ("done",) or n.startswith("exchange")
               for n in ia.notes(s))  # at 7: discard first
    ia.act(s, "discard black_market")
    assert len(s.hands[0]) == 6
    ia.act(s, [n for n in ia.notes(s) if n.startswith("buy")][0])
    assert len(s.hands[0]) == 7 and s.res[0][3] == 8


def test_shadow_hire(ia) -> None:
    """IA-SHA-05, IA-SHA-06, IA-SHA-10, IA-SHA-11, IA-SHIP-03: hire by level for COINS,
    refill after; ULTIMATE may replace first."""
    s = ia.turn(3, 0, 3)
    c = s.content
    s.merc_slots = [c.ship_index[x] for x in ("gunrunner", "ace_pilot", "iron_mercenary")]
    s.res[0] = (0, 0, 0, 20)
    take(ia, s, "shadow:strong")
    ia.act(s, "hire-mercs")
    ia.act(s, "hire gunrunner")
    ia.act(s, "hire ace_pilot")
    assert ia.notes(s)[0] == "done"
    ia.act(s, "done")
    assert s.res[0][3] == 20 - 2 - 3
    assert all(m >= 0 for m in s.merc_slots)
    s = ia.turn(3, 0, 3)
    s.res[0] = (0, 0, 0, 30)
    take(ia, s, "shadow:ultimate")
    ia.act(s, "hire-mercs")
    assert s.stack[-1].kind == "replace_merc"
    old = s.merc_slots[0]
    ia.act(s, f"replace {c.ship_ids[old]}")
    assert old in s.merc_discard
    ia.act(s, "done")
    for _ in range(3):
        ia.act(s, [n for n in ia.notes(s) if n.startswith("hire")][0])
    assert len(s.ships[0]) == 3


def test_shadow_and_merc_deck_reshuffle(ia) -> None:
    """IA-SHA-07, IA-SHA-06: an exhausted Shadow deck takes back its discards when Buy Cards
    draws its offer; an exhausted Merc deck when a hired merc's slot is refilled."""
    s = ia.turn(3, 0, 3)
    c = s.content
    s.shadow_discard = list(s.shadow_deck)
    s.shadow_deck = []
    s.res[0] = (0, 0, 0, 9)
    take(ia, s, "shadow:basic")
    ia.act(s, "buy-cards")
    assert len(s.offer) == 2 and not s.shadow_discard
    s = ia.turn(3, 0, 3)
    s.merc_slots = [c.ship_index["gunrunner"], -1, -1]
    s.merc_discard = [m for m in s.merc_deck if m != c.ship_index["gunrunner"]]
    s.merc_deck = []
    s.res[0] = (0, 0, 0, 9)
    take(ia, s, "shadow:moderate")
    ia.act(s, "hire-mercs")
    ia.act(s, "hire gunrunner")
    if s.stack[-1].kind == "hire":
        ia.act(s, "done")
    assert all(m >= 0 for m in s.merc_slots) and c.ship_index["gunrunner"] not in s.merc_slots
    assert not s.merc_discard


def test_repair_only_before_building(ia) -> None:
    """IA-BLD-01: the player may FIRST repair, then build; once a ship is built in this
    BUILD action, no repair is offered any more."""
    s = ia.turn(3, 0, 3)
    ia.ship(s, 0, "cruiser", 2)
    ia.ship(s, 0, "battleship", 1)
    s.res[0] = (0, 20, 0, 0)
    take(ia, s, "build:moderate")
    assert {"repair cruiser/2", "repair battleship/1"} <= set(ia.notes(s))
    ia.act(s, "repair cruiser/2")  # repairs may go on before the first build
    assert "repair battleship/1" in ia.notes(s)
    ia.act(s, "build destroyer")
    assert not any(n.startswith("repair") for n in ia.notes(s))
    assert "build destroyer" in ia.notes(s)  # the second build is still there
