"""An independent restatement of the Party-Time rules, held against the engine and the hint.

The reference below was written from the rulebook (``../shared/seeds/party-time.txt``), the
spec and docs/rules.md alone, without the engine's code: its own state (a dict of plain
tuples), its own move and chance code, exact fractions.  On seeded random positions (house
and small home-made boards and decks, both R-card rules, 2 to 6 players) it must give the
engine's legal plays, the engine's distribution of the next decision (every draw and
revealed card folded in, reshuffles and question-mark chains included) and the engine's win
shares; and on small two-player positions the hint's exact depth-1 figures must equal its own
expectimax over every deal of the unseen cards.  The hint's conventions are docs/solvers.md's:
greedy opponents (the "best square" read as the mover's token change there: a fourth token
loses them all, a red square takes nothing from a player with none), my next turn begun by my
next play or by a card a question mark makes me turn over, whose black square (carried out at
once) counts among the others' strips.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from partysolver.models.party_time import HOUSE_RULES, PartyTimeState, Rules
from partysolver.models.party_time.game import Card, Play, RCard
from partysolver.models.party_time.state import win_shares
from partysolver.solvers.party_time.hint import hint

KINDS = ("1", "2", "3", "4", "5", "R", "black", "star", "?")
STEPS = ("play", "carry-out", "draw", "reveal", "over")
Ref = dict[str, Any]


# -- the reference rules ----------------------------------------------------------------------


def put(counts: tuple[int, ...], kind: int, delta: int) -> tuple[int, ...]:
    out = list(counts)
    out[kind] += delta
    assert out[kind] >= 0
    return tuple(out)


def worth(kind: int) -> int:
    return kind + 1 if kind < 5 else 0


def reference(state: PartyTimeState) -> Ref:
    """The engine's state in the reference's own terms (the bottle as a square, the star of
    the set-up as a flag)."""
    length = state.rules.length
    return {"board": state.rules.board, "reverse": state.rules.r_card == "reverse",
            "step": STEPS[state.phase], "turn": state.turn, "drawer": state.refill,
            "shown": state.revealed, "way": state.direction, "square": state.bottle % length,
            "setup": state.bottle == 0, "tokens": state.tokens, "strips": state.strips,
            "hands": tuple(tuple(h) for h in state.hands), "pile": tuple(state.pile),
            "played": tuple(state.played)}


def frozen(s: Ref) -> tuple[Any, ...]:
    return ("over", s["strips"]) if s["step"] == "over" else tuple(sorted(s.items()))


def seat_after(s: Ref, seat: int) -> int:
    return (seat + s["way"]) % len(s["strips"])


def plays(s: Ref) -> set[tuple[int, int]]:
    """(kind, tokens returned): a number card with 0 up to min(tokens, its number)."""
    who = s["turn"]
    kinds = [s["shown"]] if s["step"] == "carry-out" else \
        [k for k, n in enumerate(s["hands"][who]) if n]
    return {(k, r) for k in kinds for r in range(min(s["tokens"][who], worth(k)) + 1)}


def crosses(s: Ref, squares: int) -> bool:
    """Passing the star without stopping on it; a star someone stopped on is left by crossing
    it, the star of the set-up is not (docs/rules.md)."""
    if squares == 0:
        return False
    if s["square"] == 0:
        return not s["setup"]
    return s["square"] + squares > len(s["board"])


def lose_strip(s: Ref, seat: int) -> Ref:
    s = dict(s, strips=put(s["strips"], seat, -1))
    return dict(s, step="over") if s["strips"][seat] == 0 else s


def advance(s: Ref, seat: int, number: int, returned: int) -> Ref:
    s = dict(s, tokens=put(s["tokens"], seat, -returned))
    squares = number - returned
    if squares == 0:  # the bottle stays and no square acts
        return s
    if crosses(s, squares):
        s = lose_strip(s, seat)
        if s["step"] == "over":
            return s
    square = (s["square"] + squares) % len(s["board"])
    held = s["tokens"][seat]
    symbol = s["board"][square]
    if symbol == "+":
        held = held + 1 if held < 3 else 0  # a fourth token: lose them all
    elif symbol == "-":
        held = max(held - 1, 0)
    return dict(s, square=square, setup=False, tokens=put(s["tokens"], seat, held - s["tokens"][seat]))


def done(s: Ref, next_seat: int) -> Ref:
    if s["step"] == "over":
        return s
    return dict(s, step="draw" if s["drawer"] >= 0 else "play", turn=next_seat, shown=-1)


def carry_out(s: Ref, seat: int, kind: int, returned: int) -> Ref:
    """What ``kind`` does when ``seat`` plays it (from hand or turned over)."""
    if kind < 5:
        s = advance(s, seat, worth(kind), returned)
        return done(s, seat_after(s, seat))
    name = KINDS[kind]
    if name == "R":
        if s["reverse"]:
            s = dict(s, way=-s["way"])
            return done(s, seat_after(s, seat))
        return done(s, (seat - 1) % len(s["strips"]))  # the player on the right
    if name == "black":
        victim = seat_after(s, seat)
        return done(lose_strip(s, victim), victim)
    if name == "star":
        s = dict(s, square=0, setup=False)
        return done(s, seat_after(s, seat))
    return dict(s, step="reveal", turn=seat_after(s, seat), shown=-1)  # "?"


def act(s: Ref, move: tuple[int, int]) -> Ref:
    kind, returned = move
    seat = s["turn"]
    if s["step"] == "carry-out":
        s = dict(s, played=put(s["played"], kind, 1))
        return carry_out(s, seat, kind, returned)
    hands = list(s["hands"])
    hands[seat] = put(hands[seat], kind, -1)
    s = dict(s, hands=tuple(hands), played=put(s["played"], kind, 1), drawer=seat)
    return carry_out(s, seat, kind, returned)


def take(s: Ref, kind: int) -> Ref:
    s = dict(s, pile=put(s["pile"], kind, -1))
    if not any(s["pile"]):  # the last card taken: the played cards become the new pile
        s = dict(s, pile=s["played"], played=(0,) * 9)
    return s


def chance(s: Ref) -> list[tuple[Fraction, Ref]]:
    total = sum(s["pile"])
    out = []
    for kind, count in enumerate(s["pile"]):
        if not count:
            continue
        after = take(s, kind)
        if s["step"] == "draw":
            hands = list(after["hands"])
            hands[s["drawer"]] = put(hands[s["drawer"]], kind, 1)
            after = dict(after, hands=tuple(hands), drawer=-1, step="play")
        elif kind < 5 and s["tokens"][s["turn"]]:
            after = dict(after, step="carry-out", shown=kind)  # tokens to choose
        else:
            after = dict(after, played=put(after["played"], kind, 1))
            after = carry_out(after, s["turn"], kind, 0)
        out.append((Fraction(count, total), after))
    return out


def settle(s: Ref, weight: Fraction = Fraction(1)) -> list[tuple[Fraction, Ref]]:
    if s["step"] not in ("draw", "reveal"):
        return [(weight, s)]
    return [leaf for p, after in chance(s) for leaf in settle(after, weight * p)]


# -- the reference hint (depth 1, greedy opponents, every deal) --------------------------------


def token_change(s: Ref, seat: int, squares: int, returned: int) -> int:
    if squares == 0:
        return 0
    symbol = s["board"][(s["square"] + squares) % len(s["board"])]
    held = s["tokens"][seat] - returned
    if symbol == "+":
        return 1 if held < 3 else -held
    return -1 if symbol == "-" and held else 0


def greedy(s: Ref) -> tuple[int, int]:
    """docs/solvers.md: a safe number card (fewest tokens, best square, longest move), else a
    special card (black, star, ?, R), else a crossing card (best square, highest)."""
    seat, options = s["turn"], plays(s)
    safe = [(k, r) for k, r in options if k < 5 and not crosses(s, worth(k) - r)]
    if s["step"] == "carry-out":
        return min(safe, key=lambda m: m[1]) if safe else (s["shown"], 0)
    if safe:
        return min(safe, key=lambda m: (m[1], -token_change(s, seat, worth(m[0]) - m[1], m[1]),
                                        m[1] - worth(m[0])))
    for name in ("black", "star", "?", "R"):
        if (KINDS.index(name), 0) in options:
            return KINDS.index(name), 0
    crossing = [(k, 0) for k, r in options if k < 5 and r == 0]
    return min(crossing, key=lambda m: (-token_change(s, seat, worth(m[0]), 0), -m[0]))


def my_next_play(s: Ref, me: int) -> float:
    """Strips my next turn's first play costs: no safe card in hand, or a revealed number
    card that crosses however many tokens I return."""
    if s["step"] == "play":
        return 0.0 if any(k >= 5 or not crosses(s, worth(k) - r) for k, r in plays(s)) else 1.0
    return float(min(crosses(s, worth(s["shown"]) - r) for r in range(s["tokens"][me] + 1)
                     if r <= worth(s["shown"])))


def to_my_turn(s: Ref, me: int, start: tuple[int, ...], weight: float, sums: list[float]
               ) -> None:
    """Play on until my next turn begins; add [chance I lose a strip, my strips lost, next
    play's strips, the others' strips] weighted."""
    if s["step"] == "over" or (s["turn"] == me and s["step"] in ("play", "carry-out", "reveal")):
        lost = [a - b for a, b in zip(start, s["strips"], strict=True)]
        nxt = 0.0
        if s["step"] == "reveal":  # turning over a card begins my turn
            total = sum(s["pile"])
            for kind, count in enumerate(s["pile"]):
                if kind < 5:
                    shown = dict(s, step="carry-out", shown=kind)
                    nxt += count / total * my_next_play(shown, me)
                elif KINDS[kind] == "black":  # carried out at once: the next seat's strip
                    lost[seat_after(s, me)] += count / total
        elif s["step"] != "over":
            nxt = my_next_play(s, me)
        figures = [float(lost[me] > 0), lost[me], nxt, sum(lost) - lost[me]]
        for i, x in enumerate(figures):
            sums[i] += weight * x
        return
    if s["step"] in ("draw", "reveal"):
        for p, after in chance(s):
            to_my_turn(after, me, start, weight * float(p), sums)
        return
    to_my_turn(act(s, greedy(s)), me, start, weight, sums)


def hands_dealt(pool: tuple[int, ...], size: int) -> list[tuple[float, tuple[int, ...]]]:
    """Every hand of ``size`` cards from ``pool`` by kind, with its probability."""
    hands: list[tuple[int, ...]] = [()]
    for kind in range(9):
        hands = [h + (x,) for h in hands for x in range(min(pool[kind], size - sum(h)) + 1)]
    whole = comb(sum(pool), size)
    out = []
    for h in hands:
        if sum(h) == size:
            ways = 1
            for a, b in zip(pool, h, strict=True):
                ways *= comb(a, b)
            out.append((ways / whole, h))
    return out


def reference_hint(state: PartyTimeState) -> dict[tuple[int, int], list[float]]:
    """Two players: [this turn, before next, loss, next play, others] of every play of the
    player to act, over every hand the other may hold and every pile order."""
    me = state.turn
    view = state.view(me)
    s = reference(state)
    other = 1 - me
    unseen = tuple(view.unseen())
    figures = {}
    for move in plays(s):
        sums = [0.0] * 4
        this_turn = 0
        for p, hand in hands_dealt(unseen, view.hand_size(other)):
            hands = list(s["hands"])
            hands[other] = hand
            dealt = dict(s, hands=tuple(hands),
                         pile=tuple(a - b for a, b in zip(unseen, hand, strict=True)))
            after = act(dealt, move)
            this_turn = dealt["strips"][me] - after["strips"][me]
            start = tuple(after["strips"][i] if i == me else dealt["strips"][i] for i in (0, 1))
            to_my_turn(after, me, start, p, sums)  # my own crossing is this turn's
        before, lost, nxt, others = sums
        figures[move] = [float(this_turn), before, this_turn + lost, nxt, others]
    return figures


# -- the positions --------------------------------------------------------------------------


def random_rules(rng: random.Random) -> Rules:
    r_card: RCard = rng.choice(["right", "reverse"])
    if rng.random() < 0.5:
        return Rules(HOUSE_RULES.board, HOUSE_RULES.deck, r_card)
    board = "*" + "".join(rng.choice("+-.") for _ in range(rng.randint(5, 13)))
    deck = tuple(rng.randint(1 if kind < 5 else 0, 6 if kind == 8 else 4) for kind in range(9))
    return Rules(board, deck, r_card)


def positions(seed: int, count: int, players: tuple[int, int], ended: bool = False
              ) -> list[PartyTimeState]:
    """Decisions (or, if ``ended``, games over) reached by random play."""
    rng = random.Random(seed)
    found: list[PartyTimeState] = []
    while len(found) < count:
        rules = random_rules(rng)
        n = rng.randint(*players)
        if rules.deck_size < 3 * n + 4:
            continue
        state = PartyTimeState.new_game(rules, [f"P{i}" for i in range(n)], rng)
        for _ in range(rng.randrange(1000 if ended else 60)):
            if state.phase == 4 or (state.phase == 1 and not ended):  # keep a carry-out
                break
            if state.phase in (2, 3):
                outcomes = state.chance_outcomes()
                state = state.apply(rng.choices([a for a, _ in outcomes],
                                                [float(p) for _, p in outcomes])[0])
            else:
                state = state.apply(rng.choice(state.legal_actions()))
        if state.phase in ((4,) if ended else (0, 1)):
            found.append(state)
    return found


def engine_settle(state: PartyTimeState, weight: Fraction) -> list[tuple[Fraction, Any]]:
    if state.phase not in (2, 3):
        return [(weight, state)]
    return [leaf for action, p in state.chance_outcomes()
            for leaf in engine_settle(state.apply(action), weight * p)]


# -- the tests ------------------------------------------------------------------------------


def test_the_end_and_the_shared_win() -> None:
    """The game ends when a player has no strip left; the most strips left share the win."""
    for state in positions(4, 10, (2, 6), ended=True):
        assert state.strips.count(0) == 1
        best = max(state.strips)
        winners = [x == best for x in state.strips]
        assert win_shares(state.strips) == tuple(w / sum(winners) for w in winners)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_engine_equals_the_reference_rules(seed: int) -> None:
    """The legal plays and the distribution of the next decision (or of the end)."""
    for state in positions(seed, 10, (2, 6)):
        s = reference(state)
        engine_plays = {(int(a.card), a.tokens) for a in state.legal_actions()}
        assert engine_plays == plays(s), state
        for kind, returned in engine_plays:
            expected: dict[Any, Fraction] = {}
            for p, after in settle(act(s, (kind, returned))):
                expected[frozen(after)] = expected.get(frozen(after), Fraction(0)) + p
            got: dict[Any, Fraction] = {}
            for p, after in engine_settle(state.apply(Play(Card(kind), returned)), Fraction(1)):
                key = frozen(reference(after))
                got[key] = got.get(key, Fraction(0)) + p
            assert got == expected, (state, KINDS[kind], returned)


def test_exact_hint_equals_the_reference_expectimax() -> None:
    """The depth-1 figures of every play, where the hint says they are exact."""
    for state in positions(7, 8, (2, 2)):
        found = hint(state.view(state.turn), playouts=0)
        assert found.status == "exact"
        expected = reference_hint(state)
        assert {(int(m.play.card), m.play.tokens) for m in found.moves} == set(expected)
        for m in found.moves:
            got = [m.this_turn, m.before_next, m.loss, m.next_play, m.others]
            assert got == pytest.approx(expected[(int(m.play.card), m.play.tokens)],
                                        abs=1e-9), (state, m.play)
