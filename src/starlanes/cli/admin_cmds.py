"""``starlanes admin``: the operator's side of the community on a server's database.

``reports`` lists the chat messages players reported (``--all``: handled ones too),
``handled ID`` files a report away, ``suspend NAME`` stops an account (no log-in, no chat,
no queue; its sessions end at once) and ``unsuspend NAME`` lets it back. An unknown report
or account name exits with status 2 and one line on stderr.
"""

from __future__ import annotations

from typing import Annotated

import typer

from starlanes.cli.app import app
from starlanes.engine import StarlanesError

admin_app = typer.Typer(help="Chat reports and account suspensions on the game server.",
                        no_args_is_help=True)
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

    with _store(db).session() as s:
        row = s.get(ReportRow, report_id)
        if row is None:
            raise AdminError(f"no report {report_id}")
        row.handled = True
    out.print(f"report {report_id} handled")


def _suspend(name: str, db: str | None, suspended: bool) -> None:
    from starlanes.server.community.identity import Sessions, find_account
    from starlanes.terminal import out, printable

    store = _store(db)
    with store.session() as s:
        row = find_account(s, name)
        if row is None:
            raise AdminError(f"no account named {printable(name, 40)!r}")
        row.suspended = suspended
        account_id, shown = row.id, row.name
    if suspended:
        Sessions(store).end_all(account_id)
    out.print(f"account {_cell(shown)} " + ("suspended; its sessions ended" if suspended
                                             else "may log in again"))


@admin_app.command("suspend")
def suspend(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    db: DbUrl = None,
) -> None:
    """Suspend an account: no log-in, no chat, no queue; its sessions end now."""
    _suspend(name, db, True)


@admin_app.command("unsuspend")
def unsuspend(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    db: DbUrl = None,
) -> None:
    """Let a suspended account log in again."""
    _suspend(name, db, False)
