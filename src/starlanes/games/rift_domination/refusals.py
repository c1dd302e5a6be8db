"""Why a typed Rift Domination notation is refused: ``refusal(state, text)``.

Called by ``game.explain_refusal`` only for text that is not a legal action now. The checks
run from the coarsest to the finest: an unknown action word or name (unknown_token), an
action of another step or of another player's decision (wrong_phase), objects that belong to
another seat (not_your_decision), then the rule in the way: resources (cost), adjacency or
presence (range), slots and limits (capacity), or another named rule (forbidden). Names are
matched ignoring case, as the notation is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.explain import Refusal, article, normalise

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState

ARGS = {
    "home": ("planet",), "tile": ("planet",), "keep": (), "repick": (),
    "build": ("upgrade", "planet"), "demolish": ("upgrade", "planet"), "done": (), "end": (),
    "move": ("point", "point", "unit?"), "land": ("planet",), "lift": ("planet",),
    "negotiate": ("planet",), "consume": ("planet",), "recruit": ("unit", "planet"),
    "fighters": ("point",), "unlock": ("unit",), "free": ("upgrade|none",),
    "join": ("point",), "attack": (), "play": ("card", "target?"), "pass": (),
    "sacrifice": ("diplomat",), "resolve": (), "hit": ("group",), "kamikaze": ("group",),
    "ambush": ("group",), "overload": ("group",), "rush": ("number",), "retreat": (),
    "stay": (),
}
"""Every action word with the kinds of words that follow it (``?``: optional)."""

WHEN = {
    "home": "in set-up, when players choose home planets",
    "tile": "in set-up, when condition tiles are placed",
    "keep": "in set-up, when a faction is offered", "repick": "in set-up, when a faction is offered",
    "build": "in the build step (step 4) of your turn",
    "demolish": "in the build step (step 4) of your turn",
    "done": "to end the build step or the move step of your turn",
    "end": "in the recruit step (step 7), to end your turn",
    "move": "in the move step (steps 5-6) of your turn",
    "land": "in the move step (steps 5-6) of your turn",
    "lift": "in the move step (steps 5-6) of your turn",
    "negotiate": "in the move step (steps 5-6) of your turn",
    "consume": "in the move step (steps 5-6) of your turn",
    "recruit": "in the recruit step (step 7) of your turn",
    "fighters": "after income, to place the free fighters",
    "unlock": "after you gain a whole system", "free": "when a planet grants a free upgrade",
    "join": "before an attack starts, to bring more stacks", "attack": "before an attack starts",
    "play": "in your own turn, in a battle, to answer a card played against you, or (any-time "
            "cards) in the window after another player's turn",
    "pass": "in a card window or a battle decision",
    "sacrifice": "when an instant card or a card against you would resolve (Vespians)",
    "resolve": "when an instant card you drew is waiting",
    "hit": "in a battle, when you assign your hits",
    "kamikaze": "in a battle, when your kamikaze unit is destroyed",
    "ambush": "in a battle, after you played an ambush card",
    "overload": "in a battle, when Overload may be used",
    "rush": "in a battle, when your side took damage and Repair Rush may negate it",
    "retreat": "in a battle, after close combat", "stay": "in a battle, after close combat",
}

TIMING = {"instant": "resolved when drawn, never played",
          "own_turn": "played in your own turn (steps 4-7)", "battle": "a battle card",
          "any_time": "played in your own turn or in the window after another player's turn",
          "counter": "played only to answer a card played against you"}

_TURN = {"build", "move", "recruit"}
SITUATIONS: dict[str, set[str]] = {
    "home": {"setup_home"}, "tile": {"setup_tiles"}, "keep": {"setup_faction"},
    "repick": {"setup_faction"}, "build": {"build"}, "demolish": {"build"},
    "done": {"build", "move"}, "end": {"recruit"}, "move": {"move"}, "land": {"move"},
    "lift": {"move"}, "negotiate": {"move"}, "consume": {"move"}, "recruit": {"recruit"},
    "fighters": {"fighters"}, "unlock": {"unlock"}, "free": {"free_upgrade"},
    "join": {"join"}, "attack": {"join"}, "play": _TURN | {"counter", "battle_cards",
                                                           "battle_cancel", "window"},
    "pass": {"counter", "battle_cards", "battle_cancel", "battle_overload", "battle_rush",
             "window"},
    "sacrifice": {"counter", "instant"}, "resolve": {"instant"}, "hit": {"battle_hit"},
    "kamikaze": {"battle_kamikaze"}, "ambush": {"battle_ambush"},
    "overload": {"battle_overload", "battle_overload_more"}, "rush": {"battle_rush"},
    "retreat": {"battle_retreat"},
    "stay": {"battle_retreat"},
}
"""The situations (see :func:`situation_key`) in which each action word can be legal."""


def situation_key(s: RiftState) -> str:
    """The pending decision's kind, ``battle_<kind>`` in a battle, else the phase."""
    if s.stack:
        return s.stack[-1].kind
    if s.battle is not None and s.battle.pending is not None:
        return "battle_" + s.battle.pending[0]
    return s.phase


STEP_RULES = {"build": ("RD-TURN-01",), "recruit": ("RD-TURN-01", "RD-TURN-10"),
              "move": ("RD-TURN-01",)}


def situation(s: RiftState) -> str:
    """What is being decided now, in a few words."""
    cp = s.current_player()
    who = s.seat_name(cp)
    if s.stack:
        kind = s.stack[-1].kind
        what = {"fighters": "where to put the free fighters", "unlock": "a unit type to unlock",
                "free_upgrade": "a free upgrade", "join": "whether more stacks join the attack",
                "counter": "whether to answer a card played against them",
                "instant": "whether an instant card resolves",
                "window": "whether to play any-time cards between turns"}.get(kind, kind)
        return f"{who} is choosing {what}"
    if s.battle is not None and s.battle.pending is not None:
        what = {"hit": "assigns hits", "cards": "may play battle cards",
                "cancel": "may cancel the attack", "overload": "may use Overload",
                "overload_more": "places the rest of its Overload shields",
                "rush": "may spend Repair Rush on damage just taken",
                "kamikaze": "aims a kamikaze", "ambush": "aims an ambush",
                "retreat": "may retreat"}.get(s.battle.pending[0], s.battle.pending[0])
        return f"a battle is running and {who} {what}"
    phase = {"setup_home": "set-up: choosing home planets",
             "setup_tiles": "set-up: placing condition tiles",
             "setup_faction": "set-up: choosing factions",
             "build": "the build step (step 4)", "move": "the move step (steps 5-6)",
             "recruit": "the recruit step (step 7)"}.get(s.phase, s.phase)
    return f"it is {phase} of {who}"


class _Names:
    """Case-insensitive lookups of the names a notation uses."""

    def __init__(self, s: RiftState) -> None:
        b = s.board
        self.planet = {p.lower(): i for i, p in enumerate(b.planet_ids)}
        self.point = {n.lower(): i for i, n in enumerate(b.names)}
        self.unit = {u.lower(): u for u in s.content.units}
        self.upgrade = {u.lower(): u for u in s.content.upgrades}
        self.card = {c.lower(): c for c in s.content.cards}

    def group(self, word: str) -> bool:
        """A combatant group: a unit or upgrade kind, optionally with its ``[damage/shields]``
        (``carrier[1/0]``)."""
        kind = word.split("[", 1)[0]
        return kind in self.unit or kind in self.upgrade


def _r(text: str, kind: str, reason: str, *rules: str) -> Refusal:
    return Refusal(text, kind, reason, rules=tuple(rules))


def _known(word: str, names: dict[str, object]) -> bool:
    """``word`` is a name of ``names`` or the start of one (the notation reader accepts
    unambiguous prefixes, so a short name is no unknown word)."""
    return word in names or any(n.startswith(word) for n in names)


def _check_words(s: RiftState, text: str, head: str, args: list[str],
                 names: _Names) -> Refusal | None:
    spec = ARGS[head]
    need = sum(1 for x in spec if not x.endswith("?"))
    if not need <= len(args) <= len(spec):
        form = " ".join([head, *(x.rstrip("?").split("|")[0].upper() for x in spec)])
        return _r(text, "malformed", f"'{head}' takes {len(spec)} word(s) after it: {form}.")
    for word, kind in zip(args, spec, strict=False):
        kind = kind.rstrip("?")
        ok = {  # a name may be shortened at the table (``rec inf c3a``), so prefixes count
            "planet": _known(word, names.planet), "point": _known(word, names.point),
            "unit": _known(word, names.unit), "upgrade": _known(word, names.upgrade),
            "upgrade|none": _known(word, names.upgrade) or word == "none",
            "card": _known(word, names.card), "diplomat": _known(word, {"diplomat": 0}),
            "group": names.group(word), "number": word.isdigit(),
        }.get(kind, True)
        if not ok:
            label = {"point": "a point of the board (system, orbit, border or wormhole)",
                     "upgrade|none": "an upgrade", "diplomat": "'diplomat'",
                     "group": "a unit or building of a battle (e.g. carrier or carrier[1/0])",
                     "number": "a number"}.get(kind, article(kind))
            return _r(text, "unknown_token", f"'{word}' is not {label} of this game.")
    return None


def refusal(s: RiftState, text: str) -> Refusal | None:
    """A specific reason why ``text`` is not legal now, or None (see module docstring)."""
    words = normalise(text).lower().split()
    if not words:
        return None
    head, args = words[0], words[1:]
    if head not in ARGS:
        return _r(text, "unknown_token", f"'{head}' is not a Rift Domination action; action "
                  f"words are {', '.join(sorted(ARGS))}.")
    names = _Names(s)
    bad = _check_words(s, text, head, args, names)
    if bad is not None:
        return bad
    if situation_key(s) not in SITUATIONS[head]:
        return _r(text, "wrong_phase", f"'{head}' is used {WHEN[head]}; now {situation(s)}.",
                  *STEP_RULES.get(s.phase, ()))
    check = CHECKS.get(head)
    return check(s, text, args, names) if check else None


# ---------------------------------------------------------------------- per action word
def _owner_refusal(s: RiftState, text: str, p: int, what: str) -> Refusal | None:
    """not_your_decision / forbidden when planet ``p`` is not the deciding seat's."""
    seat = s.current_player()
    owner = s.planet_owner[p]
    pid = s.board.planet_ids[p]
    if owner == seat:
        return None
    if owner >= 0:
        return _r(text, "not_your_decision",
                  f"{pid} is held by {s.seat_name(owner)}: only its holder can {what} there.")
    return _r(text, "forbidden", f"{pid} is not yours: you can {what} only on your own planets.")


def _build(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    from .turn import slots, upgrade_cost, warp_blocked

    up, p = n.upgrade[args[0]], n.planet[args[1]]
    seat = s.current_player()
    if p not in s.board.in_play_planets:
        return _r(text, "range", f"{args[1]} is outside the play area.", "RD-SET-07")
    why = _owner_refusal(s, text, p, "build")
    if why:
        return why
    if len(s.planet_upgrades[p]) >= slots(s, p):
        return _r(text, "capacity", f"{s.board.planet_ids[p]} has no free upgrade slot "
                  f"({slots(s, p)} used).", "RD-UPG-01", "RD-UPG-02", "RD-UPG-04")
    if up == "warp" and warp_blocked(s, seat, p):
        return _r(text, "capacity", "this system already has a warp.", "RD-UPG-10")
    cost = upgrade_cost(s, seat, up)
    if cost > s.resources[seat]:
        return _r(text, "cost", f"{s.content.upgrades[up].name} costs {cost} resources; you "
                  f"have {s.resources[seat]}.", "RD-UPG-03")
    return None


def _demolish(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    up, p = n.upgrade[args[0]], n.planet[args[1]]
    why = _owner_refusal(s, text, p, "demolish")
    if why:
        return why
    return _r(text, "forbidden", f"there is no {up} on {s.board.planet_ids[p]}.", "RD-UPG-05")


def _recruit(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    from .turn import recruit_points

    unit, p = n.unit[args[0]], n.planet[args[1]]
    seat = s.current_player()
    if unit not in s.roster[seat]:
        return _r(text, "forbidden", f"{unit} is not on your roster ({', '.join(s.roster[seat])});"
                  " taking a whole system lets you unlock more.", "RD-REC-01", "RD-SYS-03")
    points = recruit_points(s, seat)
    if p not in points:
        why = _owner_refusal(s, text, p, "recruit")
        return why or _r(text, "forbidden", f"{s.board.planet_ids[p]} has no military base of "
                         "yours: units are recruited only at military bases.", "RD-REC-03",
                         "RD-REC-04")
    only = points[p]
    if only is not None and unit not in only:
        return _r(text, "forbidden", f"your diplomats recruit only {', '.join(sorted(only))}.",
                  "RD-FAC-04")
    fx = s.fx[seat]
    cost = fx.unit_cost(s.stats[seat][unit]) if fx else 0
    if cost > s.resources[seat]:
        return _r(text, "cost", f"{article(unit)} costs {cost} resources; you have "
                  f"{s.resources[seat]}.", "RD-REC-02")
    return None


def _move(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    from .movement import _neighbors, _stacks

    seat = s.current_player()
    src, dst = n.point[args[0]], n.point[args[1]]
    names = s.board.names
    mine = [u for u in s.units.values() if u.loc == src and u.owner == seat and not u.landed]
    if not mine:
        others = {u.owner for u in s.units.values() if u.loc == src and u.owner != seat}
        if others:
            who = ", ".join(s.seat_name(o) for o in sorted(others))
            return _r(text, "not_your_decision", f"the units at {names[src]} belong to {who}, "
                      "not to you.")
        return _r(text, "range", f"you have no units at {names[src]}.", "RD-MOV-01")
    ships, _cargo = _stacks(s, seat).get(src, ([], []))
    if not ships:
        return _r(text, "cost", f"none of your ships at {names[src]} has movement points "
                  "left (units that must be carried move only with a ship).",
                  "RD-MOV-07", "RD-UNIT-02")
    if dst not in _neighbors(s, seat, src):
        return _r(text, "range", f"{names[dst]} is not next to {names[src]}: every move goes "
                  "along one line of the board.", "RD-MOV-05", "RD-MOV-06")
    if len(args) > 2:
        return _r(text, "forbidden", f"no ship of type '{args[2]}' with movement left at "
                  f"{names[src]} (or it moves alone: type 'move {args[0]} {args[1]}').")
    return None


def _planet_word(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    head = normalise(text).lower().split()[0]
    seat = s.current_player()
    p = n.planet[args[0]]
    pid = s.board.planet_ids[p]
    point = s.board.planet_point[p]
    here = [u for u in s.units.values() if u.loc == point and u.owner == seat]
    if not here:
        return _r(text, "range", f"you have no units in the orbit of {pid}.", "RD-MOV-08")
    enemy = any(u.loc == point and u.owner != seat and not u.landed for u in s.units.values())
    owner = s.planet_owner[p]
    fx = s.fx[seat]
    if head == "consume":
        if not (fx and fx.consume):
            return _r(text, "forbidden", "only The Void can consume planets.", "RD-FAC-12")
        if owner >= 0:
            return _r(text, "forbidden", f"{pid} is controlled; only uncontrolled planets can "
                      "be consumed.", "RD-FAC-12")
    if head == "negotiate":
        if not any(u.kind == "diplomat" for u in here):
            return _r(text, "forbidden", f"no diplomat of yours is in the orbit of {pid}.",
                      "RD-SKL-07")
        if s.tile_kind[p] != "civilized":
            return _r(text, "forbidden", f"{pid} is not civilized; diplomats negotiate only "
                      "with civilized planets.", "RD-PLC-04", "RD-SKL-07")
        if owner == seat:
            return _r(text, "forbidden", f"{pid} is already yours.")
        return _r(text, "forbidden", f"{s.seat_name(owner)} has infantry on {pid}.",
                  "RD-SKL-08")
    if enemy and head in ("land", "negotiate", "consume"):
        return _r(text, "forbidden", f"an enemy fleet is in the orbit of {pid}: fight it "
                  "first.", "RD-MOV-10")
    if head == "lift":
        if not any(u.landed for u in here):
            return _r(text, "forbidden", f"none of your units is landed on {pid}.")
        return _r(text, "cost", f"no ship of yours with capacity and a movement point left is "
                  f"in the orbit of {pid} to pick them up.", "RD-UNIT-02", "RD-MOV-07")
    if head == "land":
        stats = s.stats[seat]
        if not any(not u.landed and stats[u.kind].ground for u in here):
            return _r(text, "forbidden", f"you have no ground units in the orbit of {pid} "
                      "that could land.", "RD-MOV-13")
        if owner != seat and all(u.kind == "diplomat" for u in here
                                 if not u.landed and stats[u.kind].ground):
            return _r(text, "forbidden", "diplomats alone cannot take a planet by landing; "
                      "use negotiate.", "RD-PLC-04")
        cost = s.content.rules.civilized_cost
        return _r(text, "cost", f"taking the civilized {pid} costs {cost} resources; you have "
                  f"{s.resources[seat]}.", "RD-PLC-04")
    return None


def _fighters(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    return _r(text, "range", f"free fighters go to one of your fleets or to a planet with your "
              f"military base; {args[0]} is neither.", "RD-TURN-05")


def _unlock(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    return _r(text, "forbidden", f"{args[0]} is already on your roster.", "RD-SYS-03")


def _free(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    return _r(text, "capacity", f"{args[0]} cannot go on this planet now (slots full, or one "
              "warp per system).", "RD-UPG-01", "RD-UPG-10")


def _join(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    return _r(text, "range", f"you have no ships with movement left at {args[0]} next to the "
              "target.", "RD-MOV-11")


def _play(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    seat = s.current_player()
    cid = n.card[args[0]]
    card = s.content.cards[cid]
    if cid not in s.hands[seat]:
        return _r(text, "forbidden", f"you hold no {card.name}.", "RD-OCC-01")
    top = s.stack[-1].kind if s.stack else ""
    window = ("counter" if top == "counter" else "window" if top == "window" else
              "battle" if s.battle is not None else "own_turn")
    fits = {"own_turn": ("own_turn", "any_time"), "window": ("any_time",)}.get(window, (window,))
    if card.timing not in fits:
        return _r(text, "wrong_phase", f"{card.name} is {TIMING[card.timing]}; "
                  f"now {situation(s)}.", "RD-OCC-01")
    legal = [str(a).lower() for a in s.legal_actions()
             if str(a).lower().startswith(f"play {cid}")]
    if not legal:
        return _r(text, "forbidden", f"{card.name} has no target it could act on now.")
    if len(args) < 2:
        return _r(text, "malformed", f"{card.name} needs a target, e.g. '{legal[0]}'.")
    return _r(text, "range", f"'{args[1]}' is not a target {card.name} can take now.")


def _group(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    legal = sorted({str(a).split(" ", 1)[1] for a in s.legal_actions() if " " in str(a)})
    return _r(text, "range", f"no combatant group '{args[0]}' can be chosen now; groups: "
              f"{', '.join(legal)}.", "RD-HIT-13")


def _rush(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    amounts = [a.amount for a in s.legal_actions() if hasattr(a, "amount")]
    top = max(amounts, default=0)
    return _r(text, "capacity", f"Repair Rush can negate at most {top} damage now (the damage "
              "your side took since the last casualties, up to what the skill has left).",
              "RD-SKL-01")


def _home(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    b = s.board
    p = n.planet[args[0]]
    sys = b.planet_system[p]
    if sys not in b.start_systems:
        return _r(text, "forbidden", f"{b.system_ids[sys]} is not a starting system.",
                  "RD-SET-08")
    taker = next(i for i, h in enumerate(s.home) if h >= 0 and b.planet_system[h] == sys)
    return _r(text, "capacity", f"{b.system_ids[sys]} is already {s.seat_name(taker)}'s "
              "starting system.", "RD-SET-01")


def _tile(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    p = n.planet[args[0]]
    if p in s.home:
        return _r(text, "forbidden", "home planets carry no condition tile.", "RD-SET-06")
    if s.tile_kind[p]:
        return _r(text, "capacity", f"{args[0]} already has a condition tile.", "RD-SET-05")
    return _r(text, "forbidden", f"{args[0]} takes no condition tile.", "RD-OPEN-21")


def _sacrifice(s: RiftState, text: str, args: list[str], n: _Names) -> Refusal | None:
    return _r(text, "forbidden", "you have no diplomat free to sacrifice.", "RD-FAC-05")


CHECKS = {
    "build": _build, "demolish": _demolish, "recruit": _recruit, "move": _move,
    "land": _planet_word, "lift": _planet_word, "negotiate": _planet_word,
    "consume": _planet_word, "fighters": _fighters, "unlock": _unlock, "free": _free,
    "join": _join, "play": _play, "hit": _group, "kamikaze": _group, "ambush": _group,
    "overload": _group, "rush": _rush, "home": _home, "tile": _tile, "sacrifice": _sacrifice,
}
