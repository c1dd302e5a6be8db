"""``starlanes odds``: exact battle odds (Monte Carlo where the exact model cannot go)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from starlanes.cli.app import (
    ODDS_GAMES,
    GameOptions,
    app,
    chart_needs_matplotlib,
    games_help,
    parse_options,
    writable_file,
)
from starlanes.engine import BadOptionError, RecordError

if TYPE_CHECKING:
    from starlanes.analysis.odds import OddsReport

CASUALTY_POLICIES = ("heuristic", "weakest", "strongest", "cheapest")
"""The names of ``starlanes.analysis.odds.TARGETING``, written here (like the defaults
below) so that the command's options do not import the analysis package."""
RETREAT_POLICIES = ("never", "heuristic")
"""The names of ``starlanes.analysis.odds.RETREATS``."""
DEFAULT_CASUALTIES = "heuristic"
"""``starlanes.analysis.odds.DEFAULT_CASUALTIES``."""
DEFAULT_RETREAT = "never"
"""``starlanes.analysis.odds.DEFAULT_RETREAT``."""


@app.command("odds")
def odds_command(
    game: Annotated[str, typer.Argument(help=games_help(ODDS_GAMES))],
    attacker: Annotated[str, typer.Option(
        help="Attacking fleet, e.g. '3 fighter, 2 carrier, destroyer/1, 2 infantry': KIND/N "
             "is a unit with N damage; ground units in a space battle are carried.")] = "",
    defender: Annotated[str, typer.Option(
        help="Defending fleet (in a ground battle: the planet's landed units).")] = "",
    ground: Annotated[bool, typer.Option(
        "--ground", help="A ground battle: the attacker lands on the defender's planet.")] = False,
    faction: Annotated[str, typer.Option(
        help="Factions 'ATTACKER,DEFENDER' (either may be empty: printed unit stats).")] = "",
    upgrades: Annotated[str, typer.Option(
        help="Planet upgrades of the defended planet (ground battle), comma-separated.")] = "",
    attacker_cards: Annotated[str, typer.Option(
        help="Battle OCC-cards the attacker holds, comma-separated (played at the first "
             "chance; simulated).")] = "",
    defender_cards: Annotated[str, typer.Option(
        help="Battle OCC-cards the defender holds, comma-separated.")] = "",
    home: Annotated[str, typer.Option(
        help="Space battle: the sides holding a planet in the battle's system (their "
             "Defensive Ring units gain LP and shields): attacker, defender or both.")] = "",
    casualties: Annotated[str, typer.Option(
        help="Targeting (casualty) policy: " + ", ".join(CASUALTY_POLICIES)
        + ".")] = DEFAULT_CASUALTIES,
    retreat: Annotated[str, typer.Option(
        help="Retreat policy: " + ", ".join(RETREAT_POLICIES) + ".")] = DEFAULT_RETREAT,
    method: Annotated[str, typer.Option(
        help="auto (exact where feasible), exact or monte-carlo.")] = "auto",
    trials: Annotated[int, typer.Option(
        help="Monte Carlo battles where the exact model cannot go: on the game engine for "
             "skills and cards it leaves out (70-400 per second), else of the same model "
             "past --max-states (thousands per second).")] = 2_000,
    seed: Annotated[int, typer.Option(help="Seed of the first Monte Carlo battle.")] = 0,
    max_states: Annotated[int, typer.Option(
        help="Largest exact state space (battle states: (attacker hit points + 1) x "
             "(defender hit points + 1)) before Monte Carlo (auto) or an error (exact).")
    ] = 200_000,
    option: GameOptions = None,
    from_record: Annotated[Path | None, typer.Option(
        "--from-record", help="Take the battle from this saved game record.")] = None,
    at: Annotated[int | None, typer.Option(
        help="With --from-record: the position after this many actions (default: the "
             "end); the battle running there, or the one the next action starts.")] = None,
    kind: Annotated[str, typer.Option(
        help="interstellar-ambitions: raid or invade.")] = "raid",
    level: Annotated[int, typer.Option(
        help="interstellar-ambitions: the planning level of the attack.")] = 1,
    attacker_bonus: Annotated[int, typer.Option(
        help="interstellar-ambitions: the attacker's raid or invade bonus.")] = 0,
    defender_bonus: Annotated[int, typer.Option(
        help="interstellar-ambitions: the defender's defence bonus.")] = 0,
    orders: Annotated[str, typer.Option(
        help="interstellar-ambitions: combat orders 'ATTACKER,DEFENDER', each listed, "
             "strongest or best.")] = "listed,listed",
    emergency: Annotated[str, typer.Option(
        help="interstellar-ambitions: emergency ship of an outnumbered defender: draw, "
             "none or a ship id.")] = "draw",
    defender_resources: Annotated[int, typer.Option(
        help="interstellar-ambitions: the defender's resources (what a raid can steal).")
    ] = 99,
    shadow_mod: Annotated[int | None, typer.Option(
        help="interstellar-ambitions: print Shadow Check odds for this modifier.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    chart: Annotated[Path | None, typer.Option(
        help="Write a PNG chart of the survivor distributions here (needs matplotlib, "
             "the plot extra).")] = None,
) -> None:
    """Odds of a battle: win, loss, mutual destruction and retreat, survivors, phases.

    Exact by dynamic programming over the game's own battle rules; where the exact model
    does not cover a battle (some skills, cards) or its state space is too large, the
    battle is simulated on the game engine and standard errors are shown."""
    from starlanes.analysis import odds as odds_mod
    from starlanes.terminal import out

    if game not in ODDS_GAMES:
        raise BadOptionError("battle odds are computed for rift-domination and "
                             f"interstellar-ambitions, not {game!r}")
    if chart is not None:
        writable_file(chart, "chart file")
        chart_needs_matplotlib("--chart", "leave --chart out")
    if game == "interstellar-ambitions":
        if ground or faction or upgrades or option or attacker_cards or defender_cards or home:
            raise BadOptionError("--ground, --faction, --upgrades, --option and the cards "
                                 "are rift-domination options")
        _ia(attacker, defender, kind, level, attacker_bonus, defender_bonus, orders,
            emergency, defender_resources, shadow_mod, from_record, at, as_json, chart)
        return
    kw = dict(casualties=casualties, retreat=retreat, method=method, trials=trials,
              seed=seed, max_states=max_states)
    if from_record is not None:
        if (attacker or defender or ground or faction or upgrades or option or attacker_cards
                or defender_cards or home):
            raise BadOptionError("--from-record takes the battle from the record; do not "
                                 "give fleets, factions, upgrades, cards or options")
        report = _from_record(game, from_record, at, kw)
    else:
        if at is not None:
            raise BadOptionError("--at needs --from-record")
        facs = [f.strip() or None for f in faction.split(",")] if faction else [None, None]
        if len(facs) != 2:
            raise BadOptionError("--faction takes 'ATTACKER,DEFENDER'")
        spec = odds_mod.RiftBattleSpec(
            odds_mod.parse_fleet(attacker), odds_mod.parse_fleet(defender), ground=ground,
            factions=(facs[0], facs[1]),
            upgrades=tuple(u.strip() for u in upgrades.split(",") if u.strip()),
            options=parse_options(option),
            cards=(_names(attacker_cards), _names(defender_cards)), home=_home(home))
        report = odds_mod.rift_odds(spec, **kw)
    if chart is not None:
        report.chart(chart)
    if as_json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        out.print(report.table(), markup=False, highlight=False, soft_wrap=True)
        if chart is not None:
            out.print(f"chart written to {chart}", markup=False, soft_wrap=True)


def _home(text: str) -> tuple[bool, bool]:
    names = set(_names(text))
    if "both" in names:
        names = {"attacker", "defender"}
    if names - {"attacker", "defender"}:
        raise BadOptionError(f"--home takes attacker, defender or both, not {text!r}")
    return ("attacker" in names, "defender" in names)


def _names(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _ia(attacker: str, defender: str, kind: str, level: int, attacker_bonus: int,
        defender_bonus: int, orders: str, emergency: str, defender_resources: int,
        shadow_mod: int | None, from_record: Path | None, at: int | None, as_json: bool,
        chart: Path | None) -> None:
    from starlanes.analysis import odds as odds_mod
    from starlanes.games.interstellar_ambitions.actions import LEVELS
    from starlanes.terminal import out

    if not 1 <= level <= len(LEVELS):
        raise BadOptionError(f"--level is a planning level, 1 to {len(LEVELS)} ("
                             + ", ".join(f"{i} {n}" for i, n in enumerate(LEVELS, 1))
                             + f"), not {level}")
    ords = tuple(o.strip() for o in orders.split(","))
    if len(ords) != 2:
        raise BadOptionError("--orders takes 'ATTACKER,DEFENDER'")
    shadow = None
    if shadow_mod is not None:
        shadow = odds_mod.shadow_check_odds(shadow_mod)
        if not attacker and from_record is None:
            if as_json:
                print(json.dumps({"modifier": shadow_mod, "success": {
                    f"{b},{o}": p for (b, o), p in shadow.items()}}, indent=2))
            else:
                out.print(_shadow_table(shadow_mod, shadow), markup=False, soft_wrap=True)
            return
    if from_record is not None:
        state = _replay("interstellar-ambitions", from_record, at)
        spec = odds_mod.spec_from_state(state, orders=(ords[0], ords[1]))
        if spec is None:
            raise odds_mod.OddsError("no combat waiting for orders at this position of "
                                     f"{from_record}")
    else:
        if at is not None:
            raise BadOptionError("--at needs --from-record")
        spec = odds_mod.IACombatSpec(
            odds_mod.parse_ships(attacker), odds_mod.parse_ships(defender), kind=kind,
            level=level, attacker_bonus=attacker_bonus, defender_bonus=defender_bonus,
            orders=(ords[0], ords[1]), emergency=emergency,
            defender_resources=defender_resources)
    report = odds_mod.ia_odds(spec)
    if chart is not None:
        report.chart(chart)
    if as_json:
        data = report.to_json()
        if shadow is not None:
            data["shadow_check"] = {f"{b},{o}": p for (b, o), p in shadow.items()}
        print(json.dumps(data, indent=2))
        return
    out.print(report.table(), markup=False, highlight=False, soft_wrap=True)
    if shadow is not None:
        out.print("\n" + _shadow_table(shadow_mod or 0, shadow), markup=False, soft_wrap=True)
    if chart is not None:
        out.print(f"chart written to {chart}", markup=False, soft_wrap=True)


def _shadow_table(mod: int, shadow: dict) -> str:
    lines = [f"shadow check success (modifier {mod:+d}): rows = cards the player discards, "
             "columns = cards the target discards",
             "        " + "".join(f"{o:>8}" for o in range(4))]
    for b in range(4):
        lines.append(f"  {b:>4}  " + "".join(f"{100 * shadow[(b, o)]:>7.1f}%" for o in range(4)))
    return "\n".join(lines)


def _replay(game: str, path: Path, at: int | None):
    from starlanes.engine import GameRecord
    from starlanes.engine import replay as replay_record

    record = GameRecord.load(path)
    if record.game != game:
        raise RecordError(f"{path} is a record of {record.game}, not {game}")
    n = len(record.actions) if at is None else at
    if not 0 <= n <= len(record.actions):
        raise BadOptionError(f"--at {n} is outside the record (0..{len(record.actions)})")
    return replay_record(record, verify=False, upto=n)


def _from_record(game: str, path: Path, at: int | None, kw: dict) -> OddsReport:
    from starlanes.analysis import odds as odds_mod
    from starlanes.engine import GameRecord
    from starlanes.engine import replay as replay_record

    record = GameRecord.load(path)
    if record.game != game:
        raise RecordError(f"{path} is a record of {record.game}, not {game}")
    n = len(record.actions) if at is None else at
    if not 0 <= n <= len(record.actions):
        raise BadOptionError(f"--at {n} is outside the record (0..{len(record.actions)})")
    state = replay_record(record, verify=False, upto=n)
    if state.battle is not None:
        return odds_mod.odds_of_battle(state, **kw)
    if n < len(record.actions):
        action = state.game.parse_action(state, record.actions[n])
        rep = odds_mod.action_odds(state, action, **kw)
        if rep is not None:
            return rep
    raise odds_mod.OddsError(f"no battle is running after action {n} of {path}, and the "
                             "next action starts none")
