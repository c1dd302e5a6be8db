"""The rules reference: how to play each game, in the project's own words.

One Markdown file per game ships in this package (``<game-id>.md``, package data, so
``starlanes rules GAME`` works from an installed wheel; ``docs/rules/`` points here). Each
file opens with an introduction and has one section per rule group, headed
``## <Title> (<GROUP>)`` where GROUP is the prefix of the rule IDs it explains
(``## Battle (RD-BAT)``); ``ActionDescription.section`` names such a group.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from starlanes.engine.errors import StarlanesError, UnknownGameError
from starlanes.engine.explain import rule_group

HEADING = re.compile(r"^## (?P<title>.+?) \((?P<group>[A-Z]+(?:-[A-Z]+)+)\)\s*$")


@dataclass(frozen=True, slots=True)
class Section:
    """One section of a rules reference: ``group`` (``RD-BAT``; empty for the
    introduction), ``title`` and its ``markdown`` including the heading."""

    group: str
    title: str
    markdown: str


def reference_text(game_id: str) -> str:
    """The whole rules reference of ``game_id`` as Markdown.

    Raises UnknownGameError when the project has no reference for that id."""
    path = resources.files(__package__).joinpath(f"{game_id}.md")
    if not path.is_file():
        raise UnknownGameError(f"no rules reference for {game_id!r}")
    return path.read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def _sections(game_id: str) -> tuple[Section, ...]:
    text = reference_text(game_id)
    out: list[Section] = []
    group, title, lines = "", "Introduction", []
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            if lines:
                out.append(Section(group, title, "\n".join(lines).strip()))
            group, title, lines = m["group"], m["title"], [line]
        else:
            lines.append(line)
    if lines:
        out.append(Section(group, title, "\n".join(lines).strip()))
    return tuple(out)


def reference_sections(game_id: str) -> list[Section]:
    """The sections of ``game_id``'s reference in order, the introduction first."""
    return list(_sections(game_id))


def find_sections(game_id: str, topic: str) -> list[Section]:
    """The sections a reader means by ``topic``: a rule group (``RD-BAT``, or ``BAT``), a
    rule ID (``RD-BAT-08``) or words of a title (``battle``), ignoring case.

    Raises StarlanesError naming the sections when nothing matches."""
    sections = [s for s in _sections(game_id) if s.group]
    want = " ".join(topic.split()).upper()
    for candidate in (want, rule_group(want)):
        hit = [s for s in sections if s.group == candidate]
        if hit:
            return hit
    hit = [s for s in sections if s.group.endswith("-" + want)]
    if hit:
        return hit
    words = want.lower().split()
    hit = [s for s in sections if all(w in s.title.lower() for w in words)]
    if hit:
        return hit
    known = "; ".join(f"{s.group} {s.title}" for s in sections)
    raise StarlanesError(f"no section of the {game_id} rules matches {topic!r}; "
                         f"sections: {known}")
