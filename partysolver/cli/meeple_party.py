"""The command-line adapter of Meeple Party."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import click

from ..models.errors import InputError
from ..models.meeple_party import INFO, data, default_house, load_position
from ..models.meeple_party.cards import CompiledCondition
from ..models.meeple_party.game import (
    BAG_KINDS,
    DIFFICULTIES,
    LENGTHS,
    PERSONALITY_KEYS,
    START_TIMES,
    VARIANTS,
    Mingle,
    Pick,
    Refresh,
    StandUp,
    Welcome,
    piece_label,
)
from ..models.meeple_party.position import Position
from ..models.meeple_party.render import Arrow, render_svg
from ..models.meeple_party.state import (
    OVER,
    PHASES,
    MeeplePartyState,
    slot_text,
)
from ..models.protocol import CHANCE, Action
from ..solvers.budget import Budget, BudgetExhausted
from ..solvers.meeple_party import policies
from ..solvers.meeple_party.evaluate import VALUE_FIGURES, Value, figures
from ..solvers.meeple_party.turn import (
    TurnHint,
    TurnOption,
    TurnSearch,
    describe_plan,
    searchable,
    turn_hint,
)
from ..solvers.simulate import SimulationResult, rate_of, simulate
from .adapters import Document, GameCommands, Options, Report, require_valid
from .output import percent, problems_json, problems_text, table

MAX_NODES = click.Option(["--max-nodes"], type=click.IntRange(min=1), default=None,
                         help="Node budget of an exact search (default: unlimited).")
VERIFY_GAMES = click.Option(["--games"], "games", type=click.IntRange(min=1), default=None,
                            help="meeple-party: also play N games from this position with the "
                                 "hint policy and report the win rate.")
LENGTH = click.Option(["--length"], type=click.Choice(list(LENGTHS)), default="casual",
                      show_default=True, help="meeple-party: casual (12 photos), serious (18) "
                                              "or epic (24).")
DIFFICULTY = click.Option(["--difficulty"], type=click.Choice(list(DIFFICULTIES)),
                          default="standard", show_default=True,
                          help="meeple-party: easy, standard or hard.")
HOUSE = click.Option(["--house"], default=None, metavar="NAME|FILE",
                     help="meeple-party: a shipped house (easy, hard, spa) or a house file "
                          "(default: easy, spa for 5 players).")
VARIANT = click.Option(["--variant"], type=click.Choice(list(VARIANTS)), default="party",
                       show_default=True, help="meeple-party: a party, or the Hot Tub challenge.")
START = click.Option(["--start"], type=click.Choice([str(t) for t in START_TIMES]), default="12",
                     show_default=True, help="meeple-party: the hour the party starts.")
HINT_NODES = click.Option(["--hint-nodes"], type=click.IntRange(min=0),
                          default=policies.SIMULATION_NODES, show_default=True,
                          help="meeple-party: the hint policy's budget per decision in played "
                               "games (nodes; 0: the exact hint every time, slow).")
PLOT = click.Option(["--plot"], type=click.Path(dir_okay=False, path_type=Path), default=None,
                    help="meeple-party: draw the distribution of photos and stress to a PNG.")


def _load(document: Document) -> tuple[Position, MeeplePartyState]:
    position = load_position(document.data, document.source)
    require_valid(position.problems(), document.source)
    return position, position.to_state(document.source)


SCENARIO_SECONDS = 30.0
"""``verify`` of a scenario searches this long for its verdict unless --time-limit says."""


def _budget(options: Options) -> Budget:
    return Budget(time=options.time_limit, nodes=options.extra.get("max_nodes"))


def _figures(value: Value) -> dict[str, float]:
    return figures(value)


def _card_name(state: MeeplePartyState, deck: str, card: int) -> str:
    cards = state.setup.cards.photos if deck == "photo" else state.setup.cards.disasters
    return cards[card].name


def _reason(hint: TurnHint, option: TurnOption) -> tuple[str, float | None]:
    """What an option achieves in game terms, and its expected party fouls when certain."""
    state = hint.state
    outcome = hint.explain(option)
    figures = _figures(option.value)
    if outcome is None:
        return (f"expected: {figures['photos']:.2f} photos, {figures['stress']:+.2f} stress, "
                f"{100 * figures['win']:.0f}% win, {100 * figures['loss']:.0f}% loss "
                "(a chance follows)"), None
    parts = []
    if outcome.photos:
        names = " and ".join(repr(_card_name(state, "photo", c)) for c in outcome.photos)
        parts.append(f"takes {names}" + (" (bonus: 1 stress off)" if len(outcome.photos) == 2
                                          else ""))
    fouls = float(len(outcome.fouls))
    if option.refresh is not None:
        if option.refresh[0] != "photo":
            met = hint.evaluator.met_count(option.board)
            deck = len(hint.evaluator.decks["disaster"])
            fouls += met / deck if deck else 0.0
        parts.append(f"1 stress refreshes {slot_text(state, option.refresh)}")
    if outcome.fouls:
        names = ", ".join(slot_text(state, slot) for slot in outcome.fouls)
        parts.append(f"party foul: {names} (every roommate +1 stress)")
    if outcome.won:
        parts.append("wins the party")
    if outcome.lost:
        parts.append("everyone stresses out: the party is lost")
    if state.setup.variant == "hot-tub" and not outcome.lost:
        now = state.hot_tub_count()
        parts.append(f"{figures['photos']:.0f} meeple(s) in the Hot Tub "
                     f"({figures['photos'] - now:+.0f})")
        if outcome.disasters_met:
            parts.append(f"leaves {outcome.disasters_met} other disaster(s) met")
    elif not outcome.won and not outcome.lost:
        if outcome.disasters_met:
            parts.append(f"leaves {outcome.disasters_met} other disaster(s) met")
        parts.append(f"photos at the table {outcome.distance} meeple move(s) away")
    return "; ".join(parts) or "no photo, no foul", round(fouls, 6)


def _short(state: MeeplePartyState, plan: Sequence[Action]) -> str:
    """A turn in a few words: ``Cool to Front Door (pulls Party Animal, Flirt); Jerk Dining
    Room to Front Door (pushes Flirt to Kitchen); refresh Fight Club``."""
    house = state.setup.house
    parts = []
    for action in plan:
        if isinstance(action, Welcome | Mingle):
            if isinstance(action, Welcome):
                text = f"{piece_label(state.drawn)} to {house.label(action.room)}"
                room = action.room
            else:
                text = (f"{piece_label(action.piece)} {house.label(action.src)} to "
                        f"{house.label(action.dst)}")
                room = action.dst
            pulls = [piece_label(s.piece) for s in action.steps if s.dst == room]
            pushes = [f"{piece_label(s.piece)} to {house.label(s.dst)}" for s in action.steps
                      if s.dst != room]
            if pulls:
                text += f" (pulls {', '.join(pulls)})"
            if pushes:
                text += f" (pushes {', '.join(pushes)})"
            parts.append(text)
        elif isinstance(action, StandUp):
            parts.append(f"stand up {piece_label(action.piece)} in {house.label(action.room)}")
        elif isinstance(action, Refresh):
            if action.slot is not None:
                card = state.card_at(action.slot)
                deck = "photo" if action.slot[0] == "photo" else "disaster"
                parts.append(f"refresh {_card_name(state, deck, card)}")
        else:
            parts.append(str(action))
    return "; ".join(parts)


def _checked_now(hint: TurnHint) -> list[str]:
    """The checked disasters that are met before the turn moves anybody."""
    evaluator = hint.evaluator
    m = evaluator.terms.values(hint.state.board)
    return [slot_text(hint.state, evaluator.slots[i])
            for i in (evaluator.own_disaster, evaluator.communal) if i >= 0 and m[i] == 0]


def _plan_arrows(state: MeeplePartyState, plan: Sequence[Action]) -> list[Arrow]:
    arrows: list[Arrow] = []
    current = state
    for action in plan:
        if isinstance(action, Welcome):
            arrows.append((-1, action.room, "welcome"))
            arrows += [(s.src, s.dst, "action") for s in action.steps]
        elif isinstance(action, Mingle):
            arrows.append((action.src, action.dst, "mingle"))
            arrows += [(s.src, s.dst, "action") for s in action.steps]
        elif isinstance(action, Pick) and len(action.rooms) == 2:
            arrows.append((action.rooms[0], action.rooms[1], "action"))
        if current.current_player() == CHANCE:
            break
        current = current.apply(action)
        if current.current_player() == CHANCE:
            break
    return arrows


class MeeplePartyCommands(GameCommands):
    info = INFO
    verbs = frozenset({"hint", "solve", "verify", "simulate", "render"})
    options: ClassVar[dict[str, list[click.Option]]] = {
        "hint": [MAX_NODES],
        "solve": [MAX_NODES],
        "render": [MAX_NODES],
        "verify": [VERIFY_GAMES, HINT_NODES],
        "simulate": [LENGTH, DIFFICULTY, HOUSE, VARIANT, START, PLOT, HINT_NODES],
    }
    policies = ("hint", "random")

    # -- hint ---------------------------------------------------------------------------------

    def hint(self, document: Document, options: Options) -> Report:
        _, state = _load(document)
        setup = state.setup
        who = setup.players[state.active]
        data_out: dict[str, Any] = {
            "game": INFO.key, "player": who,
            "roommate": PERSONALITY_KEYS[state.active_personality],
            "phase": PHASES[state.phase],
            "drawn": BAG_KINDS[state.drawn] if state.drawn >= 0 else None}
        if state.phase == OVER:
            data_out |= {"status": "optimal", "moves": [], "outcome": state.outcome}
            return Report(data_out, f"the party is over: {state.outcome} "
                                    f"({policies.category(state)})")
        budget = _budget(options)
        if searchable(state) and state.current_player() == CHANCE:
            return self._chance_hint(state, budget, options, data_out)
        if searchable(state):
            return self._turn_report(turn_hint(state, budget, top=options.top or 5),
                                     options, data_out)
        if state.current_player() == CHANCE:
            data_out |= {"status": "optimal", "moves": []}
            return Report(data_out, f"nothing to decide: chance acts next ({PHASES[state.phase]})")
        return self._clock_report(state, options, data_out)

    def _turn_report(self, hint: TurnHint, options: Options, out: dict[str, Any]) -> Report:
        state = hint.state
        who = state.setup.players[state.active]
        k = options.top or 5
        moves: list[dict[str, Any]] = []
        rows = []
        for rank, option in enumerate(hint.options[:k], 1):
            reason, fouls = _reason(hint, option)
            steps = describe_plan(state, option.plan)
            figures = _figures(option.value)
            moves.append({"move": " | ".join(str(a) for a in option.plan), "steps": steps,
                          "value": figures, "fouls": fouls, "reason": reason,
                          "certain": option.certain})
            rows.append((rank, _short(state, option.plan), f"{figures['stress']:+.2f}",
                         f"{figures['photos']:.2f}", f"{figures['table']:.1f}",
                         f"{100 * figures['win']:.0f}%"))
        out |= {"status": hint.status, "exact": hint.status == "optimal",
                "outcomes": hint.outcomes, "options": len(hint.options),
                "positions": hint.positions, "usage": {"seconds": round(hint.seconds, 4)},
                "moves": moves}
        if not hint.options:
            out["best"] = None
            return Report(out, f"unknown: the search ran out of its budget after "
                               f"{hint.outcomes:,} end positions; no turn is claimed best")
        best = hint.options[0]
        reason, fouls = _reason(hint, best)
        out["best"] = {"steps": moves[0]["steps"], "achieves": reason, "fouls": fouls,
                       "value": moves[0]["value"], "met_before": _checked_now(hint)}
        drawn = f" drew a {BAG_KINDS[state.drawn].replace('_', ' ').title()}" \
            if state.drawn >= 0 else f" ({PHASES[state.phase]})"
        lines = [f"{who}{drawn}: {len(hint.options):,} distinct turn outcomes ranked, "
                 f"{hint.outcomes:,} end positions examined ({hint.status}, exact over the "
                 f"turn{f', {hint.seconds:.2f} s' if options.timings else ''})"]
        lines.append("best turn:")
        lines += [f"  {i}. {step}" for i, step in enumerate(moves[0]["steps"], 1)]
        lines.append(f"achieves: {reason}")
        figures = moves[0]["value"]
        progress = "in the Hot Tub" if state.setup.variant == "hot-tub" else "photos"
        lines.append(f"expected: {figures['stress']:+.2f} stress"
                     + (f", {fouls:.2f} party fouls" if fouls is not None else "")
                     + f", {figures['photos']:.2f} {progress}, win "
                     + f"{percent(figures['win'])}, table score {figures['table']:.1f}")
        met = _checked_now(hint)
        if met:
            lines.append("met before the turn: " + ", ".join(met))
        column = "hot tub" if state.setup.variant == "hot-tub" else "photos"
        lines.append(f"alternatives (ranked: win, loss, stress, fouls, {column}, table score):")
        lines.append(table(["#", "turn", "stress", column, "table", "win"], rows,
                           right=(0, 2, 3, 4, 5)))
        return Report(out, "\n".join(lines))

    def _chance_hint(self, state: MeeplePartyState, budget: Budget, options: Options,
                     out: dict[str, Any]) -> Report:
        """Before a draw: the best turn for each thing that can be drawn."""
        rows, draws = [], []
        total = [0.0] * len(VALUE_FIGURES)
        exact = True
        for outcome, p in state.chance_outcomes():
            child = state.apply(outcome)
            steps: list[str] = []
            value: Value | None
            if child.phase == OVER or child.current_player() == CHANCE:
                try:  # rooted before the draw: the same turn, scored from the same stress
                    value = TurnSearch(state, budget).value(child)[0]
                except BudgetExhausted:
                    value = None
                steps = [f"the party ends at once: {child.outcome}" if child.phase == OVER
                         else "a surprise card is drawn first: see the hint once it is known"]
            else:
                hint = turn_hint(child, budget, top=1)
                value = hint.value
                steps = describe_plan(child, hint.options[0].plan) if hint.options else []
            label = state.describe_action(outcome).replace("_", " ")
            if value is None:
                exact = False
                draws.append({"outcome": label, "probability": round(float(p), 6),
                              "value": None, "best": []})
                rows.append((label, percent(float(p)), "?", "?",
                             "not searched: the budget ran out"))
                continue
            for i in range(len(VALUE_FIGURES)):
                total[i] += float(p) * value[i]
            figures = _figures(value)
            draws.append({"outcome": label, "probability":
                          round(float(p), 6), "value": figures, "best": steps})
            rows.append((label, percent(float(p)),
                         f"{figures['stress']:+.2f}", f"{figures['photos']:.2f}",
                         ("; ".join(steps))[:70]))
        who = state.setup.players[state.active]
        if exact:
            expected: dict[str, Any] | None = _figures(
                (total[0], total[1], total[2], total[3], total[4], total[5]))
            assert expected is not None
            head = (f"{who} has not drawn yet: the best turn for each draw (expected "
                    f"{expected['stress']:+.2f} stress, {expected['photos']:.2f} photos)")
        else:
            expected = None
            head = (f"{who} has not drawn yet: the best turn for each draw; unknown: the budget "
                    "ran out before every draw was searched (no expectation over the draws)")
        out |= {"status": "optimal" if exact else "unknown", "moves": [], "draws": draws,
                "value": expected}
        return Report(out, head + "\n" + table(["draw", "chance", "stress", "photos",
                                                "best turn"], rows, right=(1, 2, 3)))

    def _clock_report(self, state: MeeplePartyState, options: Options,
                      out: dict[str, Any]) -> Report:
        """Between turns (the clock's icon): the next player's look-ahead, best first."""
        from ..solvers.meeple_party.evaluate import Evaluator, rank_key

        n = state.num_players
        ranked = []
        for action, child in state.children():
            ahead = child._with(active=(state.active + 1) % n)
            value = Evaluator(ahead).plain(child.board, child.stress)
            ranked.append((rank_key(value), action, value))
        ranked.sort(key=lambda item: item[0], reverse=True)
        moves: list[dict[str, Any]] = [
                 {"move": str(a), "text": state.describe_action(a), "value": _figures(v),
                  "reason": "the next player's fouls, photos and table score before moving"}
                 for _, a, v in ranked[:options.top or 5]]
        out |= {"status": "optimal", "moves": moves}
        rows = [(i, m["text"], f"{m['value']['stress']:+.2f}", f"{m['value']['table']:.1f}")
                for i, m in enumerate(moves, 1)]
        head = (f"the clock's {state.clock_icon().replace('_', ' ')} ({state.clock_time()}): "
                "ranked by what it leaves the next player")
        return Report(out, head + "\n" + table(["#", "choice", "stress", "table"], rows,
                                               right=(0, 2, 3)))

    # -- solve --------------------------------------------------------------------------------

    def solve(self, document: Document, options: Options) -> Report:
        from ..solvers.meeple_party.scenario import solve_scenario

        _, state = _load(document)
        if not state.setup.ordered:
            raise InputError(document.source, "ordered", "a perfect-information scenario "
                             "(ordered = true, with the bag's and the decks' order)")
        result = solve_scenario(state, _budget(options))
        data_out = {"game": INFO.key} | result.as_json()
        return Report(data_out, result.text(options.timings))

    # -- verify -------------------------------------------------------------------------------

    def verify(self, document: Document, options: Options) -> Report:
        position = load_position(document.data, document.source)
        problems = position.problems()
        setup = position.setup
        house = setup.house
        impossible = _impossible(setup, "photo")
        out: dict[str, Any] = {"game": INFO.key, "valid": not problems,
                               "problems": problems_json(problems),
                               "easy_house": house.is_easy(),
                               "impossible_photos": impossible,
                               "impossible_disasters": _impossible(setup, "disaster")}
        lines = [problems_text(problems)]
        lines.append(f"house {house.name!r}: {house.size} tiles, "
                     + ("an easy house (every room touches at least 2 others)" if house.is_easy()
                        else "not an easy house: " + ", ".join(
                            house.rooms[r].name for r in range(house.size)
                            if len(house.adjacent[r]) < 2) + " touch fewer than 2 rooms"))
        if impossible:
            lines.append(f"{len(impossible)} photo(s) can never be taken in this house: "
                         + "; ".join(f"{p['id']} ({p['why']})" for p in impossible))
        games = options.extra.get("games")
        if not problems and setup.ordered and not games:
            lines.append(self._scenario_verdict(position.to_state(document.source), options,
                                                out))
        if games and not problems:
            state = position.to_state(document.source)
            if state.phase == OVER:
                raise InputError(document.source, None, "a party that is not over, to play "
                                 "games from")
            budget = options.extra.get("hint_nodes", policies.SIMULATION_NODES) or None
            result = simulate(policies.FromPosition(state), [policies.HintPolicy(budget)],
                              games, seed=options.rng_seed, stats=policies.party_figures)
            rate = result.seat_rates()[0]
            wins = [i for i, r in enumerate(result.records) if r.figures["won"]]
            out["simulation"] = {"games": games, "policy": "hint", "win": rate.as_json()}
            out["verdict"] = "solvable" if wins else "unknown"
            if wins:
                out["witness"] = {"game": wins[0], "seed": options.rng_seed}
            lines.append(f"hint policy from this position: win {rate} over {games} game(s); "
                         + (f"solvable (game {wins[0]} won with --seed {options.rng_seed})"
                            if wins else "no win seen: unknown"))
        return Report(out, "\n".join(lines), exit_code=1 if problems else 0)

    @staticmethod
    def _scenario_verdict(state: MeeplePartyState, options: Options, out: dict[str, Any]
                          ) -> str:
        """A perfect-information scenario: can the party be won?  The scenario search within
        --time-limit (default SCENARIO_SECONDS), a winning line as the witness."""
        from ..solvers.meeple_party.scenario import solve_scenario

        budget = Budget(time=options.time_limit or SCENARIO_SECONDS)
        result = solve_scenario(state, budget)
        found = result.as_json()
        out |= {"verdict": result.verdict, "witness": found["solution"]["line"]
                if result.verdict == "solvable" else None}
        return "scenario: " + result.text(options.timings)

    # -- simulate -----------------------------------------------------------------------------

    def simulate(self, players: int | None, games: int, policies_: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        n = players or 3
        extra = options.extra
        house = extra.get("house")
        if house is not None and house not in data.shipped("house"):
            house = _house_file(house)
        factory = policies.NewParty(n, house, extra.get("difficulty", "standard"),
                                    extra.get("length", "casual"), extra.get("variant", "party"),
                                    int(extra.get("start", "12")))
        try:
            factory(random.Random(0))
        except ValueError as error:
            raise InputError("--house", None, f"a house that seats {n} player(s)",
                             str(error)) from None
        names = policies_ or ("hint",)
        budget = extra.get("hint_nodes", policies.SIMULATION_NODES) or None
        chosen = [policies.make_policy(name, budget) for name in names]
        result = simulate(factory, chosen, games, seed=options.rng_seed,
                          rotate=extra.get("rotate", False), stats=policies.party_figures,
                          workers=extra.get("workers", 1), progress=progress)
        report = _simulation_report(result, factory, names)
        if "hint" in names:
            report.data["hint_nodes"] = budget
            report = Report(report.data, report.text + "\nhint policy: " + (
                "the exact turn hint at every decision" if budget is None else
                f"exact when a decision fits in {budget:,} nodes, else the most promising "
                "options first (--hint-nodes)"))
        plot = extra.get("plot")
        if plot is not None:
            _plot(result, factory, plot)
            report.data["plot"] = str(plot)
            report = Report(report.data, report.text + f"\nplot written to {plot}")
        return report

    # -- render -------------------------------------------------------------------------------

    def render(self, document: Document, options: Options) -> str:
        _, state = _load(document)
        arrows: list[Arrow] = []
        caption = ""
        if options.extra.get("hint") and searchable(state) and state.current_player() >= 0:
            hint = turn_hint(state, _budget(options), top=1)
            if hint.options:
                best = hint.options[0]
                arrows = _plan_arrows(state, best.plan)
                reason, _ = _reason(hint, best)
                caption = "hint: " + reason
        return render_svg(state, arrows, caption)


def _house_file(path: str) -> Any:
    from ..models.documents import Fields, read_document
    from ..models.meeple_party.house import load_house

    document, source = read_document(path)
    return load_house(Fields(document, source))


def _impossible(setup: Any, deck: str) -> list[dict[str, str]]:
    """Cards of a deck that can never be met in this house, and why."""
    cards = setup.cards.photos if deck == "photo" else setup.cards.disasters
    found = []
    for card in cards:
        missing = [c.room for c in card.condition.clauses if not setup.resolve(c.room)]
        compiled = CompiledCondition(card.condition, setup.resolve, 0)
        if missing:
            why = "no " + ", ".join(r.lstrip("@").replace("_", " ") for r in missing) + \
                " in this house"
        elif not compiled.possible:
            why = "more meeples than the game has, or not enough different rooms"
        else:
            continue
        found.append({"id": card.id, "why": why})
    return found


def _simulation_report(result: SimulationResult, factory: policies.NewParty,
                       names: Sequence[str]) -> Report:
    figures = result.figures()
    rate = result.seat_rates()[0]
    games = result.games
    hot_tub = factory.variant == "hot-tub"
    counts: dict[str, int] = {}
    for record in result.records:
        if hot_tub:
            label = [name for low, name in policies.HOT_TUB_SCORES
                     if record.figures["hot_tub"] >= low][-1]
        elif record.figures["won"]:
            label = policies.CATEGORIES[int(record.figures["max_stress"])]
        else:
            label = "lost"
        counts[label] = counts.get(label, 0) + 1
    chosen = factory.house or default_house(factory.players, factory.variant)
    house = chosen if isinstance(chosen, str) else chosen.name
    data_out: dict[str, Any] = {
        "game": INFO.key, "players": factory.players, "games": games,
        "policies": list(names), "house": house,
        "difficulty": factory.difficulty, "length": factory.length, "variant": factory.variant,
        "win": rate.as_json(), "categories": counts,
        "figures": {k: f.as_json() for k, f in figures.items()},
        "decisions_per_game": round(sum(r.decisions for r in result.records) / games, 2)}
    lines = [f"{games} {factory.variant} game(s), {factory.players} players, "
             f"{factory.difficulty} {factory.length}, house {house}, "
             f"policy {'/'.join(names)}"]
    if not hot_tub:
        lines.append(f"win rate: {rate} (95% interval)")
    rows = [(k, v, f"{100 * v / games:.1f}%") for k, v in sorted(counts.items(),
                                                                   key=lambda kv: -kv[1])]
    lines.append(table(["score", "games", "share"], rows, right=(1, 2)))
    shown = ["photos", "max_stress", "mean_stress", "turns"] + (["hot_tub"] if hot_tub else [])
    lines.append("means (95% interval): " + "; ".join(
        f"{name.replace('_', ' ')} {figures[name].mean:.2f} "
        f"[{figures[name].interval.low:.2f}, {figures[name].interval.high:.2f}]"
        for name in shown if name in figures))
    return Report(data_out, "\n".join(lines))


def _plot(result: SimulationResult, factory: policies.NewParty, path: Path) -> None:
    """Histograms of photos taken (won and lost games apart) and of the final stress."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not path.parent.is_dir() and str(path.parent):
        raise InputError(str(path), None, "a file in an existing folder")
    key = "hot_tub" if factory.variant == "hot-tub" else "photos"
    won = [r.figures[key] for r in result.records if r.figures["won"]]
    lost = [r.figures[key] for r in result.records if not r.figures["won"]]
    stress = [r.figures["max_stress"] for r in result.records]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    top = int(max(won + lost + [1])) + 2
    bins = [x - 0.5 for x in range(top)]
    left.hist([won, lost], bins=bins, stacked=True, label=["won", "lost"],
              color=["#2ca02c", "#d62728"])
    left.set_xlabel("meeples in the Hot Tub" if key == "hot_tub" else "photos taken")
    left.set_ylabel("games")
    left.legend()
    right.hist(stress, bins=[-0.5, 0.5, 1.5, 2.5, 3.5], color="#1f77b4", rwidth=0.8)
    right.set_xticks([0, 1, 2, 3])
    right.set_xlabel("highest stress at the end")
    rate = rate_of([r.returns[0] for r in result.records])
    fig.suptitle(f"Meeple Party: {result.games} games, {factory.players} players, "
                 f"{factory.difficulty} {factory.length}; win {rate}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


COMMANDS = MeeplePartyCommands()
