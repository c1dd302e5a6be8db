"""The server's configuration: what only the machine's owner decides, never a request.

Read from a TOML file (``starlanes serve --config FILE``), environment variables
(``STARLANES_PUBLIC_URL``, ``STARLANES_LIMITS__MAX_BODY_BYTES`` ...: prefix ``STARLANES_``,
nested keys joined by ``__``) and the command line, in that order of increasing priority,
through pydantic-settings. Every key is documented in ``docs/security.md``.

What it holds:

- ``public_url``: the address players reach the server at; seat links and the websocket
  ``Origin`` check are built from it, never from a request's ``Host`` header;
- ``bots``: the bot catalogue, the only bots a request may seat (by name); each names an
  agent spec and a time budget per move, both fixed here;
- ``content_packs``: content directories registered under names; a request picks a name;
- ``limits``: request sizes, rates and quotas per client, bot budgets;
- ``trusted_proxies``: the reverse proxies whose ``X-Forwarded-For`` names the client.
"""

from __future__ import annotations

import ipaddress
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from starlanes.engine import BadOptionError

HUMAN = "human"


class BotEntry(BaseModel):
    """A bot a client may seat: its catalogue ``name``, the agent ``spec`` it runs (any spec
    ``starlanes`` agents accept, including ``module:Class``: the owner's choice), the
    thinking budget per move in seconds (``seconds``; 0 for bots that do not search) and a
    line of ``help`` for the lobby."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9-]{0,31}$")
    spec: str = Field(min_length=1, max_length=200)
    seconds: float = Field(default=0.0, ge=0, le=600)
    help: str = ""
    games: list[str] = Field(default_factory=list, max_length=16)
    """The game ids it plays (empty: every game), for a bot made for one game."""

    def plays(self, game: str) -> bool:
        """Whether this bot may take a seat in ``game``."""
        return not self.games or game in self.games


DEFAULT_BOTS = (
    BotEntry(name="random", spec="random", help="plays a random legal action"),
    BotEntry(name="heuristic", spec="heuristic",
             help="the game's rule-of-thumb player: quick and sensible"),
    BotEntry(name="mcts-easy", spec="mcts:scale=0.25,seconds=0.5", seconds=0.5,
             help="tree search with a quarter of the game's tuned playouts per decision "
                  "(at most half a second)"),
    BotEntry(name="mcts-normal", spec="mcts:scale=1,seconds=2", seconds=2.0,
             help="tree search with the game's tuned playouts per decision (at most two "
                  "seconds)"),
    BotEntry(name="mcts-hard", spec="mcts:scale=4,seconds=5", seconds=5.0,
             help="tree search with four times the game's tuned playouts per decision (at "
                  "most five seconds)"),
    BotEntry(name="learned", spec="learned", games=["galactic-domination"],
             help="a small neural network that learnt this game from the rule-of-thumb "
                  "player and from games against it (no search): quick; beats it about two "
                  "games in three, much more often as the first player, a little less "
                  "than half the time as the second; the quick search bot (mcts-easy) "
                  "beats it about four games in five"),
)
"""The default catalogue. The search bots have fixed playout budgets, multiples
(``scale``) of each game's tuned MCTS defaults, so their strength (and their ladder rating,
``src/starlanes/server/ladder.json``) does not depend on the machine; ``seconds`` caps each
decision on a slow or busy machine and is the budget the server's bot time limits count."""


class ContentPack(BaseModel):
    """A content directory registered under ``name`` for ``game`` (its TOML files are
    merged over the packaged content, as ``--content DIR`` does on the command line)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")
    game: str
    path: Path
    help: str = ""


class Limits(BaseModel):
    """What one client may ask for, and what bots may cost. Rates are per client address
    (see ``trusted_proxies``); every limit is answered with 413 or 429 and a reason."""

    model_config = ConfigDict(extra="forbid")

    max_body_bytes: int = Field(default=1_000_000, ge=1024)
    """The largest request body read (bytes); a bigger one gets 413 before it is read."""
    requests_per_minute: int = Field(default=1200, ge=1)
    """Requests of any kind per client per minute (websocket connects included)."""
    creates_per_hour: int = Field(default=60, ge=1)
    """Games (and rematches) a client may create per hour."""
    joins_per_minute: int = Field(default=30, ge=1)
    """Seats a client may take per minute."""
    auth_failures_per_minute: int = Field(default=20, ge=1)
    """Wrong or missing seat tokens a client may present per minute before it gets 429."""
    replays_per_minute: int = Field(default=120, ge=1)
    """Replay steps (stored games and uploaded records) a client may ask per minute."""
    websockets_per_client: int = Field(default=32, ge=1)
    """Websockets one client may hold open at once."""
    websockets_total: int = Field(default=5000, ge=1)
    """Websockets the server holds open at once."""
    network_creates_per_hour: int = Field(default=120, ge=1)
    """Games (and rematches) all clients of one network (an IPv4 /24, an IPv6 /48) may
    create per hour together, besides each client's own ``creates_per_hour``."""
    open_games: int = Field(default=2000, ge=1)
    """Unfinished games the server keeps (counted in the database, every process
    together); creating more gets 429 until some end."""
    anonymous_share: float = Field(default=0.5, ge=0, le=1)
    """The part of ``open_games`` games created without an account may hold: the rest is
    kept for players who log in (0.5: at most 1,000 of 2,000)."""
    anonymous_games_per_network: int = Field(default=3, ge=0)
    """Unfinished games created without an account from one client network (an IPv4 /24,
    an IPv6 /48; a single address is in one network, so it has no more)."""
    games_per_account: int = Field(default=10, ge=0)
    """Unfinished games one account may have caused (created, rematched or been paired
    into by play now)."""
    open_seat_hours: float = Field(default=1.0, gt=0)
    """Hours a game may wait for its open seats: a game that still has one this long
    after it was created ends as ``expired`` (no result)."""
    idle_game_hours: float = Field(default=72.0, gt=0)
    """Hours without a human move after which an unfinished game is ended by the written
    rule of docs/community/lifecycle.md (a game with a turn clock gets at least the
    longest decision its clock allows)."""
    finished_games_kept: int = Field(default=200, ge=1)
    """Finished games a process keeps in memory for the game-over dialog and replays (the
    most recently opened); older ones are read from the database when opened."""
    lobby_finished_games: int = Field(default=20, ge=0)
    """The most recently finished games the lobby lists below the unfinished ones."""
    sweep_seconds: float = Field(default=60.0, gt=0)
    """How often the server looks for games to expire, end or take out of memory."""
    redis_prefix: str = Field(default="", max_length=100, pattern=r"^[A-Za-z0-9_:.-]*$")
    """With ``--redis``: the prefix of this deployment's rate counts in Redis (empty:
    ``starlanes-limits-db`` and the Redis database number), so two deployments sharing a
    Redis never share counts."""
    max_clock_seconds: float = Field(default=7 * 86400, ge=0)
    """The longest turn clock a game may ask for (seconds)."""
    bot_seconds_per_game: float = Field(default=3600.0, gt=0)
    """Thinking time one game's bots may spend in all (seconds); past it they play at once
    (the catalogue's quick fallback, ``heuristic``)."""
    bot_seconds_per_client_hour: float = Field(default=1800.0, gt=0)
    """Thinking time the bots of all games one client created may spend per hour (seconds;
    a fixed window); past it those bots play at once (``heuristic``) until the hour ends.
    Bot time is also shared in turn between clients, whatever this allows."""
    logins_per_minute: int = Field(default=10, ge=1)
    """Log-in and registration attempts per client address, and log-in attempts per account
    name, per minute (a password guesser gets 429)."""
    queue_joins_per_minute: int = Field(default=6, ge=1)
    """Times one account may join the play-now queue per minute (joining, leaving and
    joining again churns the pairing rounds of everyone)."""
    chat_messages_per_minute: int = Field(default=20, ge=1)
    """Chat messages one writer (an account, or a seat's token) may send per minute."""
    chat_message_chars: int = Field(default=500, ge=1, le=5000)
    """The longest chat message (characters)."""


class FairPlay(BaseModel):
    """The rules of rated play (``docs/community/fair-play.md``): what a rated game must be
    and who may meet whom in one."""

    model_config = ConfigDict(extra="forbid")

    rated_min_game_seconds: float = Field(default=300.0, ge=0)
    """The least time per player a rated game with a whole-game clock may give (seconds)."""
    rated_min_turn_seconds: float = Field(default=30.0, ge=0)
    """The least time per turn a rated game with a per-turn clock may give (seconds)."""
    rated_same_network: bool = False
    """Whether a rated game may seat two accounts whose seats were taken from one client
    network (/24 for IPv4, /48 for IPv6). Off: such a seat is refused. A club whose players
    all sit behind one address turns it on."""
    rated_pair_games_per_day: int = Field(default=5, ge=1)
    """Rated games two accounts may play together in 24 hours (running games included);
    past it, a seat in another rated game with that account is refused."""


class Smtp(BaseModel):
    """The mail server notification and password-reset mails go through (none configured:
    no mail is sent, and password reset by mail is off)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    host: str = Field(min_length=1, max_length=253)
    port: int = Field(default=587, ge=1, le=65535)
    from_: str = Field(alias="from", min_length=3, max_length=254)
    """The sender address of every mail (``starlanes <games@example.org>``)."""
    starttls: bool = True
    """Ask the mail server for STARTTLS before logging in (port 587); off for a local relay."""
    user: str | None = Field(default=None, max_length=254)
    password: str | None = Field(default=None, max_length=1000)
    timeout_seconds: float = Field(default=10.0, gt=0, le=120)
    """How long one delivery may take before it is given up (and logged)."""


class Notifications(BaseModel):
    """The event stream of logged-in pages and the notification mails
    (``docs/community/notifications.md``)."""

    model_config = ConfigDict(extra="forbid")

    streams_per_account: int = Field(default=8, ge=1, le=100)
    """Event streams (open pages) one account may hold at once; one more gets 429."""
    streams_total: int = Field(default=5000, ge=1)
    """Event streams one server process holds at once."""
    stream_idle_seconds: float = Field(default=900.0, ge=5)
    """A stream that carried no event for this long is closed (the page opens a new one)."""
    heartbeat_seconds: float = Field(default=25.0, ge=1, le=300)
    """How often an idle stream sends a comment line, and checks its session still holds."""
    turn_mail_clock_seconds: float = Field(default=3600.0, ge=0)
    """Turn mails are sent only for games whose per-move clock gives at least this long."""
    mails_per_day: int = Field(default=20, ge=0)
    """Notification mails one account gets in 24 hours at most (resets not counted)."""
    reset_minutes: float = Field(default=60.0, gt=0, le=7 * 1440)
    """How long a password-reset link works (it works once)."""
    admin_poll_seconds: float = Field(default=5.0, gt=0, le=3600)
    """How often the server reads the operator's requests and suspensions."""


class Social(BaseModel):
    """Rematch offers, challenges, follows, presence and blocks
    (``docs/community/social.md``)."""

    model_config = ConfigDict(extra="forbid")

    rematch_offer_minutes: float = Field(default=10.0, gt=0)
    """How long a rematch offer waits for every other seat's answer."""
    challenge_hours: float = Field(default=24.0, gt=0)
    """How long a challenge waits for its answer."""
    open_challenges: int = Field(default=5, ge=1)
    """Challenges one account may have waiting for an answer at once."""
    challenges_per_hour: int = Field(default=30, ge=1)
    """Challenges one account may send per hour (withdrawn ones count)."""
    rematch_offers_per_game: int = Field(default=3, ge=1)
    """Rematch offers one finished game may have (declined and expired ones count)."""
    follows: int = Field(default=200, ge=1)
    """Players one account may follow."""
    blocks: int = Field(default=500, ge=1)
    """Players one account may block."""
    online_minutes: float = Field(default=5.0, gt=0)
    """A player counts as online this long after their last request or open table."""
    sweep_seconds: float = Field(default=30.0, gt=0)
    """How often each process closes expired offers and notes who has a table open."""


class ServerConfig(BaseSettings):
    """Everything the owner of a server decides. Flags beat environment variables, which
    beat the TOML file, which beats these defaults. Raises :class:`ConfigError` naming the
    key for a bad value."""

    model_config = SettingsConfigDict(env_prefix="STARLANES_", env_nested_delimiter="__",
                                      extra="forbid")

    public_url: str | None = None
    """Where players reach the server (``https://play.example.org``); seat links are built
    from it. Unset: links use the address the server was started on (loopback only)."""
    bots: list[BotEntry] = Field(default_factory=lambda: [b.model_copy() for b in DEFAULT_BOTS])
    content_packs: list[ContentPack] = Field(default_factory=list)
    limits: Limits = Field(default_factory=Limits)
    trusted_proxies: list[str] = Field(default_factory=list)
    """Addresses or networks (``10.0.0.0/8``) of reverse proxies whose ``X-Forwarded-For``
    names the real client; from anyone else the header is ignored."""
    allowed_origins: list[str] = Field(default_factory=list)
    """More origins (``https://other.example``) whose pages may open websockets, besides the
    public URL's own."""
    creator_seeds: bool = True
    """Whether a creator may choose a game's seed (the game is then marked "seeded by its
    creator" and unrated)."""
    access_log: bool = True
    """Log every request (method, path with tokens redacted, status, time, client)."""
    fair_play: FairPlay = Field(default_factory=FairPlay)
    social: Social = Field(default_factory=Social)
    queue_wait_seconds: float = Field(default=60.0, ge=0)
    """How long a play-now player waits for human opponents before the empty seats are
    given to the catalogue bots nearest in rating."""
    smtp: Smtp | None = None
    """The mail server (``[smtp]``); none: no mail."""
    notifications: Notifications = Field(default_factory=Notifications)

    @field_validator("public_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("public_url must be an http:// or https:// address")
        if parts.query or parts.fragment:
            raise ValueError("public_url must not hold a query or fragment")
        return value.rstrip("/")

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: list[str]) -> list[str]:
        for item in value:
            ipaddress.ip_network(item, strict=False)  # ValueError names the bad one
        return value

    @field_validator("bots")
    @classmethod
    def _bots(cls, value: list[BotEntry]) -> list[BotEntry]:
        names = [b.name for b in value]
        if HUMAN in names:
            raise ValueError("a bot cannot be called 'human'")
        if len(set(names)) != len(names):
            raise ValueError("bot names must be distinct")
        return value

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        path = _TOML.get()
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=path))
        return tuple(sources)

    # ------------------------------------------------------------------ questions
    def bot(self, name: str) -> BotEntry | None:
        """The catalogue entry called ``name`` (case-insensitive), or None."""
        key = name.strip().lower()
        return next((b for b in self.bots if b.name == key), None)

    def bots_for(self, game: str | None) -> list[BotEntry]:
        """The catalogue entries that may take a seat in ``game`` (every one for None), in
        catalogue order."""
        return [b for b in self.bots if game is None or b.plays(game)]

    def pack(self, game: str, name: str) -> ContentPack | None:
        """The content pack ``name`` registered for ``game``, or None."""
        return next((p for p in self.content_packs if p.game == game and p.name == name),
                    None)

    def origins(self) -> set[str]:
        """The origins whose pages may open websockets: the public URL's and the allowed
        ones (``scheme://host[:port]``, lower case)."""
        found = {_origin(o) for o in self.allowed_origins}
        if self.public_url:
            found.add(_origin(self.public_url))
        return found

    def proxy_networks(self) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
        return [ipaddress.ip_network(p, strict=False) for p in self.trusted_proxies]


class ConfigError(BadOptionError):
    """A configuration file or value that cannot be used; the message names the key."""


_TOML: ContextVar[Path | None] = ContextVar("starlanes_config_file", default=None)


def load_config(path: Path | str | None = None, **flags: Any) -> ServerConfig:
    """The configuration from the TOML file at ``path`` (optional), the ``STARLANES_*``
    environment and ``flags`` (keyword arguments named like the keys; None values are
    ignored). Raises ConfigError naming the file or key at fault."""
    given = {k: v for k, v in flags.items() if v is not None}
    if path is not None:
        path = Path(path)
        if not path.is_file():
            raise ConfigError(f"configuration file {path} does not exist")
    token = _TOML.set(path)
    try:
        config = ServerConfig(**given)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'file'}: {err['msg']}"
                             for err in e.errors())
        raise ConfigError(f"bad server configuration: {problems}") from None
    except Exception as e:  # noqa: BLE001 - a TOML syntax error, an unreadable file
        raise ConfigError(f"cannot read the server configuration {path}: {e}") from None
    finally:
        _TOML.reset(token)
    for pack in config.content_packs:
        if not pack.path.is_dir():
            raise ConfigError(f"content pack {pack.name!r}: directory {pack.path} does not "
                              "exist")
    return config


def _origin(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"
