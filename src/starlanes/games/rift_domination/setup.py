"""Set-up (rulebook SET UP and BEFORE YOU START).

Order: every seat, from seat 0 (the youngest player, RD-SET-18) clockwise, takes a planet of
a free starting system as home planet (RD-SET-01/02, RD-SET-08); then condition tiles are
drawn face down from a shuffled bag and placed clockwise, one per turn, on any planet without
a tile except the home planets, until every planet has one (RD-SET-03..06, ruling
RD-OPEN-05: the tile shows its kind, its value stays hidden from everyone until the planet is
taken); then each seat draws a random faction and may repick once (RD-SET-09/10); finally
starting materials are handed out (RD-SET-11..17).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, ContentError
from starlanes.engine.explain import article

from . import occ
from .actions import ChooseHome, KeepFaction, PlaceTile, RepickFaction
from .board import board_for
from .factions import compile_faction

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState


def begin(s: RiftState) -> None:
    """Start set-up: seat 0 chooses a home planet first."""
    s.phase = "setup_home"
    s.seat = 0
    s.log(f"set-up for {s.n} players on the {'small' if s.board.small else 'full'} board")


# ------------------------------------------------------------------ home planets
def _taken_systems(s: RiftState) -> set[int]:
    return {s.board.planet_system[h] for h in s.home if h >= 0}


def home_actions(s: RiftState) -> list[Action]:
    b = s.board
    taken = _taken_systems(s)
    return [
        ChooseHome(b.planet_ids[p])
        for sys in b.start_systems if sys not in taken
        for p in b.system_planets[sys]
    ]


def apply_home(s: RiftState, a: Action) -> None:
    assert isinstance(a, ChooseHome)
    p = s.board.planet_ids.index(a.planet)
    s.home[s.seat] = p
    s.planet_owner[p] = s.seat
    s.log(f"P{s.seat} takes {s.point_name(a.planet)} as home planet")
    if s.seat + 1 < s.n:
        s.seat += 1
        return
    _begin_tiles(s)


# ------------------------------------------------------------------ condition tiles
def _begin_tiles(s: RiftState) -> None:
    bag = [(t.kind, t.value) for t in s.content.tiles.values() for _ in range(t.count)]
    need = len(_untiled(s))
    if len(bag) < need:
        raise ContentError(f"condition_tiles.toml holds {len(bag)} tiles, {need} are needed")
    s.rng.shuffle(bag)
    s.tile_bag = bag
    s.phase = "setup_tiles"
    s.seat = 0
    s.tile_in_hand = s.tile_bag.pop()


def _untiled(s: RiftState) -> list[int]:
    huge_ok = bool(s.content.rules.huge_planet_condition_tile)
    b = s.board
    return [
        p for p in b.in_play_planets
        if not s.tile_kind[p] and p not in s.home and (huge_ok or not b.planet_huge[p])
    ]


def tile_actions(s: RiftState) -> list[Action]:
    ids = s.board.planet_ids
    return [PlaceTile(ids[p]) for p in _untiled(s)]


def apply_tile(s: RiftState, a: Action) -> None:
    assert isinstance(a, PlaceTile) and s.tile_in_hand is not None
    p = s.board.planet_ids.index(a.planet)
    kind, value = s.tile_in_hand
    s.tile_kind[p] = kind
    s.tile_value[p] = value
    s.log(f"P{s.seat} places {article(kind)} tile on {s.point_name(a.planet)}")
    if _untiled(s):
        s.seat = (s.seat + 1) % s.n
        s.tile_in_hand = s.tile_bag.pop()
        return
    s.tile_in_hand = None
    s.tile_bag = []
    _begin_factions(s)


# ------------------------------------------------------------------ factions
def _begin_factions(s: RiftState) -> None:
    """Deal each seat a faction it may keep or repick once (RD-SET-09/10), or, with the
    ``factions`` option (a designer's control, ruling in docs/rulings), give each seat the
    faction named for it with no decision."""
    fixed = s.game.fixed_factions
    if fixed:
        for seat, faction in enumerate(fixed):
            s.faction[seat] = faction
            s.log(f"P{seat} plays {s.content.factions[faction].name}")
        s.faction_offer = ""
        s.phase = "setup_faction"
        _hand_out(s)
        return
    pool = sorted(s.content.factions)
    s.rng.shuffle(pool)
    s.faction_pool = pool
    s.phase = "setup_faction"
    s.seat = 0
    s.faction_offer = s.faction_pool.pop()


def faction_actions(s: RiftState) -> list[Action]:
    out: list[Action] = [KeepFaction()]
    if not s.repicked[s.seat] and s.faction_pool:
        out.append(RepickFaction())
    return out


def apply_faction(s: RiftState, a: Action) -> None:
    if isinstance(a, RepickFaction):
        old = s.faction_offer
        s.repicked[s.seat] = True
        s.faction_offer = s.faction_pool.pop()
        s.faction_pool.insert(s.rng.randrange(len(s.faction_pool) + 1), old)
        f = s.content.factions
        s.log(f"P{s.seat} repicks: {f[old].name} goes back, {f[s.faction_offer].name} is drawn")
        return
    s.faction[s.seat] = s.faction_offer
    s.log(f"P{s.seat} plays {s.content.factions[s.faction_offer].name}")
    if s.seat + 1 < s.n:
        s.seat += 1
        s.faction_offer = s.faction_pool.pop()
        return
    s.faction_offer = ""
    _hand_out(s)


def _hand_out(s: RiftState) -> None:
    """Starting materials (RD-SET-11..17) and the first turn (RD-SET-18)."""
    c = s.content
    rules = c.rules
    for seat in range(s.n):
        fx, stats = compile_faction(c, s.faction[seat])
        s.fx[seat] = fx
        s.stats[seat] = stats
    if any(fx.wormhole_mastery for fx in s.fx if fx is not None):
        s.board = board_for(s.game, wormholes=True)
    for seat in range(s.n):
        f = c.factions[s.faction[seat]]
        fx = s.fx[seat]
        assert fx is not None
        s.roster[seat] = tuple(f.roster)
        s.resources[seat] = f.start_resources
        s.income[seat] = rules.income_start
        s.vp[seat] = fx.start_vp
        s.vp_by[seat] = {"starting VP": fx.start_vp} if fx.start_vp else {}
        home = s.home[seat]
        point = s.board.planet_point[home]
        s.planet_upgrades[home] = ("military_base", *f.start_upgrades)
        for kind, count in f.start_units.items():
            for _ in range(count):
                s.add_unit(seat, kind, point)
    deck = [cid for cid, card in c.cards.items() for _ in range(card.count)]
    s.rng.shuffle(deck)
    s.deck = deck
    for seat in range(s.n):
        for _ in range(rules.start_occ_cards):
            _draw_setup_card(s, seat)
    s.target_vp = rules.vp_to_win(s.n)
    s.round = 1
    s.seat = 0
    s.phase = "turn_start"
    s.step = 1
    s.log(f"round 1 begins; {s.target_vp} VP win")


def _draw_setup_card(s: RiftState, seat: int) -> None:
    """One set-up card (RD-SET-17). An instant card is revealed and resolved at once, as on
    any draw (RD-OCC-03); putting it back and drawing another is the rulebook's
    first-session variant (RD-OCC-08), played with ``first_round_no_instants``."""
    if not s.options["first_round_no_instants"]:
        occ.draw_cards(s, seat, 1)
        return
    for _ in range(len(s.deck)):
        card = s.deck.pop()
        if s.content.cards[card].timing != "instant":
            s.hands[seat].append(card)
            return
        s.deck.insert(s.rng.randrange(len(s.deck) + 1), card)
