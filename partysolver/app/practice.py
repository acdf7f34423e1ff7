"""Practice from any position: the next step of a seat a policy plays, as ``play --bot
NAME=POLICY`` plays it (the game's own policies: ``hint``, ``random``, ...), or the chance
outcome drawn when chance is next.  A front end plays its user's moves and asks this for the
others' (the web board's "Play against the hint": ``apply`` with ``bot``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..models.errors import InputError
from ..models.playable import full_state
from .base import commands_for
from .inputs import Document
from .playalong import apply


def bot_step(doc: Document, texts: Sequence[str], policy: str, seed: int | None = None,
             upto: int | None = None) -> str:
    """The step taken after ``texts`` (played on ``doc`` as :func:`playalong.apply` plays
    them): the move ``policy`` chooses for the seat to act, or at a chance step an outcome
    drawn with its probability; in the game's notation.  Bad input: the game is over, the
    game has no such policy, or the position is one seat's view (a bot needs every hand)."""
    position = apply(doc, texts, upto=upto).position
    rng = random.Random(0 if seed is None else seed)  # reproducible, as play's default seed
    if position.is_over():
        raise InputError.of_option("bot", reason="the game is over: no step for a bot to take")
    if position.awaits_chance():
        return position.format(position.random_step(rng))
    commands = commands_for(doc.game)
    offered = commands.policies if commands is not None else ()
    if policy not in offered:
        raise InputError.of_option("bot", f"a policy of {doc.game} "
                                   f"({', '.join(offered) or 'none'})", policy)
    state = full_state(position)
    if state is None:
        raise InputError.of_option("bot", reason="a bot plays from a full game (every hand "
                                   "known); this position is one seat's view")
    assert commands is not None
    return position.format(commands.policy(policy)(state, rng))
