"""The commands of Party-Time: hint, verify, simulate and render."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from ..models.documents import Fields, read_document
from ..models.errors import InputError
from ..models.party_time import GAME, HOUSE_RULES, INFO, Rules
from .base import (
    Document,
    Options,
    OptionSpec,
    Report,
    Thresholds,
    Valuation,
    problems_report,
    require_valid,
)
from .contract import Move, hint_data, simulation_data
from .kinds import Figure, Figures
from .simulation import Plan, Run, SimulatingCommands
from .text import percent, plural, table, top

if TYPE_CHECKING:  # the rules engine and the searches load when a verb runs (start-up)
    from ..models.party_time.position import Position
    from ..models.party_time.state import PartyTimeState
    from ..solvers.party_time.hint import Hint

REVIEW_PLAYOUTS = 100
"""Playouts to the end of the game per position a review values (fewer under a small
``--time-limit``: see :func:`review_playouts`)."""
LEAST_PLAYOUTS = 20
"""The fewest playouts a review values a position by, whatever the time limit."""
PLAYOUT_SECONDS = 0.002
"""What a review counts one playout to cost: a greedy playout from a game's start takes about
1 ms of CPU (interpreted, on the 2-core machine of docs/solvers.md), twice that leaves room for
a busy machine."""


def review_playouts(limit: float | None) -> int:
    """The playouts a review values a position by within ``limit`` seconds: the count the limit
    buys at :data:`PLAYOUT_SECONDS` each, between :data:`LEAST_PLAYOUTS` and
    :data:`REVIEW_PLAYOUTS`.  Planned from the limit, not stopped by the clock, so that the
    outcomes of one draw (which share one limit) are valued by the same playouts (common random
    numbers) and a seeded review gives the same figures on a busy machine as on an idle one."""
    if limit is None:
        return REVIEW_PLAYOUTS
    return max(LEAST_PLAYOUTS, min(REVIEW_PLAYOUTS, int(limit / PLAYOUT_SECONDS)))

DEPTH = OptionSpec("depth", "int", minimum=1, maximum=4, default=1, show_default=True,
                   metavar="TURNS",
                   help="party-time: horizon of the hint in your turns (1 = until your next "
                        "turn; 2 = the turn after, ...).")
MAX_NODES = OptionSpec("hint_max_nodes", "int", minimum=1, metavar="N",
                       help="party-time: node budget of the hint's search.")
RULES = OptionSpec("party_rules", "text", metavar="FILE",
                   help="party-time: a rules file (board, deck, r_card) instead of the house "
                        "board and deck.")
R_CARD = OptionSpec("r_card", "choice", choices=("right", "reverse"),
                    help="party-time: the R card's rule (reverse = the variant).")
HINT_DEPTH = OptionSpec("hint_depth", "int", minimum=1, maximum=2, default=1, show_default=True,
                        metavar="TURNS",
                        help="party-time: horizon of the hint policy in simulations.")
PLAYOUTS = 1000
"""The default of ``--playouts``: the hint's own (``solvers.party_time.hint.PLAYOUTS``, which
this module imports only when a verb runs; ``tests/test_startup.py`` checks the two agree)."""
MAX_PLAYOUTS = 100_000
"""The most ``--playouts`` a hint takes: the playouts' table holds a row per play and playout
(some 2 KB a playout at a full table), so a larger count would ask for gigabytes."""
PLAYOUTS_HELP = ("party-time: paired playouts to the end of the game per play, which order the "
                 f"equally safe plays (0: the habits alone; at most {MAX_PLAYOUTS:,}).")


def _playouts(value: int) -> str | None:
    return "0 (no playouts) or at least 2 (an interval needs two)" if value == 1 else None


HINT_PLAYOUTS = OptionSpec("playouts", "int", minimum=0, maximum=MAX_PLAYOUTS, default=PLAYOUTS,
                           show_default=True,
                           metavar="N", check=_playouts, help=PLAYOUTS_HELP)
SIMULATE_PLAYOUTS = OptionSpec("hint_playouts", "int", minimum=0, maximum=MAX_PLAYOUTS,
                               default=PLAYOUTS,
                               show_default=True, metavar="N", check=_playouts,
                               help=PLAYOUTS_HELP.replace("per play", "per play of the hint "
                                                          "policy"))


def _load(document: Document) -> Position:
    from ..models.party_time import load_position

    position = load_position(document.data, document.source)
    require_valid(position.problems(), document.source)
    return position


def _search(document: Document, position: Position, options: Options) -> Hint:
    from ..models.party_time.state import CARRY_OUT, DRAW, PHASE_NAMES, PLAY
    from ..solvers.budget import Budget
    from ..solvers.party_time.hint import hint

    if position.phase == DRAW:
        me, drawer = position.name(position.me), position.name(position.drawing)
        raise InputError(document.source, "drawing", f"a step where {me} chooses a play for a "
                         f"hint, but {drawer} draws a card first (enter what is drawn; the "
                         f"hint answers {me}'s plays)", drawer)
    if position.turn != position.me:
        me, turn = position.name(position.me), position.name(position.turn)
        if "turn" not in document.data:  # left out, the turn is the first player's
            raise InputError(document.source, "turn", f"the seat to act, {me!r} for a hint of "
                             f"{me}'s (left out, the turn is {turn}'s, the first player's)")
        raise InputError(document.source, "me", f"the seat to act for a hint, but it is {turn}'s "
                         f"turn (enter what {turn} plays: the position is seen from {me}, and "
                         f"the hint answers {me}'s turns)", me)
    if position.phase not in (PLAY, CARRY_OUT):
        raise InputError(document.source, "step", "\"play\" or \"carry-out\" for a hint (the "
                         "other steps leave the player no choice to make)",
                         PHASE_NAMES[position.phase])
    budget = Budget(time=options.time_left(), nodes=options.extra.get("hint_max_nodes"))
    return hint(position.to_view(document.source), options.extra.get("depth", 1), budget,
                options.extra.get("playouts", PLAYOUTS), options.rng_seed)


class PartyTimeCommands(SimulatingCommands):
    info = INFO
    verbs = frozenset({"hint", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[OptionSpec]]] = {
        "hint": [DEPTH, MAX_NODES, HINT_PLAYOUTS],
        "render": [DEPTH, MAX_NODES, HINT_PLAYOUTS],
        "simulate": [RULES, R_CARD, HINT_DEPTH, SIMULATE_PLAYOUTS],
    }
    policies = ("random", "greedy", "hint")
    review = Thresholds(0.05, 0.15, 0.4, "strips")
    players = 4
    figures = Figures((Figure("exp. loss", key="expected_loss", before=True, interval=True,
                              floor=0.0),), negated="minus ")
    warm_up = {"playouts": 2}

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        from ..models.party_time.notation import hint_text, move_text
        from ..solvers.party_time.hint import TOLERANCE

        position = _load(document)
        found = _search(document, position, options)
        me = position.name(position.me)
        moves = top(found.moves, options.top)
        rows = [Move(move_text(m.play), -m.value, m.reason, _figures(position, m),
                     text=hint_text(m.play),
                     interval=None if m.interval is None else (-m.interval.high,
                                                               -m.interval.low))
                for m in moves]
        horizon_words = "before your next turn and on its play" if found.depth == 1 else \
            f"before and on your play {found.depth} turns from now"
        estimated = found.deals > 0  # depth 1 estimated (its status may be unknown, deeper)
        interval_texts = []
        if estimated:
            interval_texts.append(
                "interval: 95% confidence interval of the value the exact search would give "
                f"(every deal of the unseen cards), from {found.deals:,} sampled deals (normal, "
                "widened to the rule of three's reach; each figure has one too, Wilson's for "
                "the chances)")
        if found.playouts:
            interval_texts.append("long run: 95% interval of the expected "
                                  "strips lost by the end of the game when everyone plays as "
                                  "the playouts do (normal, over the paired playouts)")
        paths = "compiled" if found.compiled else "interpreted"
        method = ("expectimax over every deal of the unseen cards (by type counts), opponents "
                  "greedy" if not estimated else
                  f"{found.deals:,} sampled deals of the unseen cards, each played out once "
                  f"({paths} paired playouts), opponents greedy")
        data = hint_data(
            INFO.key, me, found.status,
            f"minus the strips {me} is expected to lose {horizon_words} (0 is best)", rows,
            interval_text="; ".join(interval_texts) or None,
            search={"method": method,
                    "depth": found.depth, "asked_depth": found.asked, "deals": found.deals,
                    "playouts": found.playouts, "truncated_chains": found.truncated,
                    "compiled": found.compiled, **found.usage},
            tolerance=TOLERANCE)
        horizon = "until and on your next play" if found.depth == 1 else \
            f"until and on your play {found.depth} turns from now"
        how = ("exact over every deal of the unseen cards" if not estimated else
               f"estimated over {found.deals:,} sampled deals of the unseen cards, each played "
               "out once, with 95% intervals")
        work = (f"{found.usage.get('nodes', 0):,} positions searched" if not estimated else
                "the playouts' time counted apart from the search's")
        head = [f"{me}: {plural(len(found.moves), 'play')} ranked by the strips you are "
                f"expected to lose {horizon}, {how} ({work}"
                + (f", {found.usage.get('seconds', 0):.2f} s" if options.timings else "")
                + "; opponents play greedy)"]
        safest = min(found.moves, key=lambda m: m.value, default=None)
        if moves and safest is not None and moves[0].value > safest.value + 1e-9:
            why = ("costs the fewest strips by the end of the game in "
                   f"{found.playouts:,} paired playouts" if found.playouts else
                   "leaves more for later: the hint keeps tokens first, then plays the big "
                   "cards and keeps the special ones")
            head.append(f"{move_text(moves[0].play)} is within {TOLERANCE:g} strips of the "
                        f"safest play ({move_text(safest.play)}, {safest.value:.3f}), and among "
                        "such near-equal plays "
                        f"it {why} (docs/solvers.md)")
        if found.status == "unknown":
            shown = f"showing depth {found.depth}" if found.moves else "no ranking"
            if estimated:
                head.append(f"unknown at depth {found.asked}: deeper horizons are searched "
                            "exactly only, and the exact search does not fit this position "
                            f"within the budget; {shown} (estimated)")
            else:
                head.append(f"unknown at depth {found.asked}: the budget ran out before depth "
                            f"{found.depth + 1} finished; {shown}")
        # the game-end column only where some play has its long run; short headers, so that
        # 80 columns hold every column, the expected loss with its interval included
        long_runs = any(m.long_run is not None for m in moves)
        lines = []
        for rank, m in enumerate(moves, 1):
            row: list[object] = [rank, move_text(m.play), _value_text(m),
                                 _strip_text(m.this_turn), percent(m.before_next),
                                 percent(m.next_play), m.tokens_kept]
            if long_runs:
                row.append("-" if m.long_run is None else f"{m.long_run.mean:.2f}")
            lines.append((*row, m.reason))
        legend = ("exp. loss: the strips you are expected to lose before your next turn and on "
                  "its play" + (" (with its 95% interval over the sampled deals)"
                                if estimated else "")
                  + "; this turn: strips the play itself costs you; before: the chance you "
                  "lose a strip between this turn and your next (a black square); next: the "
                  "chance your next turn costs you one (no safe card in your hand, or a card a "
                  "question mark makes you carry out); kept: the tokens you keep")
        if long_runs:
            legend += (f"; end: the strips you lose by the end of the game, on average "
                       f"over {found.playouts:,} playouts (everyone greedy after the play, you "
                       "by the habits)")
        headers = ["#", "play", "exp. loss", "this turn", "before", "next", "kept",
                   *(["end"] if long_runs else []), "why"]
        # every column right-aligned but the play and the reason
        text = table(headers, lines, right=(0, *range(2, len(headers) - 1)), legend=legend)
        return Report(data, "\n".join(head) + "\n" + text)

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        from ..models.party_time import load_position
        from ..models.party_time.position import describe_position

        position = load_position(document.data, document.source)
        return problems_report(INFO.key, position.problems(),
                               lambda: describe_position(position))

    # -- simulate -----------------------------------------------------------------------------

    def plan_simulation(self, players: int, names: tuple[str, ...], options: Options) -> Plan:
        from ..solvers.compiled import forced_interpreted
        from ..solvers.party_time import playouts
        from ..solvers.party_time.hint import HintPolicy

        rules = _rules(options, players)
        chosen = [make_policy(name, options.extra.get("hint_depth", 1),
                              options.extra.get("hint_playouts", PLAYOUTS)) for name in names]
        compiles = any(isinstance(p, HintPolicy) and p.playouts for p in chosen) and \
            playouts.needs_compile() and not forced_interpreted()
        return Plan(NewGame(players, rules), chosen, figures,
                    (lambda _: playouts.warm_up(NewGame(players, rules))) if compiles else None,
                    context=rules)

    def simulation_report(self, run: Run) -> Report:
        from ..solvers.party_time.hint import HintPolicy

        result, n, names, rules, rotate = run.result, run.players, run.names, \
            run.plan.context, run.rotate
        seat_policies = run.seat_policies()
        seats = seat_figures(result.records, n)
        by_policy = policy_figures(result.records, result.policies)
        data = simulation_data(
            INFO.key, result, SEATS[:n], names, rotate,
            seat_figures=[{k: seats[i][k] for k in ("strips_lost", "first_out")}
                          for i in range(n)],
            by_policy={name: {"win": f["win"], "figures": {
                k: f[k] for k in ("strips_lost", "first_out")}}
                for name, f in by_policy.items()} if len(set(names)) > 1 else {},
            house_rules=rules.is_house(), r_card=rules.r_card)
        hinted = [policy for policy in run.plan.policies if isinstance(policy, HintPolicy)]
        if hinted:
            data["hint"] = {"depth": hinted[0].depth, "playouts": hinted[0].playouts,
                            "max_nodes": hinted[0].nodes}
        rows = [(SEATS[i], "rotating" if rotate else seat_policies[i],
                 _mean_text(seats[i]["strips_lost"]), _rate_text(seats[i]["first_out"]),
                 _rate_text(seats[i]["win"])) for i in range(n)]
        text = [f"{run.games} games, {n} players ({'house' if rules.is_house() else 'custom'} "
                f"board and deck, R card: {rules.r_card}); 95% intervals of the expected values "
                "over games like these (Wilson for rates, Student's t for strips, cut to 0-4)"
                + (f"; the hint at depth {hinted[0].depth} with {hinted[0].playouts:,} "
                   "playouts per play" if hinted else ""),
                table(["seat", "policy", "strips lost", "first out", "win (ties share)"], rows)]
        if len(set(names)) > 1:
            text.append(table(["policy", "strips lost", "first out", "win"],
                              [(name, _mean_text(f["strips_lost"]), _rate_text(f["first_out"]),
                                _rate_text(f["win"])) for name, f in by_policy.items()]))
        return Report(data, "\n".join(text))

    # -- play ---------------------------------------------------------------------------------

    def board(self, document: Document) -> str:
        from ..models.party_time import load_position
        from ..models.party_time.position import describe_position

        return describe_position(load_position(document.data, document.source))

    def position_values(self, document: Document, options: Options) -> Valuation | None:
        """A review's value of the position: the strips each player is expected to hold at
        the end of the game, by :data:`REVIEW_PLAYOUTS` playouts (fewer under a small time
        limit: :func:`review_playouts`) from the position with everyone greedy (the hint's
        model of the opponents), each position's playouts drawn from the same seed (common
        random numbers, so the positions after the outcomes of one draw differ by the draw,
        not by the playouts' luck).  Estimated.  At a draw ``None``:
        the review averages the values after each card.  One seat's view: ``None``."""
        from ..models.protocol import CHANCE, sample_chance
        from ..solvers.party_time.policies import GreedyPolicy
        from .records import full_state_of

        state = full_state_of(document)
        if state is None:
            return None
        names = state.names
        if state.is_terminal():
            return Valuation({name: float(state.strips[seat])
                              for seat, name in enumerate(names)}, True)
        if state.current_player() == CHANCE:
            return None  # the review averages the values after each outcome
        greedy = GreedyPolicy()
        total = [0.0] * len(names)
        done = review_playouts(options.time_left())
        for k in range(done):
            rng = random.Random(f"{options.rng_seed}:{k}")  # playout k: the same everywhere
            here = state
            while not here.is_terminal():
                step: Any = sample_chance(here, rng) if here.current_player() == CHANCE \
                    else greedy(here, rng)
                here = here.apply(step)
            for seat, strips in enumerate(here.strips):
                total[seat] += strips
        return Valuation({name: total[seat] / done for seat, name in enumerate(names)}, False)

    def seat_names(self, state: PartyTimeState) -> tuple[str, ...]:
        return state.names

    def policy(self, name: str) -> Any:
        return make_policy(name)

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        from ..models.party_time.notation import hint_text
        from ..models.party_time.render import render_svg

        position = _load(document)
        play, caption = None, ""
        if options.extra.get("hint"):
            found = _search(document, position, options)
            if found.best is not None:
                play = found.best.play
                best = found.best
                caption = (f"hint: {hint_text(play)}, "
                           + ("you lose a strip this turn, " if best.this_turn else "")
                           + f"{percent(best.before_next)} chance you lose "
                           + ("another" if best.this_turn else "a")
                           + " strip before your next turn")
        return render_svg(position, play, caption)


SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def _figures(position: Position, move: Any) -> dict[str, Any]:
    """A ranked play's named figures (``intervals``: their 95% intervals when estimated)."""
    figures: dict[str, Any] = {"expected_loss": round(move.value, 6)}
    figures |= {name: round(value, 6) for name, value in move.figures().items()}
    figures |= {"lose_chance": round(move.lose_chance, 6), "tokens_kept": move.tokens_kept,
                "losses": {position.name(s): round(v, 6) for s, v in enumerate(move.losses)},
                "long_run": move.long_run.as_json() if move.long_run else None}
    if move.intervals is not None:
        figures["intervals"] = {
            key: [round(getattr(move.intervals, name).low, 6),
                  round(getattr(move.intervals, name).high, 6)]
            for key, name in (("expected_loss", "value"), ("loss", "loss"),
                              ("before_next", "before_next"), ("next_turn", "next_play"),
                              ("others", "others"))}
    return figures


def _value_text(move: Any) -> str:
    if move.interval is None:
        return f"{move.value:.3f}"
    return f"{move.value:.3f} [{move.interval.low:.3f}, {move.interval.high:.3f}]"


def _strip_text(strips: float) -> str:
    return "1 strip" if strips == 1.0 else f"{strips:g}"


def _rules(options: Options, players: int) -> Rules:
    from ..models.party_time import load_rules
    from ..models.party_time.position import rules_problems

    rules = HOUSE_RULES
    path = options.extra.get("party_rules")
    if path:
        document, source = read_document(path, ("--party-rules", None, "rules file"))
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
    from ..solvers.party_time.hint import HintPolicy
    from ..solvers.party_time.policies import GreedyPolicy
    from ..solvers.simulate import RandomPolicy

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
    from ..models.party_time.game import STRIPS
    from ..solvers.simulate import rate_of
    from ..solvers.stats import student_interval

    n = len(lost)
    mean = sum(lost) / n
    # no seat loses fewer than none or more than all its strips
    spread = student_interval(sum(lost), sum(v * v for v in lost), n).within(0.0, STRIPS)
    out_rate = sum(out) / n
    return {"strips_lost": {"mean": round(mean, 6),
                            "interval": [round(spread.low, 6), round(spread.high, 6)]},
            "first_out": _rate_json(out_rate, n), "win": rate_of(win).as_json(), "games": n}


def _rate_json(rate: float, n: int) -> dict[str, Any]:
    """A rate as a figure: the mean of a 0-or-1 outcome, with Wilson's 95% interval."""
    from ..solvers.stats import wilson_interval

    interval = wilson_interval(rate, n)
    return {"mean": round(rate, 6), "interval": [round(interval.low, 6), round(interval.high, 6)]}


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
    rate = figure["rate"] if "rate" in figure else figure["mean"]
    return f"{percent(rate)} [{percent(low)}, {percent(high)}]"


COMMANDS = PartyTimeCommands()
