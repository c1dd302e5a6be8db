"""The parts of several-process serving that need no second process: a game caught up from
the store by another holder of it, bot jobs as Redis carries them, and the command line's
refusals (docs/deploy.md)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from starlanes.cli import app
from starlanes.server.jobs import (
    BotTask,
    Keys,
    NoticedAction,
    deployment_prefix,
    notice,
    owner_of,
    read_notice,
)
from starlanes.server.store import GameRow, SeatRow, Store, now, upgrade
from starlanes.server.tables import LiveGame

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return 2, str(result.exception)
    return result.exit_code, result.output


def _game(store: Store) -> GameRow:
    row = GameRow(id="g1", game="galactic-domination", players=2, seed=5,
                  options={"turn_limit": 2}, bot_seconds=0.0, clock_seconds=0.0,
                  rematch_of=None, created=now(), seeded=True)
    seats = [SeatRow(game_id="g1", seat=i, kind="human", name="", token_hash=None)
             for i in range(2)]
    store.create_game(row, seats)
    return row


def _copy(store: Store, game_id: str) -> LiveGame:
    row = store.game(game_id)
    assert row is not None
    return LiveGame.rebuild(row, store.seats(game_id), store.actions(game_id))


def test_a_second_holder_of_a_game_catches_up_from_the_store(tmp_path):
    """Process B holds the game while process A stores actions and a seat: B applies the
    stored actions after its own (same digest), takes the seat's token hash, and asks for
    a rebuild (None) once A's undo took back an action B had applied."""
    url = f"sqlite:///{tmp_path / 's.db'}"
    upgrade(url)
    store = Store(url)
    _game(store)
    a, b = _copy(store, "g1"), _copy(store, "g1")
    assert store.claim_seat("g1", 0, "Ada", "f" * 64)
    for _ in range(3):
        a.apply(store, a.state.current_player(), a.seq,
                str(a.state.legal_actions()[-1]))
    seats, actions = store.since("g1", max(b.seq - 1, 0))
    assert b.catch_up(seats, actions) is True
    assert (b.seq, b.state.digest()) == (a.seq, a.state.digest())
    assert b.seats[0].token_hash == "f" * 64 and b.seats[0].name == "Ada"
    assert b.catch_up(*store.since("g1", b.seq - 1)) is False  # nothing new
    store.truncate_actions("g1", 2)  # an undo on A
    assert b.catch_up(*store.since("g1", b.seq - 1)) is None
    fresh = _copy(store, "g1")
    b.take_over(fresh)
    assert (b.seq, b.state.digest()) == (2, fresh.state.digest())


def test_a_holder_one_move_behind_follows_the_action_a_notice_carries(tmp_path):
    """A notice of one stored action carries it (docs/deploy.md): a holder one move behind
    applies it and reaches the same state without reading the store; an action that is not
    its next move, or whose digest differs, or a notice that does not parse, changes
    nothing (the holder reads the store instead)."""
    url = f"sqlite:///{tmp_path / 's.db'}"
    upgrade(url)
    store = Store(url)
    _game(store)
    a, b = _copy(store, "g1"), _copy(store, "g1")
    a.apply(store, a.state.current_player(), a.seq, str(a.state.legal_actions()[-1]))
    action = a.noticed_action()
    assert action is not None and action.seq == 0
    text = notice("g1", a.seq, a.state.digest(), action)
    game_id, seq, digest, carried = read_notice(text)
    assert (game_id, seq, carried) == ("g1", 1, action)
    assert a.state.digest().startswith(digest)

    forged = NoticedAction(0, action.seat, action.notation, "0" * 64, action.by,
                           action.at_s)
    before = (b.seq, b.state.digest(), b.version)
    assert b.follow_action(forged) is False  # the digest does not agree
    assert (b.seq, b.state.digest(), b.version) == before
    assert b.follow_action(carried) is True
    assert (b.seq, b.state.digest()) == (a.seq, a.state.digest())
    assert b.marks[-1] == (action.seat, pytest.approx(action.at_s))
    assert b.follow_action(carried) is False  # not its next move any more
    assert b.seq == 1

    assert read_notice("g1 1 abcd {broken")[3] is None
    assert read_notice("g1 1 abcd") == ("g1", 1, "abcd", None)
    assert read_notice("g1") == ("g1", None, "", None)
    assert store.claim_seat("g1", 0, "Ada", "f" * 64)
    a.seats[0].name = "Ada"
    a.version += 1  # a seat taken after the action: a notice must not carry it
    assert a.noticed_action() is None


def test_a_viewer_that_subscribes_gets_moves_its_process_did_not_follow(tmp_path):
    """A clustered process follows notices only for games it holds viewers of, and a game
    still loading misses them; so subscribing catches the game up from the store and
    pushes: a viewer never waits on a stale board for the next move (docs/deploy.md)."""
    import asyncio
    import json
    from types import SimpleNamespace

    from starlanes.server.service import GameService

    url = f"sqlite:///{tmp_path / 's.db'}"
    upgrade(url)
    store = Store(url)
    _game(store)
    other = _copy(store, "g1")

    async def scenario() -> list[int]:
        service = GameService(store, bots=SimpleNamespace(),
                              cluster=SimpleNamespace(ready=True, owns=lambda _g: True))
        service.games["g1"] = _copy(store, "g1")  # held here at move 0, no viewer
        for _ in range(2):  # another process moves; its notices found no viewer here
            other.apply(store, other.state.current_player(), other.seq,
                        str(other.state.legal_actions()[-1]))
        sub = service.subscribe("g1", None)
        while service._background:
            await asyncio.sleep(0.01)
        seqs = []
        while not sub.queue.empty():
            seqs.append(json.loads(sub.queue.get_nowait())["seq"])
        return seqs

    assert asyncio.run(scenario()) == [0, 2]


def test_bot_jobs_round_trip_and_malformed_ones_are_refused():
    task = BotTask("g1", 7, 1, "ab" * 32, owner="client-key")
    assert BotTask.decode(task.encode()) == task
    assert BotTask.decode({k.encode(): v.encode() for k, v in task.encode().items()}) == task
    keys = Keys(deployment_prefix("redis://cache:6379/3"))
    assert keys.mark(task).startswith("starlanes-db3:bot-job:g1:7:")
    with pytest.raises(ValueError, match="without 'job'"):
        BotTask.decode({"other": "1"})
    assert keys.lane(0.0) == keys.quick == "starlanes-db3:bots:quick"
    assert keys.lane(5.0) == keys.slow


def test_every_key_carries_the_deployment_prefix():
    """Two deployments on one Redis (pub/sub ignores the database number) never share a
    channel or a key: the prefix is the configuration's, else the database number's."""
    a, b = Keys(deployment_prefix("redis://r/0")), Keys(deployment_prefix("redis://r/1"))
    named = Keys(deployment_prefix("redis://r/0", "club-a"))
    for keys in (a, b, named):
        names = [keys.game("g1"), keys.members, keys.hop_secret, keys.quick, keys.slow,
                 keys.worker("w"), keys.mark(BotTask("g1", 0, 0, "d" * 64)),
                 keys.game_seconds("g1"), keys.owner_seconds("o", 1)]
        assert all(n.startswith(keys.prefix + ":") for n in names)
    assert a.game("g1") != b.game("g1") != named.game("g1")
    assert named.game("g1") == "club-a:game:g1" and a.game_of(a.game("g1")) == "g1"


def test_each_game_has_one_owner_and_a_leaving_process_moves_only_its_own():
    """Rendezvous hashing: every process that knows the same members names the same owner;
    when one leaves, only its games move, spread over the others."""
    members = [f"http://10.0.0.{i}:8000" for i in range(4)]
    games = [f"game{i}" for i in range(2000)]
    owners = {g: owner_of(g, members) for g in games}
    assert owners == {g: owner_of(g, list(reversed(members))) for g in games}
    shares = [sum(o == m for o in owners.values()) for m in members]
    assert min(shares) > 350  # about a quarter each
    after = {g: owner_of(g, members[1:]) for g in games}
    moved = [g for g in games if after[g] != owners[g]]
    assert all(owners[g] == members[0] for g in moved)
    assert len({after[g] for g in moved}) == 3
    assert owner_of("g", []) is None


def test_serve_with_redis_needs_a_database_server(tmp_path):
    code, text = _run("serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                      "--redis", "redis://127.0.0.1:1/0")
    assert code == 2 and "several servers need a database server" in text


def test_the_bot_service_names_a_redis_it_cannot_reach(tmp_path):
    code, text = _run("bots", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--redis",
                      "redis://127.0.0.1:1/0")
    assert code == 2 and "needs the servers' database server" in text
    code, text = _run("bots", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none",
                      "--redis", "redis://127.0.0.1:1/0", "--workers", "1")
    assert code == 2 and "cannot reach Redis at redis://127.0.0.1:1/0" in text


def test_an_undo_that_finds_a_later_action_takes_nothing_back(tmp_path):
    """With several servers an undo names how many actions it knows: when another server
    stored a later one meanwhile, nothing is deleted (StoreConflict, answered 409)."""
    from starlanes.server.store import StoreConflict

    url = f"sqlite:///{tmp_path / 's.db'}"
    upgrade(url)
    store = Store(url)
    live = _copy(store, _game(store).id)
    for _ in range(3):
        live.apply(store, live.state.current_player(), live.seq,
                   str(live.state.legal_actions()[-1]))
    with pytest.raises(StoreConflict, match="nothing was taken back"):
        store.truncate_actions("g1", 1, 2)  # this server knew 2 actions; 3 are stored
    assert len(store.actions("g1")) == 3
    store.truncate_actions("g1", 2, 3)
    assert [a.seq for a in store.actions("g1")] == [0, 1]
