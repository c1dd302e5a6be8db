"""Two tiny games that implement the engine contract, for testing search agents.

``Nim``: one pile, take 1 or 2, whoever takes the last stone wins (perfect information).
``GuessCard``: seat 1 holds a hidden card "a" or "b"; seat 0 names one and wins on a match.
``Wager``: seat 1 holds a hidden card worth 0-9; seat 0 says "low" or "high", and its
result is the card's worth / 10 plus 0.05 for "high": the hidden card swamps the small edge
of "high", which only a comparison on the same sampled cards sees reliably.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from starlanes.engine import Action, Game, GameRng, GameState, OptionSet, OptionSpec


@dataclass(frozen=True, slots=True)
class Take(Action):
    n: int

    def notation(self) -> str:
        return f"take {self.n}"


@dataclass(frozen=True, slots=True)
class Say(Action):
    card: str

    def notation(self) -> str:
        return f"say {self.card}"


class NimState(GameState):
    __slots__ = ("rng", "pile", "to_move", "winner")

    def __init__(self, game: Game, pile: int) -> None:
        super().__init__(game)
        self.rng = GameRng(game.seed)
        self.pile = pile
        self.to_move = 0
        self.winner = -1

    def current_player(self) -> int:
        return -4 if self.winner >= 0 else self.to_move

    def _legal_actions(self) -> list[Action]:
        return [Take(n) for n in (1, 2) if n <= self.pile]

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Take)
        self.pile -= action.n
        if self.pile == 0:
            self.winner = self.to_move
        self.to_move = 1 - self.to_move

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if s == self.winner else 0.0 for s in (0, 1)]

    def scores(self) -> list[int]:
        return [int(s == self.winner) for s in (0, 1)]

    def observation(self, seat: int) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move}

    def _copy(self) -> NimState:
        c = NimState.__new__(NimState)
        c.game, c.rng, c.pile, c.to_move, c.winner = (
            self.game, self.rng.copy(), self.pile, self.to_move, self.winner)
        return c

    def _digest_payload(self) -> Any:
        return [self.pile, self.to_move, self.winner]


class Nim(Game):
    game_id = "toy-nim"
    title = "Nim"
    min_players = 2
    max_players = 2
    option_set = OptionSet((OptionSpec("pile", int, 5, "stones at the start", minimum=1),))

    def new_initial_state(self) -> NimState:
        return NimState(self, self.options["pile"])


class GuessState(GameState):
    __slots__ = ("rng", "card", "said")

    def __init__(self, game: Game, card: str | int) -> None:
        super().__init__(game)
        self.rng = GameRng(game.seed)
        self.card = card
        self.said = ""

    def current_player(self) -> int:
        return -4 if self.said else 0

    def _legal_actions(self) -> list[Action]:
        return [Say("a"), Say("b")]

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Say)
        self.said = action.card

    def is_terminal(self) -> bool:
        return bool(self.said)

    def returns(self) -> list[float]:
        win = self.said == self.card
        return [1.0 if win else 0.0, 0.0 if win else 1.0]

    def scores(self) -> list[int]:
        return [int(r) for r in self.returns()]

    def observation(self, seat: int) -> dict[str, Any]:
        return {"card": self.card if seat == 1 else None, "said": self.said}

    def _copy(self) -> GuessState:
        c = type(self).__new__(type(self))
        c.game, c.rng, c.card, c.said = self.game, self.rng.copy(), self.card, self.said
        return c

    def _digest_payload(self) -> Any:
        return [self.card, self.said]

    def _resample_hidden(self, seat: int, rng: random.Random) -> None:
        if seat != 1:
            self.card = rng.choice("ab")


class GuessCard(Game):
    game_id = "toy-guess"
    title = "Guess the card"
    min_players = 2
    max_players = 2
    option_set = OptionSet((OptionSpec("card", str, "a", "seat 1's hidden card",
                                       choices=("a", "b")),))

    def new_initial_state(self) -> GuessState:
        return GuessState(self, self.options["card"])


class WagerState(GuessState):
    """GuessState's hidden card is a number here, and ``said`` holds the stake."""

    __slots__ = ()

    def _legal_actions(self) -> list[Action]:
        return [Say("low"), Say("high")]

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Say)
        self.said = action.card

    def returns(self) -> list[float]:
        v = self.card / 10 + (0.05 if self.said == "high" else 0.0)
        return [v, 1.0 - v]

    def scores(self) -> list[int]:
        return [0, 0]

    def _resample_hidden(self, seat: int, rng: random.Random) -> None:
        if seat != 1:
            self.card = rng.randrange(10)


class Wager(Game):
    game_id = "toy-wager"
    title = "Wager"
    min_players = 2
    max_players = 2
    option_set = OptionSet((OptionSpec("card", int, 4, "seat 1's hidden card", minimum=0),))

    def new_initial_state(self) -> WagerState:
        return WagerState(self, self.options["card"])
