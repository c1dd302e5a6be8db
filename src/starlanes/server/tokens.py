"""Seat tokens: random secrets that let their holder act for one seat.

A token carries 192 bits from :mod:`secrets`; the store keeps only its SHA-256, and
tokens are compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24
"""Random bytes per token (192 bits, written as 32 URL-safe characters)."""


def new_token() -> str:
    """A fresh seat token (URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The SHA-256 (hex) under which a token is stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    if not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_game_id() -> str:
    """A short random game id for links (64 bits; not a secret)."""
    return secrets.token_hex(8)
