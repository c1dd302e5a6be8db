"""Persistence of the game server: the store that reads and writes the tables of
:mod:`.models` (named here too: ``GameRow``, ``SeatRow``, ``ActionRow``, ``Base``, ``now``).

Event-sourced: the ``games`` table holds each game's settings, the ``seats`` table who sits
where (a hash of each seat token, never the token), and the ``actions`` table every
decision as ``(game, seq, seat, notation, digest after, time)``. A game's state is rebuilt
by replaying its actions; nothing else is the truth. Every write is committed before the
server acknowledges it.

The schema is created and changed only by the Alembic migrations in ``migrations/``
(``starlanes db upgrade``); :func:`upgrade` runs them.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, delete, event, func, insert, select, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from starlanes.engine import StarlanesError

from .models import ActionRow, Base, GameRow, SeatRow, UTCDateTime, now

__all__ = ["MIGRATIONS", "ActionRow", "Base", "GameRow", "NewAction", "OpenCounts", "SeatRow",
           "Store", "StoreConflict", "StoreError", "StoreUnavailable", "UTCDateTime",
           "database_url", "make_engine", "now", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")


log = logging.getLogger("starlanes.server")


class StoreError(StarlanesError):
    """The database cannot be opened, is not at the current schema, or refused a write."""


class StoreConflict(StoreError):
    """A write lost a race: the sequence number or the seat was taken a moment ago (only a
    second server on the same database can cause it). Nothing was stored."""


class StoreUnavailable(StoreError):
    """The database cannot take the write now: unreachable, refusing, or (SQLite) its file
    was removed or replaced under the server. Nothing was stored; try again later."""


class _Later(Exception):
    """Rolls back an undo that found a later action stored by another server."""


@dataclass(frozen=True)
class NewAction:
    """An action to store: game id, sequence number, seat, notation, digest after, by whom
    (``player``, ``bot`` or ``clock``)."""

    game_id: str
    seq: int
    seat: int
    notation: str
    digest: str
    by: str = "player"


@dataclass(frozen=True)
class OpenCounts:
    """Unfinished games counted for a create (:meth:`Store.open_counts`): in ``total``,
    created without an account (``anonymous``), caused by the account (``account``) and
    created without an account from the client's network (``network``)."""

    total: int
    anonymous: int
    account: int
    network: int


def database_url(url: str | None = None) -> str:
    """``url`` as given, or the SQLite file ``starlanes.db`` in the user's data directory
    (:func:`starlanes.engine.files.data_dir`: ``STARLANES_DATA_DIR`` when set; created if
    missing)."""
    if url:
        return url
    from starlanes.engine.files import data_dir

    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'starlanes.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets write-ahead logging and full fsync so a killed
    server loses no committed action."""
    try:
        # a file database needs no liveness check; a database server may have restarted
        engine = create_engine(url, future=True,
                               pool_pre_ping=not url.startswith("sqlite"))
    except Exception as e:  # noqa: BLE001 - any driver/URL problem becomes one line
        raise StoreError(f"cannot open database {url!r}: {e}") from None
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def upgrade(url: str) -> None:
    """Bring the database at ``url`` to the newest schema with the Alembic migrations.
    Raises StoreError when the database cannot be reached."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    try:
        command.upgrade(cfg, "head")
    except Exception as e:  # noqa: BLE001
        raise StoreError(f"cannot upgrade database {url!r}: {e}") from None


class Store:
    """Reads and writes games, seats and actions; every method commits its own transaction.

    Errors: :class:`StoreConflict` for a write that lost a race, :class:`StoreUnavailable`
    when the database cannot be reached or its SQLite file was removed or replaced (every
    write checks the file is still the one opened, so nothing is acknowledged into a file
    that is gone)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._file = _sqlite_file(url)
        self._file_id = _file_id(self._file) if self._file else None
        self._file_lost = False

    def check_file(self) -> None:
        """Raise StoreUnavailable (and log it once) when the SQLite file was removed or
        replaced since the store opened it; nothing for other databases."""
        if self._file is None:
            return
        found = _file_id(self._file)
        if self._file_id is None:
            self._file_id = found
        if found is not None and found == self._file_id:
            return
        if not self._file_lost:
            self._file_lost = True
            log.error("the database file %s was %s while the server ran: writes are "
                      "stopped; restart the server to open the file now there", self._file,
                      "removed" if found is None else "replaced")
        raise StoreUnavailable(f"the database file was {'removed' if found is None else 'replaced'}"
                               " under the server; nothing more is stored")

    def ping(self) -> None:
        """Raise StoreUnavailable unless the database answers a query (and the SQLite file
        is still the one opened)."""
        self.check_file()
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except SQLAlchemyError as e:
            raise StoreUnavailable(f"the database does not answer: {type(e).__name__}") from None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction; database faults become StoreConflict / StoreUnavailable."""
        self.check_file()
        try:
            with self._sessions() as s, s.begin():
                yield s
        except _Later:
            raise StoreConflict("another action was stored after the one to take back; "
                                "nothing was taken back") from None
        except IntegrityError as e:
            raise StoreConflict(f"the database refused the write: {type(e).__name__}") from None
        except SQLAlchemyError as e:
            raise StoreUnavailable(f"the database cannot be used now: {type(e).__name__}") from None

    # -------------------------------------------------------------- games and seats
    def create_game(self, row: GameRow, seats: list[SeatRow]) -> None:
        with self.session() as s:
            s.add(row)
            s.flush()
            for seat in seats:
                s.add(seat)

    def games(self) -> list[GameRow]:
        """The games not ended yet (``ended`` unset), oldest first: what a server process
        loads. Finished games are archived: read one at a time (:meth:`game`) or a page at
        a time (:meth:`finished_games`), never all at once."""
        with self.session() as s:
            return list(s.scalars(select(GameRow).where(GameRow.ended.is_(None))
                                  .order_by(GameRow.created)))

    def finished_games(self, limit: int, before: tuple[dt.datetime, str] | None = None
                       ) -> list[GameRow]:
        """At most ``limit`` finished games, the most recently ended first; ``before``
        (the ``(ended, id)`` of the last game of the previous page) pages on from there."""
        query = select(GameRow).where(GameRow.ended.is_not(None))
        if before is not None:
            ended, game_id = before
            query = query.where((GameRow.ended < ended)
                                | ((GameRow.ended == ended) & (GameRow.id < game_id)))
        with self.session() as s:
            return list(s.scalars(query.order_by(GameRow.ended.desc(), GameRow.id.desc())
                                  .limit(max(0, limit))))

    def ended_of(self, game_ids: list[str]) -> dict[str, GameRow]:
        """The rows of those of ``game_ids`` that have ended (``ended`` set), in one query
        (how a process learns of games another process ended)."""
        if not game_ids:
            return {}
        with self.session() as s:
            return {row.id: row for row in s.scalars(
                select(GameRow).where(GameRow.id.in_(game_ids), GameRow.ended.is_not(None)))}

    def seats_of(self, game_ids: list[str]) -> dict[str, list[SeatRow]]:
        """The seats of each of ``game_ids`` (in seat order), in one query."""
        found: dict[str, list[SeatRow]] = {g: [] for g in game_ids}
        if not game_ids:
            return found
        with self.session() as s:
            for seat in s.scalars(select(SeatRow).where(SeatRow.game_id.in_(game_ids))
                                  .order_by(SeatRow.game_id, SeatRow.seat)):
                found[seat.game_id].append(seat)
        return found

    def moves_of(self, game_ids: list[str]) -> dict[str, int]:
        """The number of stored actions of each of ``game_ids``, in one query."""
        found = dict.fromkeys(game_ids, 0)
        if not game_ids:
            return found
        with self.session() as s:
            for game_id, n in s.execute(select(ActionRow.game_id, func.count())
                                        .where(ActionRow.game_id.in_(game_ids))
                                        .group_by(ActionRow.game_id)):
                found[game_id] = int(n)
        return found

    def open_counts(self, account: int | None, network: str) -> OpenCounts:
        """How many unfinished games there are in all, created without an account, caused
        by ``account`` (0 for None) and caused from ``network`` without an account: what
        the quotas count (:mod:`.quotas`), in one transaction."""
        unfinished = GameRow.ended.is_(None)

        def count(*where: Any) -> Any:
            return select(func.count()).select_from(GameRow).where(unfinished, *where)

        anonymous = GameRow.owner_account.is_(None)
        with self.session() as s:
            total = s.scalar(count()) or 0
            anon = s.scalar(count(anonymous)) or 0
            mine = (s.scalar(count(GameRow.owner_account == account)) or 0
                    if account is not None else 0)
            net = s.scalar(count(anonymous, GameRow.owner_network == network)) or 0
        return OpenCounts(int(total), int(anon), int(mine), int(net))

    def game(self, game_id: str) -> GameRow | None:
        with self.session() as s:
            return s.get(GameRow, game_id)

    def set_outcome(self, game_id: str, outcome: dict[str, Any] | None,
                    ended: dt.datetime | None = None) -> None:
        """Store a result the server decided (``GameRow.outcome``; None: the rules decide)
        and, when given, the moment the game ended (``GameRow.ended``). Raises StoreError
        when the database refuses."""
        with self.session() as s:
            row = s.get(GameRow, game_id)
            if row is not None:
                row.outcome = None if outcome is None else dict(outcome)
                if ended is not None:
                    row.ended = ended

    def set_ended(self, game_id: str, ended: dt.datetime) -> None:
        """Note when a game the rules ended ended (``GameRow.ended``), once."""
        with self.session() as s:
            row = s.get(GameRow, game_id)
            if row is not None and row.ended is None:
                row.ended = ended

    def seats(self, game_id: str) -> list[SeatRow]:
        with self.session() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                  .order_by(SeatRow.seat)))

    def claim_seat(self, game_id: str, seat: int, name: str, token_hash: str,
                   options: dict[str, Any] | None = None,
                   account_id: int | None = None, network: str | None = None) -> bool:
        """Give an open human seat to ``name`` (held by ``account_id``, None for a guest,
        taken from the client network ``network``);
        False if it is taken or not human. With ``options``, the game's options become
        those in the same transaction (a seat that brings its setup, before the first
        move)."""
        with self.session() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                  SeatRow.seat == seat)
                            .with_for_update()).first()
            if row is None or row.kind != "human" or row.token_hash is not None:
                return False
            row.name = name
            row.token_hash = token_hash
            row.account_id = account_id
            row.network = network
            if options is not None:
                game = s.get(GameRow, game_id)
                if game is None:
                    return False
                game.options = dict(options)
            return True

    # -------------------------------------------------------------- actions
    def actions(self, game_id: str) -> list[ActionRow]:
        with self.session() as s:
            return list(s.scalars(select(ActionRow).where(ActionRow.game_id == game_id)
                                  .order_by(ActionRow.seq)))

    def since(self, game_id: str, seq: int) -> tuple[list[SeatRow], list[ActionRow]]:
        """The seats of a game and its actions from ``seq`` on, read in one transaction
        (how a server process catches up with moves another process stored)."""
        with self.session() as s:
            seats = list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                   .order_by(SeatRow.seat)))
            actions = list(s.scalars(select(ActionRow).where(ActionRow.game_id == game_id,
                                                             ActionRow.seq >= seq)
                                     .order_by(ActionRow.seq)))
            return seats, actions

    def recent_games(self, since: dt.datetime) -> list[GameRow]:
        """Games created or moved after ``since`` (the games a bot may be waiting in)."""
        with self.session() as s:
            moved = select(ActionRow.game_id).where(ActionRow.at >= since)
            return list(s.scalars(select(GameRow).where(
                (GameRow.created >= since) | GameRow.id.in_(moved))
                .order_by(GameRow.created)))

    def append_action(self, game_id: str, seq: int, seat: int, notation: str, digest: str,
                      by: str = "player") -> None:
        """Commit one action; raises StoreError if ``seq`` is already taken."""
        self.append_actions([NewAction(game_id, seq, seat, notation, digest, by)])

    def append_actions(self, actions: list[NewAction]) -> None:
        """Commit ``actions`` (of any games) in one transaction: all are stored or none.
        Raises StoreError naming the first action if the database refused the write (a
        sequence number already taken is a lost race)."""
        if not actions:
            return
        self.check_file()
        stamp = now()
        try:
            with self.engine.begin() as conn:  # one INSERT of many rows, one commit
                conn.execute(insert(ActionRow), [
                    {"game_id": a.game_id, "seq": a.seq, "seat": a.seat,
                     "notation": a.notation, "digest": a.digest, "by": a.by, "at": stamp}
                    for a in actions])
        except Exception as e:  # noqa: BLE001 - an integrity error is a lost race
            first = actions[0]
            more = f" (and {len(actions) - 1} more)" if len(actions) > 1 else ""
            kind = StoreConflict if isinstance(e, IntegrityError) else StoreUnavailable
            raise kind(f"action {first.seq} of game {first.game_id}{more} could not "
                       f"be stored: {type(e).__name__}") from None

    def truncate_actions(self, game_id: str, keep: int, total: int | None = None) -> None:
        """Delete every action with ``seq >= keep`` (an undo). With ``total`` (the number of
        actions the undoing server knows), only those below it are deleted, and the undo is
        refused with StoreConflict (nothing deleted) when another server has stored a later
        action meanwhile."""
        with self.session() as s:
            if total is None:
                s.execute(delete(ActionRow).where(ActionRow.game_id == game_id,
                                                  ActionRow.seq >= keep))
                return
            s.execute(delete(ActionRow).where(ActionRow.game_id == game_id,
                                              ActionRow.seq >= keep, ActionRow.seq < total))
            later = s.scalars(select(ActionRow.seq).where(ActionRow.game_id == game_id,
                                                          ActionRow.seq >= total)).first()
            if later is not None:
                raise _Later


def _sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL, or None (another database, or one in memory)."""
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 - make_engine reports a bad URL
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    name = parsed.database or ""
    return None if name in ("", ":memory:") or name.startswith("file:") else os.path.abspath(name)


def _file_id(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, or None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)
