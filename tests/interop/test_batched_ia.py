"""The batched Interstellar Ambitions set-up against the reference engine, step by step.

Random games (masked uniform random actions from a seeded numpy Generator; in a turn,
85% of the draws leave out taking an ACTION that is not covered, so that games stay
longer in what is) are played in the batch and, side by side, in reference states loaded
with the same seeds; at every step the legal mask must equal the reference's legal
indices, and the seat to act and the observation tensor (exactly, float32, as the
PettingZoo environment gives it, from every seat) must agree. Where the reference leaves
what the arrays cover (``batched_turn``), the batch's whole state (the RNG, every pile in
order, hands, tokens, resources, techs, claims, the turn and round) must equal the
reference's. ``STARLANES_BATCHED_GAMES=N`` plays N games instead of the CI's few.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from starlanes.engine import BadOptionError, load
from starlanes.games.interstellar_ambitions.batched import OVER, PLAYERS, IABatch
from starlanes.games.interstellar_ambitions.batched_view import legal_mask, observation
from starlanes.interop import tensor_encoder

GAMES_ENV = "STARLANES_BATCHED_GAMES"


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
    key = id(cb)
    if key in before[1]:
        return
    if cb.stage in ("repair", "done"):
        before[1].add(key)
        statuses = Counter(e[3] for side in cb.entries for e in side)
        for k, word in ((1, "destroyed before the battle"), (2, "left the battle"),
                        (3, "destroyed by damage")):
            counts[word] += statuses[k] > 0
        counts[f"{cb.kind} fought"] += 1


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
                before = (len(st.emerg_deck) + len(st.emerg_discard), seen_fights)
                st.apply(legal[a])
                _combat_events(st, before, counts)
            live = still
            b.step_indices(actions)
            steps += len(live)
    return steps


def test_batched_games_match_the_reference_step_by_step():
    """IA-SET-02..24, IA-TURN-01..04, IA-PROD-01..05, IA-TRK-02..10, IA-RES-02,
    IA-COLN-*, IA-COL-*, IA-DEV-*, IA-SHD-01..15, IA-AMB-02..08: the same
    seeds and actions give the same masks, seats and tensors, and the same state where
    the reference leaves what is covered."""
    counts: Counter = Counter()
    n = _games(120)
    counts["steps"] = play_side_by_side(n, 9000, counts)
    print(f"\n{n} games: {dict(counts)}")
    for verb in ("discard", "start-tech", "place", "advance", "take", "produce", "home",
                 "exchange", "plan", "done", "pass", "colonise", "clear", "develop", "pay",
                 "play", "play-seat", "play-seat-ship", "boost", "oppose", "build",
                 "research", "replace", "buy-cards", "buy", "hire-mercs", "hire", "upkeep",
                 "double agent", "out: an action taken"):
        assert counts[verb] > 0, verb


def test_games_to_the_round_limit_match_the_reference():
    """IA-END-03..12: with a round limit of 3 many games end before they leave what is
    covered: the same scores, winners, returns and final tensors."""
    counts: Counter = Counter()
    n = max(1, _games(120) // 3)
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
            if _leaves(keys[a]):
                _same_state(b, i, st)
                st.phase = "left"  # followed no further
                continue
            st.apply(legal[a])
        b.step_indices(np.where([_covered(s) for s in states], actions, 0))
    for i, st in enumerate(states):
        if _covered(st):
            _same_state(b, i, st)
    print(dict(counts))
    assert counts["give"] + counts["discard-planet"] > 0
    assert counts["bribed captain"] > 0 and counts["scrap"] > 0
