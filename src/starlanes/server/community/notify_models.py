"""The tables of notifications and of the operator (password-reset links, mail stamps, the
server's signing key, the operator's log and requests), under the names the community and
its tools use. They are defined with the server's other tables in
:mod:`starlanes.server.models.notify`.
"""

from __future__ import annotations

from ..models.notify import (
    MAIL_KEEP_DAYS,
    AdminLogRow,
    AdminRequestRow,
    MailSentRow,
    PasswordResetRow,
    ServerKeyRow,
)

__all__ = ["MAIL_KEEP_DAYS", "AdminLogRow", "AdminRequestRow", "MailSentRow",
           "PasswordResetRow", "ServerKeyRow"]
