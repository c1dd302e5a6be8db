"""Deck codes: a Galactic Empires deck list as one short line of text to paste into a chat,
versioned and tied to the card content it was made for.

A code reads ``GE1-`` followed by URL-safe base64 (no padding) of these bytes:

- the first 4 bytes of the content fingerprint (SHA-256 of the merged content files);
- the declared major empire: its index among the content's empire ids, sorted;
- the name: its length in bytes, then UTF-8;
- the copies of every card of the pool, 2 bits each, in the order of the sorted card
  ids (0 to 3; a card with more copies, only possible in a draft that breaks the rules,
  holds 0 there and is listed next);
- the number of such cards, then each as (card index, copies), all as unsigned varints;
- a CRC-32 of everything above with the version, so a changed character is refused.

A 55-card deck makes a code of about 90 characters. :func:`decode` refuses a code of
another version, another content (its fingerprint), or one that was cut or changed, each
with a message saying which.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import TYPE_CHECKING

from starlanes.engine.errors import BadOptionError

from .decks import MAX_COPIES_STORED, DeckList

if TYPE_CHECKING:  # pragma: no cover
    from .content import Content

PREFIX = "GE"
VERSION = 1
MAX_CODE = 2000
"""The longest text taken as a code (characters): a code of every card of a large pool with
a long name stays well below."""


class DeckCodeError(BadOptionError):
    """A text that is not a deck code this content can read; the message says why."""


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _fingerprint(content: Content) -> bytes:
    fp = content.fingerprint or "0" * 8
    return bytes.fromhex(fp[:8])


def encode(content: Content, deck: DeckList) -> str:
    """The code of ``deck`` for ``content``. Raises DeckCodeError for a card or empire the
    content does not have, or a name over 255 bytes (a code holds only what the content
    knows)."""
    ids = sorted(content.cards)
    index = {cid: i for i, cid in enumerate(ids)}
    empires = sorted(content.empires)
    if deck.major not in empires:
        raise DeckCodeError(f"{deck.major!r} is not an empire of this content: no code")
    unknown = [cid for cid in deck.cards if cid not in index]
    if unknown:
        raise DeckCodeError(f"{unknown[0]!r} is not a card of this content: no code")
    try:
        name = deck.name.encode("utf-8")
    except UnicodeEncodeError:
        raise DeckCodeError("the deck's name holds characters no text may hold") from None
    if len(name) > 255:
        raise DeckCodeError("the deck's name is too long for a code (255 bytes at most)")
    packed = bytearray((len(ids) + 3) // 4)
    extra: list[tuple[int, int]] = []
    for cid, k in deck.cards.items():
        i = index[cid]
        if k > 3:
            extra.append((i, k))
            continue
        packed[i // 4] |= k << (2 * (i % 4))
    body = bytearray(_fingerprint(content))
    body.append(empires.index(deck.major))
    body.append(len(name))
    body += name + packed + _varint(len(extra))
    for i, k in sorted(extra):
        body += _varint(i) + _varint(k)
    body += zlib.crc32(bytes([VERSION]) + body).to_bytes(4, "big")
    return f"{PREFIX}{VERSION}-" + base64.urlsafe_b64encode(bytes(body)).decode().rstrip("=")


def decode(content: Content, code: str) -> DeckList:
    """The deck list of ``code``, exactly as encoded. White space anywhere in the text is
    ignored (a chat may wrap it). Raises DeckCodeError: not a deck code, another version,
    a changed or cut code, a code made for other card content (another fingerprint)."""
    if not isinstance(code, str):
        raise DeckCodeError("a deck code is text")
    text = "".join(code.split())
    if len(text) > MAX_CODE:
        raise DeckCodeError(f"a deck code has at most {MAX_CODE} characters")
    head, dash, data = text.partition("-")
    if not dash or not head.upper().startswith(PREFIX) or not head[len(PREFIX):].isdigit():
        raise DeckCodeError("this is not a Galactic Empires deck code (one starts with "
                            f"'{PREFIX}{VERSION}-')")
    version = int(head[len(PREFIX):])
    if version != VERSION:
        raise DeckCodeError(f"this deck code is of version {version}; this starlanes reads "
                            f"version {VERSION} codes")
    try:
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        raise DeckCodeError("this deck code is damaged (it holds characters no code "
                            "has): copy it again in full") from None
    if (len(raw) < 10 or base64.urlsafe_b64encode(raw).decode().rstrip("=") != data
            or zlib.crc32(bytes([VERSION]) + raw[:-4]) != int.from_bytes(raw[-4:], "big")):
        raise DeckCodeError("this deck code is damaged (its check digits do not match): "
                            "copy it again in full")
    body = raw[:-4]
    if body[:4] != _fingerprint(content):
        raise DeckCodeError(
            f"this deck code was made for other card content (fingerprint {body[:4].hex()}, "
            f"this game's content is {_fingerprint(content).hex()}): rebuild the deck for "
            "this content, or play with the content it was made for")
    return _read_body(content, body[4:])


def _read_body(content: Content, body: bytes) -> DeckList:
    ids = sorted(content.cards)
    empires = sorted(content.empires)
    damaged = DeckCodeError("this deck code is damaged (it does not fit its content): "
                            "copy it again in full")
    pos = 0

    def take(n: int) -> bytes:
        nonlocal pos
        if pos + n > len(body):
            raise damaged
        out = body[pos:pos + n]
        pos += n
        return out

    def varint() -> int:
        n, shift = 0, 0
        while True:
            b = take(1)[0]
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return n
            if shift > 28:
                raise damaged

    major_i, name_len = take(2)
    if major_i >= len(empires):
        raise damaged
    try:
        name = take(name_len).decode("utf-8")
    except UnicodeDecodeError:
        raise damaged from None
    packed = take((len(ids) + 3) // 4)
    cards: dict[str, int] = {}
    for i, cid in enumerate(ids):
        k = (packed[i // 4] >> (2 * (i % 4))) & 3
        if k:
            cards[cid] = k
    if any(b >> (2 * (len(ids) % 4)) for b in packed[-1:]) and len(ids) % 4:
        raise damaged
    for _ in range(varint()):
        i, k = varint(), varint()
        if i >= len(ids) or not 3 < k <= MAX_COPIES_STORED or ids[i] in cards:
            raise damaged
        cards[ids[i]] = k
    if pos != len(body):
        raise damaged
    return DeckList(name=name, major=empires[major_i], cards=dict(sorted(cards.items())))
