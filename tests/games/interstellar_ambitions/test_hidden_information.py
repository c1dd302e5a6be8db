"""Determinisation keeps every fact a seat knows and nothing it does not: the card a Double
Agent took (its victim saw it go), and other seats' secret choices in the history (cards
bought from a private offer, face-down combat orders until they are revealed)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import starlanes
from starlanes.engine import HiddenAction

FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def pilfered(ia):
    """P0 plays Double Agent on P1 (hand: Black Market, Informant) and succeeds."""
    s = ia.turn(3, 0, 0, round_=2)
    ia.hand(s, 0, "double_agent")
    ia.hand(s, 1, "black_market", "informant")
    ia.hand(s, 2, "red_tape", "fast_track")
    ia.dice(s, [6])
    ia.run(s)
    ia.act(s, "play double_agent P1")
    ia.act(s, "pass")  # P1 does not oppose
    assert len(s.hands[0]) == 1 and len(s.hands[1]) == 1
    return s


def test_pilfer_victim_knows_the_card_taken(ia) -> None:
    """Designed card Double Agent (docs/content): the victim sees which card goes, so in
    every world its determinisation samples the pilferer still holds that card; a third
    seat did not see it, so its worlds vary."""
    s = pilfered(ia)
    taken = s.hands[0][0]
    assert (1, 0, taken) in s.seen_cards
    for k in range(200):
        d = s.determinize(1, random.Random(k))
        assert d.hands[0] == (taken,), k
        assert d.hands[1] == s.hands[1]
    third = {s.determinize(2, random.Random(k)).hands[0] for k in range(60)}
    assert len(third) > 1


def test_seen_card_lapses_when_it_goes_face_up(ia) -> None:
    """Once the pilferer discards the known card face up (a +1 boost on its own check), the
    victim knows it has gone: nothing about the pilferer's hand is kept any more."""
    s = pilfered(ia)
    c = s.content
    taken = s.hands[0][0]
    s.hands[0] = (*s.hands[0], c.shadow_index["planetary_plague"])
    s.shadow_deck.remove(c.shadow_index["planetary_plague"])
    ia.planet(s, 1, "tidewater", 3)
    s.stack.clear()
    s.step = 0
    ia.dice(s, [1])
    ia.run(s)
    ia.act(s, "play planetary_plague P1.tidewater")
    ia.act(s, f"boost {c.shadow_ids[taken]}")
    assert not any(v == 1 and h == 0 for v, h, _x in s.seen_cards)


def test_bought_cards_hidden_from_other_seats_history(ia) -> None:
    """IA-SHA-02: the buyer alone sees the offer and what it buys; a determinised state of
    another seat shows each purchase as ``buy ?`` (same history length), the buyer's own
    shows it as played."""
    s = ia.turn(3, 0, 3)
    s.res[0] = (0, 0, 0, 9)
    ia.tokens(s, 0, "shadow:basic")
    ia.run(s)
    ia.act(s, "take shadow:basic")
    ia.act(s, "buy-cards")
    bought = ia.notes(s)[0]
    assert bought.startswith("buy ")
    ia.act(s, bought)
    at = len(s.history) - 1
    own = s.determinize(0, random.Random(1))
    assert own.history == s.history
    for seat in (1, 2):
        other = s.determinize(seat, random.Random(1))
        assert len(other.history) == len(s.history)
        assert other.history[at] == HiddenAction("buy ?") and str(other.history[at]) == "buy ?"
        assert other.history[:at] == s.history[:at]
        assert bought not in [str(a) for a in other.history]


def _play_checked(players: int, seed: int, steps: int) -> tuple[int, int]:
    """Random legal play; every 25 steps each seat's determinisation is checked against
    what that seat saw. Returns how many hidden purchases and orders were checked."""
    s = starlanes.load("interstellar-ambitions", players=players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    secret: dict[int, tuple[int, str]] = {}  # history index -> (seat, topic)
    checked = [0, 0]
    for step in range(steps):
        if s.is_terminal():
            break
        d = s.stack[-1]
        action = rng.choice(s.legal_actions())
        index = len(s.history)
        open_combat = s.combat is not None and s.combat.open
        s.apply(action)
        text = str(action)
        if d.kind == "buy" and text.startswith("buy "):
            secret[index] = (d.seat, "buy")
        elif d.kind == "order" and not (open_combat and "/" in text):
            secret[index] = (d.seat, "order")
        if s.combat is None or s.combat.secret.revealed:  # orders turned face up
            secret = {i: v for i, v in secret.items() if v[1] != "order"}
        if step % 25:
            continue
        for seat in range(s.n):
            w = s.determinize(seat, random.Random(step))
            assert len(w.history) == len(s.history)
            for i, (real, seen) in enumerate(zip(s.history, w.history, strict=True)):
                who, topic = secret.get(i, (seat, ""))
                if who != seat:
                    assert isinstance(seen, HiddenAction) and str(seen) == f"{topic} ?"
                    checked[topic == "order"] += 1
                else:
                    assert seen == real
            for v, h, x in s.seen_cards:  # cards a seat knows another holds stay put
                assert s.hands[h].count(x) >= 1
                if v == seat:
                    assert w.hands[h].count(x) >= sum(
                        1 for v2, h2, x2 in s.seen_cards if (v2, h2, x2) == (v, h, x))
            assert w.hands[seat] == s.hands[seat]
            assert [len(h) for h in w.hands] == [len(h) for h in s.hands]
    return checked[0], checked[1]


@FAST
@given(st.integers(3, 6), st.integers(0, 10_000))
def test_determinised_history_hides_exactly_the_secrets(players: int, seed: int) -> None:
    """Over random playouts, a determinised state's history equals the real one except for
    other seats' purchases and not-yet-revealed combat orders, shown as ``buy ?`` /
    ``order ?``; hands keep their sizes, the seat's own hand and every card it knows
    another seat holds."""
    _play_checked(players, seed, 1200)


def test_random_playouts_reach_secrets() -> None:
    """The property above is not vacuous: playouts reach hidden purchases and orders."""
    totals = [0, 0]
    for seed in range(6):
        b, o = _play_checked(4, seed, 1500)
        totals[0] += b
        totals[1] += o
    assert totals[0] > 0 and totals[1] > 0


def test_victim_observation_shows_the_card_taken(ia) -> None:
    """The victim's observation lists the card it saw taken under the pilferer's
    ``seen_cards``; the third seat's lists nothing."""
    s = pilfered(ia)
    taken = s.content.shadow_ids[s.hands[0][0]]
    assert s.observation(1)["players"][0]["seen_cards"] == [taken]
    assert s.observation(2)["players"][0]["seen_cards"] == []
    assert s.observation(0)["players"][0]["seen_cards"] == []
