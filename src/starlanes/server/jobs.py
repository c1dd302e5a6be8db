"""What the web processes and the bot service say to each other through Redis.

- ``starlanes:changes`` (pub/sub channel): a game's id, move and state digest, and the
  action when the change was one action (:func:`notice`), published by whichever process
  stored something for that game (an action, a seat, an undo). Every web process listens
  and brings the viewers it holds up to date: by applying the action carried when it is
  one move behind, from the store otherwise (:mod:`.cluster`).
- ``starlanes:bots:quick`` and ``starlanes:bots:slow`` (streams, consumer group
  ``starlanes-bots``): bot jobs, one per (game, move) where a bot seat decides. A job names
  only the game, the sequence number, the seat and the digest of the state it was asked
  in: the bot worker reads everything else from the store, so a job can never carry a
  move or a state of its own. Quick jobs (bots that think at most ``QUICK_SECONDS``) and
  slow ones wait in separate streams so a slow search never holds up a quick bot.
- ``starlanes:bot-job:{game}:{seq}:{digest}``: set once a job is queued, so two processes
  that see the same bot decision queue it once (a duplicate would only think twice: the
  store keeps one move per ``(game, seq)``).
- ``starlanes:bot-seconds:game:{id}`` and ``starlanes:bot-seconds:owner:{key}:{hour}``:
  seconds the bots of a game and of one client's games have thought (the budgets of
  :class:`.config.Limits`), shared by every bot worker.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass
from typing import Any

CHANGES = "starlanes:changes"
QUICK_STREAM = "starlanes:bots:quick"
SLOW_STREAM = "starlanes:bots:slow"
GROUP = "starlanes-bots"
QUICK_SECONDS = 1.0
"""Bots whose budget per move is at most this many seconds go in the quick lane."""
DEDUPE_SECONDS = 3600
"""How long a queued job's mark is kept (a bot decision is queued at most once meanwhile)."""


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

    @property
    def mark(self) -> str:
        return f"starlanes:bot-job:{self.game_id}:{self.seq}:{self.digest[:16]}"


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


def lane(seconds: float) -> str:
    """The stream a bot with ``seconds`` per move is queued in."""
    return SLOW_STREAM if seconds > QUICK_SECONDS else QUICK_STREAM


def game_seconds_key(game_id: str) -> str:
    return f"starlanes:bot-seconds:game:{game_id}"


def owner_seconds_key(owner: str, hour: int) -> str:
    return f"starlanes:bot-seconds:owner:{owner}:{hour}"


ENQUEUE = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  redis.call('XADD', KEYS[2], '*', 'job', ARGV[2])
  return 1
end
return 0
"""
"""Queue a job unless its mark is set (KEYS: mark, stream; ARGV: seconds kept, job)."""
