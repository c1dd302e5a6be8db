"""Cards drawn, not chosen, in the mechanism report: Interstellar Ambitions' EMERGENCY ships
and colony events are read from the game log (``usage.log_uses``). Checked against the
draws themselves, seen by wrapping the state's ``draw`` while seeded heuristic games are
played (IA-RAID-03, IA-INV-02, IA-COL-01/02)."""

from __future__ import annotations

from collections import Counter

import pytest

from starlanes.agents import make_agent
from starlanes.analysis.usage import UsageTally, usage_module
from starlanes.engine import load
from starlanes.games.interstellar_ambitions.state import IAState


def _play(seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, Counter, Counter]:
    drawn: dict[str, Counter] = {"emergency": Counter(), "colony": Counter()}
    original = IAState.draw

    def draw(self: IAState, deck: list[int], discard: list[int]) -> int:
        kind = ("emergency" if deck is self.emerg_deck else
                "colony" if deck is self.colony_deck else None)
        card = original(self, deck, discard)
        if kind and card >= 0:
            ids = self.content.ship_ids if kind == "emergency" else self.content.event_ids
            drawn[kind][ids[card]] += 1
        return card

    monkeypatch.setattr(IAState, "draw", draw)
    state = load("interstellar-ambitions", players=4, seed=seed).new_initial_state()
    agents = [make_agent("heuristic", "interstellar-ambitions", seed * 10 + i) for i in range(4)]
    tally = UsageTally(usage_module("interstellar-ambitions"), 4)
    while not state.is_terminal():
        seat = state.current_player()
        action = agents[seat].act(state) if seat >= 0 else state.legal_actions()[0]
        tally.observe(state, seat, action)
        state.apply(action)
    row = tally.row(state)
    redrawn = Counter(line.split(" draws the emergency ship ", 1)[1][:-len(" (HEAVY: redraw)")]
                      for line in state.action_log() if line.endswith("(HEAVY: redraw)"))
    names = {s.name: i for i, s in state.content.ships.items()}
    return row, drawn, Counter({names[n]: k for n, k in redrawn.items()})


def test_every_emergency_ship_and_colony_event_drawn_is_counted_once(monkeypatch):
    seen = Counter()
    for seed in range(6):
        row, drawn, redrawn = _play(seed, monkeypatch)
        counted = {cat: Counter() for cat in ("emergency ship drawn", "colony event drawn")}
        for seat_uses in row["uses"]:
            for cat in counted:
                counted[cat].update(seat_uses.get(cat, {}))
        assert counted["colony event drawn"] == drawn["colony"], seed
        assert counted["emergency ship drawn"] + redrawn == drawn["emergency"], seed
        seen.update({cat: sum(c.values()) for cat, c in counted.items()})
        assert set(row["catalogue"]["colony event drawn"]) >= set(drawn["colony"])
        assert set(row["catalogue"]["emergency ship drawn"]) >= set(drawn["emergency"])
    assert seen["emergency ship drawn"] > 0 and seen["colony event drawn"] > 0, seen
