"""The fixed action space and the observation tensor of Interstellar Ambitions: what is
special to this game (fire targets by place, Shadow targets by form, hidden orders); the
generic checks over random playouts are in tests/interop."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from starlanes.engine import ActionIndexError, Decision  # noqa: E402
from starlanes.games.interstellar_ambitions import tensor  # noqa: E402
from starlanes.games.interstellar_ambitions.action_space import (  # noqa: E402
    key,
    ship_labels,
)

from .test_combat import fight, spoil_state  # noqa: E402


def exact(s) -> None:
    """The mask is exactly the legal actions and every index names its action back."""
    game = s.game
    legal = s.legal_actions()
    idx = [game.action_to_index(a, s) for a in legal]
    assert sorted(idx) == np.flatnonzero(s.legal_action_mask()).tolist()
    assert len(set(idx)) == len(legal)
    for a, i in zip(legal, idx, strict=True):
        assert game.index_to_action(s, i) == a
        assert game.action_space().key_at(i) == key(s, a)


def worked_raid(ia):
    """The FLEET-RAID worked example up to the unmatched ship's choice of target
    (IA-RAID-09): the Converted Freighter carries 2 markers on combat 1."""
    s = fight(ia, "raid", 2, ["strike_craft", "strike_craft", "destroyer", "squadron_leader"],
              ["battleship", "battleship", "strike_craft", "destroyer"],
              [4, 6, 5, 4, 1, 6, 6, 4, 5, 2, 1, 2, 3], emergency=["converted_freighter"])
    for x in ("strike_craft", "destroyer", "strike_craft", "converted_freighter",
              "destroyer"):
        ia.act(s, f"order {x}")
    assert s.stack[-1].kind == "fire"
    return s


def test_fire_targets_are_numbered_by_their_place_in_the_enemy_order(ia) -> None:
    """In a fight damage piles up past a ship's combat value until the result (IA-SHIP-09),
    so 'fire strike_craft/2' has no label slot: it is numbered by the target's place."""
    s = worked_raid(ia)
    cb = s.combat
    order = cb.order(1)
    where = {}
    for a in s.legal_actions():
        k = key(s, a)
        assert k[0] == "fire" and k[1].startswith("pos")
        e = cb.entries[1][order[int(k[1][3:])]]
        assert ia.notes(s) and str(a) == "fire " + (
            s.content.ship_ids[e[0]] + (f"/{e[1]}" if e[1] else ""))
        where[str(a)] = k[1]
    assert "strike_craft/2" not in ship_labels(s.content)
    assert len(set(where.values())) == 3
    exact(s)
    with pytest.raises(ActionIndexError, match="needs the state"):
        s.game.action_to_index(s.legal_actions()[0])


def test_fire_index_does_not_depend_on_damage(ia) -> None:
    """The same place in the order keeps its index whatever damage its ship carries."""
    s = worked_raid(ia)
    before = {key(s, a): s.game.action_to_index(a, s) for a in s.legal_actions()}
    cb = s.combat
    e = cb.entries[1]
    e[2] = (e[2][0], 9, e[2][2], 0)  # the freighter, far past its combat value
    ia.touch(s)
    after = {key(s, a): s.game.action_to_index(a, s) for a in s.legal_actions()}
    assert after == before
    assert "fire converted_freighter/9" in ia.notes(s)


def test_rare_decisions_are_in_the_space(ia) -> None:
    """Decisions random play hardly meets: capture, the 8-planet give-away, the last-planet
    rescue (IA-SPOIL-06..08), a discard when every other seat has 8 (IA-COLN-05), MERC
    upkeep (IA-PROD-07) and a full fleet's scrap (IA-SHIP-07)."""
    s = spoil_state(ia)
    s.planets[1] = ()
    ia.planet(s, 1, "verdant_moon", 1)
    for pid in ("mossfall", "slag_rock", "cinder", "observatory", "crystal_spire", "bazaar",
                "toll_gate"):
        ia.planet(s, 0, pid, 1)
    s.res[0] = (9, 9, 9, 9)
    exact(s)
    ia.act(s, "spoil bombard verdant_moon")
    assert s.stack[-1].kind == "capture"
    exact(s)
    ia.act(s, "capture verdant_moon")
    assert s.stack[-1].kind == "give_away"
    exact(s)
    ia.act(s, "give mossfall P2")
    assert s.stack[-1].kind == "rescue"
    exact(s)

    s = ia.turn(3, 0, 0)
    for seat in range(3):
        s.planets[seat] = tuple((p, 1, ()) for p in range(seat * 8, seat * 8 + 8))
    s.push(Decision(0, "give_away", ("colonise", s.content.planet_index["midas"], 2)))
    ia.touch(s)
    assert all(n.startswith("discard-planet") for n in ia.notes(s))
    exact(s)

    s = ia.turn(3, 0, 0)
    for sid in ("squadron_leader", "captain_rogers"):
        ia.ship(s, 0, sid)
    s.res[0] = (0, 0, 0, 5)
    s.push(Decision(0, "upkeep", (1, 0)))
    ia.touch(s)
    assert "upkeep captain_rogers pay" in ia.notes(s)
    exact(s)
    for sid in ("strike_craft", "destroyer", "corvette", "cruiser", "battleship",
                "siege_barge"):
        ia.ship(s, 0, sid, s.content.ship_combat[s.content.ship_index[sid]])
    s.push(Decision(0, "scrap", ("build", s.content.ship_index["cruiser"], 3)))
    ia.touch(s)
    assert "scrap battleship/4" in ia.notes(s)
    exact(s)


def test_shadow_targets_are_split_by_the_card_effect(ia) -> None:
    """Each effect's target form is its own family; Exchange Plans numbers only the level
    of the opponent's token (it must be the same action as one's own, IA-SHD-12)."""
    s = ia.turn(3, 0, 1, round_=2)
    ia.hand(s, 0, "exchange_plans", "planetary_plague", "steal_technology", "reactor_leak",
            "fast_track", "embezzlement", "red_tape", "new_opportunities")
    ia.tokens(s, 0, "build:basic", "fleet:strong")
    ia.tokens(s, 1, "build:moderate", "fleet:basic")
    ia.planet(s, 1, "mossfall", 2)
    ia.ship(s, 2, "cruiser", 1)
    ia.tech(s, 1, ia_tech(s))
    ia.decide(s, 0, "shadow")
    verbs = {key(s, a)[0] for a in s.legal_actions()}
    assert verbs >= {"play", "play-token", "play-seat", "play-seat-token", "play-seat-planet",
                     "play-seat-ship", "play-seat-tech", "play-seat-swap"}
    swap = next(a for a in s.legal_actions() if str(a) ==
                "play exchange_plans P1.build:basic.build:moderate")
    assert key(s, swap) == ("play-seat-swap", "exchange_plans", "P1", "build:basic",
                            "moderate")
    exact(s)
    with pytest.raises(ActionIndexError, match="needs the state"):
        s.game.action_to_index(swap)


def ia_tech(s) -> str:
    return s.content.tech_ids[next(t for t in range(len(s.content.tech_ids))
                                   if t not in s.content.start_techs)]


def test_space_size_follows_player_count_and_content(ia) -> None:
    """Seats enter the seat domains only; the tensor's length is the same at 3..6."""
    import starlanes

    sizes = [starlanes.load("interstellar-ambitions", players=n).num_distinct_actions()
             for n in range(3, 7)]
    assert sizes == sorted(sizes) and len(set(sizes)) == 4
    shapes = {starlanes.load("interstellar-ambitions", players=n).observation_tensor_shape()
              for n in range(3, 7)}
    assert len(shapes) == 1


def test_hidden_orders_and_hands_stay_out_of_the_tensor(ia) -> None:
    """The defender's tensor shows the attacker's placed ships as face down until every
    order is revealed (IA-RAID-05/06); another seat's hand shows only its size."""
    s = fight(ia, "raid", 2, ["strike_craft", "strike_craft", "destroyer", "squadron_leader"],
              ["battleship", "battleship", "strike_craft", "destroyer"],
              [4, 6, 5, 4, 1, 6, 6, 4, 5, 2, 1, 2, 3], emergency=["converted_freighter"])
    ia.act(s, "order strike_craft")
    ia.act(s, "order destroyer")
    seen = s.observation_tensor(1)
    other = s.clone()
    cb = other.combat
    cb.partial[0] = (cb.partial[0][1], cb.partial[0][0])  # swap the two placed ships
    assert np.array_equal(other.observation_tensor(1), seen)
    assert not np.array_equal(other.observation_tensor(0), s.observation_tensor(0))
    rng = random.Random(0)
    for seat in range(3):
        t = s.observation_tensor(seat)
        for _ in range(5):
            assert np.array_equal(s.determinize(seat, rng).observation_tensor(seat), t)
    lay = tensor.layout(s.game)
    assert s.observation_tensor(0).shape == (lay.size,)


def test_tensor_refuses_a_bad_seat(ia) -> None:
    """A seat outside the game is named in the error, not wrapped around."""
    from starlanes.engine import BadSeatError

    s = ia.fresh(3)
    assert np.array_equal(s.observation_tensor(np.int64(1)), s.observation_tensor(1))
    for bad in (3, -1, True, "0", 1.0):
        with pytest.raises(BadSeatError, match="seat must be an integer 0-2"):
            s.observation_tensor(bad)
