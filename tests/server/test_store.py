"""Persistence on SQLite and PostgreSQL: migrations, games rebuilt by replay after a restart,
undo truncating the action log, and the one-writer rule for seats and sequence numbers."""

from __future__ import annotations

import asyncio
import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from starlanes.server.app import create_app
from starlanes.server.store import NewAction, Store, StoreError, upgrade
from starlanes.server.writer import StoreWriter

from .conftest import auth


def _play(client: TestClient, gid: str, tokens: list[str], n: int, rng: random.Random) -> None:
    for _ in range(n):
        v = client.get(f"/api/games/{gid}/view").json()
        if v["result"]:
            return
        seat = v["waiting_for"]
        mine = client.get(f"/api/games/{gid}/view", headers=auth(tokens[seat])).json()
        notation = rng.choice(mine["legal"])["notation"]
        r = client.post(f"/api/games/{gid}/actions", json={"seq": mine["seq"], "action": notation},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text


def test_migrations_create_the_schema_and_are_idempotent(db_url):
    upgrade(db_url)
    upgrade(db_url)
    names = set(inspect(Store(db_url).engine).get_table_names())
    assert {"games", "seats", "actions", "alembic_version"} <= names


def test_a_restarted_server_rebuilds_every_game_by_replay(db_url):
    rng = random.Random(3)
    with TestClient(create_app(db_url, bot_workers=0)) as client:
        gid = client.post("/api/games", json={"game": "rift-domination", "players": 2,
                                              "seats": ["human", "human"], "seed": 5}).json()["id"]
        tokens = [client.post(f"/api/games/{gid}/join", json={"name": n, "seat": i}).json()["token"]
                  for i, n in enumerate(("Ann", "Bob"))]
        _play(client, gid, tokens, 60, rng)
        live = client.app.state.service.live(gid)
        seq, digest = live.seq, live.state.digest()
    with TestClient(create_app(db_url, bot_workers=0)) as client:
        live = client.app.state.service.live(gid)
        assert (live.seq, live.state.digest()) == (seq, digest)
        # the seat tokens still work after the restart, and play goes on
        _play(client, gid, tokens, 5, rng)
        assert client.app.state.service.live(gid).seq > seq


def test_a_sequence_number_is_stored_once(db_url):
    upgrade(db_url)
    store = Store(db_url)
    with TestClient(create_app(db_url, bot_workers=0)) as client:
        gid = client.post("/api/games", json={"game": "galactic-domination", "players": 2,
                                              "seats": ["human", "human"]}).json()["id"]
    store.append_action(gid, 0, 0, "pass", "d" * 16)
    with pytest.raises(StoreError, match="could not be stored"):
        store.append_action(gid, 0, 1, "pass", "e" * 16)
    assert [a.notation for a in store.actions(gid)] == ["pass"]
    store.truncate_actions(gid, 0)
    assert store.actions(gid) == []


def test_a_seat_is_claimed_once(db_url):
    upgrade(db_url)
    store = Store(db_url)
    with TestClient(create_app(db_url, bot_workers=0)) as client:
        gid = client.post("/api/games", json={"game": "galactic-domination", "players": 2,
                                              "seats": ["human", "heuristic"]}).json()["id"]
    assert store.claim_seat(gid, 0, "Ann", "a" * 64)
    assert not store.claim_seat(gid, 0, "Bob", "b" * 64)
    assert not store.claim_seat(gid, 1, "Bob", "b" * 64)  # a bot seat
    assert [s.name for s in store.seats(gid)][0] == "Ann"


def test_an_unreachable_database_is_one_clear_error():
    with pytest.raises(StoreError, match="cannot upgrade database"):
        upgrade("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=1")


def test_the_writer_stores_concurrent_actions_and_refuses_only_a_taken_one(db_url):
    """Group commit: actions of several games asked for at once are all stored; when one of
    them takes a sequence number already stored, only that one is refused (StoreError) and
    the others of its batch are stored all the same."""
    upgrade(db_url)
    store = Store(db_url)
    with TestClient(create_app(db_url, bot_workers=0)) as client:
        games = [client.post("/api/games", json={
            "game": "galactic-domination", "players": 2, "seats": ["human", "human"]}
            ).json()["id"] for _ in range(3)]
    store.append_action(games[0], 0, 0, "pass", "a" * 16)
    wanted = [NewAction(g, seq, seq % 2, f"n{seq}", "b" * 16) for g in games
              for seq in range(1 if g == games[0] else 0, 4)]
    taken = NewAction(games[0], 0, 1, "again", "c" * 16)

    async def write() -> list[BaseException | None]:
        writer = StoreWriter(store)
        try:
            return await asyncio.gather(*(writer.append(a) for a in [*wanted, taken]),
                                        return_exceptions=True)
        finally:
            writer.close()

    results = asyncio.run(write())
    assert results[:-1] == [None] * len(wanted)
    assert isinstance(results[-1], StoreError) and "action 0 of game" in str(results[-1])
    for g in games:
        stored = store.actions(g)
        assert [a.seq for a in stored] == [0, 1, 2, 3]
        expected = ["pass" if g == games[0] else "n0", "n1", "n2", "n3"]
        assert [a.notation for a in stored] == expected


def test_the_writer_refuses_writes_once_closed(tmp_path):
    url = f"sqlite:///{tmp_path / 'closed.db'}"
    upgrade(url)
    writer = StoreWriter(Store(url))
    writer.close()
    with pytest.raises(StoreError, match="stopping"):
        asyncio.run(writer.run(lambda: None))
