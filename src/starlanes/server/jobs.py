"""What the web processes and the bot service say to each other through Redis.

Every key and channel starts with the deployment's prefix (:func:`deployment_prefix`:
``limits.redis_prefix`` of the configuration, else ``starlanes-db`` and the Redis database
number), so two deployments sharing one Redis server never see each other's notices, jobs
or members (Redis pub/sub ignores the database number). :class:`Keys` names them:

- ``{prefix}:game:{id}`` (pub/sub channel, one per game): the game's id, move and state
  digest, and the action when the change was one action (:func:`notice`), published by
  whichever process stored something for that game (an action, a seat, an undo, an end).
  Only the processes that hold the game (its owner, and a process serving viewers of it)
  subscribe, so a process receives the notices of its own games and no others
  (:mod:`.cluster`).
- ``{prefix}:members`` (sorted set): the live web processes, each by the address the
  others reach it at, scored by its last heartbeat (Redis server time, milliseconds). A
  game's owner is chosen among them by rendezvous hashing (:func:`owner_of`).
- ``{prefix}:hop-secret``: a random secret the web processes share, with which a process
  that forwards a request to a game's owner signs the client's address.
- ``{prefix}:bots:quick`` and ``{prefix}:bots:slow`` (streams, consumer group
  ``starlanes-bots``): bot jobs, one per (game, move) where a bot seat decides. A job names
  only the game, the sequence number, the seat and the digest of the state it was asked
  in: the bot worker reads everything else from the store, so a job can never carry a
  move or a state of its own. Quick jobs (bots that think at most ``QUICK_SECONDS``) and
  slow ones wait in separate streams so a slow search never holds up a quick bot.
- ``{prefix}:bot-worker:{name}``: set by each bot worker every half second with a
  two-second expiry; a pending job whose worker's key is gone is taken over at once.
- ``{prefix}:bot-job:{game}:{seq}:{digest}``: set once a job is queued, so two processes
  that see the same bot decision queue it once (a duplicate would only think twice: the
  store keeps one move per ``(game, seq)``).
- ``{prefix}:bot-seconds:game:{id}`` and ``{prefix}:bot-seconds:owner:{key}:{hour}``:
  seconds the bots of a game and of one client's games have thought (the budgets of
  :class:`.config.Limits`), shared by every bot worker.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

GROUP = "starlanes-bots"
QUICK_SECONDS = 0.0
"""Bots whose budget per move is at most this many seconds go in the quick lane: bots with
no time budget (random, heuristic, learned); every search with a time budget is slow, so a
flood of cheap searches cannot make a heuristic bot wait (the single-process pool's
``quick_seconds`` default, :mod:`.bots`)."""
DEDUPE_SECONDS = 3600
"""How long a queued job's mark is kept (a bot decision is queued at most once meanwhile)."""


def deployment_prefix(url: str, prefix: str = "") -> str:
    """The prefix of every Redis key and channel of one deployment: ``prefix`` when given
    (``limits.redis_prefix``, the rate limits' prefix too), else ``starlanes-db`` and the
    database number of ``url`` (``redis://cache:6379/2``: ``starlanes-db2``)."""
    if prefix:
        return prefix
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    db = parts.path.strip("/") or (parse_qs(parts.query).get("db") or ["0"])[0]
    return f"starlanes-db{db if db.isdigit() else 0}"


@dataclass(frozen=True)
class Keys:
    """The Redis names of one deployment (see the module), under ``prefix``."""

    prefix: str

    def game(self, game_id: str) -> str:
        """The notice channel of one game."""
        return f"{self.prefix}:game:{game_id}"

    def game_of(self, channel: str) -> str:
        """The game id of a notice channel (:meth:`game`)."""
        return channel[len(self.prefix) + len(":game:"):]

    @property
    def members(self) -> str:
        return f"{self.prefix}:members"

    @property
    def hop_secret(self) -> str:
        return f"{self.prefix}:hop-secret"

    @property
    def quick(self) -> str:
        return f"{self.prefix}:bots:quick"

    @property
    def slow(self) -> str:
        return f"{self.prefix}:bots:slow"

    def lane(self, seconds: float) -> str:
        """The stream a bot with ``seconds`` per move is queued in."""
        return self.slow if seconds > QUICK_SECONDS else self.quick

    def worker(self, name: str) -> str:
        return f"{self.prefix}:bot-worker:{name}"

    def mark(self, task: BotTask) -> str:
        return f"{self.prefix}:bot-job:{task.game_id}:{task.seq}:{task.digest[:16]}"

    def game_seconds(self, game_id: str) -> str:
        return f"{self.prefix}:bot-seconds:game:{game_id}"

    def owner_seconds(self, owner: str, hour: int) -> str:
        return f"{self.prefix}:bot-seconds:owner:{owner}:{hour}"


def owner_of(game_id: str, members: Iterable[str]) -> str | None:
    """The member (a web process's address) that owns ``game_id`` among ``members``, by
    rendezvous hashing: each member scores ``blake2b(member, game)`` and the highest
    wins. Every process that knows the same members names the same owner, and when one
    member leaves only its own games move (each to the member that scored next). None
    for no members."""
    best, owner = b"", None
    for member in members:
        score = hashlib.blake2b(f"{member}\n{game_id}".encode(), digest_size=8).digest()
        if owner is None or score > best:
            best, owner = score, member
    return owner


@dataclass(frozen=True)
class BotTask:
    """A bot decision to make: the game id, the sequence number the move takes, the seat,
    the digest of the state it is asked in, and the creating client's key (``owner``: the
    share of bot time it is charged to; empty for none)."""

    game_id: str
    seq: int
    seat: int
    digest: str
    owner: str = ""

    def encode(self) -> dict[str, str]:
        """The stream entry's fields."""
        return {"job": json.dumps(asdict(self), separators=(",", ":"))}

    @classmethod
    def decode(cls, fields: dict[Any, Any]) -> BotTask:
        """A task from a stream entry's fields (bytes or text). Raises ValueError for an
        entry that is not a task."""
        raw = fields.get(b"job", fields.get("job"))
        if raw is None:
            raise ValueError("a bot job entry without 'job'")
        data = json.loads(raw)
        return cls(game_id=str(data["game_id"]), seq=int(data["seq"]), seat=int(data["seat"]),
                   digest=str(data["digest"]), owner=str(data.get("owner", "")))


@dataclass(frozen=True)
class NoticedAction:
    """The action a change notice carries: what the store committed for move ``seq``
    (seat, notation, the digest of the state after it, who decided, when, in Unix seconds).
    It has the fields :meth:`.tables.LiveGame.follow_action` reads from a stored row."""

    seq: int
    seat: int
    notation: str
    digest: str
    by: str
    at_s: float

    @property
    def at(self) -> dt.datetime:
        return dt.datetime.fromtimestamp(self.at_s, dt.UTC)


def notice(game_id: str, seq: int, digest: str, action: NoticedAction | None = None) -> str:
    """The change notice of a game now at move ``seq`` with state ``digest``:
    ``"GAME SEQ DIGEST16"`` (a process already there skips the store), followed by the
    action just stored as JSON when the change was that one action (a process one move
    behind applies it and checks the digest instead of reading the store)."""
    text = f"{game_id} {seq} {digest[:16]}"
    if action is not None:
        text += " " + json.dumps(asdict(action), separators=(",", ":"))
    return text


def read_notice(text: str) -> tuple[str, int | None, str, NoticedAction | None]:
    """(game id, move, digest prefix, the action carried or None) of a notice; (text, None,
    "", None) for a bare game id. An action that does not parse is left out (the follower
    reads the store instead)."""
    parts = text.split(" ", 3)
    if len(parts) >= 3 and parts[1].isdigit():
        action = None
        if len(parts) == 4:
            try:
                data = json.loads(parts[3])
                action = NoticedAction(int(data["seq"]), int(data["seat"]),
                                       str(data["notation"]), str(data["digest"]),
                                       str(data["by"]), float(data["at_s"]))
            except (ValueError, KeyError, TypeError):
                action = None
        return parts[0], int(parts[1]), parts[2], action
    return text.strip(), None, "", None


ENQUEUE = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  redis.call('XADD', KEYS[2], '*', 'job', ARGV[2])
  return 1
end
return 0
"""
"""Queue a job unless its mark is set (KEYS: mark, stream; ARGV: seconds kept, job)."""
