"""Why a typed Galactic Domination notation is refused: ``refusal(state, text)``.

Checked in order: unknown action word, unit type, sector or ship number (unknown_token);
an action of another step (wrong_phase); a ship of the other player (not_your_decision);
then the rule in the way: AP, minerals or dark matter (cost), range or adjacency (range),
sector capacity and fleet limits (capacity), or another named rule (forbidden). Ship
numbers may be typed with or without ``#``; names ignore case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.explain import Refusal, normalise

from .content import COMMAND, DESTROYER, EXPLORER, MINER, UNIT_IDS
from .state import AP, CHG, KIND, OWNER, SEC

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState

ARGS = {
    "place": ("unit", "sector"), "build": ("unit", "sector"), "move": ("ship", "sector"),
    "attack": ("ship", "ship"), "attach": ("ship",), "warp": ("ship",),
    "charge": ("ship", "sector?"), "fire": ("ship",), "jump": ("ship", "sector"), "end": (),
    "arrive": ("ship", "sector"), "sacrifice": ("ship",),
}
WHEN = {
    "place": "in set-up, to place the starting ships",
    "build": "while spending action points in your turn",
    "move": "while spending action points in your turn",
    "attack": "while spending action points in your turn",
    "attach": "while spending action points in your turn",
    "warp": "while spending action points in your turn",
    "charge": "while spending action points in your turn",
    "fire": "while spending action points in your turn",
    "jump": "while spending action points in your turn",
    "end": "to end your turn",
    "arrive": "when your returning explorer may choose its sector",
    "sacrifice": "when an explorer collides with your ships in a full sector",
}
CAPACITY = 3
PHASE_OF = {"place": "setup", "arrive": "arrive", "sacrifice": "collide"}
"""The situation each action word belongs to; every other word: spending AP ("act")."""
for _word in ARGS:
    PHASE_OF.setdefault(_word, "act")


def _phase(s: GDState) -> str:
    if s.stack:
        return s.stack[-1].kind
    return "setup" if s.phase == "setup" else "act"


def _r(text: str, kind: str, reason: str, *rules: str) -> Refusal:
    return Refusal(text, kind, reason, rules=tuple(rules))


def _colour(s: GDState, seat: int) -> str:
    return "red" if seat == s.first else "purple"


def situation(s: GDState) -> str:
    """What is being decided now, in a few words."""
    cp = s.current_player()
    who = f"{_colour(s, cp)} (P{cp})"
    if s.stack:
        what = {"arrive": "where a returning explorer arrives",
                "collide": "which ship is lost in a collision"}.get(s.stack[-1].kind, "")
        return f"{who} is choosing {what}"
    if s.phase == "setup":
        return f"it is set-up and {who} places a starting ship"
    return f"{who} is spending action points"


def _ship(word: str) -> int | None:
    word = word.lstrip("#")
    return int(word) if word.isdigit() else None


def refusal(s: GDState, text: str) -> Refusal | None:
    """A specific reason why ``text`` is not legal now, or None (see module docstring)."""
    words = normalise(text).lower().split()
    if not words:
        return None
    head, args = words[0], words[1:]
    if head not in ARGS:
        return _r(text, "unknown_token", f"'{head}' is not a Galactic Domination action; "
                  f"action words are {', '.join(sorted(ARGS))}.")
    spec = ARGS[head]
    need = sum(1 for x in spec if not x.endswith("?"))
    if not need <= len(args) <= len(spec):
        form = " ".join([head, *(x.rstrip("?").upper() for x in spec)])
        return _r(text, "malformed", f"'{head}' takes the form: {form}.")
    index = {n.lower(): i for i, n in enumerate(s.board.names)}
    parsed: list[int] = []
    for word, kind in zip(args, spec, strict=False):
        kind = kind.rstrip("?")
        if kind == "unit":
            if word not in UNIT_IDS:
                return _r(text, "unknown_token", f"'{word}' is not a unit type; types are "
                          f"{', '.join(UNIT_IDS)}.", "GD-UNIT-01")
            parsed.append(UNIT_IDS.index(word))
        elif kind == "sector":
            if word not in index:
                return _r(text, "unknown_token", f"'{word}' is not a sector; sectors are "
                          "a zone letter and a row 1-3, e.g. R1, G2.", "GD-MAP-02")
            parsed.append(index[word])
        else:
            uid = _ship(word)
            if uid is None or uid not in s.ships:
                return _r(text, "unknown_token", f"there is no ship #{word.lstrip('#')} in play "
                          "(destroyed, or never built).")
            parsed.append(uid)
    if PHASE_OF[head] != _phase(s):
        return _r(text, "wrong_phase", f"'{head}' is used {WHEN[head]}; now {situation(s)}.",
                  "GD-TURN-02")
    if head in ("place", "build"):
        return _placing(s, text, head, parsed[0], parsed[1])
    if head in ("arrive", "sacrifice"):
        return _decision(s, text, head, parsed)
    return _ship_action(s, text, head, parsed)


def _placing(s: GDState, text: str, head: str, kind: int, sec: int) -> Refusal | None:
    seat = s.seat
    name = s.board.names[sec]
    if sec not in s.board.zone_sectors[s.start[seat]]:
        return _r(text, "range", f"sector {name} is not in your starting zone.",
                  "GD-SET-04" if head == "place" else "GD-BLD-04")
    if s.holes[sec]:
        return _r(text, "forbidden", f"sector {name} is a black hole.", "GD-BH-04")
    if kind != MINER and s.load_at(sec) >= CAPACITY:
        return _r(text, "capacity", f"sector {name} is full ({CAPACITY} ships; miners do not "
                  "count).", "GD-MAP-04", "GD-MAP-06")
    if head == "place":
        return _r(text, "capacity", f"you have no {UNIT_IDS[kind]} left to place.", "GD-SET-03")
    if s.minerals[seat] < s.cost[kind]:
        return _r(text, "cost", f"a {UNIT_IDS[kind]} costs {s.cost[kind]} minerals; you have "
                  f"{s.minerals[seat]}.", "GD-BLD-03")
    return _r(text, "capacity", f"your fleet is at its limit for {UNIT_IDS[kind]} (25 units, "
              "5 of a type, 15 miners).", "GD-LIM-01", "GD-LIM-02", "GD-LIM-03")


def _decision(s: GDState, text: str, head: str, parsed: list[int]) -> Refusal | None:
    d = s.stack[-1]
    uid = parsed[0]
    if head == "arrive":
        if uid != d.data[0]:
            return _r(text, "forbidden", f"the returning explorer is #{d.data[0]}, not #{uid}.")
        return _r(text, "range", f"the explorer arrives in zone {s.board.zone_ids[d.data[1]]}; "
                  f"sector {s.board.names[parsed[1]]} is not in it (or is a black hole).",
                  "GD-DS-03", "GD-DS-05")
    x = s.ships[uid]
    if x[OWNER] != d.seat:
        return _r(text, "not_your_decision", f"#{uid} is not yours: you lose one of your own "
                  "ships in the collision.", "GD-DS-06")
    if x[KIND] == MINER:
        return _r(text, "forbidden", "a miner cannot be chosen for a collision.", "GD-DS-06")
    return _r(text, "range", f"#{uid} is not in the sector of the collision.", "GD-DS-06")


def _ship_action(s: GDState, text: str, head: str, parsed: list[int]) -> Refusal | None:
    uid = parsed[0]
    x = s.ships[uid]
    seat = s.seat
    if x[OWNER] != seat:
        return _r(text, "not_your_decision", f"#{uid} belongs to {_colour(s, x[OWNER])} "
                  f"(P{x[OWNER]}); you command only your own ships.", "GD-AP-02")
    if x[SEC] < 0:
        return _r(text, "range", f"#{uid} is in deep space until your next turn.", "GD-DS-02")
    if x[AP] <= 0:
        why = (" (it stopped acting when another ship acted: a ship's actions are done all "
               "at once)" if s.active not in (-1, uid) else "")
        return _r(text, "cost", f"#{uid} has no AP left this turn{why}.", "GD-AP-03", "GD-AP-08")
    name = s.content.units[x[KIND]].name
    charged = x[CHG] == 2
    if charged and head not in ("fire", "jump"):
        return _r(text, "forbidden", f"#{uid} is charged: it may only "
                  f"{'fire' if x[KIND] == DESTROYER else 'jump'} this turn.", "GD-SPC-06",
                  "GD-SPC-08")
    if head == "move":
        return _move(s, text, uid, x, parsed[1])
    if head == "attack":
        return _attack(s, text, uid, x, parsed[1])
    specials = {"attach": MINER, "warp": EXPLORER, "fire": DESTROYER, "jump": COMMAND}
    if head in specials and x[KIND] != specials[head]:
        return _r(text, "forbidden", f"only a {s.content.units[specials[head]].name} can "
                  f"{head}; #{uid} is a {name}.", "GD-UNIT-02")
    if head == "attach":
        return _r(text, "forbidden", f"#{uid} is already attached.", "GD-SPC-01")
    if head in ("fire", "jump") and not charged:
        return _r(text, "forbidden", f"#{uid} is not charged; charge it on one turn, {head} "
                  "on the next.", "GD-SPC-06", "GD-SPC-08")
    if head == "charge":
        return _charge(s, text, uid, x, parsed[1:])
    if head == "jump":
        return _r(text, "range", f"sector {s.board.names[parsed[1]]} is out of jump range, "
                  "a black hole, or too full for the jumping group.", "GD-SPC-08", "GD-MAP-04")
    if head == "fire":
        return _r(text, "forbidden", "the aimed sector is already a black hole, or no marker "
                  "is left.", "GD-BH-05")
    return None


def _move(s: GDState, text: str, uid: int, x: tuple, dst: int) -> Refusal | None:
    name = s.board.names[dst]
    if dst not in s.board.adj[x[SEC]]:
        return _r(text, "range", f"sector {name} is not next to sector "
                  f"{s.board.names[x[SEC]]}; a move goes one sector for 1 AP.", "GD-AP-04",
                  "GD-UNIT-03")
    if s.holes[dst]:
        return _r(text, "forbidden", f"sector {name} is a black hole.", "GD-BH-04")
    return _r(text, "capacity", f"sector {name} is full ({CAPACITY} ships; miners do not "
              "count).", "GD-MAP-05", "GD-MAP-06")


def _attack(s: GDState, text: str, uid: int, x: tuple, target: int) -> Refusal | None:
    y = s.ships[target]
    if s.damage[x[KIND]] == 0:
        return _r(text, "forbidden", f"#{uid} is unarmed.", "GD-RNG-02")
    if y[OWNER] == x[OWNER]:
        return _r(text, "forbidden", f"#{target} is one of your own ships.", "GD-UNIT-04")
    if y[SEC] < 0:
        return _r(text, "range", f"#{target} is in deep space, off the board.", "GD-MAP-08")
    rng = s.content.units[x[KIND]].range
    from .explain import RANGE_RULES, RANGE_WORDS

    return _r(text, "range", f"#{target} in sector {s.board.names[y[SEC]]} is out of range: "
              f"#{uid} reaches {RANGE_WORDS.get(rng, rng)}.", RANGE_RULES.get(rng, "GD-RNG-01"))


def _charge(s: GDState, text: str, uid: int, x: tuple, rest: list[int]) -> Refusal | None:
    sp = s.content.specials
    seat = s.seat
    if x[KIND] == COMMAND:
        if rest:
            return _r(text, "malformed", f"a fleet jump is charged without a sector: "
                      f"'charge {uid}'.", "GD-SPC-07")
        return _r(text, "cost", f"charging a fleet jump costs {sp.jump_minerals} minerals; "
                  f"you have {s.minerals[seat]}.", "GD-AP-09")
    if x[KIND] != DESTROYER:
        return _r(text, "forbidden", f"only destroyers and command ships charge; #{uid} is a "
                  f"{s.content.units[x[KIND]].name}.", "GD-SPC-04", "GD-SPC-07")
    if s.minerals[seat] < sp.black_hole_minerals or s.dark[seat] < sp.black_hole_dark_matter:
        return _r(text, "cost", f"a black hole shot costs {sp.black_hole_minerals} minerals and "
                  f"{sp.black_hole_dark_matter} dark matter; you have {s.minerals[seat]} and "
                  f"{s.dark[seat]}.", "GD-SPC-04", "GD-AP-09")
    if not rest:
        return _r(text, "malformed", f"a black hole shot needs an aim: 'charge {uid} SECTOR'.",
                  "GD-SPC-04")
    return _r(text, "range", f"sector {s.board.names[rest[0]]} is not in the destroyer's range "
              "(zones next to its own) or is already a black hole.", "GD-RNG-03", "GD-SPC-04")
