"""The battle calculator's routes (the page ``/odds`` and its JSON API); each calculation
runs bounded and in its turn (:mod:`.odds_api`).

- ``GET /api/odds/games``: the games with a calculator;
- ``GET /api/odds/form/{game}``: what can be picked (units with their damage, settings);
- ``POST /api/odds``: ``{"game", "attacker", "defender", "settings"}`` -> the odds report
  (outcomes, survivor distributions, ``survivors_at_least``; Monte Carlo results say so
  and carry standard errors); 422 with the reason for anything the game refuses;
- ``GET /api/odds/position/{game_id}?action=`` (the seat's token): the battle that seat is
  in (or that its legal action would start), as a filled-in form, read from a
  determinisation for the seat (its own knowledge only); ``{"position": null}`` when it is
  in none.
"""

from __future__ import annotations

import random
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from starlanes.engine import StarlanesError

from .errors import Unprocessable
from .odds_api import (
    AT_ONCE,
    CPU_SECONDS,
    GATE,
    WEB_LIMITS_BEST_ORDERS,
    WEB_LIMITS_SECONDS,
    WEB_LIMITS_STATES,
    WEB_LIMITS_TRIALS,
    WEB_LIMITS_UNITS,
    calculator_for,
    estimate,
    form_for,
)

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


def router() -> APIRouter:
    """The calculator's routes, to include in the server app."""
    r = APIRouter()

    @r.get("/api/odds/games")
    def odds_games() -> dict[str, Any]:
        from starlanes.analysis.odds.calculator import calculator_games

        return {"games": calculator_games(),
                "limits": {"units": WEB_LIMITS_UNITS, "trials": WEB_LIMITS_TRIALS,
                           "max_states": WEB_LIMITS_STATES, "seconds": WEB_LIMITS_SECONDS,
                           "best_orders": WEB_LIMITS_BEST_ORDERS,
                           "cpu_seconds": CPU_SECONDS, "at_once": AT_ONCE}}

    @r.get("/api/odds/form/{game}")
    def oddsform_for(game: str) -> dict[str, Any]:
        return form_for(game)

    @r.post("/api/odds")
    def odds_compute(body: OddsRequest) -> dict[str, Any]:
        from starlanes.analysis.odds.calculator import Limits

        cost = estimate(form_for(body.game), body.attacker, body.defender)
        limits = cost.limits(Limits(WEB_LIMITS_UNITS, WEB_LIMITS_TRIALS, WEB_LIMITS_STATES,
                                    WEB_LIMITS_SECONDS, WEB_LIMITS_BEST_ORDERS))
        out = GATE.compute_elsewhere(body.game, body.attacker, body.defender,
                                     dict(body.settings), limits)
        if cost.reduced and out.get("method") != "exact":
            out["note"] = "; ".join(x for x in (out.get("note") or "", (
                f"a large battle: estimated from {cost.trials} battles instead of "
                f"{WEB_LIMITS_TRIALS}, to keep the server quick for everyone")) if x)
        out["cost"] = cost.json()
        return out

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
            module = calculator_for(game)
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
