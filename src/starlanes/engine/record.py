"""Game records: everything needed to replay a game, as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import RecordError, StarlanesError


class ChatLine(BaseModel):
    """A chat message kept with a game: ``seq`` the number of actions played when it was
    written (a replay shows it from that step on), the ``channel`` (``players`` or
    ``spectators``), who wrote it (the name shown, the seat for a player) and when (ISO
    8601 UTC)."""

    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=0)
    channel: str = Field(max_length=16)
    name: str = Field(max_length=80)
    seat: int | None = None
    text: str = Field(max_length=5000)
    at: str = Field(default="", max_length=40)


class GameRecord(BaseModel):
    """A replayable game: ``actions`` are notations, ``digest`` the final state digest.

    ``content_fingerprint`` is the SHA-256 of the merged content the game was played with
    (empty for games without content files and for older records); the ``content`` and
    ``content_set`` options say where that content came from (absolute directory and dotted
    overrides).
    """

    model_config = ConfigDict(extra="forbid")

    game: str
    version: str
    players: int
    seed: int
    options: dict[str, Any] = {}
    seats: list[str] = []
    actions: list[str]
    digest: str
    finished: bool = False
    scores: list[int] = []
    content_fingerprint: str = ""
    outcome: dict[str, Any] | None = None
    """How a game server ended the game when its rules did not (a resignation, an abort, an
    agreed draw, a loss on time): the server's outcome, ``{"reason": ..., "ranks": ...}``;
    None (and left out of the JSON) for a game the rules ended or that goes on."""
    chat: list[ChatLine] | None = None
    """The game's chat as a game server kept it (the players' channel, and the spectators'
    once the game is over), oldest first; None (and left out of the JSON) for a record
    without chat. Records made before chat was kept load as they are."""

    def to_json(self) -> str:
        left_out = {k for k in ("outcome", "chat") if getattr(self, k) is None}
        return self.model_dump_json(indent=1, exclude=left_out or None)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json())

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Raises RecordError naming what is wrong with the JSON."""
        try:
            return cls.model_validate_json(text)
        except ValidationError as e:
            raise RecordError(f"malformed game record: {e.errors()[0]['loc']}: "
                              f"{e.errors()[0]['msg']}") from None

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file. Raises RecordError (one line naming the file and the
        problem) for a missing or unreadable file, one over :data:`MAX_RECORD_BYTES`, text
        that is not UTF-8, JSON that is malformed or nested too deeply, or a record that
        breaks the schema."""
        p = Path(path)
        try:
            with p.open("rb") as f:
                data = f.read(MAX_RECORD_BYTES + 1)
        except OSError as e:
            raise RecordError(f"cannot read record {p}: {e.strerror}") from None
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"record {p} is larger than {MAX_RECORD_BYTES} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"record {p} is not UTF-8 text (byte {e.start})") from None
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"record {p} is not JSON: {e}") from None
        except RecursionError:
            raise RecordError(f"record {p} is JSON nested too deeply to be a record") from None
        return cls.from_json(text)


MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The largest record file read (bytes); the longest real games are a few hundred KB."""


def record_differences(record: GameRecord, state: Any) -> list[str]:
    """What ``record`` states about its game that the replayed ``state`` contradicts:
    ``finished``, ``scores`` and ``digest``, one readable line each (empty when all agree)."""
    found: list[str] = []
    if record.finished != state.is_terminal():
        found.append(f"finished: recorded {record.finished}, replay {state.is_terminal()}")
    scores = list(state.scores())
    if record.scores and record.scores != scores:
        found.append(f"scores: recorded {record.scores}, replay {scores}")
    if state.digest() != record.digest:
        found.append(f"digest: recorded {record.digest}, replay {state.digest()}")
    return found


def content_mismatch(record: GameRecord, game: Any) -> str:
    """Why ``game``'s content is not the content ``record`` was played with, naming both
    fingerprints and where the recorded content came from; empty when they agree (or the
    record has no fingerprint)."""
    now = getattr(game, "content_fingerprint", "")
    if not record.content_fingerprint or now == record.content_fingerprint:
        return ""
    where = record.options.get("content") or "the packaged content"
    sets = record.options.get("content_set") or ()
    if sets:
        where += " with overrides " + ", ".join(sets)
    return (f"the content differs from the record's: it was played with content "
            f"{record.content_fingerprint[:16]} ({where}), the content loaded now is "
            f"{now[:16]}; restore that content to replay it")


def replay(record: GameRecord, *, verify: bool = True, upto: int | None = None):
    """Rebuild the state of ``record`` by applying its actions.

    Returns the state. Raises RecordError if the game is unknown, its version differs, an
    action does not apply, or (with ``verify``) the content fingerprint differs or anything the
    record states (finished, scores, final digest) differs from the replay; the message lists
    every difference.
    """
    from .registry import load

    try:
        game = load(record.game, players=record.players, seed=record.seed, **record.options)
    except StarlanesError as e:
        raise RecordError(f"record cannot be loaded: {e}") from None
    if game.version != record.version:
        raise RecordError(
            f"record is for {record.game} rules version {record.version}, "
            f"this is version {game.version}"
        )
    if verify:
        mismatch = content_mismatch(record, game)
        if mismatch:
            raise RecordError(mismatch)
    state = game.new_initial_state()
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        try:
            state.apply(game.parse_action(state, text))
        except StarlanesError as e:
            raise RecordError(f"action {i + 1} ({text!r}) does not replay: {e}") from None
    if verify and upto is None:
        differences = record_differences(record, state)
        if differences:
            raise RecordError("the record differs from its replay: " + "; ".join(differences))
    return state
