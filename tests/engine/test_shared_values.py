"""Shared immutable values (``engine.shared``): ``engine.decision`` (a pending decision)
and Interstellar Ambitions' ``actions.act`` give one object per distinct value, equal to
a fresh one, and keep their table bounded."""

from __future__ import annotations

from starlanes.engine import Decision, SecretChoices, decision
from starlanes.engine.action import _SHARED, SHARED_CAP
from starlanes.games.interstellar_ambitions import actions as ia


def test_a_decision_is_shared_per_value_and_equals_a_fresh_one() -> None:
    a = decision(1, "step2")
    assert a is decision(1, "step2") and a == Decision(1, "step2")
    b = decision(1, "colonise", (2,))
    assert b is decision(1, "colonise", (2,)) and b == Decision(1, "colonise", (2,))
    assert decision(0, "step2") is not a and decision(1, "colonise", (3,)) != b


def test_a_decision_holding_something_mutable_is_never_shared() -> None:
    pick = SecretChoices((0, 1))
    a = decision(0, "order", (pick,))
    b = decision(0, "order", (pick,))
    assert a == b and a is not b and a.data[0] is pick
    listed = decision(0, "split", ([1, 2],))
    assert listed.data == ([1, 2],) and listed is not decision(0, "split", ([1, 2],))


def test_the_shared_decisions_stay_bounded() -> None:
    for i in range(SHARED_CAP + 10):
        decision(0, "bounded", (i,))
    assert len(_SHARED) <= SHARED_CAP
    assert decision(0, "bounded", (5,)) == Decision(0, "bounded", (5,))


def test_interstellar_ambitions_actions_are_shared_per_value() -> None:
    a = ia.act("clear", "p12")
    assert a is ia.act("clear", "p12") and a == ia.Act("clear", "p12")
    assert a.notation() == "clear p12" and ia.act("give", "p3", "P1").notation() == "give p3 P1"
    for i in range(SHARED_CAP + 10):
        ia.act("bounded", str(i))
    assert len(_SHARED) <= SHARED_CAP
