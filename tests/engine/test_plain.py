"""Plain copies of content models (starlanes.engine.plain): the same fields, methods and
cached values as the model, read-only, picklable; Galactic Empires' rules read them."""

from __future__ import annotations

import copy
import pickle
from functools import cached_property

import pytest
from pydantic import BaseModel, ConfigDict

from starlanes.engine import load
from starlanes.engine.plain import PlainEntry, plain_class, plain_copy


class Part(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: str
    n: int = 0


class Thing(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    parts: tuple[Part, ...] = ()
    main: Part = Part(kind="hull")
    table: dict[str, int] = {}

    @cached_property
    def kinds(self) -> frozenset[str]:
        return frozenset(p.kind for p in self.parts)

    def has(self, kind: str) -> bool:
        return kind in self.kinds

    def _private(self) -> int:  # pragma: no cover - never copied
        return 1


PlainPart = plain_class(Part, "PlainPart")
PlainThing = plain_class(Thing, "PlainThing")


def _thing() -> Thing:
    return Thing(name="cruiser", parts=(Part(kind="laser", n=2), Part(kind="shield")),
                 table={"a": 1})


def test_a_copy_has_the_fields_methods_and_cached_values_of_its_model() -> None:
    model = _thing()
    c = plain_copy(model)
    assert isinstance(c, PlainThing) and isinstance(c.main, PlainPart)
    assert c.name == "cruiser" and c.parts[0].kind == "laser" and c.parts[0].n == 2
    assert c.kinds == model.kinds == frozenset({"laser", "shield"})
    assert c.has("laser") and not c.has("torpedo")
    assert c.model_dump() == model.model_dump()
    assert c.table is model.table  # plain values are shared, not copied
    assert not hasattr(c, "_private") and not hasattr(c, "__dict__")
    assert "PlainThing(name='cruiser'" in repr(c)


def test_a_copy_refuses_to_change() -> None:
    c = plain_copy(_thing())
    with pytest.raises(AttributeError, match="read-only"):
        c.name = "other"
    with pytest.raises(AttributeError, match="read-only"):
        del c.name
    with pytest.raises(AttributeError):
        c.colour = "red"  # type: ignore[attr-defined]
    assert c.name == "cruiser"


def test_a_copy_pickles_and_deep_copies_by_its_class() -> None:
    c = plain_copy(_thing())
    for back in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c)):
        assert type(back) is PlainThing
        assert back.model_dump() == c.model_dump() and back.kinds == c.kinds


def test_a_model_without_a_plain_class_and_a_second_name_are_refused() -> None:
    class Other(BaseModel):
        x: int = 0

    with pytest.raises(KeyError):
        plain_copy(Other())
    assert plain_class(Part, "PlainPart") is PlainPart
    with pytest.raises(ValueError, match="already has the plain class PlainPart"):
        plain_class(Part, "PartAgain")


def test_galactic_empires_rules_read_plain_copies_of_every_card() -> None:
    state = load("galactic-empires", players=2, seed=1).new_initial_state()
    content = state.content
    assert state.cards is content.rule_cards
    assert set(content.rule_cards) == set(content.cards)
    for cid, card in content.cards.items():
        plain = content.rule_cards[cid]
        assert isinstance(plain, PlainEntry)
        assert plain.model_dump() == card.model_dump(), cid
        assert plain.kinds == card.kinds and plain.operates == card.operates
        for e in card.effects:
            assert plain.has(e.kind) and plain.amount(e.kind) == card.amount(e.kind)
