"""Hidden information through the server: full games of all four games, every seat held by
a scripted client that plays the heuristic, and every payload sent to every seat and to a
spectator (views over HTTP, websocket pushes, the lobby, refusals, the tables' layout data and
the replay of the running game) checked against what that viewer may know.

What a viewer may not know is found without knowing the game: the strings in seat i's
observation that no public observation has shown so far are seat i's secrets; a payload to
any other viewer must contain none of them, unless that viewer's own observation holds the
same string (two seats may hold copies of one card).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from starlanes.agents import make_agent
from starlanes.engine import derive_seed, load

from .conftest import auth, create, join

GAMES = [("rift-domination", 3), ("galactic-domination", 2),
         ("interstellar-ambitions", 3), ("galactic-empires", 2)]


def strings(value: Any) -> set[str]:
    """Every string leaf of a JSON value."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def leaks(payload: Any, secrets: set[str]) -> set[str]:
    """Secrets that appear in ``payload``: as a whole string value, or as a word of a
    longer text (log lines, error messages). A view's log is left out: its lines are
    checked once, when they are new (:func:`new_log`), since an old line may name a card
    that was public then and has been shuffled into a hand since."""
    if isinstance(payload, dict) and "log" in payload:
        payload = {k: v for k, v in payload.items() if k != "log"}
    found = set()
    leaves = strings(payload)
    text = "\x00".join(leaves)  # a secret that is no substring of it is in no leaf
    for secret in secrets:
        if secret in leaves:
            found.add(secret)
            continue
        if secret not in text:
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(secret)}(?![\w-])")
        if any(len(s) > len(secret) and pattern.search(s) for s in leaves):
            found.add(secret)
    return found


def new_log(payload: dict[str, Any], seen: int) -> list[str]:
    """The log lines of a view after the first ``seen`` lines of the game's log."""
    first = payload["log_total"] - len(payload["log"])
    return payload["log"][max(0, seen - first):]


def where(value: Any, secret: str, path: str = "") -> list[str]:
    """Paths in ``value`` whose string holds ``secret`` (for failure messages)."""
    if isinstance(value, str):
        return [path] if secret in value else []
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    return [p for k, v in items for p in where(v, secret, f"{path}/{k}")]


def secrets_by_viewer(state, players: int, public_ever: set[str]) -> dict[int | None, set[str]]:
    """For each viewer (seat, or None for spectators) the strings it must not see: what
    other seats' observations hold that no public observation has ever shown (a card
    that was once in play or in a discard pile and later returned to a hand is public
    knowledge, and the log may say so)."""
    public_ever |= strings(state.public_observation())
    public = public_ever
    own = {i: strings(state.observation(i)) for i in range(players)}
    private = {i: own[i] - public for i in range(players)}
    out: dict[int | None, set[str]] = {None: set().union(*private.values())}
    for j in range(players):
        others = set().union(*(private[i] for i in range(players) if i != j))
        out[j] = others - own[j]
    return out


@pytest.mark.parametrize("game, players", GAMES)
def test_no_payload_reveals_what_its_viewer_may_not_see(client, game, players):
    gid = create(client, game=game, seats=["human"] * players, seed=11)
    tokens = [join(client, gid, f"player{i}", i) for i in range(players)]
    local = load(game, players=players, seed=11).new_initial_state()
    agents = [make_agent("heuristic", game, derive_seed(11, i)) for i in range(players)]
    sockets = [client.websocket_connect(f"/ws/games/{gid}?token={t}") for t in tokens]
    spectator_socket = client.websocket_connect(f"/ws/games/{gid}")
    opened = [s.__enter__() for s in [*sockets, spectator_socket]]
    viewers: list[int | None] = [*range(players), None]
    log_seen = dict.fromkeys(viewers, 0)
    public_ever: set[str] = set()

    last: list = [-1, None]  # the position the secrets below were found for, and them

    def secrets() -> dict[int | None, set[str]]:
        """What each viewer may not see in the current position (found once a position)."""
        if last[0] != len(local.history):
            last[:] = [len(local.history), secrets_by_viewer(local, players, public_ever)]
        return last[1]

    def receive_pushes(note: str) -> None:
        forbidden = secrets()
        for viewer, ws in zip(viewers, opened, strict=True):
            pushed = ws.receive_json()
            assert pushed["seq"] == len(local.history)
            lines = new_log(pushed, log_seen[viewer])
            log_seen[viewer] = pushed["log_total"]
            found = leaks(pushed, forbidden[viewer]) | leaks(lines, forbidden[viewer])
            assert not found, (viewer, note, {s: [line for line in lines if s in line]
                                              or where(pushed, s) for s in found})

    checked = 0
    try:
        receive_pushes("first view")
        while not local.is_terminal() and checked < 4000:
            forbidden = secrets()
            seat = local.current_player()
            # every viewer's HTTP view and the lobby, every fourth position: a view is
            # built as the pushes checked at every position are, so this checks the
            # routes and their tokens
            if checked % 4 == 0:
                for viewer in viewers:
                    headers = auth(tokens[viewer]) if viewer is not None else {}
                    payload = client.get(f"/api/games/{gid}/view", headers=headers).json()
                    assert not leaks(payload, forbidden[viewer]), (viewer, local.history[-3:])
                lobby = client.get("/api/games").json()
                assert not leaks(lobby, forbidden[None])
            # a refusal shown to another seat says nothing secret either
            other = (seat + 1) % players
            refused = client.post(f"/api/games/{gid}/actions",
                                  json={"seq": len(local.history), "action": "done"},
                                  headers=auth(tokens[other]))
            if refused.status_code == 200:  # "done" was legal for that seat: keep in step
                local.apply(local.game.parse_action(local, "done"))
                receive_pushes("done")
                continue
            assert not leaks(refused.json(), forbidden[other])
            if checked % 10 == 0:  # the table's drawing data and the replay of a running game
                for path in ("layout", "replay"):
                    public = client.get(f"/api/games/{gid}/{path}").json()
                    assert not leaks(public, forbidden[None]), (path, local.history[-3:])
            action = agents[seat].act(local)
            r = client.post(f"/api/games/{gid}/actions",
                            json={"seq": len(local.history), "action": str(action)},
                            headers=auth(tokens[seat]))
            assert r.status_code == 200, r.text
            local.apply(action)
            receive_pushes(str(action))
            checked += 1
    finally:
        for s in [*sockets, spectator_socket]:
            s.__exit__(None, None, None)
    assert local.is_terminal(), f"not finished after {checked} actions"
    live = client.app.state.service.live(gid)
    assert live.state.digest() == local.digest()
    if local.is_terminal():
        record = client.get(f"/api/games/{gid}/record")
        assert record.status_code == 200
        assert json.loads(record.text)["digest"] == local.digest()
