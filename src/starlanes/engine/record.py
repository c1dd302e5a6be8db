"""Game records: everything needed to replay a game, as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import RecordError, StarlanesError


class GameRecord(BaseModel):
    """A replayable game: ``actions`` are notations, ``digest`` the final state digest."""

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

    def to_json(self) -> str:
        return self.model_dump_json(indent=1)

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
        p = Path(path)
        try:
            text = p.read_text()
        except OSError as e:
            raise RecordError(f"cannot read record {p}: {e.strerror}") from None
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"record {p} is not JSON: {e}") from None
        return cls.from_json(text)


def replay(record: GameRecord, *, verify: bool = True, upto: int | None = None):
    """Rebuild the state of ``record`` by applying its actions.

    Returns the state. Raises RecordError if the game is unknown, its version differs, an
    action does not apply, or (with ``verify``) the final digest differs from the record's.
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
    state = game.new_initial_state()
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        try:
            state.apply(game.parse_action(state, text))
        except StarlanesError as e:
            raise RecordError(f"action {i + 1} ({text!r}) does not replay: {e}") from None
    if verify and upto is None and state.digest() != record.digest:
        raise RecordError(
            f"replay digest {state.digest()} differs from the recorded {record.digest}"
        )
    return state
