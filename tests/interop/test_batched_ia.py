"""The batched Interstellar Ambitions against the reference engine, step by step, and its
``BatchedEnv``.

Random games (masked uniform random actions from a seeded numpy Generator, FLEET takes
included) are played in the batch and, side by side, in reference states loaded with the
same seeds, each to its end; at every step the legal mask must equal the reference's
legal indices, and the seat to act and the observation tensor (exactly, float32, as the
PettingZoo environment gives it, from every seat) must agree; at the end the batch's
whole state (the RNG, every pile in order, hands, tokens, resources, techs, claims, the
turn and round) and the returns must equal the reference's. The run counts the fights'
events (raids, invasions, orders, fire, steals, each spoil, EMERGENCY draws, the
defender's repair) and must meet them. ``STARLANES_BATCHED_GAMES=N`` plays N games
instead of the CI's few.
"""

from __future__ import annotations

import os
import time
from collections import Counter

import numpy as np
import pytest

from starlanes.engine import BadOptionError, load
from starlanes.envs import BatchedEnv
from starlanes.games.interstellar_ambitions.batched import OVER, PLAYERS, IABatch
from starlanes.games.interstellar_ambitions.batched_view import legal_mask, observation
from starlanes.interop import tensor_encoder

from .batched_env_checks import env_matches_reference_through_autoreset, env_refuses_bad_steps

GAMES_ENV = "STARLANES_BATCHED_GAMES"
CI_GAMES = 12
"""Random games of the CI run (about a thousand steps each)."""


def _games(default: int) -> int:
    return int(os.environ.get(GAMES_ENV, default))


def _same_state(b: IABatch, i: int, st) -> None:
    """Every array of game ``i`` equals the reference state's field."""
    seed = st.game.seed
    assert int(b.rng[i]) == st.rng.getstate()[0], seed
    assert b.start[i] == st.start and list(b.ambitions[i]) == list(st.ambitions)
    assert (b.seat[i], b.round[i], b.step[i], b.turn_count[i]) == (
        st.seat, st.round, st.step, st.turn_count), seed
    assert (b.end_trigger[i], b.final_left[i]) == (st.end_trigger, st.final_left), seed
    for slot, claims in enumerate(st.claims):
        for pos, seat in enumerate(claims):
            assert b.claims[i, slot, seat] == pos + 1, seed
    assert (b.claims[i] > 0).sum() == sum(map(len, st.claims)), seed
    piles = [(b.shadow_deck, st.shadow_deck), (b.shadow_discard, st.shadow_discard),
             (b.tech_deck, st.tech_deck), (b.merc_deck, st.merc_deck),
             (b.emerg_deck, st.emerg_deck), (b.colony_deck, st.colony_deck)]
    piles += list(zip(b.planet_decks, st.planet_decks, strict=True))
    for pile, ref in piles:
        assert pile.cards[i, :pile.size[i]].tolist() == list(ref), seed
    assert b.planet_slots[i].tolist() == [list(x) for x in st.planet_slots]
    assert b.tech_slots[i].tolist() == list(st.tech_slots)
    assert b.merc_slots[i].tolist() == list(st.merc_slots)
    for seat in range(PLAYERS):
        counts = np.bincount(st.hands[seat], minlength=b.n_cards)
        assert b.hands[i, seat].tolist() == counts.tolist(), seed
        seq = b.hand_seq[i, seat]
        assert seq[seq >= 0].tolist() == list(st.hands[seat]), seed
        assert b.tokens[i, seat].tolist() == list(st.tokens[seat]), seed
        assert b.res[i, seat].tolist() == list(st.res[seat]), seed
        assert np.flatnonzero(b.known[i, seat]).tolist() == sorted(st.known[seat])
    assert b.tech_owner[i].tolist() == list(st.tech_owner)
    seen = Counter(st.seen_cards)
    got = {(int(v), int(h), int(x)): int(b.seen[i, v, h, x]) for v, h, x in zip(
        *np.nonzero(b.seen[i]), strict=True)}
    assert got == dict(seen), seed


COVERED = frozenset({"keep", "start_tech", "place_start", "comp", "step2", "advance_more",
                     "home_pick", "step3", "place", "claim", "colonise", "clear_planets",
                     "develop", "dev_pay", "shadow", "boost", "oppose", "build", "scrap",
                     "replace_tech", "research", "shadow_mode", "buy", "hire",
                     "replace_merc", "upkeep", "give_away", "fleet", "order", "fire",
                     "steal", "spoil", "capture", "rescue", "disrupt", "def_repair"})
"""The reference's decisions: every one of them is covered."""


def _leaves(key: tuple[str, ...]) -> bool:
    """A turn's ``take`` of a FLEET token."""
    return key[0] == "take" and key[1].split(":")[0] == "fleet"


def _covered(st) -> bool:
    return st.phase in ("setup", "turn") and bool(st.stack) and st.stack[-1].kind in COVERED


def _combat_events(st, before, counts: Counter) -> None:
    """Count what the reference's last step did in a fight: EMERGENCY draws, ships
    destroyed before the battle or leaving it, ships destroyed by damage, totals."""
    if len(st.emerg_deck) + len(st.emerg_discard) < before[0]:
        counts["emergency draw"] += 1
    cb = st.combat
    if cb is None:
        return
    key = before[2]
    if key in before[1]:
        return
    if cb.stage in ("repair", "done"):
        before[1].add(key)
        statuses = Counter(e[3] for side in cb.entries for e in side)
        for k, word in ((1, "destroyed before the battle"), (2, "left the battle"),
                        (3, "destroyed by damage")):
            counts[word] += statuses[k] > 0


def play_side_by_side(games: int, seed: int, counts: Counter, batch: int = 64,
                      avoid: float = 0.0, **options) -> int:
    """Play ``games`` random games ``batch`` at a time in the batch and the reference,
    checking every step to the end of each game (see the module docstring); ``avoid``:
    the share of the turn's draws that leave out taking a FLEET token. The steps played;
    ``counts`` gains the decisions taken by verb and kind, and the combat events."""
    steps = 0
    for start in range(0, games, batch):
        n = min(batch, games - start)
        seeds = [seed + start + i for i in range(n)]
        b = IABatch(n, **options)
        b.reset(np.arange(n), seeds)
        states = [load("interstellar-ambitions", seed=s, players=PLAYERS, **options)
                  .new_initial_state() for s in seeds]
        space = states[0].game.action_space()
        encode = tensor_encoder(states[0].game)
        rng = np.random.default_rng(seed + start)
        seen_fights: set = set()
        live = list(range(n))
        while live:
            mask = legal_mask(b)
            cp = b.current_player()
            obs = [observation(b, np.full(n, k)) for k in range(PLAYERS)]
            actions = np.zeros(n, np.int64)
            still = []
            for i in live:
                st = states[i]
                if st.is_terminal():  # IA-END-*: the same scores, winners and tensor
                    _same_state(b, i, st)
                    assert b.phase[i] == OVER and cp[i] == st.current_player(), seeds[i]
                    assert list(b.ret[i]) == st.returns(), (seeds[i], b.ret[i])
                    assert not mask[i].any()
                    for k in range(PLAYERS):
                        np.testing.assert_array_equal(obs[k][i], encode(st, k))
                    counts[f"over: {st.end_reason}"] += 1
                    continue
                assert _covered(st), (seeds[i], st.stack[-1].kind if st.stack else st.phase)
                still.append(i)
                assert cp[i] == st.current_player(), seeds[i]
                legal = space.legal_indices(st)
                got = np.flatnonzero(mask[i])
                if sorted(legal) != got.tolist():
                    keys = [" ".join(space.key_at(x)) for x in set(legal) ^ set(got.tolist())]
                    raise AssertionError(f"seed {seeds[i]}: masks differ at {keys}")
                for k in range(PLAYERS):
                    np.testing.assert_array_equal(obs[k][i], encode(st, k),
                                                  err_msg=f"seed {seeds[i]}, seat {k}")
                pick = got
                if st.phase == "turn" and avoid and rng.random() < avoid:
                    keep = [x for x in got.tolist() if not _leaves(space.key_at(x))]
                    pick = np.array(keep or got)
                a = int(pick[rng.integers(pick.size)])
                actions[i] = a
                key = space.key_at(a)
                counts[key[0]] += 1
                counts["double agent"] += key[1:2] == ("double_agent",)
                top = st.stack[-1]
                counts[f"kind: {top.kind}"] += 1
                if top.kind == "scrap" and top.data[:1] == ("emergency",):
                    counts["emergency scrap"] += 1
                if top.kind == "give_away" and top.data[:1] == ("capture",):
                    counts["capture give away"] += 1
                if top.kind == "def_repair" and key[0] == "repair":
                    counts["defender repair"] += 1
                counts["fleet take"] += _leaves(key)
                before = (len(st.emerg_deck) + len(st.emerg_discard), seen_fights,
                          (seeds[i], st.turn_count))
                st.apply(legal[a])
                _combat_events(st, before, counts)
            live = still
            b.step_indices(actions)
            steps += len(live)
    return steps


COMBAT_EVENTS = ("raid", "invade", "order", "fire", "steal", "spoil", "spoil-tech",
                 "spoil-bombard", "disrupt", "defender repair", "emergency draw",
                 "destroyed by damage", "kind: def_repair", "kind: fleet")
"""What the CI-sized random run must meet in its fights."""


def test_batched_games_match_the_reference_step_by_step():
    """IA-SET-02..24, IA-TURN-01..04, IA-PROD-01..05, IA-TRK-02..10, IA-RES-02,
    IA-COLN-*, IA-COL-*, IA-DEV-*, IA-SHD-01..15, IA-AMB-02..08, IA-RAID-*, IA-INV-*,
    IA-SHIP-05..13, IA-SPOIL-*, IA-END-*: the same seeds and actions give the same masks,
    seats, tensors and returns, every game followed to its end."""
    counts: Counter = Counter()
    n = _games(CI_GAMES)
    start = time.process_time()
    counts["steps"] = play_side_by_side(n, 9000, counts)
    print(f"\n{n} games, {time.process_time() - start:.1f} s CPU: {dict(counts)}")
    for verb in ("discard", "start-tech", "place", "advance", "take", "produce", "home",
                 "exchange", "plan", "done", "pass", "colonise", "clear", "develop", "pay",
                 "play", "play-seat", "play-seat-ship", "boost", "oppose", "build",
                 "research", "replace", "buy-cards", "buy", "hire-mercs", "hire", "upkeep",
                 "double agent", "fleet take", *COMBAT_EVENTS):
        assert counts[verb] > 0, verb
    assert sum(v for k, v in counts.items() if k.startswith("over: ")) == n


def test_games_to_the_round_limit_match_the_reference():
    """IA-END-03..12: with a round limit of 3 the games end at the limit: the same scores,
    winners, returns and final tensors."""
    counts: Counter = Counter()
    n = max(1, _games(CI_GAMES) // 4)
    counts["steps"] = play_side_by_side(n, 19000, counts, round_limit=3)
    print(f"\n{n} games, round_limit=3: {dict(counts)}")
    assert counts["over: round_limit"] > 0


def test_only_the_round_limit_option_is_supported():
    with pytest.raises(BadOptionError, match="supported: round_limit"):
        IABatch(2, ambitions="core")
    b = IABatch(1, round_limit=30)
    assert b.round_limit == 30


def test_same_seed_same_deal():
    """IA-SET-13/14: the deal depends on the seed only."""
    b = IABatch(4)
    b.reset(np.arange(4), [7, 7, 8, -3])
    assert (b.hands[0] == b.hands[1]).all() and b.start[0] == b.start[1]
    st = load("interstellar-ambitions", seed=-3, players=PLAYERS).new_initial_state()
    assert b.start[3] == st.start


def test_resetting_some_rows_leaves_the_others_alone():
    """A new deal in some rows (as an autoreset makes) leaves the other games where they
    are, and the new games start as the reference deals them."""
    b = IABatch(4)
    b.reset(np.arange(4), [1, 2, 3, 4])
    rng = np.random.default_rng(0)
    for _ in range(5):
        mask = legal_mask(b)
        b.step_indices(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
    before = observation(b, b.current_player())
    rng_before = b.rng.copy()
    b.reset(np.array([1, 3]), [2**63 + 5, 10])
    after = observation(b, b.current_player())
    np.testing.assert_array_equal(after[[0, 2]], before[[0, 2]])
    assert (b.rng[[0, 2]] == rng_before[[0, 2]]).all()
    encode = tensor_encoder(load("interstellar-ambitions", players=PLAYERS))
    for row, seed in ((1, 2**63 + 5), (3, 10)):
        st = load("interstellar-ambitions", seed=seed, players=PLAYERS).new_initial_state()
        np.testing.assert_array_equal(after[row], encode(st, st.current_player()))


def test_claims_in_the_same_positions():
    """IA-AMB-02..08: the resources Ambition is the only one a covered first round could
    meet, and random play does not reach its 16; so every seat is handed 5 of each
    resource in both engines at its step 2 decision. Where it is in play each seat's
    claim takes the next position; masks, tensors and the states agree all along."""
    n = 16
    seeds = list(range(300, 300 + n))
    b = IABatch(n)
    b.reset(np.arange(n), seeds)
    states = [load("interstellar-ambitions", seed=s, players=PLAYERS).new_initial_state()
              for s in seeds]
    space = states[0].game.action_space()
    encode = tensor_encoder(states[0].game)
    rng = np.random.default_rng(1)
    claimed = 0
    for _ in range(200):
        mask = legal_mask(b)
        obs = observation(b, np.maximum(b.current_player(), 0))
        actions = np.zeros(n, np.int64)
        for i, st in enumerate(states):
            if not _covered(st):
                continue
            top = st.stack[-1]
            if top.kind == "step2" and st.res[top.seat] != (5, 5, 5, 5):
                st.res[top.seat] = (5, 5, 5, 5)
                b.res[i, top.seat] = 5
                mask[i] = legal_mask(b)[i]
                obs[i] = observation(b, np.maximum(b.current_player(), 0))[i]
            legal = space.legal_indices(st)
            got = np.flatnonzero(mask[i])
            assert sorted(legal) == got.tolist(), seeds[i]
            np.testing.assert_array_equal(obs[i], encode(st, st.current_player()))
            keys = {x: space.key_at(x) for x in got.tolist()}
            pref = ([x for x, k in keys.items() if k[0] == "claim"]
                    or [x for x, k in keys.items() if k[0] in ("pass", "plan", "place")]
                    or [x for x, k in keys.items() if k[0] != "take"] or list(keys))
            a = pref[rng.integers(len(pref))]
            claimed += keys[a][0] == "claim"
            actions[i] = a
            st.apply(legal[a])
        b.step_indices(actions)
    assert claimed >= 2 * PLAYERS  # games with that Ambition in play: every seat claims
    assert (b.claims == 2).any() and (b.claims == 3).any()
    for i, st in enumerate(states):
        _same_state(b, i, st)


def _mutate(b: IABatch, i: int, st, rng) -> None:
    """Hand the seat to decide what the rare rules need, in both engines alike: at its
    Shadow step a Bribed Captain and an opponent's MERC (and sometimes a full fleet of its
    own); at COLONISE eight planets."""
    c = st.content
    top = st.stack[-1]
    seat = top.seat
    if top.kind == "shadow" and rng.random() < 0.5:
        card = c.shadow_index["bribed_captain"]
        if card in st.shadow_deck:  # taken out of the Shadow deck alike (a draw's swap)
            at = st.shadow_deck.index(card)
            st.shadow_deck[at] = st.shadow_deck[-1]
            st.shadow_deck.pop()
            got = b.shadow_deck.take(np.array([i]), np.array([at]))
            assert got[0] == card
            st.hands[seat] = st.hands[seat] + (card,)
            b.hand_add(np.array([i]), np.array([seat]), np.array([card]))
        o = (seat + 1) % PLAYERS
        if len(st.ships[o]) < 8 and st.merc_deck:  # the Merc deck's last card, alike
            merc = st.merc_deck.pop()
            b.merc_deck.size[i] -= 1
            assert b.merc_deck.cards[i, b.merc_deck.size[i]] == merc
            b.merc_deck.cards[i, b.merc_deck.size[i]] = -1
            st.ships[o] = st.ships[o] + ((merc, 0),)
            b.ship_card[i, o, len(st.ships[o]) - 1] = merc
        while rng.random() < 0.5 and len(st.ships[seat]) < 8:
            st.ships[seat] = st.ships[seat] + ((0, 0),)
            b.ship_card[i, seat, len(st.ships[seat]) - 1] = 0
    if top.kind == "colonise" and len(st.planets[seat]) < 8:
        for t in range(4):  # the last planets of the stacks, taken off them alike
            while len(st.planets[seat]) < 8 and st.planet_decks[t]:
                p = st.planet_decks[t].pop()
                pile = b.planet_decks[t]
                pile.size[i] -= 1
                assert pile.cards[i, pile.size[i]] == p
                pile.cards[i, pile.size[i]] = -1
                k = len(st.planets[seat])
                st.planets[seat] = st.planets[seat] + ((p, 2, ()),)
                b.pl_card[i, seat, k], b.pl_level[i, seat, k] = p, 2


def test_defection_and_give_away_match_the_reference():
    """IA-SHD (Bribed Captain), IA-SHIP-07 (its scrap) and IA-COLN-04..07: rare in random
    play, so the seats are handed what they need in both engines alike (``_mutate``);
    masks, tensors and states must still agree, and the plays must happen."""
    n = 48
    seeds = list(range(700, 700 + n))
    b = IABatch(n)
    b.reset(np.arange(n), seeds)
    states = [load("interstellar-ambitions", seed=s, players=PLAYERS).new_initial_state()
              for s in seeds]
    space = states[0].game.action_space()
    encode = tensor_encoder(states[0].game)
    rng = np.random.default_rng(5)
    counts: Counter = Counter()
    for _ in range(400):
        for i, st in enumerate(states):
            if _covered(st) and st.phase == "turn":
                _mutate(b, i, st, rng)
        mask = legal_mask(b)
        obs = observation(b, np.maximum(b.current_player(), 0))
        actions = np.zeros(n, np.int64)
        for i, st in enumerate(states):
            if not _covered(st):
                continue
            legal = space.legal_indices(st)
            got = np.flatnonzero(mask[i])
            assert sorted(legal) == got.tolist(), seeds[i]
            np.testing.assert_array_equal(obs[i], encode(st, st.current_player()))
            keys = {x: space.key_at(x) for x in got.tolist()}
            pref = ([x for x, k in keys.items() if k[0] in ("give", "discard-planet", "scrap")
                     or k[:2] in (("play-seat-ship", "bribed_captain"), ("take", "colonise:basic"))]
                    or [x for x, k in keys.items() if not _leaves(k) and k[0] != "boost"]
                    or list(keys))
            a = pref[rng.integers(len(pref))]
            counts[keys[a][0]] += 1
            counts["bribed captain"] += keys[a][1:2] == ("bribed_captain",)
            actions[i] = a
            st.apply(legal[a])
        b.step_indices(np.where([_covered(s) for s in states], actions, 0))
    for i, st in enumerate(states):
        if _covered(st):
            _same_state(b, i, st)
    print(dict(counts))
    assert counts["give"] + counts["discard-planet"] > 0
    assert counts["bribed captain"] > 0 and counts["scrap"] > 0



def _arm(b: IABatch, i: int, st, rng) -> bool:
    """At a FLEET decision, hand both sides what the rare fights need, in both engines
    alike: the attacker two Siege Barges, a Corvette, three Strike Craft, MERCs with
    pre-battle effects (taken off the Merc deck alike) and 9 of each resource, sometimes
    eight planets; the others either eight ships, six of them HEAVY (a raid's EMERGENCY
    scrap: the result, True, asks for a raid), or a Home World alone with weak ships (its
    capture and the rescue)."""
    c = st.content
    att = st.stack[-1].seat
    ix = c.ship_index
    fleet = [ix["siege_barge"]] * 2 + [ix["corvette"]] + [ix["strike_craft"]] * 3
    for merc in ("captain_rogers", "bounty_hunter", "squadron_leader"):
        card = ix[merc]
        if card in st.merc_deck and len(fleet) < 8:
            at = st.merc_deck.index(card)
            st.merc_deck[at] = st.merc_deck[-1]
            st.merc_deck.pop()
            assert b.merc_deck.take(np.array([i]), np.array([at]))[0] == card
            fleet.append(card)
    heavy = rng.random() < 0.5
    for seat in range(PLAYERS):
        if seat == att:
            ships = fleet
            st.res[seat] = (9, 9, 9, 9)
            b.res[i, seat] = 9
        elif heavy:
            ships = [ix["cruiser"]] * 6 + [ix["strike_craft"]] * 2
        else:
            ships = [ix["strike_craft"], ix["corvette"]]
            st.planets[seat] = st.planets[seat][:1]
            b.pl_card[i, seat, 1:], b.pl_level[i, seat, 1:], b.pl_marker[i, seat, 1:] = -1, 0, -1
        st.ships[seat] = tuple((x, 0) for x in ships)
        b.ship_card[i, seat] = -1
        b.ship_dmg[i, seat] = 0
        b.ship_card[i, seat, :len(ships)] = ships
    if rng.random() < 0.5:
        for t in range(4):  # the last planets of the stacks, taken off them alike
            while len(st.planets[att]) < 8 and st.planet_decks[t]:
                p = st.planet_decks[t].pop()
                pile = b.planet_decks[t]
                pile.size[i] -= 1
                assert pile.cards[i, pile.size[i]] == p
                pile.cards[i, pile.size[i]] = -1
                k = len(st.planets[att])
                st.planets[att] = st.planets[att] + ((p, 2, ()),)
                b.pl_card[i, att, k], b.pl_level[i, att, k] = p, 2
    return heavy


FIGHT_PREFERENCE = (("take", "fleet"), ("invade",), ("raid",), ("spoil-bombard",), ("capture",),
                    ("rescue",), ("give",), ("order",), ("fire",), ("scrap",))


def test_rare_fights_match_the_reference():
    """IA-RAID-03 (the EMERGENCY scrap at 8 ships), IA-SHIP-11/13 (pre-battle destroy,
    allies' extra dice), IA-SPOIL-05..08 (bombard, capture, its give-away, the rescue):
    rare in random play, so both sides of each FLEET decision are armed alike
    (``_arm``) and the fights' choices preferred; masks, tensors and states agree."""
    n = 24
    seeds = list(range(900, 900 + n))
    b = IABatch(n)
    b.reset(np.arange(n), seeds)
    states = [load("interstellar-ambitions", seed=s, players=PLAYERS).new_initial_state()
              for s in seeds]
    space = states[0].game.action_space()
    encode = tensor_encoder(states[0].game)
    rng = np.random.default_rng(3)
    counts: Counter = Counter()
    armed = [-1] * n  # the turn whose FLEET decision was armed, per game
    raid = [False] * n
    for _ in range(700):
        for i, st in enumerate(states):
            if _covered(st) and st.stack[-1].kind == "fleet" and armed[i] != st.turn_count:
                armed[i] = st.turn_count
                raid[i] = _arm(b, i, st, rng)
        mask = legal_mask(b)
        obs = observation(b, np.maximum(b.current_player(), 0))
        actions = np.zeros(n, np.int64)
        covered = [_covered(st) for st in states]
        for i, st in enumerate(states):
            if not covered[i]:
                continue
            legal = space.legal_indices(st)
            got = np.flatnonzero(mask[i])
            assert sorted(legal) == got.tolist(), seeds[i]
            assert b.current_player()[i] == st.current_player(), seeds[i]
            np.testing.assert_array_equal(obs[i], encode(st, st.current_player()))
            keys = {x: space.key_at(x) for x in got.tolist()}
            pref = []
            for want in (("raid",), *FIGHT_PREFERENCE) if raid[i] else FIGHT_PREFERENCE:
                pref = [x for x, k in keys.items()
                        if k[0] == want[0] and (len(want) == 1 or k[1].startswith(want[1]))]
                if pref:
                    break
            pref = pref or [x for x, k in keys.items() if k[0] != "boost"] or list(keys)
            a = pref[rng.integers(len(pref))]
            top = st.stack[-1]
            counts[top.kind] += 1
            counts["emergency scrap"] += top.kind == "scrap" and top.data[:1] == ("emergency",)
            counts["capture give away"] += top.kind == "give_away" and top.data[:1] == (
                "capture",)
            actions[i] = a
            st.apply(legal[a])
            cb = st.combat
            if cb is not None and cb.stage in ("order", "fight"):
                counts["destroyed before the battle"] += any(
                    e[3] == 1 for side in cb.entries for e in side)
        b.step_indices(np.where(covered, actions, 0))
    for i, st in enumerate(states):
        if _covered(st) or st.is_terminal():
            _same_state(b, i, st)
    print(dict(counts))
    for event in ("capture", "rescue", "emergency scrap", "capture give away",
                  "destroyed before the battle"):
        assert counts[event] > 0, event


# ---------------------------------------------------------------------- BatchedEnv
GAME = "interstellar-ambitions"


def test_env_shapes_and_dtypes():
    env = BatchedEnv(GAME, num_envs=4, seed=11)
    obs, info = env.reset()
    game = load(GAME, players=PLAYERS)
    assert env.players == PLAYERS
    assert obs.shape == (4, *game.observation_tensor_shape()) and obs.dtype == np.float32
    assert env.observation_shape == game.observation_tensor_shape()
    mask = info["action_mask"]
    assert mask.shape == (4, game.num_distinct_actions()) and mask.dtype == np.bool_
    assert env.num_actions == game.num_distinct_actions()
    assert info["current_player"].dtype == np.int64 and info["game_seed"].tolist() == [
        11, 12, 13, 14]
    actions = np.array([np.flatnonzero(m)[0] for m in mask])
    obs, rewards, term, trunc, info = env.step(actions)
    assert rewards.shape == (4, PLAYERS) and rewards.dtype == np.float64
    assert term.shape == trunc.shape == (4,) and term.dtype == trunc.dtype == np.bool_
    assert env.action_masks() is info["action_mask"]


def test_env_matches_the_reference_through_autoreset():
    """Rows reset in the step their game ends (here at a round limit of 2, FLEET takes
    allowed from round 2), with the seeds ``s + num_envs``, ... in order; rewards are the
    ended game's returns, the new game's tensor and mask follow."""
    env_matches_reference_through_autoreset(GAME, 4, 40, 8, round_limit=2)


def _snapshot(env):
    core = env.core
    return [core.tokens.copy(), core.rng.copy(), core.res.copy(), core.phase.copy(),
            core.kind.copy(), env.game_seeds.copy(), env.action_masks().copy()]


def test_env_seeds_follow_one_sequence():
    env = BatchedEnv(GAME, num_envs=3, seed=-7)
    assert env.reset()[1]["game_seed"].tolist() == [-7, -6, -5]
    assert env.reset()[1]["game_seed"].tolist() == [-4, -3, -2]
    obs, info = env.reset(seed=100)
    assert info["game_seed"].tolist() == [100, 101, 102]
    state = load(GAME, seed=101, players=PLAYERS).new_initial_state()
    np.testing.assert_array_equal(obs[1], tensor_encoder(state.game)(state, state.current_player()))
    with pytest.raises(BadOptionError, match="seed"):
        env.reset(seed=2**63)
    with pytest.raises(BadOptionError, match="seed"):
        env.reset(seed=1.5)


def test_env_refuses_bad_steps_and_changes_nothing():
    env_refuses_bad_steps(BatchedEnv(GAME, num_envs=3, seed=2), _snapshot)


def test_env_copy_false_reuses_its_two_arrays():
    fresh = BatchedEnv(GAME, num_envs=3, seed=5)
    reused = BatchedEnv(GAME, num_envs=3, seed=5, copy=False)
    obs_a, info_a = fresh.reset()
    obs_b, info_b = reused.reset()
    first_obs, first_mask = obs_b, info_b["action_mask"]
    rng = np.random.default_rng(0)
    for _ in range(30):
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(info_a["action_mask"], info_b["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info_a["action_mask"]])
        obs_a2, _, _, _, info_a = fresh.step(actions)
        assert obs_a2 is not obs_a
        obs_a = obs_a2
        obs_b, _, _, _, info_b = reused.step(actions)
        assert obs_b is first_obs and info_b["action_mask"] is first_mask
    with pytest.raises(ValueError):  # the env's own array
        obs_b[0, 0] = 1.0


def test_env_refuses_bad_options():
    with pytest.raises(BadOptionError, match="supported: round_limit"):
        BatchedEnv(GAME, ambitions="core")
    with pytest.raises(BadOptionError, match="interstellar-ambitions"):
        BatchedEnv("rift-domination")


def test_env_tensors_kept_up_to_date_equal_fresh_ones():
    """The environment's tensors (``ObsStream``: only what changed since the last step
    written) equal tensors made from nothing (``observation``) at every step of random
    games through autoreset, fights, owned planets and changes of the acting seat
    included."""
    env = BatchedEnv(GAME, num_envs=12, seed=3, copy=False, round_limit=2)
    obs, info = env.reset()
    rng = np.random.default_rng(1)
    fights = seat_changes = ended = owned = 0
    last = info["current_player"].copy()
    for _ in range(600):
        cp = info["current_player"]
        np.testing.assert_array_equal(obs, observation(env.core, np.maximum(cp, 0)))
        fights += int((env.core.cb_stage >= 0).sum())
        owned += int((env.core.pl_card >= 0).sum())
        seat_changes += int((cp != last).sum())
        last = cp.copy()
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, _, terminated, _, info = env.step(actions)
        ended += int(terminated.sum())
    assert fights > 0 and seat_changes > 100 and ended > 0 and owned > 0, \
        (fights, seat_changes, ended, owned)


def test_a_stream_follows_any_observers():
    """``ObsStream.update`` with observers drawn at random at every step (not the seats to
    act) equals fresh tensors from those observers."""
    from starlanes.games.interstellar_ambitions.batched_view import ObsStream

    env = BatchedEnv(GAME, num_envs=6, seed=11, round_limit=2)
    _, info = env.reset()
    stream = ObsStream(env.core)
    rng = np.random.default_rng(2)
    for _ in range(300):
        seats = rng.integers(0, PLAYERS, env.num_envs)
        np.testing.assert_array_equal(stream.update(env.core, seats),
                                      observation(env.core, seats))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        _, _, _, _, info = env.step(actions)
