"""The report's plots as inline SVG, written here in Python: no library, no network, no script
needed to see them (the page's script only makes the dots of a strip plot clickable).

Three kinds: horizontal grouped bars (error categories and their costs), a strip plot with a
box per system (per-document scores) and vertical bars (corpus distributions). Every chart
scales with its container (``viewBox``); colours and fonts come from the page's stylesheet
where they are not the data's own (a system's colour).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

# Okabe & Ito's colour-blind-safe palette, then a few more
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000", "#999999", "#882255")


def colour(n: int) -> str:
    return PALETTE[n % len(PALETTE)]


@dataclass(frozen=True)
class Series:
    """One system's values (None: no value) with its label and colour."""

    label: str
    colour: str
    values: Sequence[float | None]


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high]."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _svg(width: float, height: float, body: list[str], label: str, cls: str = "") -> str:
    return (f'<svg class="chart {cls}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="{escape(label)}" '
            f'xmlns="http://www.w3.org/2000/svg">' + "".join(body) + "</svg>")


def _legend(series: Sequence[Series], x: float, y: float) -> list[str]:
    out = []
    for s in series:
        out.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{s.colour}"/>'
                   f'<text x="{x + 14:.1f}" y="{y:.1f}" class="lg">{escape(s.label)}</text>')
        x += 24 + 7 * len(s.label)
    return out


def hbars(rows: Sequence[str], series: Sequence[Series], *, title: str,
          fmt: Callable[[float], str] = _num, label_width: int = 200) -> str:
    """Grouped horizontal bars: a group per row, a bar per series."""
    bar, gap, plot = 13, 10, 380
    values = [v for s in series for v in s.values if v is not None]
    low, high = min([0.0, *values]), max([0.0, *values])
    if high == low:
        high = low + 1
    ticks = nice_ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    x0 = label_width

    def x(v: float) -> float:
        return x0 + (v - low) / (high - low) * plot

    group = bar * len(series) + gap
    top = 34 if len(series) > 1 else 12
    height = top + group * len(rows) + 24
    body = _legend(series, x0, 14) if len(series) > 1 else []
    for t in ticks:
        body.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{top - 4}" '
                    f'y2="{height - 20}" class="grid"/>'
                    f'<text x="{x(t):.1f}" y="{height - 6}" class="tick" '
                    f'text-anchor="middle">{fmt(t)}</text>')
    for r, row in enumerate(rows):
        y = top + r * group
        body.append(f'<text x="{x0 - 8}" y="{y + group / 2 - 1:.1f}" class="rl" '
                    f'text-anchor="end">{escape(row)}</text>')
        for k, s in enumerate(series):
            v = s.values[r]
            if v is None:
                continue
            a, b = sorted((x(0), x(v)))
            by = y + k * bar
            body.append(f'<rect x="{a:.1f}" y="{by:.1f}" width="{max(b - a, 0.5):.1f}" '
                        f'height="{bar - 2}" fill="{s.colour}"><title>{escape(s.label)}: '
                        f'{escape(row)} {fmt(v)}</title></rect>'
                        f'<text x="{b + 3:.1f}" y="{by + bar - 4:.1f}" class="val">{fmt(v)}</text>')
    body.append(f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{top - 4}" y2="{height - 20}" '
                'class="axis"/>')
    return _svg(x0 + plot + 60, height, body, title, "hbars")


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """Q1, median, Q3 (linear interpolation, as numpy's default)."""
    ordered = sorted(values)

    def at(q: float) -> float:
        position = q * (len(ordered) - 1)
        low = math.floor(position)
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

    return at(0.25), at(0.5), at(0.75)


def _jitter(n: int) -> float:
    """A deterministic offset in [-1, 1] for the n-th point (golden-ratio sequence)."""
    return ((n * 0.6180339887) % 1.0) * 2 - 1


def strip_box(series: Sequence[tuple[Series, Sequence[str]]], *, title: str,
              low: float = 0.0, high: float = 100.0) -> str:
    """Per-document values of each series as dots over a box plot (quartiles, whiskers to the
    furthest point within 1.5 IQR); a dot carries its document's index for the page."""
    label_width, plot, band = 150, 520, 56
    height = 16 + band * len(series) + 26
    ticks = nice_ticks(low, high)

    def x(v: float) -> float:
        return label_width + (v - low) / (high - low) * plot

    body = []
    for t in ticks:
        body.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="10" y2="{height - 22}" '
                    f'class="grid"/><text x="{x(t):.1f}" y="{height - 8}" class="tick" '
                    f'text-anchor="middle">{_num(t)}</text>')
    for k, (s, names) in enumerate(series):
        mid = 16 + k * band + band / 2
        body.append(f'<g data-sys="{k + 1}"><text x="{label_width - 10}" y="{mid + 4:.1f}" '
                    f'class="rl" text-anchor="end">{escape(s.label)}</text>')
        known = [v for v in s.values if v is not None]
        if known:
            body += _box(known, mid, x, s.colour)
        for n, v in enumerate(s.values):
            if v is None:
                continue
            cy = mid + _jitter(n) * (band / 2 - 8)
            body.append(f'<circle class="pt" data-doc="{n}" cx="{x(v):.1f}" cy="{cy:.1f}" r="3.6" '
                        f'fill="{s.colour}"><title>{escape(names[n])}: {v:.2f}</title></circle>')
        body.append("</g>")
    return _svg(label_width + plot + 20, height, body, title, "strip")


def _box(values: Sequence[float], mid: float, x: Callable[[float], float],
         fill: str) -> list[str]:
    q1, median, q3 = quartiles(values)
    reach = 1.5 * (q3 - q1)
    low = min(v for v in values if v >= q1 - reach)
    high = max(v for v in values if v <= q3 + reach)
    h = 15
    return [f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{mid:.1f}" y2="{mid:.1f}" '
            f'class="whisker"/>',
            f'<rect x="{x(q1):.1f}" y="{mid - h:.1f}" width="{max(x(q3) - x(q1), 1):.1f}" '
            f'height="{2 * h}" class="box" fill="{fill}"/>',
            f'<line x1="{x(median):.1f}" x2="{x(median):.1f}" y1="{mid - h:.1f}" '
            f'y2="{mid + h:.1f}" class="median"><title>median {median:.2f}</title></line>']


def vbars(labels: Sequence[str], values: Sequence[float], *, title: str, fill: str = PALETTE[0],
          fmt: Callable[[float], str] = _num) -> str:
    """Vertical bars, one per label, with their value above."""
    width, height, left, bottom = max(60 * len(labels), 240), 200, 44, 34
    top = 16
    high = max([*values, 1])
    ticks = nice_ticks(0, high, 4)
    high = max(high, ticks[-1])
    slot = (width - left) / max(len(labels), 1)

    def y(v: float) -> float:
        return height - bottom - v / high * (height - bottom - top)

    body = []
    for t in ticks:
        body.append(f'<line x1="{left}" x2="{width}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                    f'class="grid"/><text x="{left - 5}" y="{y(t) + 4:.1f}" class="tick" '
                    f'text-anchor="end">{fmt(t)}</text>')
    for n, (label, v) in enumerate(zip(labels, values)):
        bx = left + n * slot + slot * 0.15
        body.append(f'<rect x="{bx:.1f}" y="{y(v):.1f}" width="{slot * 0.7:.1f}" '
                    f'height="{y(0) - y(v):.1f}" fill="{fill}"><title>{escape(label)}: '
                    f'{fmt(v)}</title></rect>'
                    f'<text x="{bx + slot * 0.35:.1f}" y="{y(v) - 4:.1f}" class="val" '
                    f'text-anchor="middle">{fmt(v)}</text>'
                    f'<text x="{bx + slot * 0.35:.1f}" y="{height - bottom + 16}" class="tick" '
                    f'text-anchor="middle">{escape(label)}</text>')
    body.append(f'<line x1="{left}" x2="{width}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="axis"/>')
    return _svg(width + 8, height, body, title, "vbars")
