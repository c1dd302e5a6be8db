"""Determinisation: resample what one seat cannot see (``RiftState._resample_hidden``).

Hidden from a seat are the other seats' OCC hands, the order of the OCC deck, the values of
condition tiles not yet flipped (ruling RD-OPEN-05: from everyone, including the tile being
placed at set-up), the order of the kinds still in the tile bag and, during set-up, the
order of the factions not yet drawn. A determinisation keeps everything else, including
what the card windows told every seat about a hand (ruling RD-OPEN-14).

Search determinises the same position thousands of times, so this is written for speed:

* the other hands are dealt by drawing each hidden card uniformly from the unseen cards
  (the deck and those hands), taking a drawn card out by moving the last one into its place;
  a card that may not go where it is drawn for (an instant card, which no hand holds unseen
  because it is revealed when drawn, RD-OCC-03; a card of the wrong timing for what a
  window told) is drawn again, which keeps every allowed card equally likely, and after a
  few misses the allowed cards are listed and one is taken from the list;
* what is left is the deck, marked unordered: each later draw takes a card at random
  (``RiftState.draw_card``), the same odds as the top of a shuffled deck without shuffling;
* tile values are permuted only among hidden tiles of one kind whose values differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from starlanes.engine import quick_shuffle
from starlanes.engine.game import per_content

if TYPE_CHECKING:  # pragma: no cover
    import random

    from .game import RiftDomination
    from .state import RiftState

_TRIES = (None,) * 12
"""Draws that may miss an allowed card before the allowed cards are listed."""


class CardSets(NamedTuple):
    """Card ids of one content by timing, for dealing hands: ``instant`` cards (revealed
    when drawn, RD-OCC-03), ``any_time`` cards, ``plain`` (neither) and ``dealable``
    (every card but the instant ones)."""

    instant: frozenset[str]
    any_time: frozenset[str]
    plain: frozenset[str]
    dealable: frozenset[str]


def card_sets(game: RiftDomination) -> CardSets:
    """The :class:`CardSets` of ``game``'s content (built once per content, then shared)."""
    return per_content(game, _card_sets, by_players=False)


def _card_sets(game: RiftDomination) -> CardSets:
    timing = {c: card.timing for c, card in game.content.cards.items()}
    return CardSets(
        frozenset(c for c, t in timing.items() if t == "instant"),
        frozenset(c for c, t in timing.items() if t == "any_time"),
        frozenset(c for c, t in timing.items() if t not in ("instant", "any_time")),
        frozenset(c for c, t in timing.items() if t != "instant"),
    )


def resample_hidden(s: RiftState, seat: int, rng: random.Random) -> None:
    """Resample in place (``s`` is a fresh clone) everything ``seat`` cannot see, drawing
    from ``rng``; see the module docstring."""
    _deal_hands(s, seat, rng)
    _shuffle_tiles(s, rng)
    # The kinds still in the bag are hidden too: their order is reshuffled.
    if len(s.tile_bag) > 1:
        quick_shuffle(s.tile_bag, rng)
    # So is the order of the factions not yet drawn (a repick draws from it); once set-up
    # is over nothing draws from it again.
    if s.phase.startswith("setup"):
        quick_shuffle(s.faction_pool, rng)


def _deal_hands(s: RiftState, seat: int, rng: random.Random) -> None:
    """Deal the other hands afresh from the cards ``seat`` cannot see. Each hand keeps the
    instant cards it shows; with what the card windows told ``seat`` (``occ_known``: how
    many of its cards are known not to be any-time cards, whether it is known to hold one)
    it first gets that many cards that are not any-time cards, then an any-time card, both
    seat by seat in seat order; then the hands are filled at random."""
    instant, any_time, plain, dealable = card_sets(s.game)
    hands = s.hands
    pool = s.deck  # the clone's own list: it becomes the pool, then the deck
    dealt: list[tuple[int, list[str]]] = []  # (seat, new hand: the instants it shows)
    facts = False
    known = s.occ_known
    for o in range(s.n):
        hand = hands[o]
        if o == seat or not hand:
            continue
        if instant.isdisjoint(hand):
            pool.extend(hand)
            dealt.append((o, []))
        else:
            pool.extend(c for c in hand if c not in instant)
            dealt.append((o, [c for c in hand if c in instant]))
        if known[o][0] or known[o][1]:
            facts = True
    draw = rng.random
    end = len(pool)
    # what to deal, in order: (hand, cards allowed, how many)
    wanted: list[tuple[list[str], frozenset[str], int]] = []
    if facts:
        for o, hand in dealt:
            count, holds = known[o]
            if count:
                wanted.append((hand, plain, count))
            if holds:
                wanted.append((hand, any_time, 1))
    wanted.extend((hand, dealable, -1 - o) for o, hand in dealt)
    for hand, allowed, count in wanted:
        if count < 0:  # fill the hand of seat -1 - count up to its size
            count = len(hands[-1 - count]) - len(hand)
        for _ in range(count):
            for _miss in _TRIES:
                j = int(draw() * end)
                c = pool[j]
                if c in allowed:
                    break
            else:
                found = [j for j in range(end) if pool[j] in allowed]
                if not found:
                    if allowed is dealable:  # pragma: no cover - the pool holds the hands'
                        raise AssertionError("determinisation ran out of unseen OCC-cards")
                    break  # no card of the kind the window told of is left unseen
                j = found[int(draw() * len(found))]
                c = pool[j]
            end -= 1
            pool[j] = pool[end]
            hand.append(c)
    for o, hand in dealt:
        hands[o] = hand
    del pool[end:]
    s.deck_unordered = True


class _Tiles(NamedTuple):
    """The hidden tiles of one position: ``slots`` kind -> planets with a hidden tile of
    that kind; ``mixed`` the groups of those planets whose values differ (the only ones a
    permutation changes); and the lists they were found from."""

    kinds: list[str]
    revealed: list[bool]
    values: list[int]
    slots: dict[str, tuple[int, ...]]
    mixed: tuple[tuple[int, ...], ...]


_LAST_TILES: list[_Tiles] = []


def _hidden_tiles(kinds: list[str], revealed: list[bool], values: list[int]) -> _Tiles:
    """The :class:`_Tiles` of these lists. Search determinises one position many times, so
    the last answer is kept and reused while the three lists are equal to its own."""
    if _LAST_TILES:
        last = _LAST_TILES[0]
        if last.revealed == revealed and last.kinds == kinds and last.values == values:
            return last
    found: dict[str, list[int]] = {}
    for p, k in enumerate(kinds):
        if k and not revealed[p]:
            at = found.get(k)
            if at is None:
                found[k] = [p]
            else:
                at.append(p)
    slots = {k: tuple(ps) for k, ps in found.items()}
    mixed = tuple(ps for ps in slots.values()
                  if len({values[p] for p in ps}) > 1)
    got = _Tiles(kinds[:], revealed[:], values[:], slots, mixed)
    _LAST_TILES[:] = [got]
    return got


def _shuffle_tiles(s: RiftState, rng: random.Random) -> None:
    """Hidden condition tile values are permuted among the hidden tiles of the same kind,
    together with the values still in the bag and that of the tile in hand."""
    values = s.tile_value
    tiles = _hidden_tiles(s.tile_kind, s.tile_revealed, values)
    bag, in_hand = s.tile_bag, s.tile_in_hand
    if not bag and in_hand is None:
        draw = rng.random
        for ps in tiles.mixed:  # Fisher-Yates over the group's planets, in place
            for i in range(len(ps) - 1, 0, -1):
                j = ps[int(draw() * (i + 1))]
                p = ps[i]
                values[p], values[j] = values[j], values[p]
        return
    slots = tiles.slots
    by_kind = {k: [values[p] for p in at] for k, at in slots.items()}
    bag_slots: dict[str, list[int]] = {}
    for j, (k, v) in enumerate(bag):
        by_kind.setdefault(k, []).append(v)
        bag_slots.setdefault(k, []).append(j)
    if in_hand is not None:  # its value is hidden from everyone (ruling RD-OPEN-05)
        by_kind.setdefault(in_hand[0], []).append(in_hand[1])
    for k, vals in by_kind.items():
        if len(vals) > 1:
            quick_shuffle(vals, rng)
        it = iter(vals)
        for p in slots.get(k, ()):
            values[p] = next(it)
        for j in bag_slots.get(k, ()):
            bag[j] = (k, next(it))
        if in_hand is not None and in_hand[0] == k:
            s.tile_in_hand = (k, next(it))
