"""A tiny SVG writer shared by the renderers (no dependency, text escaped)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def _attributes(attrs: dict[str, object]) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
                   for k, v in attrs.items() if v is not None)


class Svg:
    """Collects elements and prints a standalone SVG document."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = []
        if title:
            self.parts.append(f"<title>{escape(title)}</title>")

    def add(self, tag: str, content: str | None = None, /, **attrs: object) -> None:
        if content is None:
            self.parts.append(f"<{tag}{_attributes(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attributes(attrs)}>{escape(content)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.add("rect", x=x, y=y, width=w, height=h, **attrs)

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> None:
        self.add("circle", cx=cx, cy=cy, r=r, **attrs)

    def text(self, x: float, y: float, text: str, **attrs: object) -> None:
        self.add("text", text, x=x, y=y, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def arrow(self, x1: float, y1: float, x2: float, y2: float, color: str = "#d62728",
              width: float = 3) -> None:
        """A line with an arrowhead at (x2, y2)."""
        self.line(x1, y1, x2, y2, stroke=color, stroke_width=width,
                  marker_end=f"url(#arrow-{color.lstrip('#')})")
        marker = (f'<defs><marker id="arrow-{color.lstrip("#")}" viewBox="0 0 10 10" refX="9" '
                  f'refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
                  f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{color}"/></marker></defs>')
        if marker not in self.parts:
            self.parts.insert(0, marker)

    def __str__(self) -> str:
        body = "\n".join(self.parts)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
                f'font-family="sans-serif">\n{body}\n</svg>\n')
