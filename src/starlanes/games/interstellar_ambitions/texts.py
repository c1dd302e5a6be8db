"""Player-facing text of Interstellar Ambitions content, built from the loaded content.

Every entry's words come from its ``text`` in the content files; the ``*_body`` functions
give that one wording to the action descriptions (:mod:`.explain`) and the catalogue
(:mod:`.catalogue`) alike. Techs, planets and ships also carry their effects as hooks of one
vocabulary (docs/content/interstellar-ambitions.md, "The hook vocabulary"); an entry of a
content override written without a ``text`` is worded from its hooks by
:func:`hook_text`, which words each hook kind once. Nothing here names a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import ACTIONS, LEVELS

if TYPE_CHECKING:  # pragma: no cover
    from .content import IAContent

RES_WORDS = ("food", "ore", "science", "coin")

_HOOKS: dict[str, str] = {
    "produce_extra": "+{n} {arg} each time you PRODUCE",
    "produce_marker": "the planet produces {n} more",
    "colonise_discount": "colonising costs {n} {arg} less",
    "research_discount": "research costs {n} science less (never below 1)",
    "build_discount": "ships cost {n} ore less to build (never below 1)",
    "repair_free": "BUILD repairs cost nothing",
    "raid_bonus": "+{n} to your total when you raid",
    "invade_bonus": "+{n} to your total when you invade",
    "defence_bonus": "+{n} to your total when you are attacked",
    "bombard_bonus": "+{n} bombard points when you bombard",
    "bombard_shield": "bombardment of your planets counts {n} points less",
    "sabotage_bonus": "+{n} to your sabotage checks",
    "infiltrate_bonus": "+{n} to your infiltrate checks",
    "shadow_bonus": "+{n} to all your shadow checks",
    "shadow_shield": "-{n} to shadow checks made against you",
    "vp_bonus": "+{n} VP at game end while you own it",
    "vp_marker": "+{n} VP at game end while you own the planet",
    "extra_die_vs": "rolls {n} extra die against {arg} ships",
    "ally_extra_die": "your ships named {arg} roll {n} extra die while this ship fights",
    "pre_battle_destroy": "before the battle, destroys one enemy {arg}",
    "pre_battle_leave": "before the battle, rolls a die and leaves the fight on {n} or less",
    "defence_only": "defends only: never joins its owner's attacks",
    "natural6_extra_hit": "each natural 6 it rolls scores {n} extra hit",
    "hit_on": "hits on {n} or more instead of 4",
    "armour": "ignores {n} hit of each attack on it",
    "total_bonus": "+{n} to its side's combat total while it survives",
}


def hook_text(kind: str, n: int, arg: str) -> str:
    """One hook in words (``produce_extra``, 1, ``food`` -> ``+1 food each time you
    PRODUCE``); an unknown kind is shown as its name."""
    tpl = _HOOKS.get(kind)
    if tpl is None:
        return kind.replace("_", " ")
    return tpl.format(n=n, arg=arg.replace("_", " "))


def effects_text(fx: tuple[tuple[str, int, str], ...]) -> str:
    """All hooks of a card, joined; empty when it has none."""
    return "; ".join(hook_text(k, n, a) for k, n, a in fx)


def cost_text(cost: tuple[int, ...]) -> str:
    """``(1, 2, 0, 0)`` -> ``1 food + 2 ore``; ``nothing`` when all zero."""
    parts = [f"{v} {RES_WORDS[i]}" for i, v in enumerate(cost) if v]
    return " + ".join(parts) or "nothing"


def _sentence(text: str) -> str:
    """``text`` stripped and ending with a full stop (empty stays empty)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


def tech_body(c: IAContent, t: int) -> str:
    """What a tech does: its content ``text``, else its hooks in words."""
    card = c.techs[c.tech_ids[t]]
    return _sentence(card.text or effects_text(c.tech_fx[t]) or "no special effect")


def planet_body(c: IAContent, p: int) -> str:
    """What a planet is and does: its content ``text``, else its type and hooks in words."""
    card = c.planets[c.planet_ids[p]]
    if card.text:
        return _sentence(card.text)
    kind = "A Home World" if card.type == "home" else f"A {card.type} planet"
    fx = effects_text(c.planet_fx[p])
    return _sentence(f"{kind}" + (f"; {fx}" if fx else ""))


def ship_body(c: IAContent, k: int) -> str:
    """What a ship does: its content ``text``, else its hooks in words (empty for none)."""
    card = c.ships[c.ship_ids[k]]
    return _sentence(card.text or effects_text(c.ship_fx[k]))


def tech_text(c: IAContent, t: int) -> str:
    """``Hydroponics: A starting tech. +1 food each time you PRODUCE. Costs 0
    science, worth 1 VP to its owner.``"""
    card = c.techs[c.tech_ids[t]]
    return (f"{card.name}: {tech_body(c, t)} Costs {card.cost} science, worth "
            f"{card.vp} VP to its owner.")


def planet_text(c: IAContent, p: int) -> str:
    """A planet's name, what it is and does, colonise cost, VP and maximum level."""
    card = c.planets[c.planet_ids[p]]
    return (f"{card.name}: {planet_body(c, p)} Colonise cost "
            f"{cost_text(c.planet_cost[p])}; {card.vp} VP at level {card.max_level} (its "
            f"maximum).")


def ship_text(c: IAContent, k: int) -> str:
    """A ship's name, what it is and does (its content ``text``, which gives its deck, class,
    combat, bombard and upkeep), its cost and VP; an entry without ``text`` is worded from
    its numbers and hooks."""
    card = c.ships[c.ship_ids[k]]
    cost = f"{card.cost} ore" if card.deck == "standard" else (
        f"{card.cost} coin" if card.deck == "merc" else "nothing")
    if card.text:
        return f"{card.name}: {ship_body(c, k)} Costs {cost}, worth {card.vp} VP."
    upkeep = f", upkeep {card.upkeep} coin" if card.upkeep else ""
    body = ship_body(c, k)
    return (f"{card.name}: {card.deck} {card.cls} ship, cost {cost}{upkeep}, "
            f"combat {card.combat}, bombard {card.bombard}, {card.vp} VP."
            + (f" {body}" if body else ""))


def shadow_text(c: IAContent, k: int) -> str:
    """A Shadow card's name, kind and text."""
    card = c.shadow[c.shadow_ids[k]]
    check = "always works, no medal" if card.kind == "standard" else (
        f"needs {'an' if card.kind[0] in 'aeiou' else 'a'} {card.kind} check (4+ on a die), "
        f"a Shadow Medal if it works")
    return f"{card.name} ({card.kind}: {check}): {shadow_body(c, k)}"


def shadow_body(c: IAContent, k: int) -> str:
    """What a Shadow card does: its content ``text``, else its effect's name."""
    card = c.shadow[c.shadow_ids[k]]
    return _sentence(card.text or card.effect.replace("_", " "))


def ambition_body(c: IAContent, k: int) -> str:
    """What an ambition asks: its content ``text``, else its condition's name."""
    card = c.ambitions[c.ambition_ids[k]]
    return _sentence(card.text or card.condition.replace("_", " "))


def event_body(c: IAContent, k: int) -> str:
    """What a colony event does: its content ``text``, else its effect's name."""
    card = c.events[c.event_ids[k]]
    return _sentence(card.text or card.effect.replace("_", " "))


def ambition_text(c: IAContent, k: int) -> str:
    card = c.ambitions[c.ambition_ids[k]]
    return f"{card.name} ({card.kind}): {ambition_body(c, k).rstrip('.')}"


def event_text(c: IAContent, k: int) -> str:
    card = c.events[c.event_ids[k]]
    keep = " (kept on the planet)" if card.keep else ""
    return f"{card.name}{keep}: {event_body(c, k)}"


def shadow_target_words(c: IAContent, card: int, arg: str, whose: str = "your") -> str:
    """A Shadow card's target ``arg`` in words: ``P2.mossfall`` -> ``P2's planet Mossfall``,
    ``fleet:strong`` (Fast Track) -> ``your FLEET at STRONG token``; ``whose`` names the
    player of the card (``your`` on a button, ``P0's`` in the log)."""
    from .actions import parse_token

    eff = c.shadow_effect[card][0]
    parts = arg.split(".")
    if arg == "self":
        return "yourself" if whose == "your" else whose.removesuffix("'s")
    if eff == "new_opportunities":
        return f"the face-up {arg} cards"
    if eff == "fast_track":
        return f"{whose} {token_words(parse_token(arg))} token"
    who = parts[0]
    if len(parts) == 1:
        return who
    rest = parts[1]
    if eff == "exchange_plans":
        return (f"{whose} {token_words(parse_token(parts[1]))} token and {who}'s "
                f"{token_words(parse_token(parts[2]))} token")
    if ":" in rest:
        return f"{who}'s {token_words(parse_token(rest))} token"
    if rest in c.planet_index:
        return f"{who}'s planet {c.planets[rest].name}"
    if rest in c.tech_index:
        return f"{who}'s tech {c.techs[rest].name}"
    base = rest.split("/", 1)[0]
    if base in c.ship_index:
        dmg = rest.partition("/")[2]
        return f"{who}'s ship {c.ships[base].name}" + (f" ({dmg} damage)" if dmg else "")
    return arg.replace("_", " ")


def token_words(code: int) -> str:
    """``colonise:strong`` -> ``COLONISE at STRONG``."""
    return f"{ACTIONS[code >> 2].upper()} at {LEVELS[code & 3].upper()}"
