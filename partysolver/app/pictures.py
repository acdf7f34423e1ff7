"""Pictures in the formats the front ends write: an SVG as drawn, or a PNG made from it.

Every renderer draws SVG (``partysolver/models/<game>/render.py``); a PNG is that SVG rendered by
resvg (the ``resvg-py`` wheel: a compiled, self-contained library, no system cairo needed).
Text is drawn with the DejaVu fonts that matplotlib ships inside its wheel, not whatever fonts
the machine has: the same SVG gives the same PNG everywhere, also on a machine with no fonts.

A picture's format comes from the file name's suffix (``.svg`` or ``.png``); any other name is
refused in one line before any work (:func:`picture_format`).
"""

from __future__ import annotations

import importlib.util
import io
from functools import cache
from pathlib import Path
from typing import Any, Literal

from ..models.errors import InputError

Format = Literal["svg", "png"]
FORMATS: dict[str, Format] = {".svg": "svg", ".png": "png"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FONT = "DejaVu Sans"


def format_of(path: str | Path) -> Format | None:
    """The picture format a file name asks for (by suffix, any case), or ``None``."""
    return FORMATS.get(Path(path).suffix.lower())


def picture_format(path: str | Path, flag: str) -> Format:
    """The format of the picture file ``path`` given with option ``flag``; a name ending in
    neither ``.svg`` nor ``.png`` is an :class:`InputError` (one line)."""
    found = format_of(path)
    if found is None:
        raise InputError.of_option(flag, "a file name ending in .svg or .png (the suffix "
                                   "picks the picture's format)", str(path))
    return found


def expected_picture_file(value: str) -> str | None:
    """What a picture file name given as an option should be, when ``value`` is not one (for
    :attr:`~partysolver.app.base.OptionSpec.check`), else ``None``."""
    if format_of(value) is None:
        return "a file name ending in .svg or .png (the suffix picks the picture's format)"
    return None  # the folder and the name's length: paths.check_output, before any work


def is_picture(head: bytes) -> bool:
    """Whether a file starting with ``head`` is a picture (PNG or SVG) that a picture output
    (``render -o``, ``simulate --plot``) may replace (for ``paths.check_output``)."""
    if head.startswith(PNG_SIGNATURE):
        return True
    head = head.lstrip()
    return head.startswith((b"<svg", b"<?xml")) and b"<svg" in head


@cache
def _font_dir() -> str | None:
    """The folder of the TrueType fonts matplotlib ships (found without importing it)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
    return str(folder) if (folder / "DejaVuSans.ttf").is_file() else None


def png_from_svg(svg: str) -> bytes:
    """The SVG document ``svg`` as PNG bytes, one pixel per SVG unit (its width and height)."""
    import resvg_py  # here, not at import: only PNG output needs the renderer

    fonts = _font_dir()
    options: dict[str, Any] = {"font_family": FONT, "sans_serif_family": FONT}
    if fonts is not None:
        options |= {"skip_system_fonts": True, "font_dirs": [fonts]}
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, **options))


def encode(svg: str, fmt: Format) -> bytes:
    """The picture ``svg`` as the bytes of a ``fmt`` file."""
    return svg.encode("utf-8") if fmt == "svg" else png_from_svg(svg)


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of the PNG ``data`` (from its header)."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def figure_bytes(figure: Any, fmt: Format, dpi: float = 100) -> bytes:
    """A matplotlib figure as the bytes of a ``fmt`` file (the format is named, not guessed
    from a file name)."""
    import matplotlib

    out = io.BytesIO()
    # an SVG keeps its words as text (searchable, and light), and no date: same run, same file
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "partysolver"}):
        figure.savefig(out, format=fmt, dpi=dpi,
                       metadata={"Date": None} if fmt == "svg" else None)
    return out.getvalue()
