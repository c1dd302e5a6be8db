"""Ratings: a rated game updates its players' ratings exactly once (also across a restart
between its last move and the update), unrated games change nothing, leaderboards, the bot
ratings from the ladder, and recompute."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from starlanes.server.app import create_app
from starlanes.server.community.models import AccountRow, RatedGameRow, RatingRow
from starlanes.server.community.ratings import (
    PROVISIONAL_GAMES,
    Ratings,
    display,
    rated_options,
    recompute_database,
)

from .conftest import test_config

GAME = "galactic-domination"


LADDER = {"games": {GAME: {"bots": {
    "random": {"spec": "random", "mu": 18.0, "sigma": 2.0, "games": 40},
    "heuristic": {"spec": "heuristic", "mu": 30.0, "sigma": 2.0, "games": 40}}}}}
"""The bot ladder the tests' servers load (the packaged one is checked in test_ladder_cli)."""


def make_app(url: str, ladder: dict[str, Any] | None = None) -> Any:
    """An app on ``url`` whose ratings load ``ladder`` (default :data:`LADDER`), written
    beside an SQLite file or into a temporary folder."""
    import tempfile
    from pathlib import Path

    app = create_app(url, bot_workers=0, config=test_config())
    path = Path(tempfile.mkdtemp(prefix="starlanes-ladder-")) / "ladder.json"
    path.write_text(json.dumps(LADDER if ladder is None else ladder))
    app.state.community.ratings.ladder_path = path
    return app


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'ratings.db'}"


@pytest.fixture
def app_client(sqlite_url) -> Iterator[TestClient]:
    with TestClient(make_app(sqlite_url)) as c:
        yield c


def accounts(client: TestClient, *names: str) -> list[int]:
    """Accounts made directly in the store (each with a session, as a logged-in player)."""
    community = client.app.state.community
    ids = []
    with community.store.session() as s:
        for name in names:
            row = AccountRow(name=name, name_key=name.casefold())
            s.add(row)
            s.flush()
            ids.append(row.id)
    for i in ids:
        community.sessions.create(i)
    return ids


RATED_CLOCK = {"clock_seconds": 600.0, "clock_kind": "game"}
"""A time control a rated game may have (the server's least is 5 minutes a player)."""


def seat_game(client: TestClient, seats: list[int | None], rated: bool = True,
              seed: int | None = None, game: str = GAME,
              options: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """A game created by the service with one human seat per entry of ``seats`` (an
    account id, or None for a guest), every seat joined; returns its id and tokens."""
    service = client.app.state.community.service

    async def go() -> tuple[str, list[str]]:
        live = await service.create(game, len(seats), ["human"] * len(seats), options or {},
                                    seed=seed, rated=rated, **(RATED_CLOCK if rated else {}))
        tokens = []
        for i, account in enumerate(seats):
            _, token = await service.join(live.id, f"player {i}", i, account_id=account)
            tokens.append(token)
        return live.id, tokens

    return client.portal.call(go)


def play(client: TestClient, game_id: str, tokens: list[str], moves: int = 10**6) -> None:
    """Play the human seats (each its last legal action) for ``moves`` actions or until the
    game is over by its rules; then wait for the rating updates."""
    service = client.app.state.community.service

    async def go() -> None:
        live = service.games[game_id]
        for _ in range(moves):
            if live.over:
                break
            seat = live.waiting_for()
            await service.act(game_id, tokens[seat], live.seq,
                              str(live.state.legal_actions()[-1]))
        await client.app.state.community.ratings.settle()

    client.portal.call(go)


def lose_on_time(client: TestClient, game_id: str, loser: int) -> None:
    """End the game as a turn clock with ``timeout = "lose"`` does: the outcome stored,
    then the change pushed (the listeners see it); waits for the rating updates."""
    service = client.app.state.community.service

    async def go() -> None:
        live = service.games[game_id]
        others = [i for i in range(len(live.seats)) if i != loser]
        outcome = {"reason": "timeout", "loser": loser,
                   "ranks": [len(others) if i == loser else 0 for i in range(len(live.seats))]}
        async with live.lock:
            await service.writer.run(lambda: service.store.set_outcome(game_id, outcome))
            live.row.outcome = outcome
            live.version += 1
        service._after_change(live)
        await client.app.state.community.ratings.settle()

    client.portal.call(go)


def finish(client: TestClient, game_id: str, tokens: list[str], loser: int = 1) -> None:
    """A few moves, then ``loser`` runs out of time."""
    play(client, game_id, tokens, moves=4)
    lose_on_time(client, game_id, loser)


def table(client: TestClient) -> dict[str, tuple[float, float, int]]:
    with client.app.state.community.store.session() as s:
        return {f"{r.player}/{r.game}": (r.mu, r.sigma, r.games)
                for r in s.scalars(select(RatingRow).where(RatingRow.player.like("a:%")))}


def rated_count(client: TestClient) -> int:
    with client.app.state.community.store.session() as s:
        return s.scalar(select(func.count()).select_from(RatedGameRow))


# ---------------------------------------------------------------------- once only
def test_rated_game_updates_once(db_url) -> None:
    with TestClient(make_app(db_url)) as client:
        ann, bob = accounts(client, "Ann", "Bob")
        game_id, tokens = seat_game(client, [ann, bob])
        finish(client, game_id, tokens, loser=1)
        ratings = client.app.state.community.ratings
        live = client.app.state.community.service.live(game_id)
        winner = 0
        after = table(client)
        assert rated_count(client) == 1
        assert set(after) == {f"a:{ann}/{GAME}", f"a:{bob}/{GAME}"}
        keys = [f"a:{ann}", f"a:{bob}"]
        first = ratings.rating(keys[winner], GAME)
        second = ratings.rating(keys[1 - winner], GAME)
        assert first["games"] == second["games"] == 1
        assert first["provisional"] and first["rating"] > second["rating"]
        assert first["mu"] > 25 > second["mu"]
        board = ratings.leaderboard(GAME)  # the account join on this database too
        assert [e["name"] for e in board if not e["bot"]] == ["Ann", "Bob"]
        assert {e["name"] for e in board if e["bot"]} == {"random", "heuristic"}
        # the listener again, the start hook again, a direct second update: nothing moves
        async def listener_again() -> None:
            ratings.on_change(live)
            await ratings.settle()

        client.portal.call(listener_again)
        client.portal.call(ratings.start)
        assert ratings.rate(game_id, GAME, keys, live.ranking()) is False
        ratings._done.clear()  # as a fresh process that has not seen it rated
        client.portal.call(listener_again)
        client.portal.call(ratings.start)
        assert table(client) == after and rated_count(client) == 1


def test_restart_between_last_move_and_update(sqlite_url, monkeypatch) -> None:
    real = Ratings.rate
    calls: list[str] = []

    def fail_once(self: Ratings, game_id: str, *args: Any) -> bool:
        calls.append(game_id)
        if len(calls) == 1:
            raise RuntimeError("the server stopped before the update")
        return real(self, game_id, *args)

    monkeypatch.setattr(Ratings, "rate", fail_once)
    with TestClient(make_app(sqlite_url)) as client:
        ann, bob = accounts(client, "Ann", "Bob")
        game_id, tokens = seat_game(client, [ann, bob])
        finish(client, game_id, tokens, loser=0)
        assert client.app.state.community.service.live(game_id).over
        assert rated_count(client) == 0 and table(client) == {}
    with TestClient(make_app(sqlite_url)) as client:  # the start hook rates it
        assert rated_count(client) == 1
        assert {v[2] for v in table(client).values()} == {1}
    with TestClient(make_app(sqlite_url)) as client:  # and never again
        assert rated_count(client) == 1
        assert {v[2] for v in table(client).values()} == {1}
    assert calls == [game_id, game_id]


# ---------------------------------------------------------------------- unrated games
@pytest.mark.parametrize("case", ["not rated", "guest seat", "seeded", "content option",
                                  "same account twice"])
def test_unrated_games_change_nothing(app_client, case) -> None:
    ann, bob = accounts(app_client, "Ann", "Bob")
    seats: list[int | None] = [ann, bob]
    kwargs: dict[str, Any] = {}
    if case == "not rated":
        kwargs["rated"] = False
    elif case == "guest seat":
        seats = [ann, None]
    elif case == "seeded":
        kwargs["seed"] = 11
    elif case == "same account twice":
        seats = [ann, ann]
    game_id, tokens = seat_game(app_client, seats, **kwargs)
    if case == "content option":  # as if created with a content pack
        app_client.app.state.community.service.live(game_id).row.options = {
            "content": "house-rules"}
    finish(app_client, game_id, tokens)
    assert app_client.app.state.community.service.live(game_id).over
    client_start = app_client.app.state.community.ratings.start
    app_client.portal.call(client_start)
    assert rated_count(app_client) == 0 and table(app_client) == {}


def test_rated_option_set() -> None:
    assert rated_options(GAME, {})
    assert rated_options("galactic-empires", {"seat_setup": ["", ""]})
    assert not rated_options(GAME, {"content": "pack"})
    assert not rated_options(GAME, {"no_such_option": 1})
    assert not rated_options("no-such-game", {})


# ---------------------------------------------------------------------- leaderboards
def test_leaderboard_bots_and_recompute(app_client, sqlite_url) -> None:
    ratings = app_client.app.state.community.ratings
    ann, bob, cy = accounts(app_client, "Ann", "Bob", "Cy")
    results = [(ann, bob), (ann, cy), (bob, cy)]  # the first of each pair wins
    for first, second in results:
        game_id, tokens = seat_game(app_client, [first, second])
        finish(app_client, game_id, tokens, loser=1)
    incremental = table(app_client)
    assert rated_count(app_client) == 3
    assert all(v[2] == 2 for v in incremental.values())

    board = ratings.leaderboard(GAME)
    players = [e for e in board if not e["bot"]]
    assert [e["name"] for e in players] == ["Ann", "Bob", "Cy"]
    shown = [e["rating"] for e in board]
    assert shown == sorted(shown, reverse=True)
    assert [e["rank"] for e in board][0] == 1
    assert all(e["provisional"] for e in players)  # 2 games < PROVISIONAL_GAMES
    assert PROVISIONAL_GAMES == 5
    for e in players:
        assert e["rating"] == ratings.rating(e["player"], GAME)["rating"]
    # bots from the packaged ladder on the same scale, marked
    bots = {e["name"]: e for e in board if e["bot"]}
    assert {"random", "heuristic"} <= set(bots)
    listed = ratings.bots(GAME)
    assert [b["name"] for b in listed] == [b.name for b in app_client.app.state
                                           .community.config.bots]
    by_name = {b["name"]: b["rating"] for b in listed}
    assert by_name["heuristic"] > by_name["random"]
    assert ratings.nearest_bot(GAME, by_name["heuristic"] + 1) == "heuristic"
    assert ratings.nearest_bot(GAME, -10_000) == min(by_name, key=by_name.get)
    # bots did not move in games with players (none played here), profiles list games
    assert ratings.profile(f"a:{ann}") == [
        {"game": GAME, "rating": ratings.rating(f"a:{ann}", GAME)["rating"], "games": 2,
         "provisional": True}]
    assert ratings.profile("a:999") == []
    fresh = ratings.rating("a:999", GAME)
    assert fresh == {"rating": display(25.0, 25 / 3), "mu": 25.0, "sigma": round(25 / 3, 4),
                     "games": 0, "provisional": True}

    assert ratings.recompute() == 3
    assert table(app_client) == incremental
    assert ratings.recompute(GAME) == 3 and ratings.recompute("rift-domination") == 0
    assert table(app_client) == incremental
    # what `starlanes ratings recompute --db URL` runs
    assert recompute_database(sqlite_url, test_config()) == 3
    assert table(app_client) == incremental


def test_bot_seat_takes_part_without_moving(app_client) -> None:
    ratings = app_client.app.state.community.ratings
    service = app_client.app.state.community.service
    (ann,) = accounts(app_client, "Ann")
    before = ratings.rating("bot:random", GAME)

    async def go() -> tuple[str, str]:
        live = await service.create(GAME, 2, ["human", "random"], {}, rated=True,
                                    **RATED_CLOCK)
        _, token = await service.join(live.id, "Ann", 0, account_id=ann)
        return live.id, token

    game_id, token = app_client.portal.call(go)
    play(app_client, game_id, [token, token], moves=1)  # Ann (seat 0, first) moves once
    lose_on_time(app_client, game_id, 1)
    assert rated_count(app_client) == 1
    assert ratings.rating("bot:random", GAME) == before
    assert ratings.rating(f"a:{ann}", GAME)["games"] == 1
    with service.store.session() as s:
        changes = s.get(RatedGameRow, game_id).changes
    assert [c["player"] for c in changes] == [f"a:{ann}", "bot:random"]
    assert changes[1]["before"] == pytest.approx([before["mu"], before["sigma"]], abs=1e-3)


# ---------------------------------------------------------------------- the API
def test_ratings_api(app_client) -> None:
    r = app_client.get(f"/api/ratings/{GAME}")
    assert r.status_code == 200
    body = r.json()
    assert body["game"] == GAME and body["provisional_games"] == PROVISIONAL_GAMES
    assert all(e["bot"] for e in body["leaderboard"])  # no players yet
    assert {"rank", "name", "player", "rating", "games", "provisional", "bot"} <= set(
        body["leaderboard"][0])
    r = app_client.get(f"/api/ratings/{GAME}/bots")
    assert r.status_code == 200
    assert [b["name"] for b in r.json()["bots"]][:2] == ["random", "heuristic"]
    for path in ("/api/ratings/no-such-game", "/api/ratings/no-such-game/bots"):
        r = app_client.get(path)
        assert r.status_code == 400 and "error" in r.json()
    assert app_client.get(f"/api/ratings/{GAME}?limit=0").status_code == 422
    page = app_client.get("/leaderboard")
    assert page.status_code == 200 and "ladder.js" in page.text


def test_ladder_file_loaded_only_for_the_measured_spec(tmp_path) -> None:
    ladder = {"games": {GAME: {"bots": {
        "heuristic": {"spec": "heuristic", "mu": 30.0, "sigma": 1.0, "games": 9},
        "random": {"spec": "something-else", "mu": 40.0, "sigma": 1.0, "games": 9}}}}}
    app = make_app(f"sqlite:///{tmp_path / 'l.db'}", ladder)
    with TestClient(app) as client:
        ratings = client.app.state.community.ratings
        assert ratings.rating("bot:heuristic", GAME) == {
            "rating": display(30.0, 1.0), "mu": 30.0, "sigma": 1.0, "games": 9,
            "provisional": False}
        assert ratings.rating("bot:random", GAME)["games"] == 0


def test_ladder_file_not_loaded_for_a_search_bot_whose_game_defaults_changed(tmp_path) -> None:
    """A catalogue spec such as ``mcts:scale=1,seconds=2`` is relative to the game's search
    defaults: a ladder entry measured when they resolved it to another agent is left out,
    one that still resolves to the agent measured is loaded."""
    from starlanes.agents.registry import resolved_spec

    normal, hard = "mcts:scale=1,seconds=2", "mcts:scale=4,seconds=5"
    assert {b.name: b.spec for b in test_config().bots}["mcts-normal"] == normal
    stale = resolved_spec(hard, GAME).replace("depth=40", "depth=39")
    ladder = {"games": {GAME: {"bots": {
        "mcts-normal": {"spec": normal, "resolved": resolved_spec(normal, GAME),
                        "mu": 33.0, "sigma": 1.0, "games": 9},
        "mcts-hard": {"spec": hard, "resolved": stale, "mu": 41.0, "sigma": 1.0,
                      "games": 9}}}}}
    app = make_app(f"sqlite:///{tmp_path / 'l.db'}", ladder)
    with TestClient(app) as client:
        ratings = client.app.state.community.ratings
        assert ratings.rating("bot:mcts-normal", GAME)["mu"] == 33.0
        assert ratings.rating("bot:mcts-hard", GAME)["games"] == 0


def test_game_over_by_its_rules_is_rated(app_client, monkeypatch) -> None:
    ann, bob = accounts(app_client, "Ann", "Bob")
    # the server's secret draw made 0: with each seat's last legal action a drawn seed's
    # game runs to 150-5,500 actions, this one ends by its rules after 175 (a seed given
    # by the creator would make the game unrated)
    monkeypatch.setattr("starlanes.server.service.secrets",
                        SimpleNamespace(randbits=lambda bits: 0))
    game_id, tokens = seat_game(app_client, [ann, bob])
    play(app_client, game_id, tokens)
    live = app_client.app.state.community.service.live(game_id)
    assert len(live.state.history) == 175
    assert live.state.is_terminal() and live.row.outcome is None
    assert rated_count(app_client) == 1
    ratings = app_client.app.state.community.ratings
    ranks = live.ranking()
    shown = [ratings.rating(f"a:{a}", GAME)["rating"] for a in (ann, bob)]
    if ranks[0] == ranks[1]:
        assert shown[0] == shown[1]
    else:
        assert (shown[0] > shown[1]) == (ranks[0] < ranks[1])
