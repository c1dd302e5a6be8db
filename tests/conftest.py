"""Shared helpers for the Rift Domination tests.

``fresh`` plays set-up with fixed choices (first legal home planet and tile placement, and
optionally a chosen faction per seat) and returns the state at the first decision of round 1.
``blank`` goes further: it empties the board (no units, no tiles, no owners but the home
planets, no cards, no resources) and puts seat 0 in a chosen phase of its turn, so a test
can build the exact position a rule talks about with the small helpers below.

The helpers are exposed through the ``rd`` fixture (``rd.fresh(...)``, ``rd.place(...)``).
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
from hypothesis import settings

import starlanes
from starlanes.games.rift_domination.board import board_for
from starlanes.games.rift_domination.factions import compile_faction

# Property tests draw the same examples on every run (set STARLANES_HYPOTHESIS=random to
# explore new ones locally), so the suite is reproducible in CI.
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("explore" if os.environ.get("STARLANES_HYPOTHESIS") == "random"
                      else "repeatable")

#: A faction with no ability that changes income, draws or movement: used as the neutral
#: default for constructed positions.
NEUTRAL = "korrath_hegemony"


def fresh(players: int = 2, seed: int = 1, factions: list[str] | None = None, **options):
    """Play set-up with fixed choices; ``factions`` forces each seat's faction offer.
    Positions are built on the classic board (its map is the one the rule tests name)
    unless ``board`` is given."""
    options.setdefault("board", "classic")
    s = starlanes.load("rift-domination", players=players, seed=seed, **options)
    s = s.new_initial_state()
    while s.phase.startswith("setup"):
        if s.phase == "setup_faction" and factions is not None:
            want = factions[s.seat]
            if s.faction_offer != want:
                if want in s.faction_pool:
                    s.faction_pool.remove(want)
                    s.faction_pool.append(s.faction_offer)
                s.faction_offer = want
                s._legal = None
            s.apply(next(a for a in s.legal_actions() if str(a) == "keep"))
        else:
            s.apply(s.legal_actions()[0])
    return s


def touch(s) -> None:
    """Forget the cached legal actions after a direct edit of the state."""
    s._legal = None


def set_faction(s, seat: int, faction: str) -> None:
    """Give ``seat`` a faction's abilities, unit stats and starting roster."""
    fx, stats = compile_faction(s.content, faction)
    s.faction[seat] = faction
    s.fx[seat] = fx
    s.stats[seat] = stats
    s.roster[seat] = tuple(s.content.factions[faction].roster)
    s.unlocks[seat] = 0
    touch(s)


def blank(players: int = 2, seed: int = 1, factions: list[str] | None = None,
          phase: str = "move", seat: int = 0, **options):
    """A played set-up reduced to an empty board: only the home planets are owned (no
    upgrades on them), no tiles, units, cards or resources; ``seat`` is in ``phase``."""
    s = fresh(players, seed, **options)
    s.board = board_for(s.game, wormholes=False)
    for i in range(s.n):
        set_faction(s, i, (factions or [NEUTRAL] * s.n)[i])
    s.stack.clear()
    s.battle = None
    s.units.clear()
    s.hands = [[] for _ in range(s.n)]
    s.discard = []
    s.deck = [c for c in s.deck if s.content.cards[c].timing != "instant"]
    s.resources = [0] * s.n
    s.vp = [0] * s.n
    s.income = [s.content.rules.income_start] * s.n
    np_ = len(s.planet_owner)
    s.planet_owner = [-1] * np_
    for i, h in enumerate(s.home):
        s.planet_owner[h] = i
    s.planet_upgrades = [()] * np_
    s.tile_kind = [""] * np_
    s.tile_value = [0] * np_
    s.tile_revealed = [False] * np_
    s.system_owner = [-1] * len(s.system_owner)
    s.phase, s.seat, s.step, s.round = phase, seat, 0, 1
    s.winners = []
    s.target_reached = False
    touch(s)
    return s


def pid(s, planet: str) -> int:
    """Planet index of a planet id such as ``"B1a"``."""
    return s.board.planet_ids.index(planet)


def pt(s, name: str) -> int:
    """Board point index of a point name (``"C1"``, ``"C1a"``, ``"B1|C1"``)."""
    return s.board.index[name]


def place(s, seat: int, kind: str, at: str, n: int = 1, landed: bool = False,
          mp: int | None = None) -> list[int]:
    """Put ``n`` units at point ``at``; ships get their full movement points unless
    ``mp`` is given."""
    out = []
    st = s.stats[seat][kind]
    full = st.mp if st.used_capacity == 0 else 0
    for _ in range(n):
        uid = s.add_unit(seat, kind, pt(s, at), landed=landed)
        s.units[uid] = s.units[uid]._replace(mp=full if mp is None else mp)
        out.append(uid)
    touch(s)
    return out


def own(s, planet: str, seat: int, upgrades: tuple[str, ...] = ()) -> int:
    """Make ``seat`` the controller of ``planet`` with ``upgrades`` on it (no scoring)."""
    p = pid(s, planet)
    s.planet_owner[p] = seat
    s.planet_upgrades[p] = tuple(upgrades)
    touch(s)
    return p


def tile(s, planet: str, kind: str, value: int = 0) -> int:
    """Put a face-down condition tile on ``planet``."""
    p = pid(s, planet)
    s.tile_kind[p] = kind
    s.tile_value[p] = value
    s.tile_revealed[p] = False
    touch(s)
    return p


def give(s, seat: int, *cards: str) -> None:
    s.hands[seat].extend(cards)
    touch(s)


def stack_deck(s, *cards: str) -> None:
    """Put ``cards`` on top of the OCC deck; the first listed is drawn first."""
    s.deck = [c for c in s.deck if s.content.cards[c].timing != "instant"]
    s.deck.extend(reversed(cards))
    touch(s)


def dice(s, *values: int):
    """Fix the next d6 results; a roll beyond those listed fails the test."""
    it = iter(values)

    def d6():
        try:
            return next(it)
        except StopIteration:
            raise AssertionError("more dice were rolled than the test expected") from None

    s.rng.d6 = d6


def legal(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def do(s, *notations: str) -> None:
    """Apply actions by notation."""
    for text in notations:
        s.apply_notation(text)


def units_of(s, seat: int, kind: str | None = None, at: str | None = None) -> list[int]:
    p = None if at is None else pt(s, at)
    return [
        u for u, x in s.units.items()
        if x.owner == seat and (kind is None or x.kind == kind) and (p is None or x.loc == p)
    ]


def finish_battle(s, pick=None) -> None:
    """Answer battle decisions: pass card windows, stay/retreat as ``pick`` chooses
    (default: the first legal action) until the battle is over."""
    guard = 0
    while s.battle is not None:
        guard += 1
        assert guard < 200, "battle does not end"
        acts = s.legal_actions()
        a = pick(acts) if pick else acts[0]
        s.apply(a)


HELPERS = SimpleNamespace(
    fresh=fresh, blank=blank, touch=touch, set_faction=set_faction, pid=pid, pt=pt,
    place=place, own=own, tile=tile, give=give, stack_deck=stack_deck, dice=dice,
    legal=legal, do=do, units_of=units_of, finish_battle=finish_battle, NEUTRAL=NEUTRAL,
)


@pytest.fixture
def rd():
    """The Rift Domination test helpers (see the module docstring)."""
    return HELPERS


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves of terminal sessions (also in subprocesses) go to a temporary directory,
    never to the user's data directory."""
    monkeypatch.setenv("STARLANES_DATA_DIR", str(tmp_path_factory.mktemp("data")))
