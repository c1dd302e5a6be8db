"""Players read words, not ids: every legal action's label, the text, cost and changes of its
explanation (``describe``, shown under its button) and every log line of the four games
name cards, units, ships, planets and seats by their printed names.

A label, an explanation or a log line fails (:func:`starlanes.engine.explain.label_fault`) when it is
empty, is only the action's notation, holds an underscore (a content id such as
``ship_go_boom_boom``) or a ``#`` and a number (an instance such as ``occ_econ_crisis#41``).

The walks are seeded random games whose player prefers, half of the time, an action of a
kind it has not taken yet, so the rarer kinds (a counter card, a retreat, a victory
spoil) are met as well; each game's walk must meet every kind its label table words
except a few named below, which need positions random play hardly reaches and are built
by hand (:func:`test_rare_actions_read_as_words`). About 25 s in all on a busy machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import starlanes
from starlanes.engine import Decision
from starlanes.engine.explain import label_fault
from starlanes.games.galactic_domination import explain as gd_explain
from starlanes.games.galactic_empires import explain as ge_explain
from starlanes.games.rift_domination import labels as rd_labels
from tests.games.galactic_empires import conftest as ge_helpers
from tests.games.interstellar_ambitions import conftest as ia_helpers


def _rd_kind(s: Any, a: Any) -> str:
    name = type(a).__name__
    if name in ("Pass", "PlayCard"):  # their labels depend on the window they answer
        return f"{name}/{rd_labels._window(s)}"
    return name


def _ia_kind(s: Any, a: Any) -> str:
    return "exchange" if a.verb == "exchange" else f"{s.stack[-1].kind}/{a.verb}"


WALKS: dict[str, dict[str, Any]] = {
    # game: players, seeds, steps a game, what names an action kind, options by seed
    "rift-domination": dict(players=(2, 3, 4), seeds=16, steps=1200, kind=_rd_kind),
    "galactic-domination": dict(players=(2,), seeds=12, steps=800,
                                kind=lambda s, a: type(a).__name__),
    "interstellar-ambitions": dict(players=(3, 4), seeds=40, steps=3000, kind=_ia_kind),
    # one game in five may withdraw (an option): the walk's player takes it early
    "galactic-empires": dict(players=(2, 3, 4), seeds=40, steps=3000,
                             kind=lambda s, a: a.kind,
                             options=lambda seed: {"withdrawal": seed % 5 == 4}),
}

RD_WINDOWS = ("turn", "window", "counter", "battle_cancel", "battle_cards", "battle_rush")
IA_KINDS = (
    "exchange", "advance_more/advance", "advance_more/done", "boost/boost", "boost/done",
    "build/build", "build/done", "build/repair", "buy/buy", "buy/done", "claim/claim",
    "claim/pass", "clear_planets/clear", "clear_planets/done", "colonise/colonise",
    "colonise/pass", "comp/advance", "comp/take", "def_repair/done", "def_repair/repair",
    "dev_pay/pay", "develop/develop", "develop/done", "disrupt/disrupt", "disrupt/done",
    "fire/fire", "fleet/invade", "fleet/pass", "fleet/raid", "hire/done", "hire/hire",
    "home_pick/home", "keep/discard", "oppose/oppose", "oppose/pass", "order/order",
    "place/place", "place_start/place", "replace_merc/done", "replace_merc/replace",
    "replace_tech/done", "replace_tech/replace", "research/done", "research/research",
    "scrap/scrap", "shadow/pass", "shadow/play", "shadow_mode/buy-cards",
    "shadow_mode/hire-mercs", "shadow_mode/pass", "spoil/pass", "spoil/spoil",
    "start_tech/start-tech",
    "steal/done", "steal/steal", "step2/advance", "step2/pass", "step2/produce", "step3/plan",
    "step3/take", "upkeep/upkeep",
)

EXPECTED: dict[str, set[str]] = {
    # every kind each label table words, less those built by hand below
    "rift-domination": ({t.__name__ for t in rd_labels.LABELS} - {"Pass", "PlayCard"})
    | {f"PlayCard/{w}" for w in RD_WINDOWS if w != "battle_rush"}
    | {f"Pass/{w}" for w in RD_WINDOWS if w != "turn"},
    "galactic-domination": {t.__name__ for t in gd_explain.LABELS},
    "interstellar-ambitions": set(IA_KINDS),
    "galactic-empires": set(ge_explain.LABELS) - {"heal", "relocate"},
}


DESCRIBED = ("text", "cost", "changes")
"""The parts of an action's explanation a player reads besides its label."""


def _check(game: Any, state: Any, faults: list[str]) -> None:
    for action in state.legal_actions():
        label = game.label(state, action)
        why = label_fault(label, str(action))
        if why:
            faults.append(f"{game.game_id} {action}: label {label!r}: {why}")
        faults.extend(_explanation_faults(game, state, action))


def _explanation_faults(game: Any, state: Any, action: Any) -> list[str]:
    """What in ``describe``'s text, cost and changes of ``action`` does not read as words
    (an empty cost or changes is fine: the action is free or changes nothing more)."""
    d = game.describe(state, action)
    out = []
    for part in DESCRIBED:
        words = getattr(d, part)
        why = label_fault(words) if part == "text" or words else ""
        if why:
            out.append(f"{game.game_id} {action}: {part}: {why}")
    return out


def _walk(game_id: str) -> tuple[set[str], list[str], int]:
    """Walk the seeded games of ``game_id``: (kinds met, faults found, positions seen)."""
    spec = WALKS[game_id]
    kind: Callable[[Any, Any], str] = spec["kind"]
    met: set[str] = set()
    taken: set[str] = set()
    faults: list[str] = []
    positions = 0
    for seed in range(spec["seeds"]):
        players = spec["players"][seed % len(spec["players"])]
        options = spec.get("options", lambda seed: {})(seed)
        game = starlanes.load(game_id, players=players, seed=seed, **options)
        state = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(spec["steps"]):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            positions += 1
            _check(game, state, faults)
            kinds = [kind(state, a) for a in legal]
            met.update(kinds)
            fresh = [a for a, k in zip(legal, kinds, strict=True) if k not in taken]
            action = rng.choice(fresh) if fresh and rng.random() < 0.5 else rng.choice(legal)
            taken.add(kind(state, action))
            before = len(state.action_log())
            state.apply(action)
            for line in state.action_log()[before:]:
                why = label_fault(line)
                if why:
                    faults.append(f"{game_id} log after {action}: {why}")
    return met, faults, positions


@pytest.mark.parametrize("game_id", sorted(WALKS))
def test_labels_and_log_lines_are_words(game_id: str) -> None:
    """Every legal action of the walks has a label in words that is not its notation and an
    explanation (text, cost, changes) in words, and every log line reads as words; the walks meet every kind of action of the game (but
    the few built by hand in the next test)."""
    met, faults, positions = _walk(game_id)
    assert positions > 1000
    assert not faults, "\n".join(dict.fromkeys(faults))
    missing = EXPECTED[game_id] - met
    assert not missing, f"the walks of {game_id} never met {sorted(missing)}"


def _labels(state: Any) -> list[tuple[str, str]]:
    game = state.game
    out = []
    for action in state.legal_actions():
        label = game.label(state, action)
        assert label == game.describe(state, action).label
        assert not label_fault(label, str(action)), (str(action), label)
        assert not _explanation_faults(game, state, action)
        out.append((str(action), label))
    return out


def test_rare_actions_read_as_words() -> None:
    """The kinds random play hardly meets, in positions built by hand: Galactic Empires'
    healing of a dragon (GE-EMP-DRG-09) and a freighter's move to another terrain
    (GE-TURN-03); Interstellar Ambitions' capture after a bombardment, the give-away at 8
    planets and the last-planet rescue (IA-SPOIL-06..08, IA-COLN-04) and the discard of a
    planet when every other seat has 8 (IA-COLN-05)."""
    ge = ge_helpers
    s = ge.blank(phase="alloc")
    ge.put(s, "drg_sister", 0, dmg=2)
    s.pool = [0, 0, 0, 0, 0, 3, 0]
    ge.touch(s)
    heal = [lab for n, lab in _labels(s) if n.startswith("heal ")]
    assert heal == ["Heal 1 damage on Dragon War-Sister"]
    s = ge.blank(phase="alloc")
    t1 = ge.put(s, "ocean_world", 0)
    ge.put(s, "ice_moon", 0)
    ge.put(s, "eq_freighter", 0, host=t1)
    ge.do(s, "done")
    moves = [lab for n, lab in _labels(s) if n.startswith("relocate ")]
    assert moves == ["Move Freighter to Ice Moon"]

    from tests.games.interstellar_ambitions.test_combat import spoil_state

    ia = ia_helpers
    s = spoil_state(ia)
    s.planets[1] = ()
    ia.planet(s, 1, "verdant_moon", 1)
    for pid in ("mossfall", "slag_rock", "cinder", "observatory", "crystal_spire", "bazaar",
                "toll_gate"):
        ia.planet(s, 0, pid, 1)
    s.res[0] = (9, 9, 9, 9)
    ia.act(s, "spoil bombard verdant_moon")
    assert s.stack[-1].kind == "capture"
    capture = dict(_labels(s))["capture verdant_moon"]
    assert capture.startswith("Capture Verdant Moon - "), capture
    ia.act(s, "capture verdant_moon")
    assert s.stack[-1].kind == "give_away"
    assert any(lab.startswith("Give Mossfall to P") for _, lab in _labels(s))
    ia.act(s, "give mossfall P2")
    assert s.stack[-1].kind == "rescue"
    assert all(lab.startswith("Take the face-up planet ") for _, lab in _labels(s))
    s = ia.turn(3, 0, 0)
    for seat in range(3):
        s.planets[seat] = tuple((p, 1, ()) for p in range(seat * 8, seat * 8 + 8))
    s.push(Decision(0, "give_away", ("colonise", s.content.planet_index["midas"], 2)))
    ia.touch(s)
    assert all(lab.startswith("Discard your planet ") for _, lab in _labels(s))
