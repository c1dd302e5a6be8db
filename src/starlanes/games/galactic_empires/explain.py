"""What a Galactic Empires action does (:func:`describe`) and why a notation is refused
(:func:`refusal`, in :mod:`.refuse`), for the engine's explanation contract
(:mod:`starlanes.engine.explain`).

Cards are named as printed (``Economic Crisis``), never by the instance a notation types
(``occ_econ_crisis#41``).

:func:`describe` words each action kind with the figures of the position (points paid,
plays left, damage allocated) and the played card's name, empire, type, statistics and
text from the loaded content (:mod:`.texts`). Rule IDs are those of the rules reference
(GE-...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from starlanes.engine.explain import ActionDescription

from .actions import NONE, GEAction, code_seat, is_fleet, is_hq
from .content import HEAVY
from .refuse import refusal
from .state import POOL_NAMES
from .texts import WEAPON_NAMES, card_summary, empire_text
from .units import vessels_of

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

__all__ = ["describe", "label", "refusal"]

D = ActionDescription


# Cards are named as printed in every text a player reads (the notation a player types, with
# its ``card_id#instance``, is the action's notation, shown beside it).
def display(s: GEState, inst: int) -> str:
    """``Blue Giant Star``: a card instance by its printed name."""
    return s.title(inst)


def target_words(s: GEState, code: int) -> str:
    """A play target in words: a card by its printed name, ``P1's fleet`` or ``P1's Sector
    HQ``."""
    return _at(s, code)


def card_text(s: GEState, inst: int) -> str:
    """``Blue Giant Star: terrain, Generic; strength 3; ...``: the printed name and the
    card's summary (:func:`.texts.card_summary`)."""
    return f"{s.title(inst)}: {card_summary(s.card(inst), s.content)}"


def _plays(s: GEState) -> str:
    return f"1 card play ({3 - s.plays} of 3 left this turn)"


def _pool(s: GEState) -> str:
    return ", ".join(f"{v} {k}" for k, v in zip(POOL_NAMES, s.pool, strict=True) if v) or \
        "no points"


# ---------------------------------------------------------------------- phases 1-2
def _engage(s: GEState, a: GEAction) -> D:
    from .alloc import cost

    e, sp = cost(s, a.a, a.b)
    price = " + ".join(x for x in (f"{e} energy" if e else "", f"{sp} supply" if sp else "")
                       if x) or "no points"
    if a.b >= 0:
        return D(str(a), "allocate",
                 f"Engage only the {display(s, a.b)} part of the Krebiz combination "
                 f"{display(s, a.a)}; the combination must then be separated this turn.",
                 cost=f"{price} (economy points stand in; pool: {_pool(s)})",
                 rules=("GE-EMP-KRB-15", "GE-PTS-03", "GE-PTS-02"))
    return D(str(a), "allocate",
             f"Give {display(s, a.a)} all the points it needs: it is Engaged this turn "
             f"and may fire and use its functions. {card_text(s, a.a)}",
             cost=f"{price} (economy points stand in; pool: {_pool(s)})",
             changes="without them it stays Disengaged all turn",
             rules=("GE-PTS-03", "GE-PTS-04", "GE-PTS-06", "GE-PTS-02"))


def _arm(s: GEState, a: GEAction) -> D:
    return D(str(a), "allocate",
             f"Give 1 ammunition point to {display(s, a.a)}: one of its heavy weapons may "
             f"fire this turn.", cost="1 ammo (or 1 economy)",
             rules=("GE-PTS-05", "GE-FIRE-11", "GE-PTS-02"))


def _charge(s: GEState, a: GEAction) -> D:
    c = s.card(a.a)
    if c.nodes:
        return D(str(a), "allocate",
                 f"Put 1 energy into the EMF of {display(s, a.a)}: {c.nodes} more point(s) of "
                 f"field, up to twice its strength.", cost="1 energy (or 1 economy)",
                 rules=("GE-EMP-MCH-01", "GE-EMP-MCH-02", "GE-EMP-MCH-04"))
    return D(str(a), "allocate",
             f"Put 1 energy into the variplaz of {display(s, a.a)}: it does 1 more damage "
             f"(at most {c.vmax}).", cost="1 energy (or 1 economy)",
             rules=("GE-EMP-CORP-01", "GE-EMP-CORP-02"))


def _repair(s: GEState, a: GEAction) -> D:
    return D(str(a), "allocate", f"Repair 1 damage on {display(s, a.a)}. {card_text(s, a.a)}",
             cost="1 repair point (or healing, or economy)",
             rules=("GE-PTS-01", "GE-PTS-03", "GE-MISC-06"))


def _heal(s: GEState, a: GEAction) -> D:
    return D(str(a), "allocate", f"Heal 1 damage on {display(s, a.a)}. {card_text(s, a.a)}",
             cost="1 healing point", rules=("GE-EMP-DRG-09", "GE-EMP-DRG-10"))


def _done(s: GEState, a: GEAction) -> D:
    if s.phase == "alloc":
        return D(str(a), "end", "End the Point Allocation: units given all their points are "
                 "Engaged, the rest Disengaged; your ships' shields regenerate 1 point; "
                 "points left over are lost.",
                 rules=("GE-PTS-06", "GE-TURN-02", "GE-REM-05", "GE-OPEN-02"))
    if s.phase == "engage":
        return D(str(a), "end", "Leave freighters and tugs where they are and go on to Play "
                 "Cards A.", rules=("GE-TURN-03", "GE-TURN-01"))
    if s.phase == "playA":
        return D(str(a), "end", "End Play Cards A and go on to Weapons Fire (skipped when "
                 "nothing can fire).", rules=("GE-TURN-01", "GE-PLAY-02"))
    if s.phase == "playB":
        return D(str(a), "end", "End Play Cards B and go on to the Discard phase.",
                 rules=("GE-TURN-01",))
    return D(str(a), "end", "End the Discard phase and go on to draw cards.",
             rules=("GE-TURN-06", "GE-TURN-01"))


def _relocate(s: GEState, a: GEAction) -> D:
    return D(str(a), "move", f"Move {display(s, a.a)} to your terrain {display(s, a.b)}.",
             rules=("GE-TURN-03",))


# ---------------------------------------------------------------------- phases 3 and 5
def _play(s: GEState, a: GEAction) -> D:
    c = s.card(a.a)
    t = c.type
    rules: tuple[str, ...] = ("GE-PLAY-01",)
    if t == "T":
        what = "Put this terrain into your fleet; it yields points from your next turn."
        rules += ("GE-PTS-08", "GE-PLAY-08")
    elif t in "SBD":
        what = "Put this into your active fleet, Disengaged until your next allocation."
        rules += ("GE-PTS-07", "GE-FLEET-05", "GE-FLEET-02", "GE-PLAY-10")
        if a.c >= 0:
            what += f" It is played together with {display(s, a.c)} as one combined ship."
            rules += ("GE-EMP-KRB-03",)
        elif a.b >= 0:
            what += f" It combines at once with {display(s, a.b)}."
            rules += ("GE-EMP-KRB-04",)
        emp = s.content.empires.get(c.empire)
        first = not any(s.card(i).empire == c.empire for i in vessels_of(s, s.seat))
        if emp is not None and emp.rules.startswith("GE-EMP-") and first:
            what += f" Your first ship of its empire - {empire_text(s.content, c.empire)}"
            rules += (f"{emp.rules}-01",)
    elif t in "CE":
        what = f"Put this on {target_words(s, a.b)}; it becomes part of that unit."
        rules += ("GE-PLAY-12", "GE-REM-02", "GE-PTS-09")
    elif t in "HM" or c.has("time_warp") or c.has("economic_crisis"):
        what = f"Play this against {target_words(s, a.b)}; it stays in play there."
        rules += ("GE-PLAY-11", "GE-REM-01")
    elif is_hq(a.b):
        what = f"Play this on {target_words(s, a.b)}."
        rules += ("GE-PLAY-13", "GE-DMG-11", "GE-DMG-09")
    else:
        on = f" on {target_words(s, a.b)}" if a.b != NONE else ""
        what = f"Play this{on}; it works at once and is then discarded."
        rules += ("GE-REM-04", "GE-PLAY-11")
    if c.reaction:
        what += " Played in your own turn it counts as one of your 3 plays."
        rules += ("GE-PLAY-05",)
    return D(str(a), "play", f"{what} Card: {card_text(s, a.a)}", cost=_plays(s), rules=rules)


def _swap(s: GEState, a: GEAction) -> D:
    return D(str(a), "play",
             f"Put {display(s, a.a)} from your hand into your reserve fleet and take "
             f"{display(s, a.b)} into your hand (the hand card must be at least as strong). "
             f"Taken: {card_text(s, a.b)}",
             cost=_plays(s), rules=("GE-PLAY-09", "GE-OPEN-04"))


def _separate(s: GEState, a: GEAction) -> D:
    p = s.units[a.a].partner
    return D(str(a), "play",
             f"Separate the Krebiz combination {display(s, a.a)} + {display(s, p)} into two "
             f"ships: you split their damage and place their cards.", cost=_plays(s),
             changes="needs a free command point", rules=(
                 "GE-EMP-KRB-05", "GE-EMP-KRB-06", "GE-EMP-KRB-07", "GE-EMP-KRB-08",
                 "GE-EMP-KRB-10"))


def _combine(s: GEState, a: GEAction) -> D:
    return D(str(a), "play",
             f"Combine {display(s, a.a)} and {display(s, a.b)} into one ship (one command "
             f"point for both).", cost=_plays(s),
             rules=("GE-EMP-KRB-14", "GE-EMP-KRB-13", "GE-EMP-KRB-01"))


def _operate(s: GEState, a: GEAction) -> D:
    return D(str(a), "function",
             f"Use the function of {display(s, a.a)} on {target_words(s, a.b)}; each "
             f"function works once a turn. Card: {card_text(s, a.a)}", rules=("GE-TURN-04", "GE-TURN-05", "GE-PTS-11"))


def _study(s: GEState, a: GEAction) -> D:
    return D(str(a), "function", f"Spend 1 research point on the monster {display(s, a.a)}; research points "
             f"count towards removing it. {card_text(s, a.a)}", cost="1 research (or economy)",
             rules=("GE-REM-07", "GE-MISC-06", "GE-EMP-DRG-06"))


# ---------------------------------------------------------------------- phase 4
def _aim(s: GEState, a: GEAction) -> D:
    if is_hq(a.a):
        return D(str(a), "fire",
                 f"Fire at P{code_seat(a.a)}'s Sector HQ (it has {s.hq[code_seat(a.a)]} of 25 "
                 f"damage); only ships may fire at it, while that player has no ships.",
                 rules=("GE-FIRE-01", "GE-DMG-05", "GE-DMG-06", "GE-DMG-08"))
    return D(str(a), "fire",
             f"Choose {display(s, a.a)} as the target, then pick the weapons to fire at "
             f"it; each target is fired at once a phase. Target: {card_text(s, a.a)}",
             rules=("GE-FIRE-01", "GE-FIRE-02", "GE-FIRE-07", "GE-DMG-01"))


def _shoot(s: GEState, a: GEAction) -> D:
    from .units import slots

    sym = slots(s, a.a)[a.b]
    u = s.units[a.a]
    dmg = u.charge if sym == "V" else 1
    heavy = " (heavy: uses 1 ammo point)" if sym in HEAVY else ""
    return D(str(a), "fire",
             f"Add the {WEAPON_NAMES.get(sym, sym)} of {display(s, a.a)} (weapon {a.b}) to "
             f"the fire at {target_words(s, s.aim)}: {dmg} damage{heavy}.",
             rules=("GE-FIRE-02", "GE-FIRE-10", "GE-FIRE-11" if heavy else "GE-FIRE-08"))


def _volley(s: GEState, a: GEAction) -> D:
    return D(str(a), "fire",
             f"Add every usable weapon of {display(s, a.a)} that can hit "
             f"{target_words(s, s.aim)} to the fire.", rules=("GE-FIRE-08", "GE-FIRE-02"))


def _commit(s: GEState, a: GEAction) -> D:
    from .units import slots

    dmg = sum(s.units[i].charge if slots(s, i)[j] == "V" else 1 for i, j in s.picks)
    return D(str(a), "fire",
             f"Allocate {dmg} damage to {target_words(s, s.aim)}; its owner may react, then "
             f"the damage is scored (shields first, then structure).",
             rules=("GE-FIRE-02", "GE-FIRE-03", "GE-FIRE-04", "GE-FIRE-05", "GE-DMG-04"))


def _distort(s: GEState, a: GEAction) -> D:
    own = a.c == s.seat
    what = "every hostile monster against your own fleet" if own else (
        f"every ship, base, dragon, free-flying card and monster of P{a.c}")
    return D(str(a), "fire",
             f"Fire the distortion cannon of {display(s, a.a)}: 1 damage to {what}; never "
             f"terrain, hazards or a Sector HQ.", cost="the ammo point it was given",
             rules=("GE-EMP-MCH-09", "GE-EMP-MCH-10", "GE-EMP-MCH-11"))


def _cease(s: GEState, a: GEAction) -> D:
    return D(str(a), "fire", "Stop firing and go on to Play Cards B.",
             rules=("GE-FIRE-06",))


# ---------------------------------------------------------------------- windows
def _react(s: GEState, a: GEAction) -> D:
    on = f" on {display(s, a.b)}" if a.b >= 0 else ""
    p = s.pending or ()
    before = p[4] if len(p) > 4 else ()
    more = (f" You have already reacted with {', '.join(display(s, r) for r, _ in before)}; "
            if before else " ")
    more += ("further reactions may follow, one after another, while one of their functions "
             "is used at once.")
    return D(str(a), "reaction",
             f"React{on} with {display(s, a.a)}; played in another player's turn it does "
             f"not count against your plays.{more} Card: {card_text(s, a.a)}",
             rules=("GE-FIRE-03", "GE-PLAY-03", "GE-PLAY-04", "GE-PLAY-07"))


def _counter(s: GEState, a: GEAction) -> D:
    p = s.pending or ()
    reacts = p[4] if len(p) > 4 else ()
    which = (f" to {display(s, reacts[a.b][0])}" if 0 <= a.b < len(reacts) else "")
    return D(str(a), "reaction",
             f"Answer the reaction{which} with {display(s, a.a)}; each reaction may be "
             f"answered by one card. Card: {card_text(s, a.a)}",
             cost=_plays(s),
             rules=("GE-FIRE-04", "GE-PLAY-05"))


def _pass(s: GEState, a: GEAction) -> D:
    p = s.pending
    if p and p[0] == "card":
        what = f"let {display(s, p[1])} take effect"
    elif p:
        what = f"let the {p[2]} damage on {target_words(s, p[1])} be scored"
    else:
        what = "play nothing"
    return D(str(a), "reaction", f"Play no card now: {what}.",
             rules=("GE-FIRE-05", "GE-PLAY-06"))


# ---------------------------------------------------------------------- Krebiz, 6-8
def _split(s: GEState, a: GEAction) -> D:
    return D(str(a), "krebiz",
             f"Keep {a.a} shield damage and {a.b} structural damage on the cruiser; the rest "
             f"goes to the capsule (neither may be destroyed by the split).",
             rules=("GE-EMP-KRB-08", "GE-EMP-KRB-09"))


def _place(s: GEState, a: GEAction) -> D:
    return D(str(a), "krebiz", f"Put {display(s, a.a)} on {display(s, a.b)} after the "
             f"separation.", rules=("GE-EMP-KRB-07",))


def _discard(s: GEState, a: GEAction) -> D:
    return D(str(a), "discard", f"Discard {display(s, a.a)} from your hand. Card: {card_text(s, a.a)}",
             cost=_plays(s), rules=("GE-TURN-06",))


def _scuttle(s: GEState, a: GEAction) -> D:
    return D(str(a), "discard",
             f"Self-destruct {display(s, a.a)}: it goes to the discard pile with the cards "
             f"on it. Card: {card_text(s, a.a)}", changes="frees a command point if it is a ship or base",
             rules=("GE-TURN-07", "GE-REM-08"))


def _withdraw(s: GEState, a: GEAction) -> D:
    return D(str(a), "discard", "Withdraw from the game: you are eliminated and your cards "
             "are discarded.", rules=("GE-WIN-03", "GE-FLEET-07"))


def _draw(s: GEState, a: GEAction) -> D:
    n = len(s.hands[s.seat])
    return D(str(a), "draw",
             f"Draw {a.a} card(s) (you hold {n}: up to 9 draws 2, 10-11 draws 1, 12+ none); "
             f"then your turn ends.",
             rules=("GE-TURN-08", "GE-TURN-09", "GE-TURN-10", "GE-TURN-11", "GE-TURN-12"))


def _celebrate(s: GEState, a: GEAction) -> D:
    return D(str(a), "draw", f"Victory celebration: draw {a.a} card(s), even with 12 or "
             f"more in hand.", rules=("GE-WIN-05",))


DESCRIBERS: dict[str, Callable[[GEState, GEAction], ActionDescription]] = {
    "engage": _engage, "arm": _arm, "charge": _charge, "repair": _repair, "heal": _heal,
    "done": _done, "relocate": _relocate, "play": _play, "swap": _swap,
    "separate": _separate, "combine": _combine, "operate": _operate, "study": _study,
    "aim": _aim, "shoot": _shoot, "volley": _volley, "commit": _commit,
    "distort": _distort, "cease": _cease, "react": _react, "counter": _counter,
    "pass": _pass, "split": _split, "place": _place, "discard": _discard,
    "scuttle": _scuttle, "withdraw": _withdraw, "draw": _draw, "celebrate": _celebrate,
}


def describe(state: GEState, action: GEAction) -> ActionDescription:
    """What the legal ``action`` does in ``state`` (see the module docstring), with its
    :func:`label`.

    Raises IllegalActionError if ``action`` is not legal now.
    """
    if action not in state.legal_actions():
        from starlanes.engine.errors import IllegalActionError

        raise IllegalActionError(f"{action} is not a legal action now")
    return replace(DESCRIBERS[action.kind](state, action), label=label(state, action))


# ---------------------------------------------------------------------- labels
def _at(s: GEState, code: int) -> str:
    """A target in a label's words: a card by its printed name, ``P1's fleet``, ``P1's
    Sector HQ``."""
    if is_hq(code):
        return f"P{code_seat(code)}'s Sector HQ"
    if is_fleet(code):
        return f"P{code_seat(code)}'s fleet"
    return s.title(code)


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _l_engage(s: GEState, a: GEAction) -> str:
    from .alloc import cost

    e, sp = cost(s, a.a, a.b)
    price = " + ".join(x for x in (f"{e} energy" if e else "", f"{sp} supply" if sp else "")
                       if x) or "no points"
    if a.b >= 0:
        other = s.units[a.a].partner if a.b == a.a else a.a
        return f"Engage {s.title(a.b)} without {s.title(other)} - {price}"
    return f"Engage {s.title(a.a)} - {price}"


def _l_done(s: GEState, a: GEAction) -> str:
    return {"alloc": "End the point allocation", "engage": "Go on to the Play Cards A phase",
            "playA": "End the Play Cards A phase", "playB": "End the Play Cards B phase"}.get(
                s.phase, "End the Discard phase")


def _l_play(s: GEState, a: GEAction) -> str:
    c = s.card(a.a)
    if c.type == "T":
        return f"Play the terrain {s.title(a.a)}"
    if a.c >= 0:
        return f"Play {s.title(a.a)} together with {s.title(a.c)}"
    if c.type in "SBD" and a.b >= 0:
        return f"Play {s.title(a.a)} combined with {s.title(a.b)}"
    if a.b != NONE:
        against = c.type in "HM" or c.has("time_warp") or c.has("economic_crisis")
        return f"Play {s.title(a.a)} {'against' if against else 'on'} {_at(s, a.b)}"
    return f"Play {s.title(a.a)}"


def _l_shoot(s: GEState, a: GEAction) -> str:
    from .units import slots

    sym = slots(s, a.a)[a.b]
    return f"Fire the {WEAPON_NAMES.get(sym, 'weapon')} of {s.title(a.a)} (weapon {a.b})"


def _l_commit(s: GEState, a: GEAction) -> str:
    from .units import slots

    dmg = sum(s.units[i].charge if slots(s, i)[j] == "V" else 1 for i, j in s.picks)
    return f"Allocate {dmg} damage to {_at(s, s.aim)}"


def _l_draw(s: GEState, a: GEAction) -> str:
    return f"Draw {_cards(a.a)} and end your turn" if a.a else "Draw no cards and end your turn"


LABELS: dict[str, Callable[[GEState, GEAction], str]] = {
    "engage": _l_engage,
    "arm": lambda s, a: f"Give 1 ammo point to {s.title(a.a)}",
    "charge": lambda s, a: (f"Charge the {'EMF' if s.card(a.a).nodes else 'variplaz'} of "
                            f"{s.title(a.a)}"),
    "repair": lambda s, a: f"Repair 1 damage on {s.title(a.a)}",
    "heal": lambda s, a: f"Heal 1 damage on {s.title(a.a)}",
    "done": _l_done,
    "relocate": lambda s, a: f"Move {s.title(a.a)} to {s.title(a.b)}",
    "play": _l_play,
    "swap": lambda s, a: f"Swap {s.title(a.a)} for {s.title(a.b)} from the reserve",
    "separate": lambda s, a: (f"Separate {s.title(a.a)} and "
                              f"{s.title(s.units[a.a].partner)}"),
    "combine": lambda s, a: f"Combine {s.title(a.a)} and {s.title(a.b)}",
    "operate": lambda s, a: f"Use {s.title(a.a)} on {_at(s, a.b)}",
    "study": lambda s, a: f"Study the monster {s.title(a.a)} - 1 research",
    "aim": lambda s, a: f"Aim at {_at(s, a.a)}",
    "shoot": _l_shoot,
    "volley": lambda s, a: f"Fire every usable weapon of {s.title(a.a)}",
    "commit": _l_commit,
    "distort": lambda s, a: (f"Fire the distortion cannon of {s.title(a.a)} at "
                             + ("the monsters against you" if a.c == s.seat else
                                f"P{a.c}'s fleet")),
    "cease": lambda s, a: "Stop firing",
    "react": lambda s, a: (f"React with {s.title(a.a)}"
                           + (f" on {s.title(a.b)}" if a.b >= 0 else "")),
    "counter": lambda s, a: f"Answer the reaction with {s.title(a.a)}",
    "pass": lambda s, a: "Play no card now",
    "split": lambda s, a: (f"Keep {a.a} shield and {a.b} structure damage on the "
                           "cruiser"),
    "place": lambda s, a: f"Put {s.title(a.a)} on {s.title(a.b)}",
    "discard": lambda s, a: f"Discard {s.title(a.a)}",
    "scuttle": lambda s, a: f"Self-destruct {s.title(a.a)}",
    "withdraw": lambda s, a: "Withdraw from the game",
    "draw": _l_draw,
    "celebrate": lambda s, a: f"Victory celebration: draw {_cards(a.a)}",
}


def label(state: GEState, action: GEAction) -> str:
    """The few words on the legal ``action``'s button (see :mod:`starlanes.engine.explain`):
    ``Play the terrain Ice Moon``, ``Engage Argonian Vapor Frigate - 2 energy``, ``Draw 2
    cards and end your turn``; cards by their printed names, never their ids. Raises
    KeyError for an action kind this game does not have."""
    return LABELS[action.kind](state, action)
