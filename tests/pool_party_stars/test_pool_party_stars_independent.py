"""Pool Party Stars: solve's posterior and hint's chances against a reference written from the
rulebook, the spec and docs/rules.md alone (no partysolver code).

The reference counts, by brute force, the assignments of distinct rules to the other seats'
current rules that fit every answer and guess a seat has seen (docs/rules.md, "What a deduction
may use"): a proposal is answered clockwise from the proposer's left, the first player whose
rule is on the guest bars it and nobody after answers; a wrong guess says the target's rule is
not the one named; a right guess reveals it and the target redraws. Rules held at the same time
differ. Every fitting assignment is equally likely. Positions come from a small seeded table
that answers truthfully against a random true deal, so every log is consistent.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

from partysolver.app.base import run
from partysolver.app.inputs import document

SPECIES = ("Animal", "Monster", "Robot", "Plant")
OUTFITS = ("Swimsuit", "Sport", "Costume", "Pajamas")
ITEMS = ("Drink", "Food", "Book", "Gift")
RULES = SPECIES + OUTFITS + ITEMS
NAMES = ("Dani", "Lari", "Ana", "Ben", "Eli")
NEVER = 1 << 30


def _position(seed: int) -> dict[str, Any]:
    """A seeded seat log at the seat's turn, and what the reference needs to read it."""
    rng = random.Random(seed)
    n = 2 + seed % 4
    players = NAMES[:n]
    guests = [(s, o, i) for s in SPECIES for o in OUTFITS for i in ITEMS]
    rng.shuffle(guests)
    deck = guests[:40]  # a deck of our own, written into the log
    stock = deck[:]
    held = dict(zip(players, rng.sample(RULES, n), strict=True))
    cards = {p: [held[p]] for p in players}
    hands = {p: [stock.pop() for _ in range(3)] for p in players}
    competitive = seed % 3 == 0
    vips = dict.fromkeys(players, 0)
    waiting = 0
    lines: list[str] = []
    events: list[tuple[Any, ...]] = []
    turns = rng.randint(0, 30)
    for t in range(turns):
        me = players[t % n]
        if not hands[me]:
            break
        if rng.random() < 0.3:
            target = rng.choice([p for p in players if p != me])
            rule = held[target] if rng.random() < 0.4 else rng.choice(RULES)
            right = rule == held[target]
            lines.append(f"{me} guesses {target} is {rule}: {'right' if right else 'wrong'}")
            events.append(("guess", target, rule, right))
            if right:
                vips[me] += (waiting + 1) // 2
                waiting //= 2
                taken = {held[p] for p in players if p != target}
                held[target] = rng.choice([r for r in RULES if r not in taken])
                cards[target].append(held[target])
            elif competitive and vips[me]:
                vips[me] -= 1
            continue
        guest = hands[me].pop(rng.randrange(len(hands[me])))
        asked, barrer = _asked(players, me, guest, held)
        words = [f"{p} lets in" for p in asked] + ([f"{barrer} bars"] if barrer else [])
        lines.append(f"{me} proposes {'-'.join(guest)}: {', '.join(words)}")
        events.append(("propose", me, guest, barrer))
        if barrer is None:
            vips[me] += 1
        else:
            waiting += 1
        if stock:
            hands[me].append(stock.pop())
    seat = players[len(lines) % n]
    data = {"game": "pool-party-stars", "players": list(players),
            "mode": "competitive" if competitive else "friendly",
            "deck": ["-".join(g) for g in deck], "seat": seat, "events": lines,
            "rules": {seat: cards[seat]}, "hands": {seat: ["-".join(g) for g in hands[seat]]}}
    return {"data": data, "players": players, "seat": seat, "events": events,
            "mine": cards[seat], "hand": hands[seat], "waiting": waiting,
            "penalty": int(competitive and vips[seat] > 0), "over": not hands[seat]}


def _asked(players, proposer, guest, rule_of):
    """Those who let ``guest`` in, clockwise from the proposer's left, and who barred it."""
    k = players.index(proposer)
    asked = []
    for j in range(1, len(players)):
        p = players[(k + j) % len(players)]
        if rule_of[p] in guest:
            return asked, p
        asked.append(p)
    return asked, None


def _assignments(pos: dict[str, Any]) -> tuple[list[str], list[dict[str, str]]]:
    """The other seats and every assignment of their current rules that fits the log."""
    players, seat = pos["players"], pos["seat"]
    # each card a player held: [start, end, rule or None, [constraints]]; times are 2*event
    cards = {p: [[0, NEVER, None, []]] for p in players}
    mine = iter(pos["mine"])
    cards[seat][0][2] = next(mine)
    for i, event in enumerate(pos["events"]):
        if event[0] == "propose":
            _, proposer, guest, barrer = event
            for p in players[players.index(proposer) + 1:] + players[:players.index(proposer)]:
                cards[p][-1][3].append((p == barrer, frozenset(guest)))
                if p == barrer:
                    break
        else:
            _, target, rule, right = event
            card = cards[target][-1]
            if right:
                card[2], card[1] = rule, 2 * i + 1
                cards[target].append([2 * i + 1, NEVER, next(mine) if target == seat else None,
                                      []])
            else:
                card[3].append((False, frozenset([rule])))
    flat = [(p, c) for p in players for c in cards[p]]
    others = [p for p in players if p != seat]
    choices = []
    for p in others:
        card = cards[p][-1]
        taken = {c[2] for q, c in flat if q != p and c[2] and c[0] < card[1] and card[0] < c[1]}
        fits = [r for r in RULES if r not in taken
                and all((r in s) == inside for inside, s in card[3])]
        choices.append([card[2]] if card[2] else fits)
    found: list[dict[str, str]] = []

    def grow(k: int, chosen: list[str]) -> None:
        if k == len(others):
            found.append(dict(zip(others, chosen, strict=True)))
            return
        for r in choices[k]:
            if r not in chosen:
                grow(k + 1, chosen + [r])

    grow(0, [])
    return others, found


def _report(verb: str, data: dict[str, Any]) -> dict[str, Any]:
    return run(verb, document(data, "independent.toml"), as_json=True).data


def test_posterior_and_hint_match_an_independent_count() -> None:
    certain_seen: set[str] = set()
    checked = 0
    for seed in range(40):
        pos = _position(seed)
        if pos["over"]:
            continue
        checked += 1
        others, worlds = _assignments(pos)
        total = len(worlds)
        solve = _report("solve", pos["data"])
        assert solve["objective"]["value"] == total, seed
        for entry in solve["solution"]["players"]:
            p = entry["player"]
            want = {r: Fraction(sum(w[p] == r for w in worlds), total) for r in RULES}
            assert {r: Fraction(v) for r, v in entry["exact"].items()} == \
                {r: v for r, v in want.items() if v}, (seed, p)
            assert entry["eliminated"] == [r for r in RULES if not want[r]], (seed, p)
            sure = [r for r in RULES if want[r] == 1]
            assert entry["certain"] == (sure[0] if sure else None), (seed, p)
            certain_seen.update(sure)
        hint = _report("hint", pos["data"])
        gain = (pos["waiting"] + 1) // 2
        seen_guesses = 0
        for move in hint["moves"]:
            figures = move["figures"]
            if move["kind"] == "propose":
                guest = tuple(move["move"].split(" ", 1)[1].split("-"))
                assert guest in pos["hand"], (seed, guest)
                ends: dict[str | None, int] = {}
                for w in worlds:
                    _a, barrer = _asked(pos["players"], pos["seat"], guest,
                                        {**w, pos["seat"]: pos["mine"][-1]})
                    ends[barrer] = ends.get(barrer, 0) + 1
                let_in = ends.get(None, 0) / total
                info = -sum(c / total * math.log2(c / total) for c in ends.values())
                assert math.isclose(figures["probability"], let_in, abs_tol=1e-6), (seed, guest)
                assert math.isclose(move["value"], let_in, abs_tol=1e-6), (seed, guest)
                assert math.isclose(figures["information_bits"], info, abs_tol=1e-6), (seed, guest)
            else:
                _, target, rule = move["move"].split()
                p = sum(w[target] == rule for w in worlds) / total
                h = 0.0 if p in (0, 1) else -p * math.log2(p) - (1 - p) * math.log2(1 - p)
                assert p > 0, (seed, move["move"])
                assert math.isclose(figures["probability"], p, abs_tol=1e-6), (seed, move)
                assert math.isclose(move["value"], p * gain - (1 - p) * pos["penalty"],
                                    abs_tol=1e-6), (seed, move)
                assert math.isclose(figures["information_bits"], h, abs_tol=1e-6), (seed, move)
                seen_guesses += 1
        possible = sum(1 for p in others for r in RULES if any(w[p] == r for w in worlds))
        assert seen_guesses == possible, seed
        assert hint["impossible_guesses_left_out"] == 12 * len(others) - possible, seed
    assert checked >= 30
    # the sample is not vacuous: certain deductions occur, among them Animal (the first rule)
    assert "Animal" in certain_seen and len(certain_seen) >= 3, certain_seen
