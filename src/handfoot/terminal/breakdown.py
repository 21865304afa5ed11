"""A round's score breakdown as plain text that fits the terminal: the count and the points of
each line in columns of their own (``Clean books  3  1,500``: three books, 1,500 points in
all), the sides side by side where the width allows, else one after the other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BreakdownRow", "breakdown_text"]

MIN_COLUMN = 13
"""The least width of a side's column pair (count and points) side by side."""


@dataclass(frozen=True, slots=True)
class BreakdownRow:
    """One line of the breakdown: its label and, per side, (count, points) as shown (an empty
    count for a line with no count: a total given as points), or None if the side has no
    such line."""

    label: str
    cells: Sequence[tuple[str, str] | None]


def breakdown_text(title: str, names: Sequence[str], rows: Sequence[BreakdownRow],
                   totals: Sequence[tuple[str, Sequence[str]]], width: int) -> str:
    """The breakdown in at most ``width`` columns: a column pair per side when they all fit,
    else a block per side. ``totals`` are the rows of points only (``Round total``)."""
    labels = [r.label for r in rows] + [label for label, _ in totals]
    label_w = max(len(x) for x in labels)
    count_w = max([5] + [len(c[0]) for r in rows for c in r.cells if c is not None])
    points_w = max([6] + [len(c[1]) for r in rows for c in r.cells if c is not None]
                   + [len(p) for _, ps in totals for p in ps])
    col_w = max(MIN_COLUMN, count_w + 1 + points_w, *(len(n) for n in names))
    if label_w + len(names) * (2 + col_w) <= width:
        return _side_by_side(title, names, rows, totals, label_w, col_w, points_w)
    return _one_after_another(title, names, rows, totals, count_w, points_w)


def _side_by_side(title: str, names: Sequence[str], rows: Sequence[BreakdownRow],
                  totals: Sequence[tuple[str, Sequence[str]]], label_w: int, col_w: int,
                  points_w: int) -> str:
    def cells(count: str, points: str) -> str:
        return f"{count:>{col_w - points_w - 1}} {points:>{points_w}}"

    out = [title,
           " " * label_w + "".join("  " + f"{n:>{col_w}}" for n in names),
           " " * label_w + "".join("  " + cells("count", "points") for _ in names)]
    for row in rows:
        line = f"{row.label:<{label_w}}"
        for cell in row.cells:
            line += "  " + (cells(*cell) if cell is not None else " " * col_w)
        out.append(line.rstrip())
    for label, points in totals:
        out.append(f"{label:<{label_w}}" + "".join("  " + cells("", p) for p in points))
    return "\n".join(out)


def _one_after_another(title: str, names: Sequence[str], rows: Sequence[BreakdownRow],
                       totals: Sequence[tuple[str, Sequence[str]]], count_w: int,
                       points_w: int) -> str:
    out = [title]
    for side, name in enumerate(names):
        lines = [(r.label, *cell) for r in rows if (cell := r.cells[side]) is not None]
        lines += [(label, "", points[side]) for label, points in totals]
        label_w = max(len(x[0]) for x in lines) + 2
        head = f"{'count':>{count_w}} {'points':>{points_w}}"
        if len(name) <= label_w:
            out.append(f"{name:<{label_w}} {head}")
        else:  # a long name on a line of its own
            out += [name, f"{'':<{label_w}} {head}"]
        out += [f"  {label:<{label_w - 2}} {count:>{count_w}} {points:>{points_w}}"
                for label, count, points in lines]
    return "\n".join(out)
