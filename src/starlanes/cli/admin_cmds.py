"""``starlanes admin``: the operator's side of the community on a server's database.

- ``users`` lists accounts (``--search`` part of a name, ``--page``/``--per-page``);
- ``reports`` lists the chat messages players reported (``--all``: handled ones too),
  ``handled ID`` files a report away;
- ``suspend NAME`` stops an account (no log-in, no chat, no queue, and its seat links may
  not play: its sessions end at once, the running server refuses its seat links within
  ``notifications.admin_poll_seconds``), ``unsuspend NAME`` lets it back;
- ``reset-password NAME`` prints a one-time link to set a new password (it expires);
- ``delete NAME`` deletes an account: its games and ratings stay, under the name
  ``deleted player``;
- ``end GAME --reason TEXT`` ends a running game: with no result (``--no-result``) or
  adjudicated (``--ranks``/``--winner``), the reason shown to its players; the running
  server carries it out (it reads the operator's requests every
  ``notifications.admin_poll_seconds``);
- ``log`` lists what the operators did.

Every command that changes something is written to the operator's log (``admin_log``:
who, the operating-system user; what; when). An unknown report, account or game exits
with status 2 and one line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from starlanes.cli.app import app
from starlanes.engine import StarlanesError

admin_app = typer.Typer(help="Accounts, chat reports, suspensions and stuck games on the "
                             "game server.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")

DbUrl = Annotated[str | None, typer.Option(
    "--db", help="Database URL, e.g. postgresql+psycopg://user@host/db "
                 "[default: SQLite file starlanes.db in your data directory].")]


class AdminError(StarlanesError):
    """An operator's command naming something the database does not hold."""


def _store(db: str | None):  # noqa: ANN202 - the Store type is imported lazily
    """The store at ``db`` (the default database without one), at the newest schema."""
    from starlanes.server.store import Store, database_url, upgrade

    url = database_url(db)
    upgrade(url)
    return Store(url)


def operator() -> str:
    """Who runs this command: the operating-system user (``unknown`` when it has none)."""
    import getpass

    try:
        return getpass.getuser()[:64]
    except Exception:  # noqa: BLE001 - no user name in this environment
        return "unknown"


def log_action(store, action: str, target: str, detail: str = "") -> None:  # noqa: ANN001
    """Write one operator command to the operator's log."""
    from starlanes.server.community.notify_models import AdminLogRow

    with store.session() as s:
        s.add(AdminLogRow(who=operator(), action=action, target=target[:80],
                          detail=detail[:500]))


def _account(s, name: str):  # noqa: ANN001, ANN202 - lazily imported types
    from starlanes.server.community.identity import find_account
    from starlanes.terminal import printable

    row = find_account(s, name)
    if row is None:
        raise AdminError(f"no account named {printable(name, 40)!r}")
    return row


def _cell(text: str, limit: int = 200) -> str:
    from rich.markup import escape

    from starlanes.terminal import printable

    return escape(printable(text, limit))


@admin_app.command("reports")
def reports(
    all_: Annotated[bool, typer.Option("--all", help="Handled reports too.")] = False,
    db: DbUrl = None,
) -> None:
    """List reported chat messages, oldest first (unhandled ones unless --all)."""
    from rich.table import Table
    from sqlalchemy import select

    from starlanes.server.community.models import ChatRow, ReportRow
    from starlanes.terminal import out

    store = _store(db)
    with store.session() as s:
        query = (select(ReportRow, ChatRow).join(ChatRow, ChatRow.id == ReportRow.message_id)
                 .order_by(ReportRow.id))
        if not all_:
            query = query.where(ReportRow.handled.is_(False))
        rows = s.execute(query).all()
    if not rows:
        out.print("no reports" if all_ else "no reports to handle")
        return
    table = Table(title="reported chat messages")
    for name in ("id", "when (UTC)", "game", "reporter", "author", "text", "reason"):
        table.add_column(name, no_wrap=name in ("id", "when (UTC)", "game"))
    if all_:
        table.add_column("handled")
    for report, message in rows:
        author = message.name + (f" (seat {message.seat})" if message.seat is not None else "")
        cells = [str(report.id), report.at.strftime("%Y-%m-%d %H:%M"), _cell(message.game_id),
                 _cell(report.reporter), _cell(author),
                 _cell(f"[{message.channel}] {message.text}", 500), _cell(report.reason)]
        table.add_row(*cells, *(["yes" if report.handled else "no"] if all_ else []))
    out.print(table)


@admin_app.command("handled")
def handled(
    report_id: Annotated[int, typer.Argument(help="The report's id (from 'reports').")],
    db: DbUrl = None,
) -> None:
    """Mark a report as handled (it leaves the list)."""
    from starlanes.server.community.models import ReportRow
    from starlanes.terminal import out

    store = _store(db)
    with store.session() as s:
        row = s.get(ReportRow, report_id)
        if row is None:
            raise AdminError(f"no report {report_id}")
        row.handled = True
    log_action(store, "handled", f"report {report_id}")
    out.print(f"report {report_id} handled")


def _suspend(name: str, db: str | None, suspended: bool, reason: str) -> None:
    from starlanes.server.community.identity import Sessions
    from starlanes.terminal import out

    store = _store(db)
    with store.session() as s:
        row = _account(s, name)
        row.suspended = suspended
        account_id, shown = row.id, row.name
    if suspended:
        Sessions(store).end_all(account_id)
    log_action(store, "suspend" if suspended else "unsuspend", shown, reason)
    out.print(f"account {_cell(shown)} " + (
        "suspended; its sessions ended and its seat links may not play" if suspended
        else "may log in again"))


Reason = Annotated[str, typer.Option("--reason", help="Why, for the operator's log.")]


@admin_app.command("suspend")
def suspend(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    reason: Reason = "",
    db: DbUrl = None,
) -> None:
    """Suspend an account: no log-in, no chat, no queue, its seat links may not play; its
    sessions end now."""
    _suspend(name, db, True, reason)


@admin_app.command("unsuspend")
def unsuspend(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    reason: Reason = "",
    db: DbUrl = None,
) -> None:
    """Let a suspended account log in again."""
    _suspend(name, db, False, reason)


@admin_app.command("users")
def users(
    search: Annotated[str, typer.Option("--search", help="Part of a name (any case).")] = "",
    page: Annotated[int, typer.Option("--page", min=1, help="Which page (1: the first).")] = 1,
    per_page: Annotated[int, typer.Option("--per-page", min=1, max=500,
                                          help="Accounts per page.")] = 50,
    deleted: Annotated[bool, typer.Option("--deleted", help="Deleted accounts too.")] = False,
    db: DbUrl = None,
) -> None:
    """List accounts by name: when registered, seats held, suspended, e-mail notifications."""
    from rich.table import Table
    from sqlalchemy import func, select

    from starlanes.server.community.models import AccountRow
    from starlanes.server.store import SeatRow
    from starlanes.terminal import out

    store = _store(db)
    query = select(AccountRow)
    if not deleted:
        query = query.where(AccountRow.deleted.is_(False))
    needle = search.strip().casefold()
    if needle:
        escaped = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(AccountRow.name_key.like(f"%{escaped}%", escape="\\"))
    with store.session() as s:
        total = s.scalar(select(func.count()).select_from(query.subquery())) or 0
        rows = list(s.scalars(query.order_by(AccountRow.name_key)
                              .offset((page - 1) * per_page).limit(per_page)))
        seats = dict(s.execute(select(SeatRow.account_id, func.count())
                               .where(SeatRow.account_id.in_([r.id for r in rows]))
                               .group_by(SeatRow.account_id)).all()) if rows else {}
    pages = max(1, -(-total // per_page))
    if not rows:
        out.print(f"no accounts{' matching ' + _cell(repr(search), 40) if needle else ''}"
                  + (f" on page {page} (there are {pages})" if total else ""))
        return
    table = Table(title=f"accounts{' matching ' + _cell(repr(search), 40) if needle else ''}"
                        f": page {page} of {pages} ({total} in all)")
    for name in ("id", "name", "registered (UTC)", "seats", "state", "mail"):
        table.add_column(name, no_wrap=True)
    for row in rows:
        state = "deleted" if row.deleted else "suspended" if row.suspended else "active"
        mail = ", ".join(k for k, on in (("turns", row.email_turns),
                                         ("challenges", row.email_challenges)) if on)
        table.add_row(str(row.id), _cell(row.name), row.created.strftime("%Y-%m-%d %H:%M"),
                      str(seats.get(row.id, 0)), state,
                      (mail or "address, no mails") if row.email else "")
    out.print(table)
    if page < pages:
        out.print(f"next page: --page {page + 1}")


@admin_app.command("reset-password")
def reset_password(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    minutes: Annotated[float, typer.Option("--minutes", min=1, max=7 * 1440,
                                           help="How long the link works.")] = 60.0,
    url: Annotated[str | None, typer.Option(
        "--url", help="The server's public address the link starts with "
                      "[default: public_url of the configuration, else "
                      "http://127.0.0.1:8000].")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="The server's TOML configuration (for its public_url).")] = None,
    db: DbUrl = None,
) -> None:
    """Print a one-time link that sets a new password for the account (it works once,
    for --minutes). Give it to the player by a way you trust."""
    from starlanes.server.community.credentials import make_reset
    from starlanes.terminal import out

    if url is None:
        from starlanes.server.config import load_config

        url = load_config(config).public_url or "http://127.0.0.1:8000"
    if not url.startswith(("http://", "https://")):
        raise AdminError("--url must start with http:// or https://")
    store = _store(db)
    with store.session() as s:
        row = _account(s, name)
        account_id, shown = row.id, row.name
    token = make_reset(store, account_id, minutes, "admin")
    log_action(store, "reset-password", shown, f"a link for {minutes:g} minutes")
    out.print(f"a link to set a new password for {_cell(shown)} (it works once, for "
              f"{minutes:g} minutes):", highlight=False)
    out.print(f"{url.rstrip('/')}/reset?token={token}", highlight=False, soft_wrap=True)


@admin_app.command("delete")
def delete(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    reason: Reason = "",
    db: DbUrl = None,
) -> None:
    """Delete an account: its name is freed, it cannot log in; its games and ratings stay
    under the name 'deleted player'."""
    from starlanes.server.community.credentials import anonymise
    from starlanes.server.community.notify_models import AdminRequestRow
    from starlanes.terminal import out

    store = _store(db)
    with store.session() as s:
        row = _account(s, name)
        account_id, shown = row.id, row.name
    seats = anonymise(store, account_id)
    with store.session() as s:  # the running server shows the new name at once
        s.add(AdminRequestRow(kind="delete", game_id="", outcome={"account": account_id}))
    log_action(store, "delete", shown, reason)
    out.print(f"account {_cell(shown)} deleted; its {len(seats)} seats show "
              "'deleted player'")


@admin_app.command("end")
def end(
    game: Annotated[str, typer.Argument(help="The game's id (from its link).")],
    reason: Annotated[str, typer.Option("--reason", help="Why, shown to the players.")],
    no_result: Annotated[bool, typer.Option(
        "--no-result", help="End it counting for nobody (no winner, not rated).")] = False,
    winner: Annotated[int | None, typer.Option(
        "--winner", min=0, help="Adjudicate: this seat first, the others shared second.")]
    = None,
    ranks: Annotated[str | None, typer.Option(
        "--ranks", help="Adjudicate: each seat's place, 0 first, e.g. 1,0,2.")] = None,
    wait: Annotated[float, typer.Option(
        "--wait", min=0, max=600, help="Seconds to wait for the running server.")] = 15.0,
    db: DbUrl = None,
) -> None:
    """End a running game: with no result (--no-result) or adjudicated (--winner or
    --ranks), the reason shown to the players. The running server ends it (a server that
    is not running ends it when it starts)."""
    import time

    from starlanes.server.community.notify_models import AdminRequestRow
    from starlanes.server.store import GameRow
    from starlanes.terminal import out, printable

    text = printable(reason, 300).strip()
    if not text:
        raise AdminError("give a --reason: the players are shown it")
    if [no_result, winner is not None, ranks is not None].count(True) != 1:
        raise AdminError("say how it ends: one of --no-result, --winner SEAT, --ranks R,R,...")
    store = _store(db)
    with store.session() as s:
        row = s.get(GameRow, game) if len(game) <= 32 else None
        if row is None:
            raise AdminError(f"no game {printable(game, 40)!r}")
        if row.ended is not None:
            raise AdminError(f"game {game} is over already")
        players = row.players
    places: list[int] | None = None
    if winner is not None:
        if winner >= players:
            raise AdminError(f"--winner {winner}: the game's seats are 0 to {players - 1}")
        places = [0 if seat == winner else 1 for seat in range(players)]
    elif ranks is not None:
        try:
            places = [int(x) for x in ranks.split(",")]
        except ValueError:
            raise AdminError("--ranks takes whole numbers separated by commas, e.g. "
                             "1,0") from None
        if len(places) != players or any(p < 0 or p >= players for p in places):
            raise AdminError(f"--ranks needs {players} places, each 0 to {players - 1}")
    outcome = {"reason": "adjudicated", "ranks": places, "by_operator": True,
               "detail": (f"by the server's operator: {text}" if places is not None else
                          f"by the server's operator, with no result: {text}")}
    with store.session() as s:
        request = AdminRequestRow(kind="end", game_id=game, outcome=outcome)
        s.add(request)
        s.flush()
        request_id = request.id
    log_action(store, "end", game, outcome["detail"])
    deadline = time.monotonic() + wait
    while True:
        with store.session() as s:
            done = s.get(AdminRequestRow, request_id)
            result = done.result if done.done is not None else ""
        if result and result != "being carried out":
            out.print(f"game {game}: {_cell(result, 300)}")
            if not result.startswith("ended"):
                raise typer.Exit(1)
            return
        if time.monotonic() >= deadline:
            out.print(f"game {game}: asked; the running server ends it (none answered in "
                      f"{wait:g} s: a server ends it when it starts)")
            return
        time.sleep(0.2)


@admin_app.command("log")
def admin_log(
    limit: Annotated[int, typer.Option("--limit", min=1, max=10_000,
                                       help="How many, newest first.")] = 50,
    db: DbUrl = None,
) -> None:
    """List what the operators did, newest first: when, who, what, on what."""
    from rich.table import Table
    from sqlalchemy import select

    from starlanes.server.community.notify_models import AdminLogRow
    from starlanes.terminal import out

    with _store(db).session() as s:
        rows = list(s.scalars(select(AdminLogRow).order_by(AdminLogRow.id.desc())
                              .limit(limit)))
    if not rows:
        out.print("the operator's log is empty")
        return
    table = Table(title="what the operators did (newest first)")
    for name in ("when (UTC)", "who", "what", "on", "details"):
        table.add_column(name, no_wrap=name != "details")
    for row in rows:
        table.add_row(row.at.strftime("%Y-%m-%d %H:%M:%S"), _cell(row.who), row.action,
                      _cell(row.target), _cell(row.detail, 500))
    out.print(table)
