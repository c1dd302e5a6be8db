"""The game server: the lobby, seats and tokens, live games, clocks, bots, the community
and the HTTP and websocket routes (``docs/server.md``). It knows no game: it reaches games
only through the registry and the engine contract (an import-linter contract in
``pyproject.toml`` keeps it so)."""
