"""The battle calculator's JSON API (server/odds_api.py): forms, odds equal to the library's,
422 with a reason for every input the game or the bounds refuse, and a seat's position
of a running game from that seat's own knowledge only. The router knows no game."""

from __future__ import annotations

from pathlib import Path

import pytest

from starlanes.analysis.odds import RiftBattleSpec, parse_fleet, rift_odds
from starlanes.server import odds_api

from .conftest import auth, create, join, test_config


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One server for the module (these tests change nothing the others read)."""
    from fastapi.testclient import TestClient

    from starlanes.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('odds') / 'server.db'}",
                     bot_workers=0, config=test_config())
    with TestClient(app) as c:
        yield c


def test_games_and_forms(client):
    games = client.get("/api/odds/games").json()
    assert {g["id"] for g in games["games"]} == {"rift-domination", "interstellar-ambitions"}
    assert games["limits"]["units"] == odds_api.WEB_LIMITS_UNITS
    form = client.get("/api/odds/form/rift-domination").json()
    assert any(u["id"] == "infantry" and u["group"] == "ground" for u in form["units"])
    form = client.get("/api/odds/form/interstellar-ambitions").json()
    level = next(s for s in form["settings"] if s["name"] == "level")
    assert [c["value"] for c in level["choices"]] == [1, 2, 3, 4]


def test_odds_equal_the_library(client):
    r = client.post("/api/odds", json={"game": "rift-domination",
                                       "attacker": "carrier, 2 infantry, 2 diplomat",
                                       "defender": "destroyer",
                                       "settings": {"casualties": "weakest"}})
    assert r.status_code == 200, r.text
    lib = rift_odds(RiftBattleSpec(parse_fleet("carrier, 2 infantry, 2 diplomat"),
                                   parse_fleet("destroyer")), casualties="weakest")
    assert r.json()["outcomes"] == pytest.approx(lib.outcomes)
    assert r.json()["survivors_at_least"][0]["1"] == pytest.approx(lib.at_least(0)[1])


@pytest.mark.parametrize(("body", "match"), [
    ({"game": "galactic-empires", "attacker": "x"}, "no battle calculator"),
    ({"game": "no-such-game", "attacker": "fighter"}, "unknown game"),
    ({"game": "rift-domination", "attacker": "61 fighter", "defender": "fighter"}, "up to 60"),
    ({"game": "rift-domination", "attacker": "fighter", "defender": "fighter",
      "settings": {"kind": "air"}}, "one of"),
    ({"game": "rift-domination", "attacker": "fighter", "defender": "fighter",
      "settings": {"nonsense": 1}}, "unknown setting"),
    ({"game": "rift-domination", "attacker": "fighter; drop", "defender": "fighter"},
     "cannot read"),
    ({"game": "rift-domination", "attacker": "dragon", "defender": "fighter"}, "unknown"),
    ({"game": "rift-domination", "attacker": "destroyer/5", "defender": "fighter"},
     "at most 1 damage"),
    ({"game": "rift-domination", "attacker": "fighter", "defender": "fighter",
      "settings": {"attacker_cards": ["emergency_recruitment"] * 7}}, "at most"),
    ({"game": "interstellar-ambitions", "attacker": "destroyer", "defender": "corvette",
      "settings": {"level": 99}}, "one of"),
    ({"game": "rift-domination", "attacker": "fighter", "extra": 1}, "extra"),
    ({"game": "rift-domination", "attacker": "fighter, " * 200}, "1000"),
])
def test_refused_input_is_422_with_its_reason(client, body, match):
    r = client.post("/api/odds", json=body)
    assert r.status_code == 422, r.text
    text = r.text.lower()
    assert match.lower() in text


def test_refused_form_is_422(client):
    assert client.get("/api/odds/form/galactic-domination").status_code == 422


def test_position_is_the_seats_own(client):
    gid = create(client, "rift-domination", ["human", "human"])
    tokens = [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]
    token = tokens[0]
    assert client.get(f"/api/odds/position/{gid}").status_code == 401
    r = client.get(f"/api/odds/position/{gid}", headers=auth(token))
    assert r.status_code == 200 and r.json() == {"game": "rift-domination", "position": None}
    deciding = next(t for t in tokens
                    if client.get(f"/api/games/{gid}/view", headers=auth(t)).json()["your_turn"])
    r = client.get(f"/api/odds/position/{gid}", params={"action": "no such action"},
                   headers=auth(deciding))
    assert r.status_code == 422 and "not" in r.json()["error"]
    assert client.get("/api/odds/position/nope", headers=auth(token)).status_code == 404


def test_the_router_names_no_game():
    text = Path(odds_api.__file__).read_text()
    for name in ("rift", "interstellar", "galactic", "domination", "empires"):
        assert name not in text.lower()
