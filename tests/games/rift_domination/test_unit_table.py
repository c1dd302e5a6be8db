"""The unit table's per-seat views stay what a scan of its units gives, through writes,
removals and copies (the views the movement rules read instead of scanning, RD-MOV-10)."""

from __future__ import annotations

import random

from starlanes.games.rift_domination.units import Unit, UnitTable


def _views(table: UnitTable, players: int) -> tuple[list, list, dict, list]:
    """The views recomputed from the units themselves."""
    of = [{uid: u for uid, u in table.items() if u.owner == seat} for seat in range(players)]
    afloat: list[dict[int, int]] = [{} for _ in range(players)]
    total: dict[int, int] = {}
    for u in table.values():
        if not u.landed:
            afloat[u.owner][u.loc] = afloat[u.owner].get(u.loc, 0) + 1
            total[u.loc] = total.get(u.loc, 0) + 1
    at: list[dict[int, tuple]] = [{} for _ in range(players)]
    for uid in sorted(table):
        u = table[uid]
        at[u.owner][u.loc] = (*at[u.owner].get(u.loc, ()), (uid, u))
    return of, afloat, total, at


def _check(table: UnitTable, players: int) -> None:
    of, afloat, total, at = _views(table, players)
    assert [list(d.items()) for d in table.of] == [list(d.items()) for d in of]
    assert table.afloat == afloat
    assert table.afloat_all == total
    assert table.at == at  # each seat's units point by point, in unit-id order


def test_views_follow_random_writes_removals_and_copies() -> None:
    rng = random.Random(7)
    players = 3
    table = UnitTable(players)
    copies: list[tuple[UnitTable, dict]] = []
    next_uid = 0
    for _ in range(4000):
        r = rng.random()
        if r < 0.35 or not table:
            u = Unit(rng.randrange(players), rng.choice(["cruiser", "infantry"]),
                     rng.randrange(8), rng.random() < 0.3, rng.randrange(3), 0)
            table[next_uid] = u
            next_uid += 1
        elif r < 0.6:
            uid = rng.choice(list(table))
            table[uid] = table[uid]._replace(loc=rng.randrange(8), landed=rng.random() < 0.3)
        elif r < 0.7:
            del table[rng.choice(list(table))]
        elif r < 0.8:  # a stack moves: the seat's units afloat at one point, to another
            seat = rng.randrange(players)
            if table.afloat[seat]:
                src = rng.choice(sorted(table.afloat[seat]))
                dst = rng.randrange(8)
                moved = [(uid, u._replace(loc=dst, mp=max(0, u.mp - 1)))
                         for uid, u in table.of[seat].items() if u.loc == src and not u.landed]
                table.move_fleet(seat, src, dst, moved)
        elif r < 0.85:  # new movement points where the units are
            seat = rng.randrange(players)
            table.restate(seat, [(uid, u._replace(mp=rng.randrange(3)))
                                 for uid, u in table.of[seat].items() if rng.random() < 0.5])
        else:
            copies.append((table.copy(), dict(table)))
        _check(table, players)
    # a copy keeps the units, and their order, of the moment it was taken
    for c, snapshot in copies:
        assert list(c.items()) == list(snapshot.items())
        _check(c, players)


def test_a_copy_after_removals_keeps_the_order_and_is_independent() -> None:
    table = UnitTable(2, [(i, Unit(i % 2, "cruiser", i, False, 1, 0)) for i in range(10)])
    for uid in (2, 5, 7):
        del table[uid]
    c = table.copy()
    assert list(c) == list(table) == [0, 1, 3, 4, 6, 8, 9]
    del c[0]
    c[11] = Unit(1, "cruiser", 3, False, 1, 0)
    assert 0 in table and 11 not in table
    _check(table, 2)
    _check(c, 2)


def _scan(s, seat: int):
    """The survey by one pass over the seat's units in unit-id order (the reference)."""
    from starlanes.games.rift_domination.survey import Survey, kind_sets

    out = Survey()
    carried, ground, lift, _mp = kind_sets(s.stats[seat])
    planet_of = s.board.planet_of
    for uid, u in sorted(s.units.of[seat].items()):
        if u.landed:
            if planet_of[u.loc] >= 0:
                flags = out.own.setdefault(u.loc, [False, False, False, False])
                flags[2] = True
                flags[3] = flags[3] or u.kind == "diplomat"
            continue
        kinds = out.ships.setdefault(u.loc, [])
        if u.mp > 0:
            if u.kind not in carried:
                kinds.append(u.kind)
            if u.kind in lift:
                out.lifters.add(u.loc)
        if planet_of[u.loc] < 0 or uid in s.no_landing:
            continue
        flags = out.own.setdefault(u.loc, [False, False, False, False])
        if u.kind in ground:
            flags[0] = True
            flags[1] = flags[1] or u.kind != "diplomat"
        flags[3] = flags[3] or u.kind == "diplomat"
    return out


def _survey(sv) -> tuple:
    return ([(p, list(k)) for p, k in sv.ships.items()], {p: list(f) for p, f in sv.own.items()},
            sv.lifters)


def test_the_survey_read_point_by_point_is_the_scans_answer() -> None:
    """Along random games, and on clones revisited out of order (which share the table's
    memo), the survey read from the ``at`` view and its kept parts equals the scan of the
    seat's units unit by unit (RD-MOV-01, the stacks' order included)."""
    from starlanes.engine import load
    from starlanes.games.rift_domination.survey import survey_units

    kept = []
    for players, seed in ((2, 1), (4, 2)):
        state = load("rift-domination", players=players, seed=seed).new_initial_state()
        rng = random.Random(seed)
        for step in range(2500):
            if state.is_terminal():
                break
            for seat in range(players):
                assert _survey(survey_units(state, seat)) == _survey(_scan(state, seat))
            if step % 97 == 0:
                kept.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    random.Random(3).shuffle(kept)
    for state in kept:
        for seat in range(state.n):
            assert _survey(survey_units(state, seat)) == _survey(_scan(state, seat))


def test_a_pickled_table_rebuilds_its_views() -> None:
    """Pickling keeps the units and their order, and the views (``at`` included) are made
    again from them; the copy's memo starts empty."""
    import pickle

    rng = random.Random(11)
    table = UnitTable(3)
    for uid in range(60):
        table[uid] = Unit(rng.randrange(3), "cruiser", rng.randrange(6), rng.random() < 0.3,
                          rng.randrange(3), 0)
    for uid in range(0, 60, 7):
        del table[uid]
    table.memo[0][1] = "kept"
    back = pickle.loads(pickle.dumps(table))
    assert list(back.items()) == list(table.items())
    _check(back, 3)
    assert back.memo == [{}, {}, {}]
