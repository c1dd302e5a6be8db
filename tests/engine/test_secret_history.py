"""Secret actions in the history: a determinised state's history shows another seat's
secret choice only as its public part (``GameState._keep_secret``, ``_reveal_secrets``,
``history_seen_by``), with the same length as the real history."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from starlanes.engine import Action, Game, GameState, HiddenAction
from starlanes.engine.rng import GameRng


@dataclass(frozen=True, slots=True)
class Pick(Action):
    seat: int
    card: str

    def notation(self) -> str:
        return f"pick {self.card}"


class PickState(GameState):
    """Two seats each pick a card in secret (seat 0 then seat 1), revealed together; then
    seat 0 picks once more, secretly and for good."""

    __slots__ = ("rng", "picks")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.rng = GameRng(1)
        self.picks: list[str] = []

    def current_player(self) -> int:
        return [0, 1, 0][len(self.picks)] if len(self.picks) < 3 else -4

    def _legal_actions(self) -> list[Action]:
        return [Pick(self.current_player(), c) for c in ("a", "b")]

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Pick)
        topic = "" if len(self.picks) == 2 else "round"
        self._keep_secret((action.seat,), "pick ?", topic)
        self.picks.append(action.card)
        if len(self.picks) == 2:
            self._reveal_secrets("round")

    def is_terminal(self) -> bool:
        return len(self.picks) == 3

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def scores(self) -> list[int]:
        return [0, 0]

    def observation(self, seat: int) -> dict[str, Any]:
        return {}

    def _copy(self) -> PickState:
        c = PickState.__new__(PickState)
        c.game = self.game
        c.rng = GameRng(1)
        c.picks = list(self.picks)
        return c

    def _digest_payload(self) -> Any:
        return self.picks


class PickGame(Game):
    game_id = "pick-test"
    title = "Pick"
    min_players = 2
    max_players = 2

    def new_initial_state(self) -> PickState:
        return PickState(self)


def test_secret_hidden_from_others_until_revealed() -> None:
    s = PickGame().new_initial_state()
    s.apply(Pick(0, "a"))
    seen = s.determinize(1, random.Random(1)).history
    assert seen == [HiddenAction("pick ?")] and str(seen[0]) == "pick ?"
    assert s.determinize(0, random.Random(1)).history == [Pick(0, "a")]
    assert s.history == [Pick(0, "a")]  # the real history is untouched
    s.apply(Pick(1, "b"))  # both picked: revealed together
    assert s.determinize(0, random.Random(1)).history == s.history
    assert s.determinize(1, random.Random(1)).history == s.history
    s.apply(Pick(0, "b"))  # a secret never revealed
    assert s.determinize(1, random.Random(1)).history[2] == HiddenAction("pick ?")
    assert s.determinize(0, random.Random(1)).history == s.history


def test_clone_keeps_the_marks_and_stays_independent() -> None:
    s = PickGame().new_initial_state()
    s.apply(Pick(0, "a"))
    c = s.clone()
    c.apply(Pick(1, "a"))  # reveals in the clone only
    assert c.history_seen_by(1) == c.history
    assert s.history_seen_by(1) == [HiddenAction("pick ?")]
    # a determinised world redacts again when determinised for another seat
    w = s.determinize(0, random.Random(2))
    assert w.determinize(1, random.Random(3)).history == [HiddenAction("pick ?")]
