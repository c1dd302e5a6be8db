"""Why a Galactic Empires notation is refused (:func:`refusal`), for the engine's
explanation contract (:mod:`starlanes.engine.explain`).

The notation is read as ``kind card ...`` with cards written ``card_id#instance``. In
order: an unknown action word or card is an ``unknown_token``; an action of the turn
player while another seat answers a reaction window (or a reaction outside a window) is
``not_your_decision``; an action of another phase is ``wrong_phase`` (the eight phases,
GE-TURN-01); an action of the current phase is checked against card plays, command points,
points in the pool, hand limits and targets. Reasons never reveal another seat's hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.explain import Refusal, normalise, with_nearest

from .texts import TYPE_NAMES, display, empire_name

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

PHASE_NAMES = {
    "alloc": "the Point Allocation phase (1)", "engage": "the Engagement phase (2)",
    "playA": "Play Cards phase A (3)", "fire": "the Weapons Fire phase (4)",
    "aim": "the Weapons Fire phase (4), while choosing weapons for a target",
    "playB": "Play Cards phase B (5)", "discard": "the Discard phase (6)",
    "draw": "the Draw phase (7)", "react": "a reaction window", "counter": "a counter window",
    "split": "a Krebiz separation (splitting damage)",
    "place": "a Krebiz separation (placing cards)", "celebrate": "a victory celebration",
}

KIND_PHASES: dict[str, tuple[str, ...]] = {
    "engage": ("alloc",), "arm": ("alloc",), "charge": ("alloc",), "repair": ("alloc",),
    "heal": ("alloc",), "relocate": ("engage",),
    "play": ("playA", "playB"), "operate": ("playA", "playB"), "study": ("playA", "playB"),
    "separate": ("playA", "playB"), "combine": ("playA", "playB"), "swap": ("playA", "playB"),
    "aim": ("fire",), "distort": ("fire",), "cease": ("fire",),
    "shoot": ("aim",), "volley": ("aim",), "commit": ("aim",),
    "discard": ("discard",), "scuttle": ("discard",), "withdraw": ("discard",),
    "draw": ("draw",), "react": ("react",), "counter": ("counter",),
    "pass": ("react", "counter"), "split": ("split",), "place": ("place",),
    "celebrate": ("celebrate",), "done": ("alloc", "engage", "playA", "playB", "discard"),
}
"""Every action word and the phases or windows it belongs to."""

CARD_FIRST = frozenset({
    "engage", "arm", "charge", "repair", "heal", "relocate", "play", "operate", "study",
    "separate", "combine", "swap", "aim", "shoot", "volley", "distort", "discard", "scuttle",
    "react", "counter", "place",
})
"""Action words whose first argument is a card."""

TURN_KINDS = frozenset(k for k, ph in KIND_PHASES.items()
                       if not set(ph) & {"react", "counter", "celebrate"})


def _r(text: str, kind: str, reason: str) -> Refusal:
    return Refusal(text, kind, reason)




def _card_ref(s: GEState, word: str) -> int | str:
    """The instance a ``card_id#n`` word names, or the reason it names none."""
    cid, _, num = word.partition("#")
    if cid not in s.cards:
        return f"No card has the id '{cid}'."
    if not num:
        return f"Write the card with its number, as shown on the table (e.g. {cid}#12)."
    if not num.isdigit() or int(num) >= len(s.defs) or s.defs[int(num)] != cid:
        return f"There is no card {word} in this game."
    return int(num)


def _known_word(s: GEState, word: str) -> bool:
    """Is ``word`` a word a notation may hold after its action word: a card (``id#n``,
    ``id#n.weapon``, ``id#n+id#m``), ``P<seat>``, ``HQ<seat>`` or a number?"""
    low = word.lower()
    if low.isdigit():
        return True
    if low[:1] == "p" and low[1:].isdigit() or low[:2] == "hq" and low[2:].isdigit():
        return True
    return all(part.split(".", 1)[0].partition("#")[0] in s.cards for part in low.split("+"))


def refusal(state: GEState, text: str) -> Refusal | None:
    """A specific reason why ``text`` is not legal in ``state`` (None: no better reason than
    the engine's generic one), with the nearest legal notations."""
    return with_nearest(state, _refusal(state, text))


def _refusal(state: GEState, text: str) -> Refusal | None:
    s = state
    words = normalise(text).split()
    kind = words[0].lower()
    args = [w.lower() if "#" in w or w.isdigit() else w for w in words[1:]]
    if kind not in KIND_PHASES:
        heads = sorted({str(a).split(" ", 1)[0] for a in s.legal_actions()})
        return _r(text, "unknown_token", f"'{kind}' is not an action word of Galactic Empires; "
                  f"usable now: {', '.join(heads)}.")
    if kind in CARD_FIRST and args:
        first = args[0].split(".", 1)[0].split("+", 1)[0]
        head = first.partition("#")[0].lower()
        aimed = kind in ("aim", "distort") and first.upper()[:2] in ("HQ",)
        if not aimed and head not in s.cards:
            return _r(text, "unknown_token", f"No card has the id '{head}'; cards are written "
                      f"as on the table, e.g. play blue_giant#15.")
    cards: list[int] = []
    for w in args:
        if w.lower() in ("on", "only"):
            continue
        if not _known_word(s, w):
            return _r(text, "unknown_token", f"'{w}' is not a card, seat, Sector HQ or number "
                      f"of this game; cards are written as on the table, e.g. blue_giant#15.")
        if "#" in w or w.split(".", 1)[0].lower() in s.cards:
            ref = _card_ref(s, w.split(".", 1)[0].split("+", 1)[0])
            if isinstance(ref, str):
                return _r(text, "unknown_token", ref)
            cards.append(ref)
    ctx = s.stack[-1].kind if s.stack else s.phase
    decider = s.stack[-1].seat if s.stack else s.seat
    if ctx not in KIND_PHASES[kind]:
        return _elsewhere(s, text, kind, ctx, decider)
    check = CHECKS.get(kind)
    return check(s, text, decider, cards, args) if check else None


def _elsewhere(s: GEState, text: str, kind: str, ctx: str, decider: int) -> Refusal:
    now = PHASE_NAMES.get(ctx, ctx)
    if decider != s.seat and kind in TURN_KINDS:
        return _r(text, "not_your_decision",
                  f"'{kind}' is P{s.seat}'s, whose turn it is; P{decider} is answering "
                  f"{now} (GE-PLAY-06).")
    if kind in ("react", "counter") and ctx not in ("react", "counter"):
        return _r(text, "wrong_phase",
                  "Reaction cards are played when an opponent fires at or plays a card on "
                  "your fleet, when the table asks you (GE-FIRE-03, GE-PLAY-06).")
    where = " or ".join(PHASE_NAMES[p] for p in KIND_PHASES[kind])
    return _r(text, "wrong_phase", f"'{kind}' belongs to {where}; now it is {now} "
              f"(GE-TURN-01).")


# ---------------------------------------------------------------------- checks
def _own_hand(s: GEState, text: str, seat: int, inst: int) -> Refusal | None:
    if inst not in s.hands[seat]:
        return _r(text, "forbidden", f"{display(s, inst)} is not in your hand.")
    return None


def _c_play(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
            ) -> Refusal | None:
    from .cardplay import targets, turn_no
    from .empires import command_room, empire_allowed

    if not cards:
        return None
    inst = cards[0]
    bad = _own_hand(s, text, seat, inst)
    if bad:
        return bad
    if s.plays >= 3:
        return _r(text, "capacity", "You have made your 3 card plays this turn (GE-PLAY-01).")
    c = s.card(inst)
    turn = turn_no(s)
    if c.type in "SBDCE" and turn == 1:
        kinds = sorted({TYPE_NAMES[s.card(h).type] for h in s.hands[seat] if targets(s, h)})
        now = (f" Playable from your hand now: {', '.join(kinds)}." if kinds
               else " Nothing in your hand may be played now.")
        return _r(text, "wrong_phase", f"On your first turn no {TYPE_NAMES[c.type]} may be "
                  "played: only terrain joins your own fleet; hazards, monsters and "
                  f"occurrences may still be played (GE-PLAY-08).{now}")
    if c.type in "SBD":
        if turn == 2 and s.ship_plays >= 1:
            return _r(text, "capacity", "On your second turn only one ship or base may be "
                      "played (GE-PLAY-10).")
        if not empire_allowed(s, seat, c):
            return _r(text, "forbidden", f"Your fleet already has ships of another major "
                      f"empire; {c.name} is {empire_name(s.content, c.empire)} (GE-FLEET-02).")
        if not command_room(s, seat, c):
            return _r(text, "capacity", "Your command points are all used: no room for "
                      "another ship or base (GE-FLEET-05).")
    ok = targets(s, inst)
    if not ok:
        return _r(text, "range", f"{c.name} has no target it may be played on now.")
    return _r(text, "range", f"Not a target {c.name} may be played on; see its legal plays "
              f"in the list.")


def _c_engage(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
              ) -> Refusal | None:
    from .alloc import can_pay, cost, time_warped

    if not cards:
        return None
    inst = cards[0]
    u = s.units.get(inst)
    if u is None or u.owner != seat or u.against >= 0:
        return _r(text, "forbidden", f"{display(s, inst)} is not a unit of your fleet.")
    if time_warped(s, seat):
        return _r(text, "forbidden", "A time warp lies on your fleet: no unit can be Engaged.")
    if u.engaged:
        return _r(text, "forbidden", f"{display(s, inst)} is already Engaged.")
    part = cards[1] if len(cards) > 1 else -1
    e, sp = cost(s, inst, part) if inst in s.units and (part < 0 or part in (
        inst, u.partner)) else (0, 0)
    if not can_pay(s.pool, e, sp):
        return _r(text, "cost", f"Engaging {display(s, inst)} needs {e} energy and {sp} "
                  f"supply; your pool has {s.pool[0]} energy, {s.pool[1]} supply and "
                  f"{s.pool[6]} economy (GE-PTS-04).")
    return None


def _c_points(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
              ) -> Refusal | None:
    from .state import A, E, H, P, X

    if not cards:
        return None
    kind = normalise(text).split()[0].lower()
    inst = cards[0]
    u = s.units.get(inst)
    if u is None or u.owner != seat:
        return _r(text, "forbidden", f"{display(s, inst)} is not one of your cards in play.")
    have = {"arm": s.pool[A] + s.pool[X], "charge": s.pool[E] + s.pool[X],
            "repair": s.pool[P] + s.pool[H] + s.pool[X],
            "heal": s.pool[H]}[kind]
    what = {"arm": "ammo", "charge": "energy", "repair": "repair", "heal": "healing"}[kind]
    if have <= 0:
        return _r(text, "cost", f"No {what} points are left in your pool (economy points "
                  f"stand in for them) (GE-PTS-02).")
    if kind in ("arm", "charge") and not u.engaged and u.host < 0:
        return _r(text, "forbidden", f"{display(s, inst)} is not Engaged; Engage it first "
                  f"(GE-PTS-05).")
    return None


def _c_aim(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
           ) -> Refusal | None:
    from .actions import hq_code
    from .units import ships_of

    target = cards[0] if cards else -1
    word = args[0] if args else ""
    if word.upper().startswith("HQ") and word[2:].isdigit():
        o = int(word[2:])
        target = hq_code(o)
        if o < s.n and ships_of(s, o):
            return _r(text, "range", f"P{o} still has ships in play: its Sector HQ cannot be "
                      f"fired at (GE-DMG-05).")
    if target == -1:
        return None
    if target in s.fired_at:
        return _r(text, "capacity", "That target has already been fired at this phase "
                  "(GE-FIRE-07).")
    if target >= 0 and target in s.units and s.units[target].owner == seat \
            and s.card(target).type != "M":
        return _r(text, "forbidden", f"{display(s, target)} is in your own fleet.")
    return _r(text, "range", "None of your usable weapons can hit that target now (Engaged "
              "units only, heavy weapons need ammo, terrain only by heavy weapons) "
              "(GE-DMG-03, GE-FIRE-11).")


def _c_shoot(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
             ) -> Refusal | None:
    if not cards:
        return None
    u = s.units.get(cards[0])
    if u is None or u.owner != seat:
        return _r(text, "forbidden", f"{display(s, cards[0])} is not one of your units.")
    if not (u.engaged or u.host >= 0):
        return _r(text, "forbidden", f"{display(s, cards[0])} is Disengaged and may not fire "
                  f"(GE-PTS-11).")
    return _r(text, "cost", f"That weapon of {display(s, cards[0])} cannot fire at this "
              f"target now: already fired, or a heavy weapon without ammo (GE-FIRE-11).")


def _c_discard(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
               ) -> Refusal | None:
    kind = normalise(text).split()[0].lower()
    if kind == "discard" and cards:
        bad = _own_hand(s, text, seat, cards[0])
        if bad:
            return bad
        if s.plays >= 3:
            return _r(text, "capacity", "Discarding uses an unused card play; your 3 plays "
                      "are spent (GE-TURN-06).")
    if kind == "scuttle" and cards:
        u = s.units.get(cards[0])
        if u is None or u.owner != seat or u.against >= 0:
            return _r(text, "forbidden", f"{display(s, cards[0])} is not in your active "
                      f"fleet.")
        if u.partner >= 0:
            return _r(text, "forbidden", f"{display(s, cards[0])} is combined with "
                      f"{display(s, u.partner)}: the combined ship is discarded by the name "
                      f"of {display(s, u.partner)} (GE-EMP-KRB-04, GE-TURN-07).")
        if u.host >= 0:
            return _r(text, "forbidden", f"{display(s, cards[0])} sits on "
                      f"{display(s, u.host)}; it goes with its ship (GE-TURN-07).")
    if kind == "withdraw" and not s.options["withdrawal"]:
        return _r(text, "forbidden", "Voluntary withdrawal is off in this game (option "
                  "withdrawal).")
    return None


def _c_draw(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
            ) -> Refusal | None:
    kind = normalise(text).split()[0].lower()
    if not args or not args[0].isdigit():
        return _r(text, "malformed", f"Write '{kind} <number>', e.g. {kind} 1.")
    n = int(args[0])
    if kind == "celebrate":
        top = min(2, s.drawable(s.stack[-1].seat)) if s.stack else 2
        return _r(text, "capacity", f"A victory celebration draws at most {top} (GE-WIN-05).")
    hand = len(s.hands[seat])
    return _r(text, "capacity", f"With {hand} cards in hand you may draw at most "
              f"{s.draw_allow}, not {n} (GE-TURN-08..10).")


def _c_separate(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
                ) -> Refusal | None:
    from .empires import command_room

    if s.plays >= 3:
        return _r(text, "capacity", "You have made your 3 card plays this turn (GE-PLAY-01, "
                  "GE-EMP-KRB-06).")
    kind = normalise(text).split()[0].lower()
    if kind == "separate" and not command_room(s, seat, None):
        return _r(text, "capacity", "No command point is free for the second ship "
                  "(GE-EMP-KRB-10).")
    if kind == "separate" and cards:
        u = s.units.get(cards[0])
        if u is None or u.owner != seat:
            return _r(text, "forbidden", f"{display(s, cards[0])} is not one of your ships in "
                      "play (GE-EMP-KRB-05).")
        if u.partner < 0:
            return _r(text, "forbidden", f"{display(s, cards[0])} is not a combined Krebiz "
                      "ship (GE-EMP-KRB-04).")
        return _r(text, "forbidden", "Its damage cannot be split without destroying the "
                  "cruiser or the capsule (GE-EMP-KRB-08, GE-EMP-KRB-09).")
    if kind == "combine" and len(cards) == 2:
        from .empires import can_join

        for inst in cards:
            u = s.units.get(inst)
            if u is None or u.owner != seat:
                return _r(text, "forbidden", f"{display(s, inst)} is not one of your ships in "
                          "play.")
        if not can_join(s, cards[0], cards[1]):
            return _r(text, "forbidden", "Only a Krebiz cruiser and a Krebiz capsule, each "
                      "on its own, combine into one ship (GE-EMP-KRB-04, GE-EMP-KRB-16).")
        return _r(text, "forbidden", "A component separated this turn may recombine only on "
                  "a later turn (GE-EMP-KRB-13).")
    if kind == "swap" and len(cards) == 2:
        bad = _own_hand(s, text, seat, cards[0])
        if bad:
            return bad
        if cards[1] not in s.reserve[seat]:
            return _r(text, "forbidden", f"{display(s, cards[1])} is not in your reserve.")
        return _r(text, "forbidden", "The hand card must be at least as strong as the "
                  "reserve card it replaces (GE-OPEN-04).")
    return None


def _c_react(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
             ) -> Refusal | None:
    if not cards:
        return None
    bad = _own_hand(s, text, seat, cards[0])
    if bad:
        return bad
    c = s.card(cards[0])
    if not c.reaction:
        return _r(text, "forbidden", f"{c.name} is not a reaction card (GE-PLAY-03).")
    kind = normalise(text).split()[0].lower()
    if kind == "counter" and s.plays >= 3:
        return _r(text, "capacity", "A counter-reaction needs a card play left; your 3 are "
                  "spent (GE-FIRE-04).")
    return _r(text, "forbidden", f"{c.name} has no use against what is happening now; a "
              f"reaction works only if its function applies at once (GE-PLAY-07).")


def _c_operate(s: GEState, text: str, seat: int, cards: list[int], args: list[str]
               ) -> Refusal | None:
    if not cards:
        return None
    inst = cards[0]
    u = s.units.get(inst)
    name = display(s, inst)
    kind = normalise(text).split()[0].lower()
    if kind == "study":
        if s.pool[3] + s.pool[6] <= 0:
            return _r(text, "cost", "Studying a monster takes research points; your pool has "
                      "none (economy points stand in for them) (GE-REM-07, GE-PTS-02).")
        if u is None:
            return _r(text, "forbidden", f"{name} is not in play; only monsters in play can "
                      "be studied (GE-REM-07).")
        return _r(text, "forbidden", f"{name} is not a monster (GE-REM-07).")
    if u is None or u.owner != seat:
        return _r(text, "not_your_decision" if u is not None else "forbidden",
                  f"{name} is not a card you control in play; only your own cards' functions "
                  f"are operated (GE-TURN-04).")
    if u.used:
        return _r(text, "capacity", f"{name} has already been operated this turn "
                  f"(GE-TURN-05).")
    c = s.card(inst)
    if not any(e.kind.startswith("op_") for e in c.effects):
        return _r(text, "forbidden", f"{c.name} has no function to operate (GE-TURN-04).")
    if u.host >= 0:
        return _r(text, "forbidden", f"{name} works only while its ship is Engaged and its "
                  f"points are paid (GE-PTS-11).")
    if u.turn_in >= s.turns[seat]:
        return _r(text, "wrong_phase", f"{name} was played this turn; hazards and monsters act "
                  f"from your next turn (GE-TURN-04).")
    return _r(text, "range", f"{name} cannot be operated on that target now; its targets "
              f"are in the list (GE-TURN-04).")


CHECKS = {
    "operate": _c_operate, "study": _c_operate,
    "react": _c_react, "counter": _c_react,
    "play": _c_play, "engage": _c_engage, "arm": _c_points, "charge": _c_points,
    "repair": _c_points, "heal": _c_points, "aim": _c_aim, "shoot": _c_shoot,
    "volley": _c_shoot, "discard": _c_discard, "scuttle": _c_discard,
    "withdraw": _c_discard, "draw": _c_draw, "celebrate": _c_draw,
    "separate": _c_separate, "combine": _c_separate, "swap": _c_separate,
}
"""Checks of a notation whose action word belongs to the current phase or window."""
