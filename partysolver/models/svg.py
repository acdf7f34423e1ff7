"""A tiny SVG writer shared by the renderers (no dependency).

Every text that goes into a picture is escaped here, in element content and in attributes, and
stripped of the characters XML cannot hold: a player named ``<script>`` is drawn as those
characters, never read as markup (the web board embeds these pictures in its pages).

Text is measured with the advance widths of DejaVu Sans (the font a PNG is drawn with; a
browser's sans-serif is about as wide or narrower), so that a renderer can size its canvas to
its titles and captions and wrap long lines instead of cutting them at the edge.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

# Advance widths of the printable ASCII characters (space to tilde) in hundredths of an em,
# regular and bold, from DejaVu Sans.
_WIDTHS = (
    (32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64,
     64, 64, 64, 34, 34, 84, 84, 84, 53, 100, 68, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66, 56, 86,
     75, 79, 60, 79, 69, 63, 61, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61, 63, 55, 63,
     62, 35, 63, 63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59, 82, 59, 59, 52, 64,
     34, 64, 84),
    (35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70,
     70, 70, 70, 70, 40, 40, 84, 84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64,
     100, 84, 85, 73, 85, 77, 72, 68, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50, 50, 67, 72, 59,
     72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58,
     71, 37, 71, 84),
)
_OTHER = 100
"""The width of any other character (an em: wide enough for ★, —, × and most letters)."""


Swatch = Callable[["Svg", float, float], None]
"""Draws a legend entry's sample in the 16-pixel square whose top-left corner is (x, y)."""


def clean(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (control characters)."""
    return _NOT_XML.sub("", text)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` drawn at ``size`` pixels, in pixels."""
    widths = _WIDTHS[bold]
    return size * sum(widths[ord(c) - 32] if 32 <= ord(c) < 127 else _OTHER
                      for c in text) / 100


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pixels (a single word wider
    than that is cut with an ellipsis)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return [fit(line, width, size, bold) for line in lines]


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """``text``, cut with an ellipsis when it is wider than ``width`` pixels."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def escape(text: str) -> str:
    """``text`` as XML character data: ``&``, ``<`` and ``>`` as entities.  (Written here
    rather than taken from ``xml.sax.saxutils``, which imports ``urllib.request`` and with it
    the network stack: a fifth of a second at start-up on a busy machine.)"""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_ATTRIBUTE_WHITESPACE = {ord("\n"): "&#10;", ord("\r"): "&#13;", ord("\t"): "&#9;"}


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value: escaped, its line breaks and tabs as
    character references (an attribute's whitespace is otherwise normalised away), in double
    quotes, or single quotes when it holds double but no single quotes."""
    text = escape(text).translate(_ATTRIBUTE_WHITESPACE)
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def _attributes(attrs: dict[str, object]) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(clean(str(v)))}"
                   for k, v in attrs.items() if v is not None)


def _number(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _length(points: Sequence[tuple[float, float]]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))


def point_along(points: Sequence[tuple[float, float]], share: float) -> tuple[float, float]:
    """The point ``share`` of the way along the polyline ``points``."""
    left = _length(points) * share
    for a, b in zip(points, points[1:], strict=False):
        step = math.dist(a, b)
        if step >= left and step > 0:
            t = left / step
            return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        left -= step
    return points[-1]


class Svg:
    """Collects elements and prints a standalone SVG document."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = []
        if title:
            self.parts.append(f"<title>{escape(clean(title))}</title>")

    def add(self, tag: str, content: str | None = None, /, **attrs: object) -> None:
        if content is None:
            self.parts.append(f"<{tag}{_attributes(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attributes(attrs)}>{escape(clean(content))}</{tag}>")

    @contextmanager
    def group(self, id_: str, **attrs: object) -> Iterator[None]:
        """Elements added inside the ``with`` block go into one ``<g id=...>`` group."""
        self.parts.append(f"<g{_attributes({'id': id_, **attrs})}>")
        yield
        self.parts.append("</g>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.add("rect", x=x, y=y, width=w, height=h, **attrs)

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> None:
        self.add("circle", cx=cx, cy=cy, r=r, **attrs)

    def text(self, x: float, y: float, text: str, **attrs: object) -> None:
        self.add("text", text, x=x, y=y, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def arrow(self, x1: float, y1: float, x2: float, y2: float, color: str = "#d62728",
              width: float = 3, number: int | None = None, start: str | None = None) -> None:
        """A line with an arrowhead at (x2, y2) (see :meth:`route`)."""
        self.route([(x1, y1), (x2, y2)], color, width, number=number, start=start)

    def route(self, points: Sequence[tuple[float, float]], color: str = "#d62728",
              width: float = 3, number: int | None = None, both: bool = False,
              start: str | None = None, **attrs: object) -> None:
        """An arrow along the polyline ``points`` (class ``arrow``), its head at the last point
        (and at the first too when ``both``); ``number`` (its place in a turn) is drawn in a
        badge halfway along; ``start`` names the element (``id``) the arrow starts at."""
        marker = self._marker(color)
        path = " ".join(f"{'L' if i else 'M'} {_number(x)} {_number(y)}"
                        for i, (x, y) in enumerate(points))
        self.add("path", class_="arrow", d=path, fill="none", stroke=color, stroke_width=width,
                 stroke_linejoin="round", marker_end=marker,
                 marker_start=marker if both else None, data_start=start, **attrs)
        if number is not None:
            x, y = point_along(points, 0.5)
            self.badge(x, y, str(number), color)

    def badge(self, x: float, y: float, label: str, color: str = "#d62728") -> None:
        """A small filled circle with ``label`` (an arrow's number) centred at (x, y)."""
        self.circle(x, y, 9, fill=color, stroke="#fff", stroke_width=1.5, class_="badge")
        self.text(x, y + 4, label, font_size=11, font_weight="bold", fill="#fff",
                  text_anchor="middle")

    def _marker(self, color: str) -> str:
        name = "arrow-" + re.sub("[^0-9A-Za-z]", "", color)
        marker = (f'<defs><marker id="{name}" viewBox="0 0 10 10" refX="8" '
                  f'refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
                  f'<path d="M 0 0 L 10 5 L 0 10 z" fill={quoteattr(color)}/></marker></defs>')
        if marker not in self.parts:
            self.parts.insert(0, marker)
        return f"url(#{name})"

    def legend(self, x: float, y: float, rows: Sequence[tuple[Swatch, str]],
               title: str = "Legend", size: float = 11, step: float = 18) -> float:
        """A legend (group ``legend``) at (x, y): a title, then one row per entry, its swatch
        drawn in a 16-pixel square left of its words; the bottom of the legend."""
        with self.group("legend"):
            self.text(x, y + 12, title, font_size=size + 1, font_weight="bold")
            for i, (swatch, words) in enumerate(rows):
                top = y + 20 + step * i
                swatch(self, x, top)
                self.text(x + 22, top + 12, words, font_size=size)
        return y + 20 + step * len(rows)

    def __str__(self) -> str:
        body = "\n".join(self.parts)
        width, height = math.ceil(self.width), math.ceil(self.height)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
                f'height="{height}" viewBox="0 0 {width} {height}" '
                f'font-family="sans-serif">\n{body}\n</svg>\n')


def legend_width(rows: Sequence[tuple[Swatch, str]], title: str = "Legend",
                 size: float = 11) -> float:
    """How wide :meth:`Svg.legend` draws ``rows``."""
    return max([text_width(title, size + 1, True)]
               + [22 + text_width(words, size) for _, words in rows])
