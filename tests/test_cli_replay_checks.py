"""``replay`` reports what a record states falsely (issue 28): ``--verify`` refuses a record
whose content fingerprint was removed; plain ``replay`` warns when the recorded scores
disagree with the replayed game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import starlanes
from starlanes.engine import GameRecord
from tests.test_cli_content_errors import cli


def _finished_record(tmp_path: Path) -> tuple[Path, GameRecord]:
    state = starlanes.load("rift-domination", players=2, seed=4,
                           round_limit=1).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = state.record(["random", "random"])
    assert record.finished and record.content_fingerprint
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    return path, record


def test_verify_refuses_a_record_without_its_content_fingerprint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, record = _finished_record(tmp_path)
    assert cli(capsys, "replay", str(path), "--verify")[0] == 0
    stripped = tmp_path / "stripped.json"
    stripped.write_text(record.model_copy(update={"content_fingerprint": ""}).to_json())
    code, _, err = cli(capsys, "replay", str(stripped), "--verify")
    assert code == 1
    assert "error: the record has no content fingerprint" in err


def test_plain_replay_warns_of_edited_scores(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path, record = _finished_record(tmp_path)
    assert "warning" not in cli(capsys, "replay", str(path))[2]
    edited = tmp_path / "edited.json"
    scores = [s + 5 for s in record.scores]
    edited.write_text(record.model_copy(update={"scores": scores}).to_json())
    code, _, err = cli(capsys, "replay", str(edited))
    assert code == 0
    assert f"warning: the record differs from its replay: scores: recorded {scores}" in (
        " ".join(err.split()))
