"""The shipped proxy and container configurations (deploy/, compose.yaml, .dockerignore;
docs/deploy.md): the game id routing rule, the ``/readyz`` health checks, and nginx for
real when it is installed (two stand-in servers behind it: a game's requests and
websocket handshakes all reach one of them)."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from .conftest import _free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()
CADDY = (ROOT / "deploy" / "Caddyfile").read_text()


def test_nginx_routes_by_the_game_id_and_checks_readiness():
    pattern = re.search(r"~\^(\S+)\s+\$gid;", NGINX)
    assert pattern is not None
    rule = re.compile("^" + pattern.group(1).replace("(?<", "(?P<"))  # PCRE to Python
    for path, game in (("/api/games/abc123/view", "abc123"), ("/ws/games/abc123", "abc123"),
                       ("/api/games/abc123/actions", "abc123")):
        match = rule.match(path)
        assert match is not None and match.group("gid") == game
    assert rule.match("/api/games") is None and rule.match("/") is None
    assert "hash $starlanes_game consistent;" in NGINX
    assert re.search(r"location = /readyz \{[^}]*http_503", NGINX)
    assert "proxy_set_header Upgrade $http_upgrade;" in NGINX


def test_caddy_routes_by_the_game_id_and_health_checks_readyz():
    regexp = re.search(r"path_regexp game (\S+)", CADDY)
    assert regexp is not None
    rule = re.compile(regexp.group(1))
    match = rule.match("/ws/games/abc123")
    assert match is not None and match.group(2) == "abc123"
    assert "request_header X-Starlanes-Game {re.game.2}" in CADDY
    assert "lb_policy header X-Starlanes-Game" in CADDY
    blocks = CADDY.count("reverse_proxy ")
    assert blocks == 2 and CADDY.count("health_uri /readyz") == blocks


def test_compose_uses_the_caddyfile_and_every_web_process_is_health_checked():
    import yaml

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in services["proxy"]["volumes"]
    webs = [name for name in services if name.startswith("web")]
    assert webs == ["web1", "web2"]
    for name in webs:
        assert "/readyz" in " ".join(services[name]["healthcheck"]["test"])
        assert services["proxy"]["depends_on"][name]["condition"] == "service_healthy"
    assert all(f"{name}:8000" in CADDY for name in webs)
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests", "*.db"} <= set(ignored)


class _Named(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        body = str(self.server.server_port).encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        return


@pytest.fixture(params=[100_000])
def nginx(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, list[int]]]:
    """nginx with the shipped configuration in front of two stand-in servers; its rate per
    client is ``request.param`` requests a second (the routing tests lift the limit)."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                       else None)
    if binary is None:
        pytest.skip("nginx is not installed here (apt-get install nginx-light)")
    backends = [ThreadingHTTPServer(("127.0.0.1", 0), _Named) for _ in range(2)]
    for b in backends:
        threading.Thread(target=b.serve_forever, daemon=True).start()
    ports = [b.server_port for b in backends]
    listen = _free_port()
    conf = (NGINX.replace("127.0.0.1:8001", f"127.0.0.1:{ports[0]}")
            .replace("127.0.0.1:8002", f"127.0.0.1:{ports[1]}")
            .replace("listen 8080;", f"listen 127.0.0.1:{listen};")
            .replace("rate=30r/s", f"rate={request.param}r/s"))
    (tmp_path / "starlanes.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log; daemon off;\n"
        "events {}\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}/body; "
        f"proxy_temp_path {tmp_path}/proxy; include {tmp_path}/starlanes.conf; }}\n")
    check = subprocess.run([binary, "-t", "-c", str(tmp_path / "nginx.conf")],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([binary, "-c", str(tmp_path / "nginx.conf")],
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{listen}/readyz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{listen}", ports
    finally:
        proc.terminate()
        proc.wait(10)
        for b in backends:
            b.shutdown()


def test_nginx_for_real_sends_each_game_to_one_process(nginx):
    base, ports = nginx
    seen: dict[str, set[str]] = {}
    with httpx.Client(timeout=5) as client:
        for i in range(40):
            game = f"game{i}"
            for path in (f"/api/games/{game}/view", f"/api/games/{game}/actions",
                         f"/ws/games/{game}"):
                seen.setdefault(game, set()).add(client.get(base + path).text)
        lobby = {client.get(base + "/api/games").text for _ in range(40)}
    assert all(len(where) == 1 for where in seen.values())  # a game: one process
    assert {p for where in seen.values() for p in where} == {str(p) for p in ports}
    assert lobby == {str(p) for p in ports}  # the rest: anywhere


@pytest.mark.parametrize("nginx", [30], indirect=True)
def test_nginx_for_real_refuses_a_flood_of_one_client(nginx):
    """The shipped limit: a client sending far more than 30 requests a second (bursts of
    60) gets 429 from nginx, before the game server spends anything on it."""
    base, _ports = nginx
    with httpx.Client(timeout=5) as client:
        codes = [client.get(base + "/api/games").status_code for _ in range(150)]
    assert codes.count(429) > 0 and codes.count(200) >= 60, codes
