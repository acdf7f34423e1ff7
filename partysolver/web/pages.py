"""The HTML pages: the start page, one analysis board per game, and the API's docs page.

Pages are written here with every interpolated text escaped (:func:`html.escape`, quotes
included); the board's data for its script travels as a JSON block whose ``<`` are escaped, so
no text of ours or of a file can close it.  The script (``static/board.js``) writes user text
with ``textContent`` only.
"""

from __future__ import annotations

import json
import re
from functools import cache
from html import escape
from typing import Any

from ..app import answers, catalog
from ..app.base import OptionSpec, all_commands
from ..app.kinds import Figures
from ..models.registry import all_games

TITLE = "partysolver"


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def layout(title: str, body: str, scripts: tuple[str, ...] = (), wide: bool = False) -> str:
    """A whole page: our stylesheet, ``body``, and our own scripts (no inline script: the
    Content-Security-Policy forbids it)."""
    tags = "".join(f'<script src="/static/{_e(name)}" defer></script>' for name in scripts)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_e(title)}</title><link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/style.css">'
            f'{tags}</head><body class="{"wide" if wide else "narrow"}">'
            f'<header class="top"><a class="brand" href="/">{TITLE}</a>'
            f'<nav><a href="/">games</a> <a href="/docs">API</a></nav></header>'
            f'{body}</body></html>\n')


def spec_json(spec: OptionSpec) -> dict[str, Any]:
    """An option as the board builds its control (and the docs list it)."""
    return {"name": spec.name, "kind": spec.kind, "help": spec.help, "default": spec.default,
            "minimum": spec.minimum, "maximum": spec.maximum, "choices": list(spec.choices),
            "expected": spec.expected(), "file": bool(spec.metavar and "FILE" in spec.metavar)}


_COMMAND_TIP = re.compile(r"\s*\b(?:Try|Solve it):\s+partysolver\s.*\Z", re.DOTALL)


def shown_description(item: Any) -> str:
    """A shipped file's description as a page shows it: without the command-line tip the file
    ends it with (``Try: partysolver hint FILE``), which names no button of the board."""
    return _COMMAND_TIP.sub("", item.description())


@cache
def games_data() -> dict[str, Any]:
    """The games, their verbs, options and shipped positions, the kinds of document each
    reads (with the verbs each supports) and how its figures read (``GET /api/games``)."""
    games = []
    for key, game in all_games().items():
        commands = all_commands().get(key)
        info = game.info
        verbs = sorted(commands.verbs) if commands else []
        options = {verb: [spec_json(spec) for spec in commands.options.get(verb, [])
                          if not (spec.metavar and "FILE" in spec.metavar)]
                   for verb in ("hint", "solve", "verify", "render")} if commands else {}
        shipped = [{"set": item.set, "name": item.name, "qualified": item.qualified,
                    "description": shown_description(item)} for item in catalog.shipped(key)]
        games.append({"game": key, "title": info.title, "summary": info.summary,
                      "players": [info.min_players, info.max_players], "verbs": verbs,
                      "options": options, "shipped": shipped,
                      "playable": True,
                      "kinds": [kind.as_json() for kind in commands.document_kinds()]
                      if commands else [],
                      "figures": (commands.figures if commands else Figures()).as_json(),
                      "policies": list(commands.policies) if commands else []})
    return {"games": games}


def game_data(game: str) -> dict[str, Any]:
    return next(item for item in games_data()["games"] if item["game"] == game)


def example_data(game: str, name: str) -> dict[str, Any]:
    """A shipped position (``GET /api/{game}/examples/{name}``): its text with the answer
    lines left out, and what kind of puzzle it is."""
    item = catalog.find(game, name)
    found = answers.shown(item.document(), item.text(reveal=False))
    return {"game": game, "set": item.set, "name": item.name, "qualified": item.qualified,
            "description": shown_description(item), "text": found["text"],
            "puzzle": found["puzzle"]}


BOARD_VERBS = ("hint", "solve", "verify")
"""What a board's buttons offer (the picture is always drawn): the start page lists these, not
the CLI's other verbs (simulate, generate)."""

SET_TITLES = {"examples": "Examples", "puzzles": "Puzzles", "scenarios": "Scenarios",
              "positions": "Benchmark positions"}


def start_page() -> str:
    """The five games, each with its examples, puzzles and scenarios."""
    cards = []
    for item in games_data()["games"]:
        key = item["game"]
        sets: dict[str, list[dict[str, Any]]] = {}
        for entry in item["shipped"]:
            sets.setdefault(entry["set"], []).append(entry)
        blocks = []
        for name, entries in sets.items():
            links = "".join(
                f'<li><a href="/board/{_e(key)}?example={_e(entry["qualified"])}">'
                f'{_e(entry["name"])}</a> <span class="muted">{_e(_short(entry["description"]))}'
                f'</span></li>' for entry in entries)
            open_ = " open" if name == "examples" else ""
            blocks.append(f'<details{open_}><summary>{_e(SET_TITLES.get(name, name))} '
                          f'({len(entries)})</summary><ul class="shipped">{links}</ul></details>')
        players = item["players"]
        offered = [verb for verb in BOARD_VERBS if verb in item["verbs"]]
        if item["playable"]:
            offered.append("play along")
        cards.append(
            f'<section class="game card" id="game-{_e(key)}"><h2><a href="/board/{_e(key)}">'
            f'{_e(item["title"])}</a></h2><p>{_e(item["summary"])} <span class="muted">'
            f'({players[0]}–{players[1]} players; {_e(", ".join(offered))})</span></p>'
            f'<p><a class="button" href="/board/{_e(key)}">Open the board</a></p>'
            f'{"".join(blocks)}</section>')
    body = (f'<main class="start"><h1>Analysis boards</h1><p>Pick a game, set up a position '
            f'(a shipped one, your own file, or moves played on the board) and ask for a '
            f'hint, a solution or every problem of the position. The JSON API behind the '
            f'boards is described on the <a href="/docs">API page</a>.</p>'
            f'<div class="games">{"".join(cards)}</div></main>')
    return layout(f"{TITLE}: analysis boards", body)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def board_page(game: str) -> str:
    """One game's analysis board: the page's frame; ``board.js`` fills it from the JSON
    block and the API."""
    item = game_data(game)
    data = json.dumps(item).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")
    body = f"""
<main class="board" data-game="{_e(game)}">
<h1>{_e(item["title"])} <span class="muted small">analysis board</span></h1>
<script type="application/json" id="board-data">{data}</script>
<section class="setup card" aria-label="position">
  <div class="row">
    <label>Position <select id="shipped"></select></label>
    <label class="file-button">Upload a file<input type="file" id="upload"
      accept=".toml,.json,text/plain,application/json"></label>
  </div>
  <details id="paste-box"><summary>Paste or edit the file</summary>
    <textarea id="paste" rows="10" spellcheck="false"
      placeholder="game = &quot;{_e(game)}&quot; ... (TOML or JSON)"></textarea>
    <button type="button" id="load-paste">Load this text</button>
  </details>
  <p id="description" class="muted"></p>
  <p id="message" class="message" role="status" aria-live="polite"></p>
</section>
<div class="columns">
  <section class="picture card" aria-label="picture">
    <div id="picture" class="svg-box"></div>
    <div class="picture-tools"><p id="caption" class="muted small"></p>
      <span class="zoom-tools" role="group" aria-label="zoom">
        <button type="button" id="zoom-out" title="zoom out" aria-label="zoom out">−</button>
        <button type="button" id="zoom-fit" title="fit the picture to the page">Fit</button>
        <button type="button" id="zoom-in" title="zoom in (Ctrl+wheel or a pinch; drag or
          scroll to pan)" aria-label="zoom in">+</button>
        <button type="button" id="zoom-read" title="zoom until the smallest words are 11 px
          tall (a phone opens a picture so)">Aa</button>
        <span id="zoom-level" class="small muted">100%</span></span></div>
  </section>
  <div class="side">
    <section class="analysis card" aria-label="analysis">
      <div class="row buttons">
        <button type="button" id="hint">Hint</button>
        <button type="button" id="solve">Solve</button>
        <button type="button" id="verify">Verify</button>
        <label class="small" title="untick to think first: the hint's arrows stay off the
          picture until you press Show the best move"><input type="checkbox" id="show-best"
          checked> show best move</label>
        <label class="small">Time limit <select id="time-limit">
          <option value="2">2 s</option><option value="5">5 s</option>
          <option value="10" selected>10 s</option><option value="30">30 s</option>
          <option value="60">60 s</option></select></label>
      </div>
      <details class="options"><summary>Options</summary>
        <div class="row small"><label>hint: show the <input type="number" id="top" min="1"
          value="8" size="4"> best moves</label></div>
        <div id="options" class="row small"></div></details>
      <div id="progress" class="progress" hidden>
        <span class="spinner" aria-hidden="true"></span>
        <span id="progress-text">working…</span>
        <span class="bar"><span id="progress-bar"></span></span>
        <button type="button" id="cancel">Cancel</button>
      </div>
      <div id="result"></div>
    </section>
    <section class="puzzle card" id="puzzle" hidden aria-label="puzzle">
      <h2>Puzzle</h2>
      <p id="puzzle-question" class="muted"></p>
      <label class="small"><input type="checkbox" id="puzzle-mode" checked> hide the answer
        (puzzle mode)</label>
      <div class="row buttons">
        <button type="button" id="next-step">Next step</button>
        <button type="button" id="show-answer">Show the answer</button>
      </div>
      <ol id="steps"></ol>
      <div id="answer-box"></div>
      <div class="row buttons"><button type="button" id="check">Check my answer</button></div>
      <p id="verdict" class="verdict"></p>
    </section>
    <section class="play card" id="play" aria-label="play along">
      <h2>Play along</h2>
      <p id="to-move"></p>
      <form id="move-form" class="row" autocomplete="off">
        <input id="move" list="legal-list" placeholder="a move or chance outcome"
          aria-label="move in the game's notation">
        <datalist id="legal-list"></datalist>
        <button type="submit" id="play-move">Play</button>
      </form>
      <p id="move-message" class="message" role="status" aria-live="polite"></p>
      <div class="row buttons">
        <button type="button" id="undo">Undo</button>
        <button type="button" id="redo">Redo</button>
        <button type="button" id="random">Random outcome</button>
        <button type="button" id="download">Download position</button>
        <button type="button" id="download-record">Download record</button>
      </div>
      <div class="row practice" id="practice-box">
        <button type="button" id="practice" title="you keep the seat to move; the other seats
          are played for you, and the chance outcomes drawn, as you go">Play against the
          hint</button>
        <label class="small">bots play <select id="bot-policy"></select></label>
        <span id="practice-status" class="small muted"></span>
      </div>
      <details id="legal-box" open><summary id="legal-title">Legal moves</summary>
        <ul id="legal" class="legal"></ul></details>
      <h3 class="small">Moves</h3>
      <ol id="history" class="history tree" aria-label="the moves played"></ol>
      <p id="tree-help" class="muted small" hidden>A move played from an earlier position starts
        a variation. Keys: ← → step back and on, Home/↑ End/↓ the first or last move, Esc leaves
        a variation. The address bar holds the position and its moves: copy it to share them.</p>
    </section>
    <section class="review card" id="review" aria-label="review" hidden>
      <h2>Review</h2>
      <p class="muted small">Every decision of the line through the selected move against the
        hint (marked ?! an inaccuracy, ? a mistake, ?? a blunder, by what it gave up), and each
        player's swing split into what their decisions gave up and what the draws, dice and
        cards gave or took.</p>
      <div class="row buttons"><button type="button" id="review-run">Review the line</button></div>
      <p id="review-message" class="message" role="status" aria-live="polite"></p>
      <div id="review-graph" class="graph"></div>
      <div id="review-players" class="scroll"></div>
    </section>
  </div>
</div>
</main>"""
    return layout(f"{item['title']}: analysis board", body, ("board.js",), wide=True)


def docs_page() -> str:
    """The API's page of docs: the routes, the request, the answers, the limits, and every
    game's options per verb."""
    from .jobs import WEB_TIME_LIMIT

    rows = []
    for item in games_data()["games"]:
        for verb, specs in item["options"].items():
            for spec in specs:
                rows.append(f'<tr><td>{_e(item["game"])}</td><td>{_e(verb)}</td>'
                            f'<td><code>{_e(spec["name"])}</code></td>'
                            f'<td>{_e(spec["expected"])}</td><td>{_e(spec["help"])}</td></tr>')
    games = ", ".join(f"<code>{_e(key)}</code>" for key in all_games())
    first = _e(next(iter(all_games()), "GAME"))
    checks = "; ".join(f"{_e(item['title'])} {_e(kind['name'])}: {_e(kind['answer_help'])}"
                       for item in games_data()["games"] for kind in item["kinds"]
                       if kind["puzzle"] and kind["answer_help"])
    body = f"""
<main class="docs">
<h1>The JSON API</h1>
<p>The analysis boards talk to the same API you can call: <code>POST /api/GAME/VERB</code>
for {games}, and the verbs <code>hint</code>, <code>solve</code>, <code>verify</code>,
<code>apply</code> and <code>render</code>, answering in the JSON contract of
<code>partysolver VERB --json</code> (the shipped JSON Schemas below). Two more verbs serve the
board: <code>check</code> (puzzle mode: judge an answer) and <code>inspect</code> (a document as
data, with what it is). A machine-readable description: <a href="/api/openapi.json">OpenAPI
3.1</a>.</p>

<h2>The request</h2>
<p>Either the document itself as the body (TOML or JSON text as
<code>application/toml</code>: <code>text/plain</code>, a form or no content type needs the
board's token, so that no other web page can send it; options in the query:
<code>?time_limit=5&amp;top=3</code>), or a JSON object (<code>Content-Type:
application/json</code>) with</p>
<ul>
<li><code>document</code>: the document as a JSON object or as TOML/JSON text, or
<code>example</code>: the name of a shipped position (<code>GET /api/GAME/examples</code> lists
them); a JSON body that names its <code>game</code> is taken as the document itself;</li>
<li><code>options</code>: options by name, as in the CLI without the dashes
(<code>{{"top": 3, "time_limit": 5}}</code>; the table below lists each game's own);</li>
<li>for <code>apply</code>: <code>moves</code> (texts in the game's notation, what
<code>hint</code> prints), <code>random</code> (draw the chance outcomes left out),
<code>seed</code>, <code>upto</code> (a record's position after N steps), <code>bot</code> (a
policy of the game: one more step, the move it plays for the seat to act, or a chance outcome
drawn);</li>
<li>for <code>render</code>: <code>options.hint</code> draws the hint's move as arrows; the answer
is JSON with the picture in <code>svg</code>, or the SVG itself with
<code>Accept: image/svg+xml</code> or <code>?format=svg</code>;</li>
<li>for <code>check</code>: <code>answer</code>, the player's answer to a puzzle ({checks}).</li>
</ul>
<pre>curl -s localhost:8000/api/{first}/hint -H 'content-type: application/json' \\
  -d '{{"example": "default", "options": {{"top": 3, "time_limit": 5}}}}'
curl -s localhost:8000/api/{first}/verify -H 'content-type: application/toml' \\
  --data-binary @endgame.toml
curl -s 'localhost:8000/api/{first}/render?format=svg&amp;hint=true' \\
  -H 'content-type: application/toml' --data-binary @endgame.toml</pre>

<h2>The answers</h2>
<ul>
<li><b>200</b>: the report in the JSON contract (plus <code>text</code>, what the CLI prints);
a verification that finds problems is still a 200, with <code>valid: false</code>.</li>
<li><b>400</b>: bad input, <code>{{"error": "...", "field": "..."}}</code>: the same one-line
message and field as the CLI, but for an option, named as in the request
(<code>bad input: time_limit: ...</code>, not <code>--time-limit</code>).</li>
<li><b>404</b>: no such game, verb or shipped position (<code>GET /api/GAME/examples</code>
lists the shipped positions). <b>405</b>: a method the route does not take (the verbs take
POST). <b>413</b>: a body over 1 MB.</li>
<li><b>503</b> with <code>Retry-After</code>: every worker is busy and the queue is full (or no
worker came free within the request's time limit).</li>
<li><b>504</b>: the job ran past its time limit and was stopped.</li>
</ul>

<h2>Limits</h2>
<p>Solver work runs in a bounded pool of worker processes, never in the server's event loop.
{_e(WEB_TIME_LIMIT.help)} A client that goes away has its job stopped (its worker is killed and
replaced). Nothing names a path on the server: shipped positions go by name, uploads are
content, and a document naming a file beside it (a Meeple Party house or a Meeple Land
catalogue by file name) is refused: give the data inline. <code>GET /api/status</code> shows the
pool.</p>

<h2>Schemas</h2>
<ul>{"".join(f'<li><a href="/api/schemas/{v}.json">{v}</a></li>'
             for v in ("hint", "solve", "verify", "apply", "render"))}</ul>

<h2>Options by game and verb</h2>
<p>Every verb also takes <code>time_limit</code> (seconds, default 10, at most 60),
<code>top</code> (the K best moves) and <code>seed</code>.</p>
<div class="scroll"><table class="options"><thead><tr><th>game</th><th>verb</th><th>option</th>
<th>expects</th><th>what</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>
</main>"""
    return layout(f"{TITLE}: the JSON API", body)
