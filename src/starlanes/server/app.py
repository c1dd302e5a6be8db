"""HTTP and websocket routes of ``starlanes serve``.

JSON over HTTP for everything a client asks or does; a websocket per viewer for fresh views.
Seat tokens travel in the ``Authorization: Bearer`` header (HTTP) or the ``token`` query
parameter (websocket, seat links). Errors are answered as ``{"error": reason}`` with the
status of the :mod:`.errors` class (400 bad request, 401 no or wrong token, 403 not allowed,
404 unknown game, 409 stale action, 413 body too large, 422 illegal action or something the
server does not offer, 429 a limit reached, 503 the database unavailable; 429 and 503 carry
``Retry-After``). Nothing a request says names server code, files or limits: bots are named
from the catalogue, content from the content packs (see :mod:`.config`, docs/security.md).

Routes (all under ``/api`` except the pages and the health checks):

- ``GET /healthz`` alive; ``GET /readyz`` ready or not ready (the database answers);
- ``GET /api/games`` lobby; ``POST /api/games`` create; ``GET /api/catalogue`` games and
  their options, the bots and the content packs;
- ``POST /api/games/{id}/join`` take a seat -> token and seat link (for the logged-in
  account with its ``X-CSRF-Token`` header: :mod:`.community.accounts`);
- ``GET /api/games/{id}/view`` a seat's view (token) or the spectators' (none);
- ``POST /api/games/{id}/actions`` ``{"seq": n, "action": notation}``;
- ``POST /api/games/{id}/undo`` ``{"seq": n}``; ``POST /api/games/{id}/rematch`` (a seated
  player of the finished game: a rematch offer to the same players, :mod:`.community.social`);
- ``POST /api/games/{id}/resign``, ``POST /api/games/{id}/abort`` and
  ``POST /api/games/{id}/draw`` ``{"answer": "offer"|"accept"|"decline"}`` (a seat's way
  out of a game: :mod:`.endings`);
- ``GET /api/games/{id}/describe?action=`` the explanation of one legal action (deciding seat);
- ``GET /api/games/{id}/odds?action=`` battle odds for a seat (of an action, or of its battle);
- ``GET /api/games/{id}/layout`` static drawing data (board geometry, content names);
- ``GET /api/games/{id}/record`` the game record once the game is over;
- ``GET /api/games/{id}/replay?step=&seat=`` the view at a step (spectators' view of a
  running game; any seat's once it is over); ``POST /api/replay`` the same for an uploaded
  game record ``{"record": ..., "step": n, "seat": s}``, with the game's layout;
- ``GET /api/rules/{game}`` the rules reference; ``WS /ws/games/{id}?token=``;
- ``/odds`` the battle calculator page and ``/api/odds...`` its API (:mod:`.odds_api`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from starlanes.engine import GameRecord, StarlanesError, game_class, game_ids

from . import clocks
from .bots import BotPool
from .community import Community, community_router
from .community.admin import SuspendedSeats
from .community.chat import hidden_authors, replay_chat, with_chat
from .community.identity import CSRF_HEADER, optional_account, writing_account
from .config import ServerConfig
from .errors import ServerError
from .hygiene import AccessLog, SecurityHeaders, origin_allowed
from .lifecycle import Lifecycle, OpenArchived
from .limits import ClientLimits, client_address, network_key, rate_key, redis_rates
from .replays import record_replay
from .service import GameService
from .setup_routes import setups_router
from .store import Store, StoreConflict, StoreError, database_url, upgrade

WEB = Path(__file__).resolve().parent.parent / "web"

log = logging.getLogger("starlanes.server")


class CreateGame(BaseModel):
    """A new game: the game id, the player count, per seat ``human`` or a bot's catalogue
    name, the game's options (``content``: a content pack's name), an optional seed (the
    game is then marked as seeded by its creator) and a turn clock in seconds (0: none)."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=1, le=64)
    seats: list[str] = Field(min_length=1, max_length=64)
    options: dict[str, Any] = {}
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    clock_seconds: float = Field(default=0.0, ge=0)
    clock_kind: str = Field(default="move", max_length=16)
    """``move`` (clock_seconds per decision) or ``game`` (in all, plus the increment)."""
    clock_increment: float = Field(default=0.0, ge=0)
    timeout: str = Field(default="bot", max_length=16)
    """When a seat's time runs out: ``bot`` (a bot decides for it) or ``lose``."""
    rated: bool = False
    setup: list[Annotated[str, Field(max_length=2000)]] = Field(default=[], max_length=64)
    """Per seat, what it brings (a Galactic Empires Standard Game deck code), '' for none."""


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    seat: int | None = Field(default=None, ge=0, le=64)
    setup: str = Field(default="", max_length=2000)
    """What the seat brings (a deck code), before the game's first move."""


class ReplayRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    record: dict[str, Any]
    step: int = Field(default=0, ge=0)
    seat: int | None = Field(default=None, ge=0, le=64)


class Act(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=500)


class Undo(BaseModel):
    """An undo names the move the player saw (``seq`` of their view): a stale one is 409."""

    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=0)


class DrawAnswer(BaseModel):
    """A draw offer made or answered: ``offer``, ``accept`` or ``decline``."""

    model_config = ConfigDict(extra="forbid")

    answer: Literal["offer", "accept", "decline"]


class Refusal(BaseModel):
    """What every refusal answers: the reason in words (a 422 for a request outside the
    schema also lists each problem under ``detail``)."""

    error: str
    detail: list[dict[str, Any]] | None = None


REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": Refusal, "description": text} for status, text in (
        (400, "a value the game refuses (an illegal action, a bad option)"),
        (401, "no seat token, or a wrong one"),
        (403, "not allowed for this seat or this game now"),
        (404, "no such game"),
        (409, "stale: the game moved since the view the request was made from"),
        (413, "the request body is larger than the server reads"),
        (422, "the request does not match the API, or names what the server does not offer"),
        (429, "a limit was reached; Retry-After says when to try again"),
        (503, "the database cannot be reached; Retry-After says when to try again"),
    )}
"""The refusals documented on every API operation of the OpenAPI schema."""


def _document_refusals(app: FastAPI) -> None:
    """Add :data:`REFUSALS` to every ``/api/`` operation's documented responses."""
    for route in app.routes:
        if isinstance(route, APIRoute) and route.path.startswith("/api/"):
            route.responses = {**REFUSALS, **route.responses}


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def _reader(request: Request) -> int | None:
    """The logged-in account reading a replay or a record (its mutes and blocks hide
    chat), or None."""
    acc = optional_account(request)
    return acc.id if acc is not None else None


def _error(status: int, reason: str, retry_after: int | None = None) -> JSONResponse:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return JSONResponse({"error": reason}, status_code=status, headers=headers)


def create_app(db_url: str | None = None, bot_workers: int = 2, migrate: bool = True,
               config: ServerConfig | None = None,
               bind_url: str = "http://127.0.0.1:8000",
               redis_url: str | None = None) -> FastAPI:
    """The server app on the database at ``db_url`` (default: SQLite in the user's data
    directory), with ``bot_workers`` processes for bots (0: in threads), under ``config``
    (default: the defaults, no file). Seat links are built from ``config.public_url`` or,
    without one, from ``bind_url`` (the address the server listens on): never from a
    request's Host header. With ``redis_url`` the process is one of several serving the
    same database (:mod:`.cluster`): it runs no migration (``starlanes db upgrade`` does),
    bot seats are played by the bot service (``starlanes bots``) and rate limits are
    counted in Redis."""
    config = config or ServerConfig()
    url = database_url(db_url)
    cluster = None
    if redis_url:
        from .cluster import Cluster, advertised_url
        from .jobs import deployment_prefix

        cluster = Cluster(redis_url, deployment_prefix(redis_url, config.limits.redis_prefix),
                          advertised_url(bind_url))
        migrate, bot_workers = False, 0  # threads: clocks
    if migrate:
        upgrade(url)
    service = GameService(Store(url), BotPool(bot_workers), config, cluster=cluster)
    base_url = (config.public_url or bind_url).rstrip("/")

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        yield
        await service.stop()

    app = FastAPI(title="starlanes", lifespan=lifespan, docs_url="/api/docs",
                  openapi_url="/api/openapi.json", redoc_url=None)
    app.state.service = service
    app.state.config = config
    app.state.lifecycle = Lifecycle(service)  # expiry, idle games, archiving: its sweep
    community = app.state.community = Community(service, config)
    community.base_url = base_url  # links in mails
    networks = config.proxy_networks()

    def client_of(scope: Any) -> str:
        return client_address(scope, networks)

    # outermost last: the access log sees every answer, limits answer before the app
    app.add_middleware(OpenArchived, service=service)  # a finished game read in a thread
    app.add_middleware(SuspendedSeats, community=community)  # suspended accounts' seat links
    if cluster is not None:
        from .cluster import Forward, HopIn

        app.add_middleware(Forward, service=service, networks=networks)  # to the owner
        app.add_middleware(ClientLimits, config=config,
                           storage=redis_rates(redis_url, config.limits.redis_prefix))
        app.add_middleware(HopIn, cluster=cluster)  # forwarded: counted where it came
    else:
        app.add_middleware(ClientLimits, config=config)
    app.add_middleware(SecurityHeaders)
    if config.access_log:
        app.add_middleware(AccessLog, client=client_of)

    @app.exception_handler(ServerError)
    async def _server_error(_req: Request, e: ServerError) -> JSONResponse:
        return _error(e.status, str(e), getattr(e, "retry_after", None)
                      if e.status in (429, 503) else None)

    @app.exception_handler(StoreError)
    async def _store_error(_req: Request, e: StoreError) -> JSONResponse:
        if isinstance(e, StoreConflict):
            return _error(409, f"{e}; look at the board again")
        log.warning("a request could not be stored: %s", e)
        return _error(503, f"the game server cannot store anything right now ({e}); "
                           "nothing was changed", retry_after=5)

    @app.exception_handler(HTTPException)
    async def _framework(req: Request, e: HTTPException) -> JSONResponse:
        # the framework's own refusals (no such path, a method the path does not take, a
        # body that is not JSON) in the server's shape
        reason = str(e.detail)
        if e.status_code == 404 and reason == "Not Found":
            reason = f"nothing is served at {req.url.path[:200]}"
        elif e.status_code == 405:
            allowed = (e.headers or {}).get("Allow", "")
            reason = f"{req.method} is not allowed at this path (allowed: {allowed})"
        response = _error(e.status_code, reason)
        for name, value in (e.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(RequestValidationError)
    async def _outside_schema(_req: Request, e: RequestValidationError) -> JSONResponse:
        # a request outside the schema: every problem in words under "error", and the
        # list itself under "detail"
        problems = [{k: v for k, v in p.items() if k in ("loc", "msg", "type")}
                    for p in e.errors()]
        reason = "; ".join("the body is not valid JSON" if p["type"] == "json_invalid" else
                           f"{'.'.join(str(x) for x in p['loc'][1:]) or 'body'}: {p['msg']}"
                           for p in problems)
        return JSONResponse({"error": reason or "the request does not match the API",
                             "detail": problems}, status_code=422)

    @app.exception_handler(StarlanesError)
    async def _bad_input(_req: Request, e: StarlanesError) -> JSONResponse:
        return _error(400, str(e))

    @app.exception_handler(Exception)
    async def _unexpected(req: Request, e: Exception) -> JSONResponse:
        log.exception("unexpected error answering %s %s", req.method, req.url.path)
        return _error(500, "the server failed to answer this request; it was logged")

    # -------------------------------------------------------------- health
    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        """Alive: the server answers."""
        return {"status": "ok"}

    unready: dict[str, str | None] = {"reason": None}
    """Why the last readiness check failed (None: it passed), so a polling load balancer
    logs each change once, not each poll."""

    def not_ready(reason: str, retry_after: int) -> JSONResponse:
        if unready["reason"] != reason:
            log.warning("not ready: %s", reason)
            unready["reason"] = reason
        return JSONResponse({"status": "not ready"}, status_code=503,
                            headers={"Retry-After": str(retry_after)})

    @app.get("/readyz", responses={503: {"description": "not ready"}})
    async def readyz() -> JSONResponse:
        """Ready: the database answers a query, and with several processes Redis answers
        and this process is subscribed. Answers only ``{"status": "ready"}`` or, 503 with
        Retry-After, ``{"status": "not ready"}``: why goes to the server's log, never to
        the asker (it may name hosts, drivers or files)."""
        try:
            await asyncio.wait_for(asyncio.to_thread(service.store.ping), 5)
        except Exception as e:  # noqa: BLE001 - any fault of the database is "not ready"
            return not_ready(f"the database does not answer: {e or 'no answer in 5 s'}", 5)
        if cluster is not None:
            try:
                await cluster.ping()
            except Exception as e:  # noqa: BLE001 - any Redis fault is "not ready"
                return not_ready(f"Redis does not answer: {e or 'no answer in 3 s'}", 2)
        if unready["reason"] is not None:
            log.info("ready again")
            unready["reason"] = None
        return JSONResponse({"status": "ready"})

    # -------------------------------------------------------------- lobby
    @app.get("/api/catalogue")
    def catalogue() -> dict[str, Any]:
        games = []
        for gid in game_ids():
            cls = game_class(gid)
            games.append({
                "id": gid, "title": cls.title, "min_players": cls.min_players,
                "max_players": cls.max_players, "summary": getattr(cls, "summary", ""),
                "options": [{"name": o.name, "kind": o.kind.__name__, "default": o.default,
                             "choices": list(o.choices), "minimum": o.minimum,
                             "maximum": o.maximum, "help": o.help}
                            for o in cls.option_set.specs
                            if o.name not in ("content", "content_set", "seat_setup")],
            })
        fair = config.fair_play
        rated = {"min_game_seconds": fair.rated_min_game_seconds,
                 "min_turn_seconds": fair.rated_min_turn_seconds,
                 "rule": (f"Rated games need a clock of at least "
                          f"{clocks.duration(fair.rated_min_game_seconds)} per player for "
                          f"the whole game or {clocks.duration(fair.rated_min_turn_seconds)} "
                          "per turn, every human seat held by an account, and count only "
                          "when every seat has made a move.")}
        return {"games": games, "rated": rated, **service.catalogue.public()}

    # Routes that read or change a live game are coroutines: they run in the event loop,
    # one at a time, so they see a game between two actions, never in the middle of one.
    # Routes that replay a whole game or read the database run in the thread pool, on a
    # state captured once (a live state is never changed, only replaced).
    @app.get("/api/games")
    async def lobby() -> dict[str, Any]:
        return {"games": service.lobby()}

    async def causer(request: Request) -> tuple[int | None, str]:
        """Who causes a game a request makes, for the quotas (:mod:`.quotas`): the
        logged-in account when the request carries its ``X-CSRF-Token`` header (401
        without a session, 403 a wrong token, as for a join), else None; and the client's
        network."""
        account_id = None
        if CSRF_HEADER in request.headers:
            account_id = (await asyncio.to_thread(writing_account, request)).id
        return account_id, network_key(client_of(request.scope))

    @app.post("/api/games", status_code=201)
    async def create(body: CreateGame, request: Request) -> dict[str, Any]:
        account_id, network = await causer(request)
        live = await service.create(body.game, body.players, body.seats, body.options,
                                    body.seed, body.clock_seconds,
                                    owner=rate_key(client_of(request.scope)),
                                    setups=body.setup, rated=body.rated,
                                    clock_kind=body.clock_kind,
                                    clock_increment=body.clock_increment,
                                    timeout=body.timeout, owner_account=account_id,
                                    owner_network=network)
        return {"id": live.id, "url": f"/games/{live.id}", "seeded": live.row.seeded}

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join, request: Request) -> dict[str, Any]:
        # with the session's X-CSRF-Token header, the seat is the logged-in account's
        # (named after it: 401 without a session, 403 a wrong token); without, a guest's
        account_id, name = None, body.name
        if CSRF_HEADER in request.headers:
            acc = await asyncio.to_thread(writing_account, request)
            account_id, name = acc.id, acc.name
        seat, token = await service.join(game_id, name, body.seat, body.setup,
                                         account_id=account_id,
                                         network=network_key(client_of(request.scope)))
        link = f"/games/{game_id}?token={token}"
        return {"seat": seat, "token": token, "link": link, "url": base_url + link}

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(game_id: str, request: Request,
                      authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Offer a rematch of the finished game to its other seats (the seat token, or the
        logged-in account holding a seat with its CSRF token), or accept the open offer
        -> the offer (:mod:`.community.social`); a game with one human seat starts at
        once (``game_id``, and ``token``/``link`` of the new seat for a token)."""
        from .community.social import seat_or_account

        acc = await asyncio.to_thread(seat_or_account, request)
        return await community.offers.offer_rematch(
            game_id, _token(authorization), acc, network_key(client_of(request.scope)),
            owner=rate_key(client_of(request.scope)))

    # -------------------------------------------------------------- play
    @app.get("/api/games/{game_id}/view")
    async def view(game_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        return service.view(game_id, _token(authorization))

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: Act,
                  authorization: str | None = Header(default=None)) -> dict[str, Any]:
        ack = await service.act(game_id, _token(authorization), body.seq, body.action)
        return {"applied": ack.applied, "seq": ack.seq}

    @app.post("/api/games/{game_id}/undo")
    async def undo(game_id: str, body: Undo,
                   authorization: str | None = Header(default=None)) -> dict[str, Any]:
        return {"seq": await service.undo(game_id, _token(authorization), body.seq)}

    @app.post("/api/games/{game_id}/resign")
    async def resign(game_id: str,
                     authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """The seat resigns: it is placed last and the game ends -> ``{"outcome": ...}``."""
        return {"outcome": await service.resign(game_id, _token(authorization))}

    @app.post("/api/games/{game_id}/abort")
    async def abort(game_id: str,
                    authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """The seat calls the game off before its first decision (403 once it has made
        one): nobody wins or loses -> ``{"outcome": ...}``."""
        return {"outcome": await service.abort(game_id, _token(authorization))}

    @app.post("/api/games/{game_id}/draw")
    async def draw(game_id: str, body: DrawAnswer,
                   authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Offer a draw (two-player games), or accept or decline the other seat's offer
        -> ``{"draw_offer": {"seat", "seq"} or null, "outcome": ... or null}``."""
        token = _token(authorization)
        if body.answer == "offer":
            return {"draw_offer": await service.offer_draw(game_id, token), "outcome": None}
        outcome = await service.answer_draw(game_id, token, body.answer == "accept")
        return {"draw_offer": None, "outcome": outcome}

    @app.get("/api/games/{game_id}/describe")
    async def describe(game_id: str, action: str,
                 authorization: str | None = Header(default=None)) -> dict[str, Any]:
        return service.describe(game_id, _token(authorization), action)

    @app.get("/api/games/{game_id}/odds")
    def odds(game_id: str, action: str | None = None,
             authorization: str | None = Header(default=None)) -> dict[str, Any]:
        return service.odds(game_id, _token(authorization), action)

    @app.get("/api/games/{game_id}/layout")
    def layout(game_id: str) -> dict[str, Any]:
        # static drawing data, worked out once per game content (a thread: the first time
        # takes some milliseconds)
        live = service.live(game_id)
        return live.game.layout(live.state)

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str, request: Request) -> Response:
        # the game's chat goes with it, less what the asker muted or blocked
        rec = with_chat(service.record(game_id), service.store, game_id,
                        hidden_authors(service.store, _reader(request)))
        return Response(rec.to_json(), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay")
    def replay(game_id: str, request: Request, step: int | None = None,
               seat: int | None = None) -> dict[str, Any]:
        view = service.replay(game_id, step, seat)
        chat = replay_chat(service.store, game_id, bool(view.get("finished")), step,
                           hidden_authors(service.store, _reader(request)))
        return {**view, "chat": chat}

    @app.post("/api/replay")
    def replay_record(body: ReplayRecord) -> dict[str, Any]:
        import json

        rec = GameRecord.from_json(json.dumps(body.record))
        options = service.catalogue.engine_options(rec.game, dict(rec.options))
        return record_replay(rec, body.step, body.seat, options)

    from .odds_routes import router as odds_router

    app.include_router(odds_router())

    @app.get("/api/rules/{game}")
    def rules(game: str) -> dict[str, Any]:
        from starlanes.reference import reference_text

        game_class(game)  # 400 naming the known games for an unknown id
        return {"game": game, "text": reference_text(game)}

    @app.websocket("/ws/games/{game_id}")
    async def socket(ws: WebSocket, game_id: str, token: str | None = None) -> None:
        if not origin_allowed(ws.headers.get("origin"), config, ws.headers.get("host"),
                              ws.url.scheme):
            await ws.close(code=4403, reason="this page's origin may not open the game")
            return
        try:
            sub = service.subscribe(game_id, token)
        except ServerError as e:
            if e.status == 503:  # 4503: connect again (a close before accepting is a 403)
                await ws.accept()
            await ws.close(code=4000 + e.status, reason=str(e)[:120])
            return
        await ws.accept()
        # Send views as they come while reading what the client sends (nothing but its
        # goodbye), so a viewer that leaves, or a server that stops, ends this at once.
        ended_by_server = False

        async def send() -> None:
            nonlocal ended_by_server
            ended_by_server = await _send_views(ws, sub.queue)
            group.cancel_scope.cancel()

        async def receive() -> None:
            await _read_until_closed(ws)
            group.cancel_scope.cancel()

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(send)
                group.start_soon(receive)
        finally:
            service.unsubscribe(game_id, sub)
        if ended_by_server:
            with contextlib.suppress(Exception):
                await ws.close(code=1012, reason="the server is restarting: connect again")

    app.include_router(setups_router(service, WEB))
    app.include_router(community_router(community, WEB))

    # -------------------------------------------------------------- pages
    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")

        @app.get("/", include_in_schema=False)
        def index() -> FileResponse:
            return FileResponse(WEB / "index.html")

        @app.get("/odds", include_in_schema=False)
        def odds_page() -> FileResponse:
            return FileResponse(WEB / "odds.html")

        @app.get("/replay", include_in_schema=False)
        def replay_page() -> FileResponse:
            return FileResponse(WEB / "replay.html")

        @app.get("/games/{game_id}", include_in_schema=False)
        def table(game_id: str) -> FileResponse:
            return FileResponse(WEB / "table.html")

    _document_refusals(app)
    return app


async def _send_views(ws: WebSocket, queue: asyncio.Queue[str | None]) -> bool:
    """Send every queued view; True when the server ended the stream (None queued)."""
    try:
        while True:
            text = await queue.get()
            if text is None:
                return True
            await ws.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return False


async def _read_until_closed(ws: WebSocket) -> None:
    """Read and drop client messages until the client closes or goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
