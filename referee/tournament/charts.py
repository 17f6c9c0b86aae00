"""Net worth per player over a game, and the SVG chart of it (no plotting library: plain SVG text)."""
from __future__ import annotations

from html import escape
from typing import Callable

from ..engine import Game

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def net_worth_series(game: Game) -> tuple[list[str], list[list[int]]]:
    """Players (in turn order) and, for each turn of the game, every player's assets at its start, plus
    the final assets: the game's history of its entries in effect."""
    game = game.with_history()
    assert game.history is not None  # with_history keeps one
    return game.history.net_worth(game.effective, game.state)


def _dollars(amount: int) -> str:
    return f"${amount:,}"


def _turns(steps: int) -> str:
    return f"turns → {steps}"


def net_worth_svg(names: list[str], points: list[list[int]], width: int = 640, height: int = 260,
                  money: Callable[[int], str] = _dollars, turns: Callable[[int], str] = _turns) -> str:
    """The chart; ``money`` writes an amount on the axis and ``turns`` the axis label (the caller's language)."""
    left, right, top, bottom = 56, 12, 12, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max((v for row in points for v in row), default=1) or 1
    steps = max(len(points) - 1, 1)

    def xy(i: int, v: int) -> str:
        return f"{left + plot_w * i / steps:.1f},{top + plot_h * (1 - v / peak):.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>']
    for frac in (0, 0.5, 1):
        y = top + plot_h * (1 - frac)
        parts.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{escape(money(int(peak * frac)))}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 22}" text-anchor="middle">'
                 f'{escape(turns(steps))}</text>')
    for p, name in enumerate(names):
        color = COLORS[p % len(COLORS)]
        line = " ".join(xy(i, row[p]) for i, row in enumerate(points))
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{line}"/>')
        x = left + p * (plot_w / max(len(names), 1))
        parts.append(f'<rect x="{x:.1f}" y="{height - 12}" width="10" height="10" fill="{color}"/>'
                     f'<text x="{x + 14:.1f}" y="{height - 3}">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)
