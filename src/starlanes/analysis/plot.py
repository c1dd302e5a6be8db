"""A PNG of agent ratings: mu with +-2 sigma error bars, best agent on top."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

from starlanes.engine.files import write_file


def plot_ratings(ratings: Mapping[str, Mapping[str, float]], path: Path,
                 title: str = "ratings") -> None:
    """Write the ratings plot to ``path`` (PNG). Raises BadOptionError if it cannot be
    written or matplotlib (the ``plot`` extra) is missing."""
    from .html import require_matplotlib

    plt = require_matplotlib()

    order = sorted(ratings, key=lambda a: ratings[a]["mu"])
    mus = [ratings[a]["mu"] for a in order]
    errs = [2 * ratings[a]["sigma"] for a in order]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(order)))
    try:
        ax.errorbar(mus, range(len(order)), xerr=errs, fmt="o", capsize=4)
        ax.set_yticks(range(len(order)), labels=order)
        ax.set_xlabel("rating mu (error bars: +-2 sigma)")
        ax.set_title(title)
        ax.grid(axis="x", alpha=0.3)
        ax.set_ylim(-0.6, len(order) - 0.4)
        fig.tight_layout()
        buf = io.BytesIO()  # written whole or not at all: a full disk leaves no empty file
        fig.savefig(buf, format="png", dpi=100)
        write_file(path, buf.getvalue(), "plot")
    finally:
        plt.close(fig)
