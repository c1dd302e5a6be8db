"""The battle calculator's routes (the page ``/odds`` and its JSON API).

- ``GET /api/odds/games``: the games with a calculator;
- ``GET /api/odds/form/{game}``: what can be picked (units with their damage, settings);
- ``POST /api/odds``: ``{"game", "attacker", "defender", "settings"}`` -> the odds report
  (outcomes, survivor distributions, ``survivors_at_least``; Monte Carlo results say so
  and carry standard errors); 422 with the reason for anything the game refuses;
- ``GET /api/odds/position/{game_id}?action=`` (the seat's token): the battle that seat is
  in (or that its legal action would start), as a filled-in form, read from a determinisation for the seat (its own knowledge only);
  ``{"position": null}`` when it is in none.

The server knows no game here: everything game-specific is in each game's
``odds_calculator`` companion module (:mod:`starlanes.analysis.odds.calculator`). Every
request is bounded: body size (pydantic limits, and the server's body limit), units per
side, Monte Carlo battles, the exact state space, the seconds of an engine simulation and
the orders a 'best' order search tries (:class:`Limits`); the calculation runs
in the thread pool and the limits middleware rate-limits each client.
"""

from __future__ import annotations

import functools
import random
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from starlanes.engine import BadOptionError, StarlanesError, UnknownGameError

from .errors import Unprocessable

WEB_LIMITS_UNITS = 60
WEB_LIMITS_TRIALS = 400
WEB_LIMITS_STATES = 200_000
WEB_LIMITS_SECONDS = 3.0
"""An engine simulation (battles the exact model does not cover) stops after this long."""
WEB_LIMITS_BEST_ORDERS = 120
"""A 'best' combat order search tries at most this many orders (5 different ships)."""

Value = int | str | list[Annotated[str, Field(max_length=64)]]


class OddsRequest(BaseModel):
    """A battle to compute: fleets as text (``"3 fighter, destroyer/1"``) and settings
    from the game's form."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64)
    attacker: str = Field(max_length=1000)
    defender: str = Field(default="", max_length=1000)
    settings: dict[Annotated[str, Field(max_length=64)], Value] = Field(default={},
                                                                         max_length=32)


def _calculator(game: str) -> Any:
    from starlanes.analysis.odds.calculator import calculator
    from starlanes.analysis.odds.rd_position import OddsError

    try:
        return calculator(game)
    except (UnknownGameError, OddsError) as e:
        raise Unprocessable(str(e)) from None


@functools.lru_cache(maxsize=8)
def _game(game: str) -> Any:
    """The game with its packaged content and default options (the calculator's)."""
    from starlanes.engine import game_class

    cls = game_class(game)
    return cls(players=max(2, cls.min_players))


@functools.lru_cache(maxsize=8)
def _form(game: str) -> dict[str, Any]:
    return {"game": game, **_calculator(game).form(_game(game))}


def router() -> APIRouter:
    """The calculator's routes, to include in the server app."""
    r = APIRouter()

    @r.get("/api/odds/games")
    def odds_games() -> dict[str, Any]:
        from starlanes.analysis.odds.calculator import calculator_games

        return {"games": calculator_games(),
                "limits": {"units": WEB_LIMITS_UNITS, "trials": WEB_LIMITS_TRIALS,
                           "max_states": WEB_LIMITS_STATES, "seconds": WEB_LIMITS_SECONDS,
                           "best_orders": WEB_LIMITS_BEST_ORDERS}}

    @r.get("/api/odds/form/{game}")
    def odds_form(game: str) -> dict[str, Any]:
        return _form(game)

    @r.post("/api/odds")
    def odds_compute(body: OddsRequest) -> dict[str, Any]:
        from starlanes.analysis.odds.calculator import Limits

        module = _calculator(body.game)
        limits = Limits(WEB_LIMITS_UNITS, WEB_LIMITS_TRIALS, WEB_LIMITS_STATES,
                        WEB_LIMITS_SECONDS, WEB_LIMITS_BEST_ORDERS)
        try:
            report = module.compute(_game(body.game), body.attacker, body.defender,
                                    dict(body.settings), limits)
        except (StarlanesError, BadOptionError) as e:
            raise Unprocessable(str(e)) from None
        return report.to_json()

    @r.get("/api/odds/position/{game_id}")
    def odds_position(game_id: str, request: Request,
                      action: Annotated[str, Query(max_length=500)] = "",
                      authorization: str | None = Header(default=None)) -> dict[str, Any]:
        service = request.app.state.service
        live = service.live(game_id)
        token = authorization.partition(" ")[2].strip() if authorization else None
        seat = service.seat_of(live, token)
        state = live.state
        game = live.row.game
        try:
            module = _calculator(game)
        except Unprocessable:
            return {"game": game, "position": None}
        # the determinisation's randomness comes from the operating system
        world = state.determinize(seat, random.Random(secrets.randbits(64)))
        try:
            found = module.position(world, seat, action)
        except StarlanesError as e:
            raise Unprocessable(str(e)) from None
        return {"game": game, "position": found}

    return r
