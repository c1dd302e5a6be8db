"""Durability: a real server in a subprocess is killed with SIGKILL at random points of a
scripted game and restarted; no acknowledged action is lost, the replayed state has the
digest the last acknowledged action reported, and the export replays under --verify."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import httpx

from starlanes.engine import GameRecord, load, replay

from .conftest import Server, cli_command


def test_kill_9_loses_no_acknowledged_action(tmp_path: Path):
    db = f"sqlite:///{tmp_path / 'durable.db'}"
    server = Server(db)
    server.start()
    rng = random.Random(5)
    try:
        gid = httpx.post(server.url("/api/games"), json={
            "game": "galactic-domination", "players": 2, "seats": ["human", "human"],
            "seed": 4}).json()["id"]
        tokens = [httpx.post(server.url(f"/api/games/{gid}/join"),
                             json={"name": f"p{i}", "seat": i}).json()["token"]
                  for i in range(2)]
        acked: list[tuple[int, str, str]] = []  # (seq after, notation, digest)
        # acknowledgements carry no digest (it would leak hidden state): the test follows
        # the game itself, from the seed it chose
        local = load("galactic-domination", players=2, seed=4).new_initial_state()

        def ack(body: dict) -> None:
            local.apply(local.game.parse_action(local, body["applied"]))
            acked.append((body["seq"], body["applied"], local.digest()))

        kills = 0
        while kills < 6:
            spectator = httpx.get(server.url(f"/api/games/{gid}/view")).json()
            if spectator["result"]:
                break
            seat = spectator["waiting_for"]
            head = {"Authorization": f"Bearer {tokens[seat]}"}
            v = httpx.get(server.url(f"/api/games/{gid}/view"), headers=head).json()
            notation = rng.choice(v["legal"])["notation"]
            mid_request = rng.random() < 0.08
            if mid_request:
                # kill while the action is in flight: it is either stored or not, never half
                killer = threading.Timer(rng.uniform(0.0, 0.02), server.kill)
                killer.start()
                try:
                    r = httpx.post(server.url(f"/api/games/{gid}/actions"), headers=head,
                                   json={"seq": v["seq"], "action": notation}, timeout=5)
                    if r.status_code == 200:
                        ack(r.json())
                except httpx.HTTPError:
                    pass
                killer.join()
                if server.proc.poll() is None:
                    server.kill()
            else:
                r = httpx.post(server.url(f"/api/games/{gid}/actions"), headers=head,
                               json={"seq": v["seq"], "action": notation})
                assert r.status_code == 200, r.text
                ack(r.json())
                if rng.random() > 0.06:
                    continue
                server.kill()
            kills += 1
            server.start()
            record = _export(db, gid)
            seq, _, digest = acked[-1]
            if len(record.actions) == seq:
                assert record.digest == digest
            else:  # the action in flight when the server died was stored, not acknowledged
                assert mid_request and len(record.actions) == seq + 1
            assert [a for a in record.actions[:seq]] == [a[1] for a in acked][-seq:] or seq
            assert replay(record).digest() == record.digest
            acked = [(len(record.actions), record.actions[-1], record.digest)]
            local = replay(record)
        assert kills >= 3
    finally:
        if server.proc and server.proc.poll() is None:
            server.proc.send_signal(signal.SIGTERM)
            server.proc.wait(10)


def _export(db: str, gid: str) -> GameRecord:
    out = subprocess.run([*cli_command(), "export", gid, "--db", db], capture_output=True,
                         text=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    assert out.returncode == 0, out.stderr
    return GameRecord.from_json(out.stdout)


def test_export_writes_a_record_that_replay_verifies(tmp_path: Path):
    db = f"sqlite:///{tmp_path / 'export.db'}"
    server = Server(db)
    server.start()
    try:
        gid = httpx.post(server.url("/api/games"), json={
            "game": "galactic-domination", "players": 2, "seats": ["heuristic", "random"],
            "seed": 2}).json()["id"]
        deadline = time.monotonic() + 120
        while not httpx.get(server.url(f"/api/games/{gid}/view")).json()["result"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        server.kill()
    target = tmp_path / "game.json"
    out = subprocess.run([*cli_command(), "export", gid, "--db", db, "-o", str(target)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    verify = subprocess.run([*cli_command(), "replay", str(target), "--verify"],
                            capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0 and "ok" in verify.stdout
    bad = subprocess.run([*cli_command(), "export", "nope", "--db", db], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "no game 'nope'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_restarted_server_lets_waiting_bots_play_on(tmp_path: Path):
    db = f"sqlite:///{tmp_path / 'bots.db'}"
    server = Server(db)
    server.start()
    gid = httpx.post(server.url("/api/games"), json={
        "game": "rift-domination", "players": 4, "seats": ["heuristic"] * 4,
        "seed": 9}).json()["id"]
    deadline = time.monotonic() + 60
    while httpx.get(server.url(f"/api/games/{gid}/view")).json()["seq"] < 20:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    server.kill()
    stopped = _export(db, gid)
    assert not stopped.finished  # killed in the middle of the bots' game
    server.start()
    try:
        deadline = time.monotonic() + 180
        while not httpx.get(server.url(f"/api/games/{gid}/view")).json()["result"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        server.kill()
    record = _export(db, gid)
    assert record.finished and len(record.actions) > len(stopped.actions)
    assert record.actions[:len(stopped.actions)] == stopped.actions
