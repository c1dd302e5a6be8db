"""``/readyz`` says ``ready`` or ``not ready`` (503, Retry-After) and nothing else: what
broke (hosts, files, drivers' messages) goes to the server's log, once per change, never
to whoever asks."""

from __future__ import annotations

import logging

import pytest

from starlanes.server.store import StoreUnavailable

SECRET = 'could not connect to server at "db-7.internal.example" (10.0.0.5), port 5432'


@pytest.mark.parametrize("fault", [StoreUnavailable(SECRET), RuntimeError(SECRET),
                                   TimeoutError()],
                         ids=["store-error", "driver-error", "no-answer"])
def test_a_broken_store_is_not_ready_and_says_nothing_more(client, monkeypatch, caplog, fault):
    assert client.get("/readyz").json() == {"status": "ready"}

    def broken() -> None:
        raise fault

    monkeypatch.setattr(client.app.state.service.store, "ping", broken)
    with caplog.at_level(logging.INFO, "starlanes.server"):
        answers = [client.get("/readyz") for _ in range(3)]
        for r in answers:
            assert r.status_code == 503
            assert r.json() == {"status": "not ready"}
            assert r.headers["Retry-After"] == "5"
            assert "internal" not in r.text and "10.0.0.5" not in r.text
        monkeypatch.undo()
        r = client.get("/readyz")
        assert r.status_code == 200 and r.json() == {"status": "ready"}
    lines = [rec.getMessage() for rec in caplog.records]
    # the reason is logged once for three polls, and the recovery once
    assert sum("not ready: the database does not answer" in x for x in lines) == 1, lines
    if str(fault):
        assert any(SECRET in x for x in lines)
    assert lines.count("ready again") == 1
