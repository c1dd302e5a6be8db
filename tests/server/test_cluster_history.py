"""A web process of a cluster starts as fast and as small with a long history stored as
with none (docs/deploy.md, "Nothing a process holds grows with history"): it reads no
finished game and no unfinished one at start, and its lobby is one page.

The stored games are written by ``benchmarks/server_history.py`` (bulk ``COPY``); 10,000
finished and 1,000 unfinished games here, 100,000 finished in the slow variant. Needs
PostgreSQL and ``redis-server``.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import POSTGRES_ADMIN
from .test_scale_cluster import RedisServer

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "server_history", ROOT / "benchmarks" / "server_history.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["server_history"] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def redis_url() -> Iterator[str]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine")
    bench = _bench()
    try:
        bench._admin(POSTGRES_ADMIN).close()
    except Exception:  # noqa: BLE001 - no server, no driver, no rights: skip
        pytest.skip(f"no PostgreSQL reachable at {POSTGRES_ADMIN}")
    server = RedisServer()
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def _started_with_history(redis_url: str, finished: int, unfinished: int) -> None:
    bench = _bench()
    empty, full = bench.fresh_database(POSTGRES_ADMIN), bench.fresh_database(POSTGRES_ADMIN)
    try:
        bench.fill(full, finished, unfinished)
        bare = bench.start_and_measure(empty, redis_url)
        loaded = bench.start_and_measure(full, redis_url, open_game="h000000001")
    finally:
        bench.drop_database(POSTGRES_ADMIN, empty)
        bench.drop_database(POSTGRES_ADMIN, full)
    # ready as soon as with no history (the machine may be busy: within 2 s of it)
    assert loaded.ready_s < max(5.0, bare.ready_s + 2.0), (bare, loaded)
    # memory: within 100 MB of an empty server's, after the lobby and an archived game
    assert loaded.rss_used_mb - bare.rss_used_mb < 100, (bare, loaded)
    # the lobby is a page: the newest unfinished games and the last finished ones
    assert loaded.lobby_games <= 200 + 20 and loaded.lobby_games >= 200


def test_a_process_with_ten_thousand_stored_games_starts_like_an_empty_one(redis_url):
    _started_with_history(redis_url, 10_000, 1_000)


@pytest.mark.slow
def test_a_process_with_a_hundred_thousand_stored_games_starts_like_an_empty_one(redis_url):
    _started_with_history(redis_url, 100_000, 1_000)
