"""Rate limits shared by the processes of one deployment (``starlanes serve --redis``): two
app instances on one real Redis count one client's requests together, and a deployment
with another prefix counts its own. Skipped, saying why, when no Redis answers at
``STARLANES_TEST_REDIS`` (default ``redis://127.0.0.1:6379/15``)."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("redis", reason="the redis client is not installed")
pytest.importorskip("limits", reason="the server extras are not installed")

from fastapi.testclient import TestClient  # noqa: E402

from starlanes.server.app import create_app  # noqa: E402
from starlanes.server.config import load_config  # noqa: E402
from starlanes.server.limits import redis_prefix  # noqa: E402
from starlanes.server.store import upgrade  # noqa: E402

REDIS = os.environ.get("STARLANES_TEST_REDIS", "redis://127.0.0.1:6379/15")
PROXY = ("10.0.0.2", 40000)
CLIENT = {"X-Forwarded-For": "203.0.113.9"}
GAME = {"game": "rift-domination", "players": 2, "seats": ["human", "human"]}


@pytest.fixture(scope="module")
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except Exception as e:  # noqa: BLE001 - no server, refused, wrong password: skip
        pytest.skip(f"no Redis answers at {REDIS} ({type(e).__name__}); set "
                    "STARLANES_TEST_REDIS to a Redis URL to run these")
    return REDIS


@contextlib.contextmanager
def process(db: str, redis_url: str, prefix: str, **limits: Any) -> Iterator[TestClient]:
    """One web process of a deployment (its own app, its own memory) on ``db``."""
    config = load_config(limits={"redis_prefix": prefix, **limits}, access_log=False,
                         trusted_proxies=["10.0.0.0/8"])
    app = create_app(db, bot_workers=0, config=config, redis_url=redis_url)
    with TestClient(app, client=PROXY) as client:
        yield client


def test_the_default_prefix_names_the_redis_database():
    assert redis_prefix("redis://127.0.0.1:6379/2") == "starlanes-limits-db2"
    assert redis_prefix("redis://127.0.0.1:6379") == "starlanes-limits-db0"
    assert redis_prefix("redis://127.0.0.1:6379/2", "club") == "club"


def test_two_processes_share_the_rate_of_a_client(tmp_path, redis_url):
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    upgrade(db)  # (a clustered process runs no migration)
    prefix = f"test-{uuid.uuid4().hex}"
    with process(db, redis_url, prefix, requests_per_minute=6) as a, \
            process(db, redis_url, prefix, requests_per_minute=6) as b:
        codes = [c.get("/api/catalogue", headers=CLIENT).status_code
                 for c in (a, b, a, b, a, b)]
        assert codes == [200] * 6
        for c in (a, b):  # the 7th request is over the rate, on either process
            r = c.get("/api/catalogue", headers=CLIENT)
            assert r.status_code == 429, r.text
            assert "too many requests from your address: at most 6" in r.json()["error"]
        # another deployment on the same Redis counts on its own
        with process(db, redis_url, f"{prefix}-other", requests_per_minute=6) as other:
            assert other.get("/api/catalogue", headers=CLIENT).status_code == 200


def test_two_processes_share_the_creates_of_a_network(tmp_path, redis_url):
    db = f"sqlite:///{tmp_path / 'creates.db'}"
    upgrade(db)
    prefix = f"test-{uuid.uuid4().hex}"
    limits = {"network_creates_per_hour": 3, "anonymous_games_per_network": 100}
    with process(db, redis_url, prefix, **limits) as a, \
            process(db, redis_url, prefix, **limits) as b:
        codes = [c.post("/api/games", json=GAME,
                        headers={"X-Forwarded-For": f"192.0.2.{i}"}).status_code
                 for i, c in enumerate((a, b, a, b), start=1)]
        assert codes == [201, 201, 201, 429]
