"""Errors of the game server, each with the HTTP status it is answered with.

Every one is raised before anything is stored or changed, so a refused request leaves the
game exactly as it was.
"""

from __future__ import annotations

from starlanes.engine import StarlanesError


class ServerError(StarlanesError):
    """Base class: ``status`` is the HTTP status code of the answer."""

    status = 400


class NotFound(ServerError):
    """No game with that id, or no such seat."""

    status = 404


class Unauthorized(ServerError):
    """No seat token, or a token that belongs to no seat of the game."""

    status = 401


class Forbidden(ServerError):
    """A valid token, but not allowed to do this (another seat's decision, a taken seat)."""

    status = 403


class Stale(ServerError):
    """The action was chosen at an older sequence number than the game's."""

    status = 409


class Illegal(ServerError):
    """The engine refused the action; the message is the engine's reason."""

    status = 422


class BadRequest(ServerError):
    """A request that names something impossible (a step outside the game, a bad record)."""

    status = 400


class Unprocessable(ServerError):
    """A well-formed request that asks for something the server does not offer: a bot not
    in the catalogue, an unknown content pack, an option that is not an option, a display
    name with control characters."""

    status = 422


class TooMany(ServerError):
    """A limit of the server was reached (open games, a bot budget); ``retry_after`` is
    the wait in seconds the answer suggests."""

    status = 429
    retry_after = 60


class Unavailable(ServerError):
    """The database cannot take writes now (unreachable, or its file was removed or
    replaced); nothing was stored. Answered 503 with ``Retry-After``."""

    status = 503
    retry_after = 5
