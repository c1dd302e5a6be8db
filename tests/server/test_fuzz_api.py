"""Schemathesis over every operation of the server's OpenAPI schema (issue 23): whatever
a client sends, the server answers without a 5xx, every 4xx says why in words as
``{"error": reason}`` (a 422 for a request outside the schema also lists each problem under
``"detail"``), and the ``starlanes`` loggers log nothing at ERROR.

The schema comes from an app that is never started (the routes do not depend on the
database). The requests, as schemathesis generates and serializes them, go through a
``TestClient`` of a second app on a fresh SQLite file, started once for the module
(schemathesis' own ASGI transport would stop the app's lifespan after each operation and
start it again, and a stopped game service does not start again). That app is seeded
through the API first with real games: a rift-domination game of two humans with one seat
taken, a galactic-domination game of two ``random`` bots, a finished game, and a table of
humans with every seat taken for each game (and two more that only the operations ending
a game, resign, abort and draw, are given). A ``flatmap_case`` hook then puts, in most
generated requests, real values where the fuzzer would have invented them: a seeded
game's id, the token of the seat deciding now (or none, or another game's), the game's
seq, one of its legal actions or one bent out of shape, a real game's name and options of
real names with any values, the finished game's record with a few fields replaced. So the
fuzzing reaches the code behind the 404s and 401s; schemathesis' boundary-value cases
keep their invented values.

Bounded for CI: a fixed number of examples per operation, no deadline, derandomized (the
same draws each run; the ids, tokens and games' states differ). The websocket and the
static pages are not in the schema.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

schemathesis = pytest.importorskip("schemathesis", minversion="4",
                                   reason="the fuzz test needs schemathesis 4")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from starlanes.engine import game_class, game_ids  # noqa: E402
from starlanes.server.app import create_app  # noqa: E402

from .conftest import create, finish, join, test_config, view  # noqa: E402

MAX_EXAMPLES = int(os.environ.get("STARLANES_FUZZ_EXAMPLES", "30"))
"""Generated requests per operation (schemathesis adds its boundary-value cases to these):
few enough for CI; set ``STARLANES_FUZZ_EXAMPLES`` for a longer run, and
``STARLANES_FUZZ_RANDOM=1`` for other requests than CI's."""

FUZZ_SETTINGS = settings(max_examples=MAX_EXAMPLES, deadline=None,
                         derandomize=os.environ.get("STARLANES_FUZZ_RANDOM") != "1",
                         database=None, suppress_health_check=list(HealthCheck))


def _schema_document() -> dict[str, Any]:
    """The OpenAPI document of the server (an app never started, on no database file)."""
    app = create_app("sqlite://", bot_workers=0, migrate=False, config=test_config())
    app.state.service.writer.close()
    return app.openapi()


schema = schemathesis.openapi.from_dict(_schema_document())


# ---------------------------------------------------------------------- seeded games
@dataclass(eq=False)
class Seeded:
    """A game created through the API before the fuzzing, and the seat tokens known: those
    of the seeding, then those of the seats the fuzzer's own joins took."""

    id: str
    tokens: dict[int, str] = field(default_factory=dict)


@dataclass
class Seeds:
    """What the fuzzer may put in its requests; filled by the module's fixture."""

    games: list[Seeded] = field(default_factory=list)
    ending: list[Seeded] = field(default_factory=list)
    """Games only the operations that end a game (resign, abort, draw) are given: they
    end them, and the other operations keep running games to fuzz."""
    record: dict[str, Any] | None = None
    """The record of the finished game, for ``POST /api/replay``."""
    client: TestClient | None = None

    def now(self, game: Seeded) -> tuple[str | None, int, list[str]]:
        """The token of the seat deciding now (or, unknown, of another seat), the game's
        seq and the legal actions of that token's seat."""
        assert self.client is not None
        deciding = view(self.client, game.id)["waiting_for"]
        token = game.tokens.get(deciding) or next(iter(game.tokens.values()), None)
        v = view(self.client, game.id, token)
        return token, v["seq"], [a["notation"] for a in v["legal"]]

    def learn(self, case: Any, response: httpx.Response) -> None:
        """Keep the token of a seat the fuzzer took in a seeded game."""
        if case.path != "/api/games/{game_id}/join" or response.status_code != 200:
            return
        for game in self.games:
            if game.id == case.path_parameters.get("game_id"):
                answer = response.json()
                game.tokens[answer["seat"]] = answer["token"]


SEEDS = Seeds()


def _seed(client: TestClient) -> None:
    """Seed through the API: a rift-domination game of two humans, one seat taken; a
    galactic-domination game of two ``random`` bots (a short one: its bots play in the
    background of the fuzzing, and CI time is short); a finished game and its record; and
    for each game a table of humans with every seat taken, so that real tokens reach every
    game's actions, explanations and odds; two tables of two humans for the operations
    that end a game."""
    rift = create(client, "rift-domination", ["human", "human"])
    rift_token = join(client, rift, "Ann", 0)
    bots = create(client, "galactic-domination", ["random", "random"],
                  options={"turn_limit": 20})
    done = create(client, "galactic-domination", ["human", "random"], options={"turn_limit": 1})
    done_token = join(client, done, "Bea", 0)
    finish(client, done, done_token)
    record = client.get(f"/api/games/{done}/record")
    assert record.status_code == 200, record.text
    SEEDS.games = [Seeded(rift, {0: rift_token}), Seeded(bots), Seeded(done, {0: done_token})]
    for gid in sorted(game_ids()):
        n = game_class(gid).min_players
        table = create(client, gid, ["human"] * n)
        SEEDS.games.append(Seeded(table, {i: join(client, table, f"P{i}", i) for i in range(n)}))
    for gid in ("rift-domination", "galactic-domination"):
        table = create(client, gid, ["human", "human"])
        SEEDS.ending.append(Seeded(table, {i: join(client, table, f"E{i}", i)
                                           for i in range(2)}))
    SEEDS.record = record.json()
    SEEDS.client = client


# ---------------------------------------------------------------------- real values
KEEP = None
"""A draw that leaves the generated value as it is."""


def _pick(options: list[Any]) -> st.SearchStrategy[Any]:
    """One of ``options``, about evenly (``sampled_from`` leans to the first ones)."""
    return st.integers(0, 2**20).map(lambda i: options[i % len(options)])


def _maybe(strategy: st.SearchStrategy[Any], keep: int = 1,
           real: int = 1) -> st.SearchStrategy[Any]:
    """The generated value (``KEEP``) ``keep`` times in ``keep + real``, else a real one
    (the real one first: the simplest draw, the one Hypothesis tries most)."""
    return _pick([True] * real + [False] * keep).flatmap(
        lambda use: strategy if use else st.just(KEEP))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=5)
"""Any JSON value."""

WORDS = st.one_of(st.text(max_size=6), st.integers(-(2**70), 2**70).map(str),
                  _pick(["", " ", "-1", "0", "99999999999999999999", "1e9", "NaN", "None",
                         "end", "pass", "\u00a0", "\x00", "\u202e"]))
"""Words to put into a legal action's notation."""


def _notation(legal: list[str]) -> st.SearchStrategy[str]:
    """A legal action's notation (the simplest draw) or one bent out of shape: a word
    replaced, dropped, doubled or added; whitespace or case changed."""
    legal = legal or ["end"]  # a game over: drawn the same way (Hypothesis replays draws)

    def bend(args: tuple[str, int, int, str]) -> str:
        notation, how, at, word = args
        words = notation.split(" ")
        i = at % len(words)
        if how == 1:
            words[i] = word
        elif how == 2:
            del words[i]
        elif how == 3:
            words.insert(i, words[i])
        elif how == 4:
            words.append(word)
        elif how == 5:
            return "  ".join(words).upper()
        return " ".join(words)

    return st.tuples(_pick(legal), st.integers(0, 5), st.integers(0, 7), WORDS).map(bend)


OPTION_NAMES = sorted({spec.name for gid in game_ids()
                       for spec in game_class(gid).option_set.specs} | {"no_such_option"})


def _options() -> st.SearchStrategy[dict[str, Any]]:
    """Game options by real names (and one not), with any JSON values."""
    return st.dictionaries(_pick(OPTION_NAMES), JSON, max_size=3)


def _mutated_record(record: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """The finished game's record with up to three of its fields replaced: another game,
    other options, actions cut short or invented, wild numbers and strings."""
    actions = record["actions"]
    fields = {
        "game": _pick(sorted(game_ids())) | st.text(max_size=20),
        "version": st.text(max_size=5),
        "players": st.integers(-3, 70),
        "seed": st.integers(-(2**70), 2**70),
        "options": _options(),
        "seats": st.lists(st.text(max_size=10), max_size=8),
        "actions": st.integers(0, len(actions)).map(lambda k: actions[:k])
        | st.lists(st.text(max_size=20), max_size=4).map(lambda junk: actions[:5] + junk),
        "digest": st.text(max_size=20),
        "finished": st.booleans(),
        "scores": st.lists(st.integers(), max_size=4),
        "content_fingerprint": st.text(max_size=64),
    }
    return st.lists(_pick(sorted(fields)), max_size=3, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({n: fields[n] for n in names})).map(
        lambda changes: {**record, **changes})


@schema.hook
def flatmap_case(context: Any, case: Any) -> st.SearchStrategy[Any]:
    """Generated requests with, drawn for each, real values put in place of invented ones
    (schemathesis' boundary-value cases keep theirs)."""
    if not SEEDS.games:
        return st.just(case)
    ends = case.path.rsplit("/", 1)[-1] in ("resign", "abort", "draw")
    return _maybe(_pick(SEEDS.ending if ends else SEEDS.games), keep=1, real=3).flatmap(
        lambda game: _draw(case, game)).map(lambda d: _substitute(case, d))


def _draw(case: Any, game: Seeded | None) -> st.SearchStrategy[dict[str, Any]]:
    """Everything a request may take from the seeded games, drawn at once."""
    now = None
    if game is not None and "game_id" in case.path_parameters:
        # the seat deciding, seq and legal actions now (only where a token is taken)
        now = SEEDS.now(game) if _has_auth_header(case) else (None, 0, [])
    draw = {
        "game": st.just(game),
        "now": st.just(now),
        "notation": _notation(now[2]) if now else st.none(),
        "auth": _pick(["deciding", "deciding", "deciding", "none", "other game", KEEP]),
        "real": _maybe(st.integers(0, 2**20), keep=1, real=3),
        "rules": _maybe(_pick(sorted(game_ids()))),
        "step": st.integers(-1, 400),
        "seat": _pick([None, -1, 0, 1, 2, 5, 7]),
        "seats": st.lists(_pick(["human", "random", "heuristic"]), max_size=5),
        "options": _options(),
        "record": _mutated_record(SEEDS.record) if SEEDS.record else st.none(),
    }
    return st.fixed_dictionaries(draw)


def _substitute(case: Any, d: dict[str, Any]) -> Any:
    op = f"{case.method} {case.path}"
    real = d["real"]
    game: Seeded | None = d["game"]
    if d["now"] is not None:
        case.path_parameters = {**case.path_parameters, "game_id": game.id}
        deciding, seq, legal = d["now"]
        if d["auth"] is not KEEP and _has_auth_header(case):
            headers = case.headers.copy()
            headers.pop("Authorization", None)
            token = deciding if d["auth"] == "deciding" else _other_token(game, d["auth"])
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            case.headers = headers
        if real is not KEEP:
            if "action" in case.query:
                case.query = {**case.query, "action": d["notation"]}
            if op == "POST /api/games/{game_id}/actions":
                case.body = {"seq": seq, "action": d["notation"]}
            elif op == "POST /api/games/{game_id}/undo":
                case.body = {"seq": seq}
            elif op == "POST /api/games/{game_id}/join":
                case.body = {"name": f"Fuzz {real % 100}", "seat": d["seat"]}
    if op == "GET /api/rules/{game}" and d["rules"] is not KEEP:
        case.path_parameters = {"game": d["rules"]}
    if op == "POST /api/replay" and real is not KEEP and d["record"] is not None:
        case.body = {"record": d["record"], "step": max(d["step"], 0), "seat": d["seat"]}
    if op == "POST /api/games" and d["rules"] is not KEEP:
        # a human seat first: bots play until the human's turn, not to the end (CI time)
        seats = ["human", *d["seats"]]
        body = {"game": d["rules"], "players": len(seats), "seats": seats}
        if real is not KEEP:
            body["options"] = d["options"]
        case.body = body
    return case


def _has_auth_header(case: Any) -> bool:
    return any(p.name.lower() == "authorization" for p in case.operation.headers)


def _other_token(game: Seeded, which: str) -> str | None:
    """No token (``none``) or a token of another seeded game (``other game``)."""
    if which == "other game":
        return next((t for g in SEEDS.games if g is not game for t in g.tokens.values()), None)
    return None


# ---------------------------------------------------------------------- the app
class _ErrorRecords(logging.Handler):
    """What the ``starlanes`` loggers say at ERROR or above while the module runs, less
    what a test already failed on."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def reported(self, records: list[logging.LogRecord]) -> None:
        self.records = [r for r in self.records if r not in records]

    def formatted(self) -> list[str]:
        fmt = logging.Formatter("%(name)s %(levelname)s %(message)s")
        return [fmt.format(r) for r in self.records]


ERRORS = _ErrorRecords()


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory) -> Iterator[TestClient]:
    """A client of the app the fuzzer talks to (started once for the module), seeded with
    real games. Everything the ``starlanes`` loggers say at ERROR or above meanwhile
    (seeding, bots between two operations, shutdown) fails the module at its end."""
    logger = logging.getLogger("starlanes")
    ERRORS.records.clear()
    logger.addHandler(ERRORS)
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    app = create_app(f"sqlite:///{db}", bot_workers=0, config=test_config())
    try:
        # a 500 comes back as an answer (the check names the request), not as the
        # exception re-raised here; its traceback is in the log
        with TestClient(app, raise_server_exceptions=False) as client:
            _seed(client)
            yield client
    finally:
        SEEDS.games, SEEDS.record, SEEDS.client = [], None, None
        logger.removeHandler(ERRORS)
    assert not ERRORS.records, "\n\n".join(ERRORS.formatted())


def _send(client: TestClient, case: Any) -> httpx.Response:
    """The request of ``case``, as schemathesis serializes it, through ``client``: the
    app's lifespan is the client's, held for the whole module (schemathesis' own ASGI
    transport would stop and restart it around every operation)."""
    kwargs = case.as_transport_kwargs(base_url=str(client.base_url))
    request: dict[str, Any] = {k: kwargs[k] for k in ("method", "url", "headers", "params")
                               if kwargs.get(k) is not None}
    if "json" in kwargs:
        request["json"] = kwargs["json"]
    data = kwargs.get("data")
    if isinstance(data, (bytes, str)):
        request["content"] = data
    elif data is not None:
        request["data"] = data
    unsupported = {k for k, v in kwargs.items() if v and k in ("files", "cookies", "auth")}
    assert not unsupported, f"the schema grew {unsupported}: send them too"
    return client.request(**request)


# ---------------------------------------------------------------------- checks
def no_server_error(ctx: Any, response: Any, case: Any) -> None:
    """No 5xx, whatever was asked (503 and 500 included: the database is there)."""
    assert response.status_code < 500, (
        f"{response.status_code} for {case.method} {case.formatted_path}: {response.text[:500]}")


def refusal_gives_reason(ctx: Any, response: Any, case: Any) -> None:
    """Every 4xx is JSON with a reason in words under ``"error"`` (the framework's own
    refusals and requests outside the schema included); a 422 for a request outside the
    schema also lists each problem under ``"detail"``, each with a message."""
    status = response.status_code
    if not 400 <= status < 500:
        return
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"{status} without a JSON body: {response.text[:200]!r}") from None
    assert isinstance(body, dict), f"{status} answered {body!r}"
    reason = body.get("error")
    assert isinstance(reason, str) and reason.strip(), f"{status} gives no reason: {body!r}"
    detail = body.get("detail")
    if detail is None:
        return
    assert status == 422 and isinstance(detail, list) and detail, (
        f"{status} gives no reason: {body!r}")
    for item in detail:
        assert isinstance(item, dict) and str(item.get("msg", "")).strip(), (
            f"422 detail item without a message: {item!r}")


# ---------------------------------------------------------------------- the fuzzing
@schema.parametrize()
@FUZZ_SETTINGS
def test_every_operation_answers_without_server_error_and_refuses_with_a_reason(
        case, fuzz_client, caplog):
    caplog.clear()
    response = _send(fuzz_client, case)
    SEEDS.learn(case, response)
    logged = [r for r in caplog.records
              if r.name.startswith("starlanes") and r.levelno >= logging.ERROR]
    ERRORS.reported(logged)
    assert not logged, (
        f"{response.status_code} for\n    {case.as_curl_command()}\nand logged:\n"
        + "\n".join(f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}" for r in logged))
    case.validate_response(response, checks=[no_server_error, refusal_gives_reason])

