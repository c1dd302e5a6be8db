"""Why an Interstellar Ambitions notation is refused (:func:`refusal`), for the engine's
explanation contract (:mod:`starlanes.engine.explain`).

The notation is read as ``verb a b``. In order: an unknown verb or id is an
``unknown_token``; a verb of another player's part in the turn (a response while the turn
player decides, or the turn player's choice while a response is pending) is
``not_your_decision``; a verb of another decision is ``wrong_phase``; a verb of the pending
decision is checked against its costs, limits and targets. Reasons never reveal what the
deciding seat may not see (other hands, face-down decks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.explain import Refusal, normalise, with_nearest

from .actions import ACTIONS, RES
from .refuse_checks import CHECKS, is_token, refused
from .rules import NO_EXCHANGE

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Decision

    from .state import IAState

VERBS: dict[str, tuple[str, ...]] = {
    "discard": ("keep", "buy"), "start-tech": ("start_tech",), "place": ("place_start", "place"),
    "advance": ("comp", "step2", "advance_more"), "take": ("comp", "step3"),
    "produce": ("step2",), "plan": ("step3",), "claim": ("claim",), "home": ("home_pick",),
    "upkeep": ("upkeep",), "clear": ("clear_planets",), "colonise": ("colonise",),
    "give": ("give_away",), "discard-planet": ("give_away",), "develop": ("develop",),
    "pay": ("dev_pay",), "repair": ("build", "def_repair"), "build": ("build",),
    "scrap": ("scrap",), "replace": ("replace_tech", "replace_merc"),
    "research": ("research",), "buy-cards": ("shadow_mode",), "hire-mercs": ("shadow_mode",),
    "buy": ("buy",), "hire": ("hire",), "raid": ("fleet",), "invade": ("fleet",),
    "play": ("shadow",), "boost": ("boost",), "oppose": ("oppose",), "spoil": ("spoil",),
    "capture": ("capture",), "rescue": ("rescue",), "disrupt": ("disrupt",),
    "order": ("order",), "fire": ("fire",), "steal": ("steal",),
    "pass": ("step2", "claim", "colonise", "shadow_mode", "fleet", "shadow", "oppose",
             "spoil", "capture", "rescue"),
    "done": ("advance_more", "place", "clear_planets", "develop", "build", "replace_tech",
             "research", "buy", "replace_merc", "hire", "disrupt", "steal", "def_repair",
             "boost"),
    "exchange": (),
}
"""Every action word and the decisions that use it."""

KIND_WORDS: dict[str, str] = {
    "keep": "choosing the opening Shadow cards to discard",
    "start_tech": "choosing a starting tech", "place_start": "placing starting tokens",
    "comp": "taking the seat compensation", "step2": "in step 2 (PRODUCE or advance)",
    "advance_more": "advancing tokens in step 2", "step3": "in step 3 (take an action or plan)",
    "place": "placing pool tokens (Plan Actions)", "claim": "in step 4 (claim an ambition)",
    "home_pick": "choosing Home World production", "upkeep": "paying merc upkeep",
    "clear_planets": "discarding face-up planets (ULTIMATE COLONISE)",
    "colonise": "choosing a planet to colonise", "give_away": "giving a planet away",
    "develop": "developing planets", "dev_pay": "paying for a Home World development",
    "build": "building and repairing ships", "scrap": "discarding a ship to make room",
    "replace_tech": "replacing face-up techs (ULTIMATE RESEARCH)",
    "research": "choosing a tech to research", "shadow_mode": "choosing Buy Cards or Hire Mercs",
    "buy": "buying Shadow cards", "replace_merc": "replacing face-up mercs",
    "hire": "hiring mercs", "fleet": "choosing a raid or an invasion",
    "shadow": "in step 1 (play a Shadow card)", "boost": "adding cards to a Shadow check",
    "oppose": "opposing a Shadow check", "spoil": "choosing a victory spoil",
    "capture": "deciding on a capture", "rescue": "taking a planet after losing the last",
    "disrupt": "resetting tokens (Disrupt Plans)", "order": "setting a combat order",
    "fire": "aiming an unmatched ship", "steal": "taking resources after a raid",
    "def_repair": "repairing after a combat",
}
"""What a seat is doing while each decision is pending."""

RESPONSES = frozenset({"oppose", "def_repair", "rescue"})
"""Decisions only a seat other than the turn player faces."""





def refusal(state: IAState, text: str) -> Refusal | None:
    """A specific reason why ``text`` is not legal in ``state`` (None: no better reason than
    the engine's generic one), with the nearest legal notations."""
    return with_nearest(state, _refusal(state, text))


def _refusal(state: IAState, text: str) -> Refusal | None:
    s = state
    words = normalise(text).split()
    verb, args = words[0].lower(), [w.lower() for w in words[1:]]
    args = [a.upper() if a[:1] == "p" and a[1:].isdigit() else a for a in args]
    if verb not in VERBS:
        heads = sorted({str(a).split(" ", 1)[0] for a in s.legal_actions()})
        return refused(text, "unknown_token",
                  f"'{verb}' is not an action word of Interstellar Ambitions; usable now: "
                  f"{', '.join(heads)}.")
    bad = _unknown_id(s, verb, args)
    if bad:
        return refused(text, "unknown_token", bad)
    top = s.stack[-1]
    if verb == "exchange":
        return _exchange(s, text, top, args)
    kinds = VERBS[verb]
    if top.kind not in kinds:
        return _elsewhere(s, text, top, verb, kinds)
    check = CHECKS.get(top.kind)
    return check(s, text, top, verb, args) if check else None


def _elsewhere(s: IAState, text: str, top: Decision, verb: str,
               kinds: tuple[str, ...]) -> Refusal:
    now = f"P{top.seat} is {KIND_WORDS.get(top.kind, top.kind)}"
    if s.phase == "turn" and top.seat != s.seat and not set(kinds) & RESPONSES:
        return refused(text, "not_your_decision",
                  f"'{verb}' is P{s.seat}'s choice in their own turn; {now}.")
    if s.phase == "turn" and top.seat == s.seat and set(kinds) <= RESPONSES:
        return refused(text, "not_your_decision",
                  f"'{verb}' is another player's response (when "
                  f"{' or '.join(KIND_WORDS[k] for k in kinds)}), not a choice of the turn "
                  f"player; {now}.")
    if verb == "play" and s.round == 1:
        return refused(text, "wrong_phase", "No Shadow card may be played in the first round "
                  "(IA-TURN-02).")
    where = " or ".join(KIND_WORDS.get(k, k) for k in kinds)
    return refused(text, "wrong_phase", f"'{verb}' is used when {where}; now {now}.")


# ---------------------------------------------------------------------- ids
def _kind_of_arg(verb: str, i: int) -> str:
    table = {
        "discard": ("card",), "buy": ("card",), "boost": ("card",), "oppose": ("card",),
        "play": ("card", "target"), "start-tech": ("tech",), "research": ("tech",),
        "colonise": ("planet",), "clear": ("planet",), "develop": ("planet",),
        "give": ("planet", "seat"), "discard-planet": ("planet",), "capture": ("planet",),
        "rescue": ("planet",), "repair": ("ship",), "build": ("ship",), "scrap": ("ship",),
        "hire": ("ship",), "order": ("ship",), "fire": ("ship",), "upkeep": ("ship",),
        "replace": ("tech_or_ship",), "advance": ("token",), "disrupt": ("token",),
        "place": ("action",), "home": ("res",), "pay": ("res",), "steal": ("res",),
        "exchange": ("res", "res"), "claim": ("ambition",), "raid": ("seat",),
        "invade": ("seat",), "take": ("token_or_res",),
    }
    kinds = table.get(verb, ())
    return kinds[i] if i < len(kinds) else ""


def _unknown_id(s: IAState, verb: str, args: list[str]) -> str:
    c = s.content
    if verb == "spoil" and args:
        if args[0] not in ("disrupt", "tech", "bombard"):
            return f"'{args[0]}' is not a victory spoil; spoils: disrupt, tech, bombard."
        if len(args) > 1 and args[0] == "tech" and args[1] not in c.tech_index:
            return f"No tech has the id '{args[1]}'."
        if len(args) > 1 and args[0] == "bombard" and args[1] not in c.planet_index:
            return f"No planet has the id '{args[1]}'."
        return ""
    if verb == "upkeep" and len(args) > 1 and args[1] not in ("pay", "discard"):
        return f"'{args[1]}' is not an upkeep choice; write upkeep <merc> pay or discard."
    known = {
        "card": (c.shadow_index, "Shadow card"), "tech": (c.tech_index, "tech"),
        "planet": (c.planet_index, "planet"), "ambition": (c.ambition_index, "ambition"),
    }
    for i, arg in enumerate(args):
        k = _kind_of_arg(verb, i)
        if k in known:
            index, word = known[k]
            if arg not in index:
                return f"No {word} has the id '{arg}'."
        elif k == "ship" and arg.split("/", 1)[0] not in c.ship_index:
            return f"No ship has the id '{arg.split('/', 1)[0]}'."
        elif k == "tech_or_ship" and arg not in c.tech_index and arg not in c.ship_index:
            return f"No tech or merc has the id '{arg}'."
        elif k == "token" and not is_token(arg):
            return f"'{arg}' is not a track token; write <action>:<level>, e.g. colonise:basic."
        elif k == "token_or_res" and not is_token(arg) and arg not in RES:
            return f"'{arg}' is neither a track token (e.g. build:strong) nor a resource."
        elif k == "action" and arg not in ACTIONS:
            return f"'{arg}' is not an action track; tracks: {', '.join(ACTIONS)}."
        elif k == "res" and arg not in RES:
            return f"'{arg}' is not a resource; resources: {', '.join(RES)}."
        elif k == "target":
            bad = next((w for w in arg.split(".") if not _target_word(s, w)), None)
            if bad is not None:
                return (f"'{bad}' is not a seat, track token, planet, ship, tech or resource "
                        f"of this game; targets look like P1.develop:moderate or P2.cruiser.")
        elif k == "seat" and not (arg[:1] == "P" and arg[1:].isdigit() and int(arg[1:]) < s.n):
            return f"'{arg}' is not a seat of this game (P0 to P{s.n - 1})."
    return ""


def _target_word(s: IAState, word: str) -> bool:
    """One dot-separated part of a Shadow card's target: ``P<n>``, ``self``, a deck word
    (``tech``, ``planet``, ``merc``), a track token, a planet, tech or ship (``cruiser/1``),
    or a resource."""
    c = s.content
    low = word.lower()
    if low[:1] == "p" and low[1:].isdigit():
        return int(low[1:]) < s.n
    return (low in ("self", "tech", "planet", "merc") or is_token(low) or low in RES
            or low in c.planet_index or low in c.tech_index
            or low.split("/", 1)[0] in c.ship_index)


def _exchange(s: IAState, text: str, top: Decision, args: list[str]) -> Refusal | None:
    if s.phase != "turn":
        return refused(text, "wrong_phase", "Exchanges are made during your own turn, not in the "
                  "set-up (IA-RES-02).")
    if top.seat != s.seat:
        return refused(text, "not_your_decision",
                  f"Only P{s.seat}, whose turn it is, may exchange; P{top.seat} is "
                  f"{KIND_WORDS.get(top.kind, top.kind)} (IA-RES-02).")
    if top.kind in NO_EXCHANGE:
        return refused(text, "wrong_phase", f"No exchange while {KIND_WORDS[top.kind]}.")
    if len(args) != 2 or args[0] == args[1]:
        return refused(text, "malformed", "Write 'exchange <give> <get>' with two different "
                  "resources, e.g. exchange food ore.")
    have = s.res[top.seat][RES.index(args[0])]
    if have < 3:
        return refused(text, "cost", f"An exchange gives 3 {args[0]}; you have {have} (IA-RES-02).")
    return None


