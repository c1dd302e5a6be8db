"""GE-TURN-07: a card that self-destructs takes what it holds with it, and the log says so
for every card that leaves play (the crew and equipment of a ship, the equipment of a crew
card), not only for the card the player chose."""

from __future__ import annotations


def _log_since(s, mark: int) -> list[str]:
    return s.action_log()[mark:]


def test_self_destructed_ships_crew_leaves_with_a_log_line(ge) -> None:
    """GE-TURN-07: the frigate self-destructs; its Gunner crew card goes to the discard
    pile too, and the log has a line for it naming both cards."""
    s = ge.blank(phase="discard")
    ship = ge.put(s, "arg_frigate", 0)
    crew = ge.put(s, "crew_gunner", 0, host=ship)
    mark = len(s.action_log())
    ge.do(s, f"scuttle arg_frigate#{ship}")
    assert crew in s.discards[0] and ship in s.discards[0]
    lines = _log_since(s, mark)
    crew_name, ship_name = s.card(crew).name, s.card(ship).name
    assert lines[0].endswith(f"self-destructs {ship_name}")
    assert f"{crew_name} goes to the discard pile with the {ship_name}" in lines


def test_every_attached_card_gets_its_line(ge) -> None:
    """GE-TURN-07: two cards on one ship, two lines, in the order they were attached."""
    s = ge.blank(phase="discard")
    ship = ge.put(s, "arg_frigate", 0)
    first = ge.put(s, "crew_gunner", 0, host=ship)
    second = ge.put(s, "crew_gunner", 0, host=ship)
    mark = len(s.action_log())
    ge.do(s, f"scuttle arg_frigate#{ship}")
    lines = [x for x in _log_since(s, mark) if "goes to the discard pile with" in x]
    assert len(lines) == 2
    assert {first, second} <= set(s.discards[0])


def test_a_crew_card_self_destructed_alone_has_no_extra_line(ge) -> None:
    """GE-TURN-07: scuttling the crew card itself leaves the ship in play; the one line
    is the self-destruct, nothing else leaves play."""
    s = ge.blank(phase="discard")
    ship = ge.put(s, "arg_frigate", 0)
    crew = ge.put(s, "crew_gunner", 0, host=ship)
    mark = len(s.action_log())
    ge.do(s, f"scuttle crew_gunner#{crew}")
    assert ship in s.units and crew not in s.units
    assert not any("goes to the discard pile" in x for x in _log_since(s, mark))
