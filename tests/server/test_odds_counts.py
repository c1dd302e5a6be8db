"""The battle calculator refuses a fleet entry with a negative, zero or unreadable count
and a unit the game does not have, through the HTTP API: 422, with a reason naming the
field (the attacker's or the defender's fleet) and the entry, and no odds."""

from __future__ import annotations

import pytest

from .conftest import test_config


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from fastapi.testclient import TestClient

    from starlanes.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('odds') / 'server.db'}",
                     bot_workers=0, config=test_config())
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize(("game", "attacker", "defender", "words"), [
    ("rift-domination", "-5 fighter", "carrier", ["attacker", "'-5 fighter'", "negative"]),
    ("rift-domination", "carrier", "2 fighter, -1 carrier", ["defender", "'-1 carrier'",
                                                             "negative"]),
    ("rift-domination", "0 fighter", "carrier", ["attacker", "'0 fighter'", "at least 1"]),
    ("rift-domination", "carrier", "zorg", ["defender", "'zorg'"]),
    ("rift-domination", "fighter/-1", "carrier", ["attacker", "'fighter/-1'", "damage"]),
    ("interstellar-ambitions", "-5 destroyer", "corvette",
     ["attacker", "'-5 destroyer'", "negative"]),
    ("interstellar-ambitions", "destroyer", "0 corvette",
     ["defender", "'0 corvette'", "at least 1"]),
    ("interstellar-ambitions", "destroyer", "zorg", ["defender", "'zorg'"]),
    ("interstellar-ambitions", "destroyer/-1", "corvette", ["attacker", "'destroyer/-1'"]),
])
def test_bad_counts_and_units_are_refused_by_field(client, game, attacker, defender,
                                                   words) -> None:
    r = client.post("/api/odds", json={"game": game, "attacker": attacker,
                                       "defender": defender})
    assert r.status_code == 422, r.text
    reason = r.json()["error"]
    for w in words:
        assert w in reason, reason
