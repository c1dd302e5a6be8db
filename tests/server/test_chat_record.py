"""Chat kept with the game: each message stores the move it was written at; the replay API
shows the players' channel up to the step asked (the spectators' too once the game is
over), the game record carries the chat (``starlanes replay`` still reads it, and older
records without chat still load), an uploaded record's replay shows its chat, and what a
reader muted or blocked stays out of both. The migration gives old messages the move they
were written at from the stored moves' times."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from starlanes.engine import GameRecord
from starlanes.engine.record import replay as replay_record
from starlanes.server.community import models

from .conftest import auth, create, join, view
from .test_chat import account, say


def move(client: TestClient, gid: str, token: str) -> int:
    """Play the seat's first legal action; the number of moves made after it."""
    v = view(client, gid, token)
    assert v["your_turn"], v["waiting_label"]
    r = client.post(f"/api/games/{gid}/actions",
                    json={"seq": v["seq"], "action": v["legal"][0]["notation"]},
                    headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()["seq"]


def whose(client: TestClient, gid: str, tokens: list[str]) -> str:
    for token in tokens:
        if view(client, gid, token)["your_turn"]:
            return token
    raise AssertionError("nobody's turn")


def replay(client: TestClient, gid: str, headers: dict[str, str] | None = None,
           **params: Any) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/replay", params=params, headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()


def lines(chat: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    return [(m["seq"], m["channel"], m["text"]) for m in chat]


@pytest.fixture
def chatted(client: TestClient) -> dict[str, Any]:
    """A two-player game: Ann says hello before any move, a move is made, Bob answers
    after it, the spectator Carol comments; then Ann resigns (unless the test stops first)."""
    gid = create(client)
    ann, bob = join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)
    carol = account(client, "Carol")
    assert say(client, gid, auth(ann), "hello").status_code == 201
    moved = move(client, gid, whose(client, gid, [ann, bob]))
    r = say(client, gid, auth(bob), "well played")
    assert r.status_code == 201 and r.json()["seq"] == moved
    assert say(client, gid, carol, "nice opening", "spectators").status_code == 201
    return {"gid": gid, "ann": ann, "bob": bob, "carol": carol, "moved": moved}


def test_messages_carry_their_move(client, chatted):
    r = client.get(f"/api/games/{chatted['gid']}/chat")
    assert [(m["seq"], m["text"]) for m in r.json()["messages"]] == [
        (0, "hello"), (chatted["moved"], "well played"), (chatted["moved"], "nice opening")]


def test_replay_of_a_running_game_shows_the_players_chat_up_to_the_step(client, chatted):
    gid, moved = chatted["gid"], chatted["moved"]
    assert lines(replay(client, gid, step=0)["chat"]) == [(0, "players", "hello")]
    latest = replay(client, gid)
    assert lines(latest["chat"]) == [(0, "players", "hello"),
                                     (moved, "players", "well played")]
    # the spectators' channel stays out while the game runs, for everyone
    assert "nice opening" not in json.dumps(replay(client, gid, chatted["carol"]))


def test_record_and_finished_replay_keep_both_channels(client, chatted):
    gid, moved = chatted["gid"], chatted["moved"]
    assert client.get(f"/api/games/{gid}/record").status_code == 403  # not over yet
    r = client.post(f"/api/games/{gid}/resign", headers=auth(chatted["ann"]))
    assert r.status_code == 200, r.text
    everything = [(0, "players", "hello"), (moved, "players", "well played"),
                  (moved, "spectators", "nice opening")]
    assert lines(replay(client, gid)["chat"]) == everything
    assert lines(replay(client, gid, step=0, seat=1)["chat"]) == everything[:1]
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200, r.text
    record = GameRecord.from_json(r.text)
    assert [(c.seq, c.channel, c.name, c.seat, c.text) for c in record.chat] == [
        (0, "players", "Ann", 0, "hello"), (moved, "players", "Bob", 1, "well played"),
        (moved, "spectators", "Carol", None, "nice opening")]
    replay_record(record)  # the record with its chat replays (RecordError otherwise)
    # an uploaded record's replay shows its chat up to the step
    r = client.post("/api/replay", json={"record": json.loads(record.to_json()), "step": 0})
    assert r.status_code == 200, r.text
    assert [m["text"] for m in r.json()["chat"]] == ["hello"]
    r = client.post("/api/replay", json={"record": json.loads(record.to_json()),
                                         "step": moved})
    assert [m["text"] for m in r.json()["chat"]] == ["hello", "well played", "nice opening"]


def test_mutes_and_blocks_hide_chat_in_replays_and_records(client, chatted):
    gid = chatted["gid"]
    dave = account(client, "Dave")
    assert client.post("/api/mutes", json={"name": "Carol"}, headers=dave).status_code == 200
    client.post(f"/api/games/{gid}/resign", headers=auth(chatted["ann"]))
    shown = json.dumps(replay(client, gid, dave)["chat"])
    assert "nice opening" not in shown and "hello" in shown
    record = client.get(f"/api/games/{gid}/record", headers=dave).json()
    assert [c["text"] for c in record["chat"]] == ["hello", "well played"]
    assert "nice opening" in client.get(f"/api/games/{gid}/record").text  # others see it
    block = getattr(models, "BlockRow", None)
    if block is None:
        pytest.skip("blocks are not in this server yet (mutes were checked)")
    store = client.app.state.community.store
    erin = account(client, "Erin")
    erin_id = int(erin["X-Account-Id"])
    with store.session() as s:
        carol_id = int(chatted["carol"]["X-Account-Id"])
        s.add(block(account_id=erin_id, blocked_id=carol_id))
    assert "nice opening" not in client.get(f"/api/games/{gid}/record", headers=erin).text
    assert "nice opening" not in json.dumps(replay(client, gid, erin)["chat"])


def test_records_without_chat_still_load_and_leave_it_out(client):
    gid = create(client, "galactic-domination", ["human", "random"])
    ann = join(client, gid, "Ann", 0)
    client.post(f"/api/games/{gid}/resign", headers=auth(ann))
    text = client.get(f"/api/games/{gid}/record").text
    assert '"chat"' not in text  # no chat: the record is as before
    old = json.loads(text)
    assert GameRecord.from_json(json.dumps(old)).chat is None
    bad = {**old, "chat": [{"seq": -1, "channel": "players", "name": "x", "text": "y"}]}
    r = client.post("/api/replay", json={"record": bad})
    assert r.status_code == 400 and "chat" in r.json()["error"]


def test_migration_gives_old_messages_their_move(tmp_path):
    """Messages stored before chat kept its move get the number of moves stored before
    them."""
    import datetime as dt

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from starlanes.server.store import MIGRATIONS, Store, upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    command.downgrade(cfg, "-1")  # the schema before 0006
    store = Store(url)
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    with store.engine.begin() as conn:
        assert "seq" not in {c[1] for c in conn.execute(text("PRAGMA table_info(chat_messages)"))}
        conn.execute(text("INSERT INTO games (id, game, players, seed, options, bot_seconds, "
                          "clock_seconds, created, seeded, rated, clock_kind, "
                          "clock_increment, timeout, owner_network) VALUES ('g1', "
                          "'rift-domination', 2, 1, '{}', 1, 0, :t, 0, 0, 'move', 0, "
                          "'bot', '')"), {"t": t0})
        for seq in range(3):
            conn.execute(text("INSERT INTO actions (game_id, seq, seat, notation, digest, "
                              "at, by) VALUES ('g1', :seq, 0, 'x', 'd', :at, 'player')"),
                         {"seq": seq, "at": t0 + dt.timedelta(minutes=seq + 1)})
        for minute, words in ((0, "before"), (2, "after two"), (9, "at the end")):
            conn.execute(text("INSERT INTO chat_messages (game_id, channel, name, text, at) "
                              "VALUES ('g1', 'players', 'Ann', :w, :at)"),
                         {"w": words, "at": t0 + dt.timedelta(minutes=minute, seconds=30)})
    store.engine.dispose()
    upgrade(url)
    with Store(url).engine.connect() as conn:
        got = list(conn.execute(text("SELECT text, seq FROM chat_messages ORDER BY id")))
    assert [tuple(r) for r in got] == [("before", 0), ("after two", 2), ("at the end", 3)]


def test_a_replay_answers_the_newest_200_messages(client):
    """A long chat is cut in the replay (the newest 200 up to the step), never in the
    record."""
    from starlanes.server.community.models import ChatRow

    gid = create(client, "galactic-domination", ["human", "random"])
    ann = join(client, gid, "Ann", 0)
    with client.app.state.community.store.session() as s:
        s.add_all([ChatRow(game_id=gid, channel="players", name="Ann", seat=0,
                           text=f"line {i}", seq=0) for i in range(230)])
    chat = replay(client, gid, step=0)["chat"]
    assert len(chat) == 200 and chat[0]["text"] == "line 30" and chat[-1]["text"] == "line 229"
    client.post(f"/api/games/{gid}/resign", headers=auth(ann))
    assert len(client.get(f"/api/games/{gid}/record").json()["chat"]) == 230
