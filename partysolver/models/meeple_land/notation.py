"""Meeple Land move notation: the formatter and the parser of every move and chance outcome.

Cells are written ``x,y`` as in position files and ``render``: ``x`` is the column counted from
0 at the plot's left edge, ``y`` the row counted from 0 at its top edge (the entrance side); an
extension on the north or west side has negative ones.  A tile turns clockwise, in degrees.
Canonical spellings (see ``docs/formats.md``, "Move notation"):

- ``buy S30 at 3,2`` / ``buy S30 at 3,2 turned 90``: buy market tile S30 and place it turned 90
  degrees clockwise, the top-left cell of its turned footprint on column 3, row 2;
- ``extension north at column 2`` / ``extension east at row 0``: the plot extension on that
  side, its first column (north, south) or row (east, west);
- ``entrance N3`` (the plot's north edge at column 3; ``E2``: east edge at row 2; as in the
  files) or ``entrance 7,2:east`` (a side of any cell, for the extension's edges);
- ``advert``: buy the advert on the small pile;
- ``pass bus B11``: pass and take bus B11 (``pass`` when no bus is left);
- chance: ``draw S12`` (a tile comes into the market), ``top advert A3`` (the small pile's new top
  shows advert A3), ``bus B11 arrives`` (a bus comes into the parking lot).

Also accepted: what ``hint`` printed before (``buy S30@3,2r90``, ``extension N2``, ``entrance
3,0:N``, ``advertise``, ``pass B11``), the readable sentence of ``describe_action``, ``(3, 2)``,
``turned 90°``, ``rotated 90``, ``r90``, ``n``/``e``/``s``/``w`` for the sides, ``entrance
east at row 2``, ``take bus B11``, ``bus B11``, ids alone at a chance node (``S12``, ``B11``), and any case.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ..playable import StepNotation, Vocabulary
from ..protocol import Action
from .game import (
    Advertise,
    Buy,
    BuyEntrance,
    BuyExtension,
    DrawBus,
    DrawTile,
    Pass,
    RevealAdvert,
    Side,
    entrance_text,
)
from .state import MeepleLandState


class MeepleLandNotation(StepNotation):
    """The notation of Meeple Land (see the module docstring)."""

    def actor(self, state: MeepleLandState) -> str:
        if state.finished:
            return "nobody: the game is over"
        if state.pending:
            event = state.pending[0]
            if event == "bus":
                return "the bus pile"
            return "the small pile" if event == "advert" else f"the {event} pile"
        return state.names[state.current]

    def format(self, state: MeepleLandState, step: Action) -> str:
        if isinstance(step, Buy):
            p = step.placement
            turn = f" turned {p.rotation}" if p.rotation else ""
            return f"buy {p.tile} at {p.at[0]},{p.at[1]}{turn}"
        if isinstance(step, BuyExtension):
            line = "column" if step.side in (Side.N, Side.S) else "row"
            return f"extension {step.side.word} at {line} {step.offset}"
        if isinstance(step, BuyEntrance):
            return f"entrance {_entrance(state, step)}"
        if isinstance(step, Advertise):
            return "advert"
        if isinstance(step, Pass):
            return "pass" if step.bus is None else f"pass bus {step.bus}"
        if isinstance(step, DrawTile):
            return f"draw {step.tile}"
        if isinstance(step, RevealAdvert):
            return f"top advert {step.advert}"
        if isinstance(step, DrawBus):
            return f"bus {step.bus} arrives"
        raise ValueError(f"not a Meeple Land step: {step!r}")

    def variants(self, state: MeepleLandState, step: Action) -> Iterable[str]:
        yield str(step)
        yield state.describe_action(step)
        if isinstance(step, Buy):
            p = step.placement
            turn = f" turned {p.rotation}" if p.rotation else ""
            yield f"{p.tile} at {p.at[0]},{p.at[1]}{turn}"
            yield f"buy {p.tile} at column {p.at[0]} row {p.at[1]}{turn}"
            # what the hint's text said before it named the column and the row
            tile = state.catalogue.tile(p.tile)
            old = f", turned {p.rotation}°" if p.rotation else ""
            yield (f"{state.names[state.current]} buys {tile.label} (${tile.cost}) and places "
                   f"it at {p.at[0]},{p.at[1]}{old}")
        elif isinstance(step, BuyExtension):
            yield f"extension {step.side.word} {step.offset}"
            yield f"extension {step.side.word} at {step.offset}"
        elif isinstance(step, BuyEntrance):
            (x, y), side = step.edge
            yield f"entrance {x},{y} {side.word}"
            yield f"entrance {x},{y}:{side.word}"
            plot = state.parks[state.current].plot
            edge = entrance_text(step.edge, plot)
            yield f"entrance {edge}"
            if ":" not in edge:  # on the plot's own edge: N3 is the north edge at column 3
                line = "column" if side in (Side.N, Side.S) else "row"
                yield f"entrance {side.word} at {line} {edge[1:]}"
                yield f"entrance {side.word} {edge[1:]}"
        elif isinstance(step, Advertise):
            yield "buy advert"
        elif isinstance(step, Pass) and step.bus is not None:
            yield f"take bus {step.bus}"
            yield f"bus {step.bus}"
            yield f"pass take bus {step.bus}"
            yield f"pass and take bus {step.bus}"
        elif isinstance(step, DrawTile):
            yield step.tile
            yield f"tile {step.tile}"
        elif isinstance(step, RevealAdvert):
            yield step.advert
            yield f"advert {step.advert}"
        elif isinstance(step, DrawBus):
            yield step.bus
            yield f"{step.bus} arrives"
            yield f"bus {step.bus}"
            yield f"draw bus {step.bus}"

    def vocabulary(self, state: MeepleLandState) -> Vocabulary:
        return _vocabulary()


def _entrance(state: MeepleLandState, step: BuyEntrance) -> str:
    """``N3`` on the plot's own edge, ``7,2:east`` on any other cell's side."""
    text = entrance_text(step.edge, state.parks[state.current].plot)
    if ":" in text:
        (x, y), side = step.edge
        return f"{x},{y}:{side.word}"
    return text


@lru_cache(maxsize=1)
def _vocabulary() -> Vocabulary:
    """Rotation words, side letters and cells in brackets or with spaces."""
    phrases = [("rotated", "turned"), ("rotate", "turned"), ("turn", "turned"),
               ("clockwise", ""), ("degrees", ""), ("the", ""),
               ("col", "column"), ("advertise", "advert")]
    phrases += [(side.name.lower(), side.word) for side in Side]
    patterns = [(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)", r"\1,\2"),
                (r"(?<![\w@])(-?\d+)\s*,\s*(-?\d+)", r"\1,\2"),
                (r"(\d)\s*°", r"\1"),
                (r"(?:^|(?<= ))r(90|180|270)(?= |$)", r"turned \1")]
    return Vocabulary(phrases, patterns)


NOTATION = MeepleLandNotation()

__all__ = ["MeepleLandNotation", "NOTATION"]
