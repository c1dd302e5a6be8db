"""(being written)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter


def router(community: Any, web: Path) -> APIRouter:
    return APIRouter()


class Matchmaking:
    def __init__(self, community: Any) -> None:
        self.community = community
