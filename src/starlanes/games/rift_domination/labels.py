"""Rift Domination labels: the few words on each legal action's button (:func:`label`,
the engine's ``game.label``: ``Build a Warp on Wren (E5a) - 4 resources``), with battle
targets and OCC-cards by name; and the small readings of the state that labels and the
descriptions of :mod:`.explain` share (whose turn, which card window is open, units
counted by kind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlanes.engine import Action
from starlanes.engine.explain import article

from . import actions as A
from . import battle as B
from .occ import target_words
from .turn import upgrade_cost

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState


# ---------------------------------------------------------------------- shared readings
def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _seat(s: RiftState) -> int:
    return s.current_player()


def _count(s: RiftState, uids: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in uids:
        k = s.units[u].kind
        out[k] = out.get(k, 0) + 1
    return out


def _window(s: RiftState) -> str:
    """The situation a card or pass answers: own turn, counter, instant, battle."""
    if s.stack:
        return s.stack[-1].kind
    if s.battle is not None and s.battle.pending is not None:
        return "battle_" + s.battle.pending[0]
    return "turn"


# ---------------------------------------------------------------------- labels
def target_name(s: RiftState, target: str) -> str:
    """A battle target group in words: ``carrier`` -> ``Carrier``, ``carrier[1/0]`` ->
    ``Carrier (1 LP, 0 shields left)`` (the notation of ``Fighter.label``)."""
    kind, _, rest = target.partition("[")
    if not rest:
        return s.kind_name(kind)
    lp, _, sh = rest.rstrip("]").partition("/")
    return f"{s.kind_name(kind)} ({lp} LP, {_plural(int(sh or 0), 'shield')} left)"


def card_name(s: RiftState, card_id: str) -> str:
    """An OCC-card's printed name."""
    card = s.content.cards.get(card_id)
    return card.name if card is not None else card_id.replace("_", " ")


def _l_move(s: RiftState, a: A.Move) -> str:
    from .movement import _stacks

    ships, _cargo = _stacks(s, _seat(s)).get(s.board.index[a.src], ([], []))
    where = f"from {s.point_name(a.src)} to {s.point_name(a.dst)}"
    if a.unit:
        return f"Move one {s.kind_name(a.unit)} {where}"
    counts = _count(s, ships)
    if len(counts) == 1:
        (kind, n), = counts.items()
        return f"Move {s.kind_name(kind, n)} {where}"
    return f"Move the fleet ({sum(counts.values())} ships) {where}"


def _l_land(s: RiftState, a: A.Land) -> str:
    seat = _seat(s)
    owner = s.planet_owner[s.board.planet_ids.index(a.planet)]
    if owner == seat:
        return f"Land troops on your planet {s.point_name(a.planet)}"
    if owner >= 0:
        return f"Invade {s.point_name(a.planet)} of {s.seat_name(owner)}"
    where = s.point_name(a.planet)
    return {
        "civilized": f"Take the civilized planet {where}",
        "dangerous": f"Land on the dangerous planet {where} (a die roll)",
        "anomaly": f"Take the anomaly {where}",
        "harvester": f"Take the harvester {where}",
    }.get(s.tile_kind[s.board.planet_ids.index(a.planet)], f"Land on {where} and take it")


def _l_free(s: RiftState, a: A.FreeUpgrade) -> str:
    if a.upgrade == "none":
        return "Take no free upgrade"
    return f"Take a free {s.kind_name(a.upgrade)}"


def _l_done(s: RiftState, a: Action) -> str:
    return "Done building: move fleets" if s.phase == "build" else "Done moving: recruit"


def _l_build(s: RiftState, a: A.Build) -> str:
    cost = upgrade_cost(s, _seat(s), a.upgrade)
    return (f"Build {article(s.kind_name(a.upgrade))} on {s.point_name(a.planet)} - "
            f"{_plural(cost, 'resource')}")


def _l_recruit(s: RiftState, a: A.Recruit) -> str:
    seat = _seat(s)
    st = s.stats[seat][a.unit]
    fx = s.fx[seat]
    cost = fx.unit_cost(st) if fx else st.cost
    return (f"Recruit {article(s.kind_name(a.unit))} at {s.point_name(a.planet)} - "
            f"{_plural(cost, 'resource')}")


def _l_play(s: RiftState, a: A.PlayCard) -> str:
    name = card_name(s, a.card)
    if _window(s) == "counter":
        return f"Answer with the {name} card"
    return f"Play the {name} card{target_words(s, a.target)}"


def _l_pass(s: RiftState, a: Action) -> str:
    window = _window(s)
    if window == "counter":
        c = s.stack[-1].data[0]
        return f"Let {card_name(s, c)} resolve"
    return {
        "battle_overload": "Keep Overload for a later phase",
        "battle_rush": "Do not use Repair Rush now",
        "window": "Play no more cards now",
        "battle_cancel": "Attack without a card",
    }.get(window, "Play no more battle cards")


def _l_resolve(s: RiftState, a: Action) -> str:
    card = s.stack[-1].data[0] if s.stack else ""
    return f"Resolve {card_name(s, card)}" if card in s.content.cards else \
        "Resolve the instant card"


def _l_overload(s: RiftState, a: B.Overload) -> str:
    pending = s.battle.pending if s.battle is not None else None
    if pending is not None and pending[0] == "overload_more":
        return f"Next Overload shield on your {target_name(s, a.target)}"
    return f"Use Overload, first shield on your {target_name(s, a.target)}"


def _l_repick(s: RiftState, a: Action) -> str:
    return f"Put {s.content.factions[s.faction_offer].name} back and draw another"


LABELS: dict[type, Any] = {
    A.ChooseHome: lambda s, a: f"Make {s.point_name(a.planet)} your home planet",
    A.PlaceTile: lambda s, a: (
        f"Place your {s.tile_in_hand[0] if s.tile_in_hand else 'condition'} tile on "
        f"{s.point_name(a.planet)}"),
    A.KeepFaction: lambda s, a: f"Keep {s.content.factions[s.faction_offer].name}",
    A.RepickFaction: _l_repick,
    A.Build: _l_build,
    A.Demolish: lambda s, a: (f"Demolish your {s.kind_name(a.upgrade)} on "
                              f"{s.point_name(a.planet)}"),
    A.Done: _l_done,
    A.EndTurn: lambda s, a: "End your turn",
    A.Move: _l_move,
    A.Land: _l_land,
    A.Lift: lambda s, a: f"Lift your landed units off {s.point_name(a.planet)}",
    A.Negotiate: lambda s, a: f"Win {s.point_name(a.planet)} over with your diplomat",
    A.Consume: lambda s, a: f"Consume {s.point_name(a.planet)}",
    A.Recruit: _l_recruit,
    A.PlaceFighters: lambda s, a: f"Put the free fighters at {s.point_name(a.point)}",
    A.Unlock: lambda s, a: f"Unlock the {s.kind_name(a.unit)} for recruiting",
    A.FreeUpgrade: _l_free,
    A.JoinAttack: lambda s, a: f"Join the attack with your stack at {s.point_name(a.src)}",
    A.Attack: lambda s, a: "Start the space battle",
    A.PlayCard: _l_play,
    A.Pass: _l_pass,
    A.Sacrifice: lambda s, a: "Remove a diplomat to stop the card",
    A.Resolve: _l_resolve,
    B.Hit: lambda s, a: f"Hit the enemy {target_name(s, a.target)}",
    B.KamikazeTarget: lambda s, a: f"Kamikaze strike on the enemy {target_name(s, a.target)}",
    B.AmbushTarget: lambda s, a: f"Ambush the enemy {target_name(s, a.target)}",
    B.Overload: _l_overload,
    B.RepairRush: lambda s, a: f"Repair Rush: negate {a.amount} damage",
    B.Retreat: lambda s, a: "Retreat from the battle",
    B.Stay: lambda s, a: "Stay for another close round",
}


def label(state: RiftState, action: Action) -> str:
    """The few words on the legal ``action``'s button (see :mod:`starlanes.engine.explain`):
    ``Build a Warp on Wren (E5a) - 4 resources``, ``Play Sabotage on the Artillery of Ossa
    (E1b)``. Raises KeyError for an action type this game does not have."""
    return LABELS[type(action)](state, action)
