"""Rift Domination explanations: what each legal action does and why a notation is refused.

:func:`describe` answers the engine's ``game.describe(state, action)`` (see
:mod:`starlanes.engine.explain`): text in the game's words, the cost in resources or
movement points, what changes, and the rule IDs (``RD-...``) it rests on. Faction, unit,
upgrade and OCC-card numbers and texts are read from the loaded content, never written
here. Nothing hidden from the deciding seat (tile values, other hands) is shown.
:func:`label`, the words on an action's button, lives in :mod:`.labels`, :func:`refusal` in
:mod:`.refusals`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from starlanes.engine import Action
from starlanes.engine.explain import ActionDescription

from . import actions as A
from . import battle as B
from .labels import _count, _plural, _seat, _window, card_name, label, target_name
from .planets import huge_planet_scores
from .refusals import refusal
from .turn import slots, upgrade_cost

#: Kinds of action whose notation does not say which units go (``move A1a A1`` moves the
#: whole stack): the terminal's menu shows their description beside them.
MENU_TEXT_KINDS = ("move",)

if TYPE_CHECKING:  # pragma: no cover
    from .factions import UnitStats
    from .state import RiftState

__all__ = ["describe", "label", "refusal", "card_name", "target_name", "unit_line",
           "upgrade_line", "card_line", "faction_line"]

UPGRADE_RULES = {
    "warp": ("RD-UPG-06", "RD-UPG-07", "RD-UPG-08"),
    "mine": ("RD-UPG-11", "RD-UPG-12"),
    "trading_outpost": ("RD-UPG-13",),
    "artillery": ("RD-UPG-14",),
    "military_base": ("RD-UPG-15", "RD-UPG-16"),
    "shield_generator": ("RD-UPG-17", "RD-UPG-18"),
}
"""Rule IDs of each upgrade's effect (the numbers come from the content)."""

TIMING_WORDS = {
    "instant": "resolved when drawn",
    "own_turn": "played in your own turn",
    "any_time": "played in your own turn or between other players' turns",
    "battle": "played in a battle",
    "counter": "played to answer a card played against you",
}


SKILL_WORDS = {
    "repair_rush": "Repair Rush", "repair_bldg": "Repair Bldg",
    "rocket_barrage": "Rocket Barrage", "kamikaze": "Kamikaze", "bombardment": "Bombardment",
    "bombardment_2": "Bombardment II", "negotiate": "Negotiate", "overload": "Overload",
    "defensive_ring": "Defensive Ring", "taunt": "Taunt",
}
"""Each unit skill's name as the unit texts print it."""


def skill_name(skill: str) -> str:
    """A unit skill's printed name (``bombardment_2`` -> ``Bombardment II``); a skill this
    table does not know is spelt out in words."""
    return SKILL_WORDS.get(skill, skill.replace("_", " ").capitalize())


def _game_words(text: str) -> str:
    """A content text with the names of game options (``warp_limit``) written as words."""
    return re.sub(r"\b([a-z]+(?:_[a-z0-9]+)+)\b", lambda m: m.group(1).replace("_", " "), text)


# ---------------------------------------------------------------------- content lines
def unit_line(st: UnitStats, name: str = "", cost: int | None = None, text: str = "") -> str:
    """One unit type's numbers for a faction: cost, LP, shields, MP, weapons, capacity;
    then ``text`` (the unit's content text) when given."""
    parts = [f"cost {_plural(st.cost if cost is None else cost, 'resource')}",
             f"{st.lp} LP", _plural(st.shields, "shield"), f"{st.mp} MP"]
    weapons = [f"{n} {r}" for r, n in (("close", st.close), ("mid", st.mid),
                                       ("long", st.long)) if n]
    parts.append("weapons " + (", ".join(weapons) if weapons else "none"))
    if st.capacity:
        parts.append(f"carries {st.capacity}")
    if st.used_capacity:
        parts.append(f"takes {st.used_capacity} when carried")
    if st.ground:
        parts.append("ground unit")
    if st.skills:
        parts.append("skills " + ", ".join(sorted(skill_name(k) for k in st.skills)))
    tail = f". {text.strip().rstrip('.')}" if text.strip() else ""
    return f"{name or st.kind}: " + ", ".join(parts) + tail


def content_text(content: Any, text: str) -> str:
    """A content ``text`` with its ``{rule_id}`` fields filled from the loaded rule values
    (``{mine_income}`` -> ``2``), so an override of a value changes the words too; the
    catalogue and the descriptions both read entries through it. A field naming no rule
    value is left as written."""
    values = {k: v.value for k, v in content.rule_entries.items()}
    try:
        return text.format_map(values)
    except (KeyError, ValueError, IndexError):
        return text


def upgrade_line(s: RiftState, upgrade: str) -> str:
    """An upgrade's name, what it does (its content ``text``, the words the catalogue shows
    too) and its ground-battle numbers."""
    u = s.content.upgrades[upgrade]
    effect = content_text(s.content, u.text).strip().rstrip(".")
    fight = ""
    if u.combatant:
        weapons = [f"{n} {w}" for w, n in (("close", u.close), ("mid", u.mid),
                                           ("long", u.long)) if n]
        fight = (f"; in ground battles {u.lp} LP, {_plural(u.shields, 'shield')}"
                 + (", weapons " + ", ".join(weapons) if weapons else "")
                 + (", skills " + ", ".join(skill_name(k) for k in u.skills) if u.skills
                    else ""))
    keep = "" if u.transfers else "; destroyed, not taken, when the planet falls"
    return _game_words(f"{u.name}: {effect}{fight}{keep}".replace(": ;", ":"))


def card_line(s: RiftState, card_id: str) -> str:
    """An OCC-card as a player reads it: name, when it is played, its text."""
    c = s.content.cards[card_id]
    return f"{c.name} ({TIMING_WORDS.get(c.timing, c.timing)}): {c.text}"


def faction_line(s: RiftState, faction_id: str) -> str:
    """A faction sheet: name, ability text, starting units, resources, upgrades, roster."""
    f = s.content.factions[faction_id]
    units = ", ".join(s.kind_name(k, n) for k, n in f.start_units.items())
    ups = ", ".join(s.kind_name(k) for k in f.start_upgrades) or "none besides the military base"
    roster = ", ".join(s.kind_name(k) for k in f.roster)
    return (f"{f.name}: {f.text} Starts with {units}; {_plural(f.start_resources, 'resource')};"
            f" upgrades: {ups}. Can recruit: {roster}"
            f" (+{f.unlock_limit} more by taking systems).")


# ---------------------------------------------------------------------- helpers
def _res(s: RiftState, seat: int, cost: int) -> str:
    return f"resources {s.resources[seat]} -> {s.resources[seat] - cost}"


def _planet(s: RiftState, pid: str) -> str:
    planet = s.content.planets.get(pid)
    return f"{pid} ({planet.name})" if planet is not None else pid


def _d(action: Action, kind: str, text: str, cost: str = "", changes: str = "",
       rules: tuple[str, ...] = ()) -> ActionDescription:
    return ActionDescription(str(action), kind, text, cost, changes, rules)


# ---------------------------------------------------------------------- set-up
def _home(s: RiftState, a: A.ChooseHome) -> ActionDescription:
    sysid = a.planet[:2]
    return _d(a, "setup", f"Take {_planet(s, a.planet)} as your home planet; no other player "
              f"may start in system {sysid}.", changes="it starts with a military base and "
              "your faction's starting units", rules=("RD-SET-01", "RD-SET-08", "RD-SET-15"))


def _tile(s: RiftState, a: A.PlaceTile) -> ActionDescription:
    kind = s.tile_in_hand[0] if s.tile_in_hand else "condition"
    return _d(a, "setup", f"Put the {kind} condition tile you drew on {_planet(s, a.planet)}; "
              "its value stays hidden until someone takes the planet.",
              rules=("RD-SET-03", "RD-SET-05", "RD-SET-06", "RD-PLC-01"))


def _keep(s: RiftState, a: Action) -> ActionDescription:
    return _d(a, "setup", "Play the faction offered. " + faction_line(s, s.faction_offer),
              rules=("RD-SET-09", "RD-FAC-02"))


def _repick(s: RiftState, a: Action) -> ActionDescription:
    name = s.content.factions[s.faction_offer].name
    return _d(a, "setup", f"Put {name} back and draw another faction at random; you must "
              "keep the next one (one repick per player).", rules=("RD-SET-10",))


# ---------------------------------------------------------------------- turn
def _build(s: RiftState, a: A.Build) -> ActionDescription:
    seat = _seat(s)
    cost = upgrade_cost(s, seat, a.upgrade)
    p = s.board.planet_ids.index(a.planet)
    used = len(s.planet_upgrades[p])
    return _d(a, "build", f"Build {upgrade_line(s, a.upgrade)} - on {_planet(s, a.planet)}.",
              f"{_plural(cost, 'resource')}",
              f"{_res(s, seat, cost)}; slots on {a.planet} {used + 1}/{slots(s, p)}",
              ("RD-UPG-03", "RD-UPG-04", *UPGRADE_RULES.get(a.upgrade, ())))


def _demolish(s: RiftState, a: A.Demolish) -> ActionDescription:
    name = s.content.upgrades[a.upgrade].name
    return _d(a, "build", f"Destroy your own {name} on {_planet(s, a.planet)} to free its slot.",
              changes="no resources come back", rules=("RD-UPG-05",))


def _done(s: RiftState, a: Action) -> ActionDescription:
    if s.phase == "build":
        return _d(a, "turn", "Stop building and start moving your fleets (steps 5-6).",
                  rules=("RD-TURN-01",))
    return _d(a, "turn", "Stop moving and start recruiting (step 7); units keep no movement "
              "for later.", rules=("RD-TURN-01", "RD-TURN-09"))


def _end(s: RiftState, a: Action) -> ActionDescription:
    return _d(a, "turn", "End your turn; the next player clockwise begins.",
              rules=("RD-TURN-10",))


def _recruit(s: RiftState, a: A.Recruit) -> ActionDescription:
    seat = _seat(s)
    fx = s.fx[seat]
    st = s.stats[seat][a.unit]
    cost = fx.unit_cost(st) if fx else st.cost
    unit = s.content.units.get(a.unit)
    name, text = (unit.name, unit.text) if unit is not None else (s.kind_name(a.unit), "")
    return _d(a, "recruit", f"Recruit one {unit_line(st, name, cost, text)}; it appears in the "
              f"orbit of {_planet(s, a.planet)}.", _plural(cost, "resource"), _res(s, seat, cost),
              ("RD-REC-01", "RD-REC-02", "RD-REC-03"))


def _fighters(s: RiftState, a: A.PlaceFighters) -> ActionDescription:
    n = s.stack[-1].data[0] if s.stack else 2
    return _d(a, "setup", f"Put this turn's {n} free fighters at {a.point} (one of your fleets "
              "or a planet with your military base).", rules=("RD-TURN-04", "RD-TURN-05"))


def _unlock(s: RiftState, a: A.Unlock) -> ActionDescription:
    seat = _seat(s)
    st = s.stats[seat].get(a.unit)
    unit = s.content.units[a.unit]
    line = unit_line(st, unit.name, text=unit.text) if st is not None else unit.name
    return _d(a, "choice", f"Add a unit type to the ones you may recruit: {line}.",
              rules=("RD-SYS-03", "RD-REC-01"))


def _free(s: RiftState, a: A.FreeUpgrade) -> ActionDescription:
    p = s.stack[-1].data[0] if s.stack else -1
    where = _planet(s, s.board.planet_ids[p]) if p >= 0 else "the planet"
    if a.upgrade == "none":
        return _d(a, "choice", f"Take no free upgrade on {where}.", rules=("RD-PLC-09",))
    return _d(a, "choice", f"Take a free {upgrade_line(s, a.upgrade)} - on {where}.",
              changes="costs nothing", rules=("RD-PLC-09", "RD-PLC-05",
                                              *UPGRADE_RULES.get(a.upgrade, ())))


# ---------------------------------------------------------------------- movement
def _move(s: RiftState, a: A.Move) -> ActionDescription:
    from .movement import _enemy_fleet_at, _load, _stacks

    seat = _seat(s)
    b = s.board
    src, dst = b.index[a.src], b.index[a.dst]
    ships, cargo = _stacks(s, seat).get(src, ([], []))
    if a.unit:
        ships = [u for u in ships if s.units[u].kind == a.unit][:1]
    carried = _load(s, seat, ships, cargo)
    what = ", ".join(s.kind_name(k, n) for k, n in _count(s, ships).items())
    load = ", ".join(s.kind_name(k, n) for k, n in _count(s, carried).items())
    # the units first: the menu shows this beside the notation, which names the route
    text = f"Move {what}" + (f" (carrying {load})" if load else "") + f" from {a.src} to {a.dst}."
    rules = ["RD-MOV-06", "RD-MOV-07"]
    changes = ""
    if _enemy_fleet_at(s, seat, dst):
        text += " An enemy fleet is there: this starts a space battle."
        rules += ["RD-MOV-10", "RD-BAT-02"]
    if b.planet_of[dst] >= 0:
        rules.append("RD-MOV-08")
    if a.src.startswith("W") or a.dst.startswith("W"):
        rules.append("RD-MOV-15")
    return _d(a, "move", text, "1 movement point per ship", changes, tuple(rules))


def _land(s: RiftState, a: A.Land) -> ActionDescription:
    seat = _seat(s)
    p = s.board.planet_ids.index(a.planet)
    owner = s.planet_owner[p]
    where = _planet(s, a.planet)
    r = s.content.rules
    if owner == seat:
        return _d(a, "planet", f"Land your ground units in orbit on your planet {where}.",
                  rules=("RD-MOV-08", "RD-MOV-13"))
    if owner >= 0:
        return _d(a, "planet", f"Land your ground units on {where}, held by "
                  f"{s.seat_name(owner)}: a ground battle for the planet starts.",
                  changes="the winner holds the planet; bases, artillery and shield "
                  "generators are destroyed, not taken", rules=(
                      "RD-BAT-03", "RD-BAT-14", "RD-BAT-15", "RD-BAT-16", "RD-BAT-17"))
    tile = s.tile_kind[p]
    fx = s.fx[seat]
    if tile == "civilized":
        free = fx is not None and fx.civilized_free
        cost = 0 if free else r.civilized_cost
        return _d(a, "planet", f"Land troops on the civilized planet {where} and take it; "
                  f"you draw {r.civilized_infantry_cards} OCC-card.",
                  _plural(cost, "resource") if cost else "", _res(s, seat, cost),
                  ("RD-PLC-04", "RD-PLC-06"))
    texts = {
        "dangerous": (f"Land on the dangerous planet {where}: roll a die; "
                      f"{r.dangerous_min_roll} or more takes it with its resources and a free "
                      "upgrade, less destroys the landed units.",
                      ("RD-PLC-07", "RD-PLC-08", "RD-PLC-09")),
        "anomaly": (f"Land on the anomaly {where} and take it: gain the VP on its tile and "
                    f"{r.anomaly_free_infantry} free infantry.", ("RD-PLC-10", "RD-PLC-11")),
        "harvester": (f"Land on the harvester {where} and take it: gain the resources on its "
                      "tile.", ("RD-PLC-12", "RD-PLC-02")),
    }
    text, rules = texts.get(tile, (f"Land on {where} and take it.", ("RD-PLC-02",)))
    garrison = s.board.planet_garrison[p] if s.board.planet_garrison else 0
    if garrison:
        text = (f"Its neutral garrison first destroys {_plural(garrison, 'landing unit')} "
                f"(cheapest first); only if units are left: " + text[0].lower() + text[1:])
        rules = (*rules, "RD-OPEN-25")
    if s.board.planet_huge[p]:
        if huge_planet_scores(s, seat, p):
            text += f" A central planet: +{r.huge_planet_vp} VP."
        else:
            text += " A central planet you have scored before: no VP again."
        rules = (*rules, "RD-SPC-03", "RD-OPEN-21")
    return _d(a, "planet", text, changes="the tile's value is revealed", rules=rules)


def _lift(s: RiftState, a: A.Lift) -> ActionDescription:
    return _d(a, "planet", f"Take your landed units off {_planet(s, a.planet)} back into its "
              "orbit, ready to be carried.", "1 movement point of the ship that picks them up",
              rules=("RD-UNIT-02", "RD-MOV-07"))


def _negotiate(s: RiftState, a: A.Negotiate) -> ActionDescription:
    r = s.content.rules
    extra = " and a free upgrade" if r.negotiate_free_upgrade else ""
    return _d(a, "planet", f"Your diplomat takes the civilized planet {_planet(s, a.planet)} "
              f"without a fight: you gain {r.negotiate_cards} OCC-cards, "
              f"{r.negotiate_fighters} fighters{extra}.",
              rules=("RD-SKL-07", "RD-SKL-08", "RD-PLC-05"))


def _consume(s: RiftState, a: A.Consume) -> ActionDescription:
    fx = s.fx[_seat(s)]
    res, vp = fx.consume if fx and fx.consume else (0, 0)
    gain = ", ".join(x for x in (_plural(res, "resource") if res else "",
                                 f"{vp} VP" if vp else "") if x)
    return _d(a, "planet", f"Consume the uncontrolled planet {_planet(s, a.planet)}: you take "
              f"it and gain {gain or 'nothing more'}, whatever its tile.",
              rules=("RD-FAC-12",))


def _join(s: RiftState, a: A.JoinAttack) -> ActionDescription:
    target = s.board.names[s.stack[-1].data[0]] if s.stack else "the target"
    return _d(a, "battle", f"Bring your stack at {a.src} into the attack on {target} as well.",
              "1 movement point per ship", rules=("RD-MOV-11",))


def _attack(s: RiftState, a: Action) -> ActionDescription:
    return _d(a, "battle", "Start the space battle with the stacks gathered so far.",
              rules=("RD-MOV-10", "RD-BAT-02", "RD-BAT-04"))


# ---------------------------------------------------------------------- cards
def _target_text(s: RiftState, target: str) -> str:
    if not target:
        return ""
    if target.startswith("@"):
        return f" against {s.seat_name(int(target[1:]))}"
    if ">" in target:
        src, dst = target.split(">")
        return f": your fleet at {src} jumps to {dst}"
    if ":" in target:
        planet, up = target.split(":")
        return f" on the {s.kind_name(up)} of {_planet(s, planet)}"
    return f" at {_planet(s, target)}"


def _play(s: RiftState, a: A.PlayCard) -> ActionDescription:
    card = s.content.cards[a.card]
    window = _window(s)
    rules = ["RD-OCC-01", "RD-OCC-04"]
    if window == "counter":
        c, player, _t = s.stack[-1].data
        text = (f"Answer {s.content.cards[c].name} from {s.seat_name(player)} with "
                f"{card_line(s, a.card)}")
    elif window.startswith("battle"):
        text = f"Play in this battle: {card_line(s, a.card)}"
        rules.append("RD-OCC-06")
    elif window == "window":
        text = (f"Between turns, play {card_line(s, a.card)}"
                f"{_target_text(s, a.target)}")
    else:
        text = f"Play {card_line(s, a.card)}{_target_text(s, a.target)}"
        if card.targets_opponent:
            text += " The target may answer it with a counter card."
    kind, p = _effect(card)
    if kind in ("gain_vp", "lose_vp"):
        rules.append("RD-OCC-05")
    return _d(a, "card", text, changes="the card goes to the discard pile", rules=tuple(rules))


def _effect(card: Any) -> tuple[str, dict[str, Any]]:
    from .occ import effect_of

    return effect_of(card)


def _pass(s: RiftState, a: Action) -> ActionDescription:
    window = _window(s)
    if window == "counter":
        c, player, _t = s.stack[-1].data
        return _d(a, "card", f"Do not answer: {s.content.cards[c].name} from "
                  f"{s.seat_name(player)} resolves.", rules=("RD-OCC-01",))
    if window == "battle_overload":
        return _d(a, "battle", "Do not use Overload in this phase; it stays for a later "
                  "phase.", rules=("RD-SKL-09", "RD-SKL-10"))
    if window == "battle_rush":
        return _d(a, "battle", "Do not use Repair Rush now; the damage stands and the skill "
                  "stays for later.", rules=("RD-SKL-01",))
    if window == "window":
        return _d(a, "card", "Play no (more) any-time cards now; the game goes on to the next "
                  "turn.", rules=("RD-OCC-01",))
    if window == "battle_cancel":
        return _d(a, "battle", "Let the attack go ahead without a card.", rules=("RD-OCC-01",))
    return _d(a, "battle", "Play no (more) OCC-cards at this point of the battle.",
              rules=("RD-OCC-01", "RD-BAT-13"))


def _sacrifice(s: RiftState, a: Action) -> ActionDescription:
    return _d(a, "card", "Remove one of your diplomats instead of letting the card resolve.",
              "1 diplomat", rules=("RD-FAC-05",))


def _resolve(s: RiftState, a: Action) -> ActionDescription:
    card = s.stack[-1].data[0] if s.stack else ""
    line = card_line(s, card) if card in s.content.cards else "the instant card"
    return _d(a, "card", f"Let the instant card resolve: {line}", rules=("RD-OCC-03",))


# ---------------------------------------------------------------------- battle
def _hit(s: RiftState, a: B.Hit) -> ActionDescription:
    dmg = s.battle.hit_dmg if s.battle is not None else 1
    left = s.battle.hits_left if s.battle is not None else 1
    return _d(a, "battle", f"Give one hit ({dmg} damage) to an enemy {target_name(s, a.target)}; shields "
              f"absorb damage before LP. Hits left to assign: {left}.",
              rules=("RD-HIT-13", "RD-HIT-14", "RD-HIT-15"))


def _kamikaze(s: RiftState, a: B.KamikazeTarget) -> ActionDescription:
    return _d(a, "battle", f"Your destroyed kamikaze unit strikes the enemy {target_name(s, a.target)}.",
              rules=("RD-SKL-03",))


def _ambush(s: RiftState, a: B.AmbushTarget) -> ActionDescription:
    return _d(a, "battle", f"Your ambush card damages the enemy {target_name(s, a.target)}.",
              rules=("RD-OCC-04", "RD-HIT-14"))


def _overload(s: RiftState, a: B.Overload) -> ActionDescription:
    b = s.battle
    pending = b.pending if b is not None else None
    total = s.content.rules.overload_shields
    if pending is not None and pending[0] == "overload_more":
        text = (f"Put the next Overload shield on your {target_name(s, a.target)} "
                f"({pending[2]} of {total} still to place, one at a time).")
    else:
        text = (f"Use Overload: {total} extra shields for this phase, placed one at a time; "
                f"the first goes on your {target_name(s, a.target)}.")
    return _d(a, "battle", text, changes="the shields last until the end of this phase",
              rules=("RD-SKL-09", "RD-SKL-10"))


def _rush(s: RiftState, a: B.RepairRush) -> ActionDescription:
    return _d(a, "battle", f"Use Repair Rush: negate {a.amount} of the damage your side took "
              "since the last casualties were removed, before they are removed.",
              changes=f"uses {a.amount} of the skill's repair", rules=("RD-SKL-01",))


def _retreat(s: RiftState, a: Action) -> ActionDescription:
    return _d(a, "battle", "Retreat: your units leave the battle back to where they came "
              "from; the other side wins it.", rules=("RD-BAT-08", "RD-BAT-12", "RD-WIN-05"))


def _stay(s: RiftState, a: Action) -> ActionDescription:
    return _d(a, "battle", "Stay in close combat: another close-range round is fought.",
              rules=("RD-BAT-07", "RD-BAT-12"))


DESCRIBERS: dict[type, Any] = {
    A.ChooseHome: _home, A.PlaceTile: _tile, A.KeepFaction: _keep, A.RepickFaction: _repick,
    A.Build: _build, A.Demolish: _demolish, A.Done: _done, A.EndTurn: _end,
    A.Move: _move, A.Land: _land, A.Lift: _lift, A.Negotiate: _negotiate, A.Consume: _consume,
    A.Recruit: _recruit, A.PlaceFighters: _fighters, A.Unlock: _unlock, A.FreeUpgrade: _free,
    A.JoinAttack: _join, A.Attack: _attack, A.PlayCard: _play, A.Pass: _pass,
    A.Sacrifice: _sacrifice, A.Resolve: _resolve, B.Hit: _hit, B.KamikazeTarget: _kamikaze,
    B.AmbushTarget: _ambush, B.Overload: _overload, B.RepairRush: _rush,
    B.Retreat: _retreat, B.Stay: _stay,
}


def describe(state: RiftState, action: Action) -> ActionDescription:
    """What the legal ``action`` does in ``state`` (see :mod:`starlanes.engine.explain`),
    with its :func:`label`.

    Raises KeyError for an action type this game does not have.
    """
    return replace(DESCRIBERS[type(action)](state, action), label=label(state, action))
