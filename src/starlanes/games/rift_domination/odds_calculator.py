"""The battle calculator's knowledge of Rift Domination (see
:mod:`starlanes.analysis.odds.calculator`): every unit with the damage it can carry,
space or ground battle, each side's faction (its battle abilities and unit stats), the
defended planet's combatant upgrades, the battle OCC-cards each side holds, the rule
options that change battles (``battle_fire``, ``weapon_industry``) and the policies.
Ground units in a space fleet are carried (they fight and take hits, ruling RD-OPEN-12)."""

from __future__ import annotations

from typing import Any

from starlanes.analysis.odds.calculator import Limits, Setting, Unit, count_units, read_settings
from starlanes.analysis.odds.policies import RETREATS, TARGETING, TARGETING_HELP
from starlanes.engine import Game

BATTLE_OPTIONS = ("battle_fire", "weapon_industry")
"""Game options that change a battle, offered as settings."""


def _settings(game: Game) -> list[Setting]:
    c = game.new_initial_state().content
    factions = (("", "none (printed unit stats)"),
                *((k, f.name) for k, f in c.factions.items()))
    cards = [(k, card.name) for k, card in c.cards.items() if card.timing == "battle"]
    repeats = {k: c.cards[k].count for k, _ in cards}
    ups = tuple((k, u.name) for k, u in c.upgrades.items() if u.combatant)
    out = [
        Setting("kind", "Battle", "choice", "space",
                choices=(("space", "space battle"), ("ground", "ground battle (landing)")),
                help="A ground battle: the attacker's ground units land on the defender's "
                     "planet, defended by its outpost, upgrades and landed units."),
        Setting("attacker_faction", "Attacker's faction", "choice", "", group="tech",
                side="attacker", choices=factions),
        Setting("defender_faction", "Defender's faction", "choice", "", group="tech",
                side="defender", choices=factions),
        Setting("attacker_home", "Attacker holds a planet in this system", "choice", False,
                group="tech", side="attacker", choices=((False, "no"), (True, "yes")),
                help="Space battle: its Defensive Ring units gain LP and shields."),
        Setting("defender_home", "Defender holds a planet in this system", "choice", False,
                group="tech", side="defender", choices=((False, "no"), (True, "yes")),
                help="Space battle: its Defensive Ring units gain LP and shields."),
        Setting("upgrades", "Planet upgrades (ground battle)", "many", [], group="tech",
                side="defender", choices=ups, most=len(ups)),
        Setting("attacker_cards", "Attacker's battle cards", "many", [], group="cards",
                side="attacker", choices=tuple(cards), most=6, repeats=repeats,
                help="Played at the first chance; the odds are then simulated."),
        Setting("defender_cards", "Defender's battle cards", "many", [], group="cards",
                side="defender", choices=tuple(cards), most=6, repeats=repeats),
    ]
    specs = {o.name: o for o in type(game).option_set.specs}
    for name in BATTLE_OPTIONS:
        o = specs[name]
        out.append(Setting(name, name.replace("_", " "), "choice", o.default, group="rules",
                           choices=tuple((x, x) for x in o.choices), help=o.help))
    out.append(Setting("casualties", "Who takes the hits", "choice", "heuristic",
                       group="policy", choices=tuple((k, f"{k}: {TARGETING_HELP[k]}")
                                                     for k in TARGETING)))
    out.append(Setting("retreat", "Retreat", "choice", "never", group="policy",
                       choices=tuple((k, f"{k}: {v}") for k, v in RETREATS.items())))
    return out


def form(game: Game) -> dict[str, Any]:
    """The calculator's form: units (damage up to LP - 1, the damage tiles a living unit
    can carry) and settings, as JSON."""
    c = game.new_initial_state().content
    units = [Unit(k, u.name, "ground" if u.ground else "ship", u.lp - 1,
                  f"cost {u.cost}, {u.lp} LP, {u.shields} shields, weapons close/mid/long "
                  f"{u.close}/{u.mid}/{u.long}").__dict__ for k, u in c.units.items()]
    return {"units": units, "settings": [s.json() for s in _settings(game)],
            "help": "Click units into each fleet; ground units in a space fleet ride in "
                    "its ships and fight too. Damage is LP lost (damage tiles)."}


def compute(game: Game, attacker: str, defender: str, settings: dict[str, Any],
            limits: Limits) -> Any:
    """The OddsReport of the battle; raises OddsError or BadOptionError on bad input."""
    from starlanes.analysis.odds import RiftBattleSpec, parse_fleet, rift_odds

    s = read_settings(_settings(game), settings)
    count_units(attacker, limits.units, "attacker")
    count_units(defender, limits.units, "defender")
    spec = RiftBattleSpec(
        parse_fleet(attacker, "attacker"), parse_fleet(defender, "defender"),
        ground=s["kind"] == "ground",
        factions=(s["attacker_faction"] or None, s["defender_faction"] or None),
        upgrades=tuple(s["upgrades"]), options={k: s[k] for k in BATTLE_OPTIONS},
        cards=(tuple(s["attacker_cards"]), tuple(s["defender_cards"])),
        home=(bool(s["attacker_home"]), bool(s["defender_home"])) if s["kind"] == "space"
        else (False, False))
    return rift_odds(spec, casualties=s["casualties"], retreat=s["retreat"],
                     trials=limits.trials, max_states=limits.max_states,
                     seconds=limits.seconds)


def position(state: Any, seat: int, action: str = "") -> dict[str, Any] | None:
    """The battle ``seat`` is in (or, with ``action``, a legal action's notation, the
    battle that action would start) as a filled-in form, from ``state`` (give a state
    determinised for the seat: only what it may see goes in), or None. The fleets' damage
    is what their LP lost so far (damage tiles and this battle's hits; shields come back
    in a new battle); the factions, who holds a planet in the system (Defensive Ring), the
    planet's combatant upgrades and the battle options are the game's. Cards in hand are left out. Raises NotationError for an action
    that is not legal."""
    if action:
        from starlanes.analysis.odds.battle import battle_after

        if state.current_player() != seat:
            return None
        state = battle_after(state, state.game.read_action(state, action))
        if state is None:
            return None
    b = getattr(state, "battle", None)
    if b is None or seat not in b.seats:
        return None
    fleets: list[dict[str, int]] = [{}, {}]
    for f in b.fighters.values():
        if not f.alive or f.building:
            continue
        wounds = max(0, f.lp_max - f.lp - f.ring)  # Defensive Ring's LP are lost first
        label = f"{f.kind}/{wounds}" if wounds else f.kind
        fleets[f.side][label] = fleets[f.side].get(label, 0) + 1

    def text(fleet: dict[str, int]) -> str:
        return ", ".join(f"{n} {k}" if n > 1 else k for k, n in fleet.items())

    fx = [getattr(state.fx[b.seats[s]], "faction", "") for s in (0, 1)]
    ups = list(state.planet_upgrades[b.planet]) if b.ground and b.planet >= 0 else []
    ups = [u for u in ups if state.content.upgrades[u].combatant]
    board = state.board
    system = board.system_of[b.point]
    held = {state.planet_owner[p] for p in board.system_planets[system]} if system >= 0 else set()
    settings = {
        "kind": "ground" if b.ground else "space",
        "attacker_home": not b.ground and b.seats[0] in held,
        "defender_home": not b.ground and b.seats[1] in held,
        "attacker_faction": fx[0] if fx[0] in state.content.factions else "",
        "defender_faction": fx[1] if fx[1] in state.content.factions else "",
        "upgrades": ups,
        **{k: state.options.get(k, v.default) for k, v in
           ((o.name, o) for o in type(state.game).option_set.specs) if k in BATTLE_OPTIONS},
    }
    return {"attacker": text(fleets[0]), "defender": text(fleets[1]), "settings": settings}
