"""The command-line adapter of Party-Time: hint, verify, simulate and render."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import click

from ..models.documents import Fields, read_document
from ..models.errors import InputError
from ..models.party_time import GAME, HOUSE_RULES, INFO, Rules, load_position, load_rules
from ..models.party_time.position import Position, describe_position, rules_problems
from ..models.party_time.render import render_svg
from ..models.party_time.state import CARRY_OUT, PLAY, PartyTimeState
from ..solvers.budget import Budget
from ..solvers.party_time.hint import PLAYOUTS, TOLERANCE, Hint, HintPolicy, hint
from ..solvers.party_time.policies import GreedyPolicy
from ..solvers.simulate import RandomPolicy, rate_of, simulate
from ..solvers.stats import mean_interval, wilson_interval
from .adapters import (
    Document,
    GameCommands,
    Options,
    Report,
    problems_report,
    require_valid,
)
from .output import percent, table, top

DEPTH = click.Option(["--depth"], type=click.IntRange(min=1, max=4), default=1,
                     show_default=True,
                     help="party-time: horizon of the hint in your turns (1 = until your next "
                          "turn; 2 = the turn after, ...).")
MAX_NODES = click.Option(["--hint-max-nodes"], type=click.IntRange(min=1), default=None,
                         help="party-time: node budget of the hint's search.")
RULES = click.Option(["--party-rules"], type=click.Path(exists=True, dir_okay=False),
                     default=None, metavar="FILE",
                     help="party-time: a rules file (board, deck, r_card) instead of the house "
                          "board and deck.")
R_CARD = click.Option(["--r-card"], type=click.Choice(["right", "reverse"]), default=None,
                      help="party-time: the R card's rule (reverse = the variant).")
HINT_DEPTH = click.Option(["--hint-depth"], type=click.IntRange(min=1, max=2), default=1,
                          show_default=True,
                          help="party-time: horizon of the hint policy in simulations.")
PLAYOUTS_HELP = ("party-time: paired playouts to the end of the game per play, which order the "
                 "equally safe plays (0: the habits alone).")


def _playouts(ctx: click.Context, param: click.Parameter, value: int) -> int:
    if value == 1:
        raise click.BadParameter("0 (no playouts) or at least 2 (an interval needs two)")
    return value


HINT_PLAYOUTS = click.Option(["--playouts"], type=click.IntRange(min=0), default=PLAYOUTS,
                             show_default=True, callback=_playouts, help=PLAYOUTS_HELP)
SIMULATE_PLAYOUTS = click.Option(["--hint-playouts"], type=click.IntRange(min=0),
                                 default=PLAYOUTS, show_default=True, callback=_playouts,
                                 help=PLAYOUTS_HELP.replace("per play", "per play of the hint "
                                                            "policy"))


def _load(document: Document) -> Position:
    position = load_position(document.data, document.source)
    require_valid(position.problems(), document.source)
    return position


def _search(document: Document, position: Position, options: Options) -> Hint:
    if position.turn != position.me or position.phase not in (PLAY, CARRY_OUT):
        me, turn = position.name(position.me), position.name(position.turn)
        raise InputError(document.source, "me", f"the seat to act ({turn}, step \"play\" or "
                         f"\"carry-out\") for a hint", me)
    budget = Budget(time=options.time_limit, nodes=options.extra.get("hint_max_nodes"))
    return hint(position.to_view(document.source), options.extra.get("depth", 1), budget,
                options.extra.get("playouts", PLAYOUTS), options.rng_seed,
                notice=lambda text: click.echo(text, err=True))


class PartyTimeCommands(GameCommands):
    info = INFO
    verbs = frozenset({"hint", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[click.Option]]] = {
        "hint": [DEPTH, MAX_NODES, HINT_PLAYOUTS],
        "render": [DEPTH, MAX_NODES, HINT_PLAYOUTS],
        "simulate": [RULES, R_CARD, HINT_DEPTH, SIMULATE_PLAYOUTS],
    }
    policies = ("random", "greedy", "hint")

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        position = _load(document)
        found = _search(document, position, options)
        me = position.name(position.me)
        moves = top(found.moves, options.top)
        rows = [{"move": str(m.play), "text": _play_text(m.play), "value": round(m.value, 6),
                 "interval": _interval_json(m.interval), "exact": m.exact,
                 "figures": {name: round(value, 6) for name, value in m.figures().items()},
                 "intervals": None if m.intervals is None else {
                     name: _interval_json(getattr(m.intervals, name))
                     for name in ("value", "loss", "before_next", "next_play", "others")},
                 "loss": round(m.loss, 6), "next_play": round(m.next_play, 6),
                 "lose_chance": round(m.lose_chance, 6), "tokens_kept": m.tokens_kept,
                 "losses": {position.name(s): round(v, 6) for s, v in enumerate(m.losses)},
                 "long_run": m.long_run.as_json() if m.long_run else None,
                 "reason": m.reason} for m in moves]
        data: dict[str, Any] = {
            "game": INFO.key, "player": me, "status": found.status, "depth": found.depth,
            "asked_depth": found.asked, "value": "expected strips you lose until your turn at the "
            "horizon and on its play (lower is better)", "tolerance": TOLERANCE,
            "deals": found.deals, "playouts": found.playouts, "moves": rows,
            "usage": found.usage, "truncated_chains": found.truncated}
        horizon = "until and on your next play" if found.depth == 1 else \
            f"until and on your play {found.depth} turns from now"
        method = ("exact over every deal of the unseen cards" if not found.deals else
                  f"estimated over {found.deals:,} sampled deals of the unseen cards, "
                  "with 95% intervals")
        head = [f"{me}: {len(found.moves)} play(s) ranked by the strips you are expected to lose "
                f"{horizon}, {method} ({found.usage.get('nodes', 0):,} views"
                + (f", {found.usage.get('seconds', 0):.2f} s" if options.timings else "")
                + "; opponents play greedy)"]
        safest = min(found.moves, key=lambda m: m.value, default=None)
        if moves and safest is not None and moves[0].value > safest.value + 1e-9:
            why = ("costs the fewest strips by the end of the game in "
                   f"{found.playouts:,} paired playouts" if found.playouts else
                   "leaves more for later: the hint keeps tokens first, then plays the big "
                   "cards and keeps the special ones")
            head.append(f"{moves[0].play} is within {TOLERANCE:g} strips of the safest play "
                        f"({safest.play}, {safest.value:.3f}), and among such near-equal plays "
                        f"it {why} (docs/solvers.md)")
        if found.status == "unknown":
            head.append(f"unknown: the budget ran out at depth {found.asked}; "
                        + (f"showing depth {found.depth}" if found.moves else "no ranking"))
        lines = [(rank, str(m.play), _value_text(m), _strip_text(m.this_turn),
                  percent(m.before_next), percent(m.next_play), m.tokens_kept,
                  "-" if m.long_run is None else f"{m.long_run.mean:.2f}", m.reason)
                 for rank, m in enumerate(moves, 1)]
        text = table(["#", "play", "exp. loss", "this turn", "before next", "next turn",
                      "tokens", "game end", "why"], lines, right=(0, 2, 3, 4, 5, 6, 7))
        text += ("\nthis turn: strips the play itself costs you; before next: the chance you "
                 "lose a strip between this turn and your next (a black square); next turn: "
                 "the chance your next turn costs you one (no safe card in your hand, or a "
                 "card a question mark makes you carry out)")
        if found.playouts:
            text += ("\ngame end: strips you lose by the end of the game, on average over "
                     f"{found.playouts:,} playouts (everyone greedy after the play, you by the "
                     "habits)")
        return Report(data, "\n".join(head) + "\n" + text)

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        position = load_position(document.data, document.source)
        return problems_report(INFO.key, position.problems(),
                               lambda: describe_position(position))

    # -- simulate -----------------------------------------------------------------------------

    def simulate(self, players: int | None, games: int, policies: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        n = players or 4
        rules = _rules(options, n)
        names = policies or ("greedy",)
        chosen = [make_policy(name, options.extra.get("hint_depth", 1),
                              options.extra.get("hint_playouts", PLAYOUTS)) for name in names]
        rotate = options.extra.get("rotate", False)
        result = simulate(NewGame(n, rules), chosen, games, seed=options.rng_seed,
                          rotate=rotate, stats=figures,
                          workers=options.extra.get("workers", 1), progress=progress)
        seat_policies = [names[seat % len(names)] for seat in range(n)]
        seats = seat_figures(result.records, n)
        data: dict[str, Any] = {
            "game": INFO.key, "players": n, "games": games, "policies": list(names),
            "rotate": rotate, "house_rules": rules.is_house(), "r_card": rules.r_card,
            "seats": [{"seat": SEATS[i], "policy": None if rotate else seat_policies[i]}
                      | seats[i] for i in range(n)],
        }
        hinted = [policy for policy in chosen if isinstance(policy, HintPolicy)]
        if hinted:
            data["hint"] = {"depth": hinted[0].depth, "playouts": hinted[0].playouts,
                            "max_nodes": hinted[0].nodes}
        by_policy = policy_figures(result.records, result.policies)
        if len(set(names)) > 1:
            data["by_policy"] = by_policy
        rows = [(SEATS[i], "rotating" if rotate else seat_policies[i],
                 _mean_text(seats[i]["strips_lost"]), _rate_text(seats[i]["first_out"]),
                 _rate_text(seats[i]["win"])) for i in range(n)]
        text = [f"{games} games, {n} players ({'house' if rules.is_house() else 'custom'} "
                f"board and deck, R card: {rules.r_card}); 95% intervals"
                + (f"; the hint at depth {hinted[0].depth} with {hinted[0].playouts:,} "
                   "playouts per play" if hinted else ""),
                table(["seat", "policy", "strips lost", "first out", "win (ties share)"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "strips lost", "first out", "win"],
                              [(name, _mean_text(f["strips_lost"]), _rate_text(f["first_out"]),
                                _rate_text(f["win"])) for name, f in by_policy.items()]))
        return Report(data, "\n".join(text))

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        position = _load(document)
        play, caption = None, ""
        if options.extra.get("hint"):
            found = _search(document, position, options)
            if found.best is not None:
                play = found.best.play
                best = found.best
                caption = (f"hint: {_play_text(play)}, "
                           + ("you lose a strip this turn, " if best.this_turn else "")
                           + f"{percent(best.before_next)} chance you lose "
                           + ("another" if best.this_turn else "a")
                           + " strip before your next turn")
        return render_svg(position, play, caption)


SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def _interval_json(interval: Any) -> list[float] | None:
    return None if interval is None else [round(interval.low, 6), round(interval.high, 6)]


def _value_text(move: Any) -> str:
    if move.interval is None:
        return f"{move.value:.3f}"
    return f"{move.value:.3f} [{move.interval.low:.3f}, {move.interval.high:.3f}]"


def _strip_text(strips: float) -> str:
    return "1 strip" if strips == 1.0 else f"{strips:g}"


def _play_text(play: Any) -> str:
    card = play.card
    text = f"play {card.label}"
    if play.tokens:
        text += f" returning {play.tokens} token{'s' if play.tokens > 1 else ''}"
    return text


def _rules(options: Options, players: int) -> Rules:
    rules = HOUSE_RULES
    path = options.extra.get("party_rules")
    if path:
        document, source = read_document(path)
        fields = Fields(document, source)
        game = fields.text("game", INFO.key)
        if game != INFO.key:
            raise fields.error("game", repr(INFO.key), game)
        table_ = fields.table("rules")
        fields.done()
        rules = load_rules(table_, HOUSE_RULES)
        require_valid(rules_problems(rules, players), source)
    r_card = options.extra.get("r_card")
    if r_card:
        rules = Rules(rules.board, rules.deck, r_card)
    return rules


class NewGame:
    """A fresh game for ``players`` players under ``rules`` (picklable, for worker processes)."""

    def __init__(self, players: int, rules: Rules) -> None:
        self.players = players
        self.rules = rules

    def __call__(self, rng: random.Random) -> PartyTimeState:
        return GAME.initial_state(self.players, rng, self.rules)


def make_policy(name: str, depth: int = 1, playouts: int = PLAYOUTS) -> Any:
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy()
    return HintPolicy(depth, playouts=playouts)


def figures(state: PartyTimeState) -> dict[str, float]:
    """Per seat: strips lost, whether this seat went out first, and its share of the win."""
    shares = state.returns()
    found = {}
    for seat, strips in enumerate(state.strips):
        found[f"lost_{seat}"] = float(4 - strips)
        found[f"out_{seat}"] = float(strips == 0)
        found[f"win_{seat}"] = shares[seat]
    return found


def _summary(lost: list[float], out: list[float], win: list[float]) -> dict[str, Any]:
    n = len(lost)
    mean = sum(lost) / n
    spread = mean_interval(sum(lost), sum(v * v for v in lost), n)
    out_rate = sum(out) / n
    return {"strips_lost": {"mean": round(mean, 6),
                            "interval": [round(spread.low, 6), round(spread.high, 6)]},
            "first_out": _rate_json(out_rate, n), "win": rate_of(win).as_json(), "games": n}


def _rate_json(rate: float, n: int) -> dict[str, Any]:
    interval = wilson_interval(rate, n)
    return {"rate": round(rate, 6), "interval": [round(interval.low, 6), round(interval.high, 6)]}


def seat_figures(records: Any, n: int) -> list[dict[str, Any]]:
    return [_summary([r.figures[f"lost_{s}"] for r in records],
                     [r.figures[f"out_{s}"] for r in records],
                     [r.figures[f"win_{s}"] for r in records]) for s in range(n)]


def policy_figures(records: Any, policies: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each policy's figures over every seat it played (a seat-game is one sample)."""
    found = {}
    for name in policies:
        if name in found:
            continue
        same = {i for i, other in enumerate(policies) if other == name}
        cells = [(r, seat) for r in records for seat, p in enumerate(r.seating) if p in same]
        if cells:
            found[name] = _summary([r.figures[f"lost_{s}"] for r, s in cells],
                                   [r.figures[f"out_{s}"] for r, s in cells],
                                   [r.figures[f"win_{s}"] for r, s in cells])
    return found


def _mean_text(figure: dict[str, Any]) -> str:
    low, high = figure["interval"]
    return f"{figure['mean']:.2f} [{low:.2f}, {high:.2f}]"


def _rate_text(figure: dict[str, Any]) -> str:
    low, high = figure["interval"]
    return f"{percent(figure['rate'])} [{percent(low)}, {percent(high)}]"


COMMANDS = PartyTimeCommands()
