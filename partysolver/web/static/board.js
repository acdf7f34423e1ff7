// partysolver's analysis board: our own small script, no library.
// Every text from a file or an answer is written with textContent (never innerHTML), and the
// SVG pictures are parsed as XML and stripped of scripts and event handlers before they are
// shown; the page's Content-Security-Policy forbids inline scripts as well.
"use strict";

(function () {
  const G = JSON.parse(document.getElementById("board-data").textContent);
  const $ = (id) => document.getElementById(id);
  const SVGNS = "http://www.w3.org/2000/svg";

  const state = {
    doc: null,          // {data, source, puzzle, playable, text, description}
    root: null,         // the move tree: the start position's node (see showTree)
    node: null,         // the selected node
    origin: null,       // where the document came from: {example} or {name, packed}
    following: false,   // the hint was asked: it is asked again at each node selected
    practice: null,     // {policy, seat}: the bots play every seat but yours
    review: null,       // {line, data, marks}: the last review (see runReview)
    jobs: [],           // AbortControllers of the running analysis
    solved: null,       // puzzle mode: the solve answer (kept hidden until revealed)
    revealed: 0,
    puzzleMode: false,
    problems: [],
  };

  // -- small helpers -------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function say(text, isError, where) {
    const box = $(where || "message");
    box.textContent = text || "";
    box.className = "message" + (isError ? " error" : "");
  }

  // What a move played (or undone) went wrong with: beside the move's input, where the eye is
  // (the page's top is far above it on a phone).
  function sayMove(text, isError) { say(text, isError, "move-message"); }

  function fmt(value) {
    if (value === null || value === undefined) return "–";
    if (typeof value === "number") return String(Number(value.toFixed(3)));
    return String(value);
  }

  function timeLimit() { return Number($("time-limit").value); }

  // A chance (0 to 1) as people read it: 70.8%.
  function percent(value) { return `${(100 * value).toFixed(1)}%`; }

  function signed(value, digits) { return `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(digits)}`; }

  // How the game's figures read (GET /api/games: each figure's label and unit), so that a
  // value says what it is as the CLI's table does: "70.8% to win", "+0.50 stress",
  // "exp. loss 0.005 [0.001, 0.014]" (a figure the value negates to sort).
  const FIGURES = G.figures || { shown: [], column: "value", negated: "" };

  function number(figure, value) {
    if (figure.style === "percent") return percent(value);
    if (figure.style === "signed") return signed(value, figure.digits);
    return value.toFixed(figure.digits);
  }

  // One figure of a move in words, or null when the move does not carry it.
  function figureText(figure, move) {
    const f = move.figures || {};
    const value = figure.key === "value" ? move.value : f[figure.key];
    if (typeof value !== "number") return null;
    if (figure.needs && typeof f[figure.needs] !== "number") return null;
    if (figure.optional && !value) return null;
    let said = number(figure, value);
    const interval = figure.key === "value" ? move.interval : (f.intervals || {})[figure.key];
    if (figure.interval && Array.isArray(interval) && typeof interval[0] === "number" &&
        typeof interval[1] === "number") {
      const low = figure.floor === null ? interval[0] : Math.max(figure.floor, interval[0]);
      said += ` [${number(figure, low)}, ${number(figure, interval[1])}]`;
    }
    said = figure.before ? `${figure.label} ${said}` : `${said} ${figure.label}`;
    for (const [flag, words] of figure.marks || []) if (f[flag]) said += ` (${words})`;
    return said;
  }

  function valueText(move) {
    if (move.value === null || move.value === undefined) return "not searched";
    const [main, ...more] = FIGURES.shown;
    const first = main ? figureText(main, move) : null;
    if (first === null) {
      return move.interval
        ? `${fmt(move.value)} [${fmt(move.interval[0])}, ${fmt(move.interval[1])}]`
        : fmt(move.value);
    }
    return [first, ...more.map((figure) => figureText(figure, move)).filter(Boolean)].join(", ");
  }

  // The server's token (its pages hold it): a request of the board's own page (see web/guard.py).
  const TOKEN = (document.querySelector('meta[name="partysolver-token"]') || {}).content || "";

  class ApiError extends Error {
    constructor(message, status, field) { super(message); this.status = status; this.field = field; }
  }

  async function api(verb, body, signal) {
    let response;
    // Messages name the document as the CLI would: the file's name, or GAME:NAME.
    if (body.document !== undefined && state.doc && !body.filename) body.filename = state.doc.source;
    try {
      response = await fetch(`/api/${G.game}/${verb}`, {
        method: "POST", headers: { "content-type": "application/json", "x-partysolver-token": TOKEN },
        body: JSON.stringify(body), signal,
      });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError("the server does not answer (is partysolver serve still running?)", 0);
    }
    let data = null;
    try { data = await response.json(); } catch (error) { data = null; }
    if (!response.ok) {
      const error = (data && data.error) || {};
      let message = error.message || `the server answered ${response.status}`;
      if (response.status === 503) {
        message += ` (retry in ${response.headers.get("retry-after") || "a few"} s)`;
      }
      throw new ApiError(message, response.status, error.field);
    }
    return data;
  }

  // The document the analysis works on: the position after the moves played.
  function current() {
    const here = state.node && state.node.answer;
    return here ? here.position : state.doc.data;
  }

  function download(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = el("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // -- the picture -----------------------------------------------------------------------------

  const UNSAFE = new Set(["script", "foreignobject", "iframe", "object", "embed", "audio",
                          "video", "handler", "listener"]);

  function safeSvg(text) {
    const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = parsed.documentElement;
    if (!root || root.nodeName.toLowerCase() !== "svg" || parsed.querySelector("parsererror")) {
      throw new ApiError("the picture could not be read", 0);
    }
    const walk = (node) => {
      for (const child of Array.from(node.children)) {
        if (UNSAFE.has(child.localName.toLowerCase())) { child.remove(); continue; }
        walk(child);
      }
      for (const attr of Array.from(node.attributes)) {
        const name = attr.name.toLowerCase();
        const value = attr.value.trim().toLowerCase();
        if (name.startsWith("on") || ((name === "href" || name.endsWith(":href")) &&
            !value.startsWith("#"))) {
          node.removeAttribute(attr.name);
        }
      }
    };
    walk(root);
    const svg = document.importNode(root, true);
    if (!svg.getAttribute("viewBox") && svg.getAttribute("width")) {
      svg.setAttribute("viewBox", `0 0 ${parseFloat(svg.getAttribute("width"))} ` +
                                  `${parseFloat(svg.getAttribute("height"))}`);
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    return svg;
  }

  let pictureRequest = 0;

  async function drawPicture(documentData, hint, signal, caption) {
    const mine = ++pictureRequest;
    const options = { hint: Boolean(hint), time_limit: timeLimit() };
    const answer = await api("render", { document: documentData, options }, signal);
    if (mine !== pictureRequest) return;
    const box = $("picture");
    const [left, top] = [box.scrollLeft, box.scrollTop];
    clear(box);
    const svg = safeSvg(answer.svg);
    box.append(svg);
    applyZoom();
    [box.scrollLeft, box.scrollTop] = [left, top];
    // On a phone, a document's first picture opens with its smallest words readable (pan it;
    // Fit shows it whole).
    if (state.doc && zoom.shownFor !== state.doc) {
      zoom.shownFor = state.doc;
      if (window.matchMedia("(max-width: 600px)").matches) setZoom(readableZoom(), { x: 0, y: 0 });
    }
    // A very wide picture (every park of a Meeple Land table) takes the whole width.
    const view = (svg.getAttribute("viewBox") || "").split(/\s+/).map(Number);
    document.querySelector(".columns").classList.toggle("wide-picture",
      view.length === 4 && view[2] / view[3] > 2.2);
    $("caption").textContent = caption || "";
    markProblems();
  }

  function refreshPicture() {
    drawPicture(current(), false).catch((error) => {
      if (error.name !== "AbortError") {
        clear($("picture"));
        // A good file that is no game position (a catalogue, a log no rules fit) may have no
        // picture: say so in words, not with the renderer's message about what it draws.
        const quiet = error.status === 400 && state.doc && !state.doc.playable;
        $("caption").textContent = quiet ? "no picture of this file (Verify tells what it holds)"
          : "no picture: " + error.message;
      }
    });
  }

  // Where a problem names a field that points at a piece, mark the piece's label in the
  // picture: the field's value (a tile, a name) or its last key, found in the SVG's texts.
  function fieldWords(field) {
    if (!field) return [];
    const found = [];
    const naming = (value) => {
      if (value && typeof value === "object" && !Array.isArray(value)) {
        return ["tile", "name", "id", "player", "room"].map((key) => value[key])
          .filter((name) => typeof name === "string");
      }
      return [];
    };
    // Walk the field's path through the document: the deepest table that names itself (a
    // placed tile, a player) names the piece; else a short text value, else the last key.
    // A list item's index counts from 1, as in every message (placed[5] is the fifth tile).
    let value = current();
    let named = [];
    const keys = [];
    for (const [, index, key] of field.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) {
      if (!value || typeof value !== "object") {
        value = undefined;
      } else if (index !== undefined) {
        value = Array.isArray(value) ? value[Number(index) - 1] : value[index];
      } else {
        value = value[key];
        keys.push(key);
      }
      if (naming(value).length) named = naming(value);
    }
    found.push(...named);
    if (!named.length && typeof value === "string" && value.length <= 40) found.push(value);
    const last = keys[keys.length - 1];
    if (!named.length && last && !["placed", "players", "events", "rooms", "hands", "rules",
                                    "seated", "steps"].includes(last)) {
      found.push(last.replace(/_/g, " "));
    }
    return found.filter((w) => w && w.length >= 2);
  }

  function markProblems(active) {
    const svg = $("picture").querySelector("svg");
    if (!svg) return;
    svg.querySelectorAll(".mark").forEach((node) => node.remove());
    const chosen = active === undefined ? state.problems : [active];
    for (const problem of chosen) {
      const words = fieldWords(problem.field).map((w) => w.toLowerCase());
      if (!words.length) continue;
      let marked = 0;
      for (const text of Array.from(svg.querySelectorAll("text"))) {
        const content = (text.textContent || "").toLowerCase().replace(/_/g, " ");
        if (!words.some((w) => content.includes(w))) continue;
        let box;
        try { box = text.getBBox(); } catch (error) { continue; }
        const mark = document.createElementNS(SVGNS, "rect");
        mark.setAttribute("class", "mark");
        mark.setAttribute("x", box.x - 4);
        mark.setAttribute("y", box.y - 3);
        mark.setAttribute("width", box.width + 8);
        mark.setAttribute("height", box.height + 6);
        mark.setAttribute("rx", 4);
        mark.setAttribute("data-field", problem.field || "");
        text.parentNode.insertBefore(mark, text);
        if (++marked >= 4) break;
      }
    }
  }

  // -- zoom and pan ----------------------------------------------------------------------------
  // The picture at fit (the box's width) times `zoom.level`: −/+ and Fit, Ctrl+wheel (a
  // touchpad's pinch) and a two-finger pinch zoom about the point under the pointer; a drag
  // with the mouse, the wheel or a finger pans the zoomed picture (the box scrolls).

  const zoom = { level: 1, most: 8, drag: null, pinch: null };

  function applyZoom() {
    const box = $("picture");
    const svg = box.querySelector("svg");
    const zoomed = zoom.level > 1.001;
    box.classList.toggle("zoomed", zoomed);
    if (svg) svg.style.width = zoomed ? `${Math.round(box.clientWidth * zoom.level)}px` : "";
    $("zoom-level").textContent = `${Math.round(zoom.level * 100)}%`;
    $("zoom-out").disabled = !zoomed;
    $("zoom-fit").disabled = !zoomed;
    $("zoom-in").disabled = zoom.level >= zoom.most;
  }

  // Zoom to `level`, keeping the picture's point under `at` (a point of the box, in CSS px;
  // its middle by default) where it is.
  function setZoom(level, at) {
    const box = $("picture");
    const before = zoom.level;
    const next = Math.max(1, Math.min(zoom.most, level));
    if (Math.abs(next - before) < 0.001) return;
    const x = at ? at.x : box.clientWidth / 2;
    const y = at ? at.y : box.clientHeight / 2;
    const [px, py] = [(box.scrollLeft + x) / before, (box.scrollTop + y) / before];
    zoom.level = next;
    applyZoom();
    box.scrollLeft = px * next - x;
    box.scrollTop = py * next - y;
  }

  // The zoom at which the picture's smallest words are READABLE px tall (at most the most
  // zoom): its texts' font size in the picture's units, times the rendered scale at fit.
  const READABLE = 11;

  function readableZoom() {
    const box = $("picture");
    const svg = box.querySelector("svg");
    const view = svg ? (svg.getAttribute("viewBox") || "").split(/\s+/).map(Number) : [];
    if (view.length !== 4 || !view[2]) return 1;
    const sizes = Array.from(svg.querySelectorAll("text"))
      .map((t) => parseFloat(getComputedStyle(t).fontSize)).filter((v) => v > 0);
    if (!sizes.length || !box.clientWidth) return 1;
    // Zoomed, the picture is the box's width times the zoom, its height as its shape gives.
    const wanted = (READABLE * view[2]) / (Math.min(...sizes) * box.clientWidth);
    return Math.min(zoom.most, Math.max(1, wanted));
  }

  function boxPoint(clientX, clientY) {
    const rect = $("picture").getBoundingClientRect();
    return { x: clientX - rect.left, y: clientY - rect.top };
  }

  function setupZoom() {
    const box = $("picture");
    const steps = [1, 1.5, 2, 3, 4, 6, 8];
    $("zoom-in").addEventListener("click", () => {
      setZoom(steps.find((s) => s > zoom.level + 0.01) || zoom.most);
    });
    $("zoom-out").addEventListener("click", () => {
      setZoom([...steps].reverse().find((s) => s < zoom.level - 0.01) || 1);
    });
    $("zoom-fit").addEventListener("click", () => setZoom(1));
    $("zoom-read").addEventListener("click", () => setZoom(readableZoom(), { x: 0, y: 0 }));
    box.addEventListener("wheel", (event) => {
      if (!event.ctrlKey) return;  // a plain wheel scrolls (pans a zoomed picture)
      event.preventDefault();
      setZoom(zoom.level * Math.exp(-event.deltaY / 300), boxPoint(event.clientX, event.clientY));
    }, { passive: false });
    box.addEventListener("pointerdown", (event) => {
      if (event.pointerType !== "mouse" || event.button !== 0 || zoom.level <= 1) return;
      zoom.drag = { x: event.clientX, y: event.clientY };
      box.classList.add("dragging");
    });
    window.addEventListener("pointermove", (event) => {
      if (!zoom.drag) return;
      box.scrollLeft -= event.clientX - zoom.drag.x;
      box.scrollTop -= event.clientY - zoom.drag.y;
      zoom.drag = { x: event.clientX, y: event.clientY };
    });
    window.addEventListener("pointerup", () => { zoom.drag = null; box.classList.remove("dragging"); });
    // Two fingers: the picture zooms with their spread (the page itself does not).
    const spread = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX,
                                           touches[0].clientY - touches[1].clientY);
    box.addEventListener("touchstart", (event) => {
      if (event.touches.length === 2) {
        zoom.pinch = { spread: spread(event.touches), level: zoom.level };
      }
    }, { passive: true });
    box.addEventListener("touchmove", (event) => {
      if (!zoom.pinch || event.touches.length !== 2) return;
      event.preventDefault();
      const [a, b] = [event.touches[0], event.touches[1]];
      setZoom(zoom.pinch.level * spread(event.touches) / zoom.pinch.spread,
              boxPoint((a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2));
    }, { passive: false });
    box.addEventListener("touchend", (event) => { if (event.touches.length < 2) zoom.pinch = null; });
    window.addEventListener("resize", applyZoom);
    applyZoom();
  }

  // -- analysis jobs (hint, solve, verify) ---------------------------------------------------

  let ticker = null;
  const progress = { label: "", began: 0 };

  // A job's second part (the hint's arrows, searched once the hint has answered) starts its
  // own clock under its own label.
  function relabel(label) {
    progress.label = label;
    progress.began = performance.now();
  }

  function startJob(label) {
    cancelJobs();
    const controller = new AbortController();
    state.jobs.push(controller);
    relabel(label);
    const limit = timeLimit();
    $("progress").hidden = false;
    const update = () => {
      const seconds = (performance.now() - progress.began) / 1000;
      $("progress-text").textContent = `${progress.label}: ${seconds.toFixed(1)} s (limit ${limit} s)`;
      $("progress-bar").style.width = `${Math.min(100, (100 * seconds) / limit)}%`;
    };
    update();
    clearInterval(ticker);
    ticker = setInterval(update, 200);
    setBusy(true);
    return controller;
  }

  function endJob(controller) {
    state.jobs = state.jobs.filter((c) => c !== controller);
    if (!state.jobs.length) {
      clearInterval(ticker);
      $("progress").hidden = true;
      setBusy(false);
    }
  }

  function cancelJobs() {
    for (const controller of state.jobs) controller.abort();
    state.jobs = [];
    clearInterval(ticker);
    $("progress").hidden = true;
    setBusy(false);
  }

  function setBusy(busy) {
    for (const id of ["hint", "solve", "verify", "next-step", "check", "show-answer"]) {
      $(id).disabled = busy || !state.doc;
    }
    updateVerbButtons();
  }

  // Only the verbs the loaded document supports (its kind's, from the API); in puzzle mode
  // the answer stays hidden: none of the verbs that would give it away (Show the answer asks
  // for the solution), but a hint that is the next single step.
  function updateVerbButtons() {
    const kind = state.doc && state.doc.document_kind;
    for (const verb of ["hint", "solve", "verify"]) {
      const offered = state.doc ? state.doc.verbs.includes(verb) : G.verbs.includes(verb);
      const hides = state.puzzleMode && Boolean(kind) && kind.reveals.includes(verb);
      $(verb).hidden = !offered || hides;
    }
    const puzzle = Boolean(state.doc && state.doc.puzzle);
    for (const id of ["next-step", "show-answer", "check", "answer-box", "steps"]) {
      $(id).hidden = puzzle && !state.puzzleMode;
    }
    // A step would give the whole answer away (a yes-or-no question): no Next step.
    if (kind && kind.reveals.includes("next")) $("next-step").hidden = true;
  }

  async function runJob(label, work) {
    if (!state.doc) return;
    const controller = startJob(label);
    const result = $("result");
    clear(result);
    $("caption").textContent = "";  // the caption of the last job is not this one's
    try {
      await work(controller.signal, result);
    } catch (error) {
      if (error.name === "AbortError") {
        result.append(el("p", { class: "muted", text: `${label} cancelled: the server stopped the job.` }));
      } else {
        result.append(el("p", { class: "error", text: error.message }));
      }
    } finally {
      endJob(controller);
    }
  }

  function optionValues(verb) {
    const options = { time_limit: timeLimit() };
    if (verb === "hint") options.top = Number($("top").value) || undefined;
    for (const input of $("options").querySelectorAll("[data-option]")) {
      if (input.dataset.verb !== verb) continue;
      const value = input.type === "checkbox" ? input.checked : input.value.trim();
      if (value !== "" && value !== false) options[input.dataset.option] = value;
    }
    return options;
  }

  // Whether a second worker is free now, so that the picture's own hint search (for its
  // arrows) may run beside the hint instead of after it: with a single worker (serve
  // --workers 1), or with the others busy, the picture would hold the only free worker and the
  // hint would wait for it past its time limit.
  async function spareWorker(signal) {
    try {
      const response = await fetch("/api/status", { signal });
      const status = await response.json();
      return response.ok && status.idle >= 2;
    } catch (error) {
      if (error.name === "AbortError") throw error;
      return false;
    }
  }

  function awaitsChance() {
    const here = state.node && state.node.answer;
    return Boolean(here && here.awaits_chance);
  }

  // The hint's arrows on the picture (the picture runs its own hint search): the seconds it
  // took, or null when it failed (the caption says why).
  async function drawArrows(signal) {
    const began = performance.now();
    try {
      await drawPicture(current(), true, signal, "");
    } catch (error) {
      if (error.name !== "AbortError") $("caption").textContent = "no arrows: " + error.message;
      return null;
    }
    return (performance.now() - began) / 1000;
  }

  // Without arrows, the caption says why, truly: a search that ended well within the time
  // limit found the move, which has nothing to point at (a move of 0 squares); only one that
  // ran to the limit may have ended without a move.
  function arrowsCaption(took, best) {
    const svg = $("picture").querySelector("svg");
    if (took === null || !svg || svg.querySelector("[marker-end]") || $("caption").textContent) return;
    $("caption").textContent = took < 0.8 * timeLimit()
      ? `no arrows: the best move (${best}) moves nothing the picture can point at`
      : "no arrows: the picture's own search found no move within the time limit";
  }

  function hint() {
    state.following = true;  // asked again at each node selected, until another verb is asked
    const shown = $("show-best").checked;
    runJob("Hint", async (signal, result) => {
      const options = optionValues("hint");
      state.lastTop = options.top;
      const body = { document: current(), options };
      // At a chance step nobody decides: no arrows to draw (the hint answers each draw).
      const arrows = !state.puzzleMode && !awaitsChance();
      const together = shown && arrows && await spareWorker(signal);
      const drawn = together ? drawArrows(signal) : null;
      let answer;
      try {
        answer = await api("hint", body, signal);
      } catch (error) {
        // A step of chance that this game's hint does not answer (what a hidden hand plays,
        // a card drawn): say so in the board's words, not as a file's error.
        if (!(error instanceof ApiError && error.status === 400 && awaitsChance())) throw error;
        result.append(el("p", { class: "muted no-hint", text: `No hint at this step: it is a ` +
          `chance step (${state.node.answer.to_move}), not a decision. Pick its outcome under ` +
          `Play along, or press Random outcome; the hint follows to the next decision.` }));
        return;
      }
      const pointed = arrows && answer.moves.length > 0 && !answer.draws;
      const best = answer.moves.length ? answer.moves[0].text || answer.moves[0].move : "";
      if (!shown) {
        // Think first: the ranked moves and the arrows wait until the player asks.
        const held = el("div", { hidden: true });
        showHint(answer, held);
        const reveal = el("button", { type: "button", id: "reveal-best", onclick: () => {
          runJob("Hint: drawing its arrows", async (again, into) => {
            into.append(...Array.from(held.childNodes));
            if (pointed) arrowsCaption(await drawArrows(again), best);
          });
        } }, "Show the best move");
        result.append(el("p", {}, `${answer.to_move}: the hint is ready. `, reveal), held);
        return;
      }
      showHint(answer, result);
      let took = null;
      if (drawn) {
        took = await drawn;
      } else if (pointed) {
        relabel("Hint: drawing its arrows");
        took = await drawArrows(signal);
      }
      if (pointed) arrowsCaption(took, best);
    });
  }

  function showHint(answer, result) {
    // Where the list shows the figure a value negates (an expected loss, a stress), the line
    // says what that figure is, not "minus" it.
    let valueSaid = answer.value_text || "";
    if (FIGURES.negated && valueSaid.startsWith(FIGURES.negated)) {
      valueSaid = valueSaid.slice(FIGURES.negated.length);
    }
    const status = el("p", {}, el("span", { class: "status", text: `${answer.to_move}: ${answer.status}` }),
                      " — ", valueSaid);
    result.append(status);
    if (answer.note) result.append(el("p", { class: "muted", text: answer.note }));
    if (!answer.moves.length) {
      result.append(el("p", { class: "muted", text: "no move to rank here" }));
      return;
    }
    if (Array.isArray(answer.draws)) {
      showDraws(answer, result);
      return;
    }
    // One block a move (a table would squeeze the notation on a phone): its rank, the move
    // (a button that plays it), its value, what it reads as, and why.  At a chance step
    // nothing is played from here: the outcome buttons of Play along enter the draw.
    const playable = state.doc.playable && !state.puzzleMode && !awaitsChance();
    const items = answer.moves.map((move, index) => {
      const name = playable
        ? el("button", { type: "button", class: "move", title: "play this move",
                         onclick: () => play(move.move) }, move.move)
        : el("span", { class: "move", text: move.move });
      const value = valueText(move);
      const said = move.text && move.text !== move.move ? move.text : null;
      const decided = decidedBy(answer.moves, index);
      return el("li", { class: index === 0 ? "best" : "" },
        el("div", { class: "head" }, name, el("span", { class: "value", title: "value", text: value })),
        said ? el("div", { class: "muted small", text: said }) : null,
        decided ? el("div", { class: "decided small", text: decided }) : null,
        el("div", { class: "why", text: move.reason || "" }));
    });
    result.append(el("ol", { class: "moves" }, ...items));
    if (answer.moves.length && state.lastTop && answer.moves.length >= state.lastTop) {
      result.append(el("p", { class: "muted small",
        text: `the ${state.lastTop} best shown (Options: show more)` }));
    }
    if (answer.interval_text) result.append(el("p", { class: "muted small", text: answer.interval_text }));
  }

  // What set the move at `index` apart from its neighbour (the one above it; for the first,
  // the one below): the first of the figures the game ranks by (GET /api/games:
  // figures.ranks) on which the two differ.  None when the value alone ranks the moves.
  function decidedBy(moves, index) {
    const ranks = FIGURES.ranks || [];
    const other = moves[index === 0 ? 1 : index - 1];
    if (!ranks.length || !other) return null;
    const of = (move, figure) => (figure.key === "value" ? move.value : (move.figures || {})[figure.key]);
    const which = index === 0 ? "#2" : `#${index}`;
    for (const figure of ranks) {
      const [mine, theirs] = [of(moves[index], figure), of(other, figure)];
      if (typeof mine !== "number" || typeof theirs !== "number") continue;
      if (Math.abs(mine - theirs) < 1e-9) continue;
      return `ranked by ${figure.label}: ${number(figure, mine)} against ${number(figure, theirs)} ` +
        `for ${which}`;
    }
    return `tied with ${which} on every figure the moves are ranked by`;
  }

  // Before a draw (Tea Party): nothing to decide, so no move to play; the best answer to each
  // possible draw instead, with the draw's chance and the answer's value.
  function showDraws(answer, result) {
    const move = answer.moves[0];
    result.append(el("p", { class: "draw-summary" }, `${move.text || move.move}: `,
                     el("b", { text: valueText(move) }), " before the draw"));
    if (move.reason) {
      result.append(el("p", { class: "muted small",
        text: move.reason.replace(/\(see draws\)\s*$/, "(the table below)") }));
    }
    const rows = answer.draws.map((draw) => {
      // Tea Party: the best answer is a move (move, text, value); Meeple Party: the best
      // turn's steps in words, its figures in the draw's value.
      const steps = Array.isArray(draw.best);
      const best = steps
        ? { text: draw.best.join("; "), figures: draw.value || {},
            value: draw.value ? -draw.value.stress : null }
        : (draw.best || {});
      const hero = String(draw.hero || draw.outcome || "");
      return el("tr", {},
        el("td", { text: hero.charAt(0).toUpperCase() + hero.slice(1) }),
        el("td", { class: "num", text: percent(draw.probability) }),
        el("td", { title: best.reason || "" }, best.text || best.move || "",
          best.move && best.text !== best.move
            ? el("div", { class: "muted small", text: best.move }) : null),
        el("td", { class: "num", text: valueText(best) }));
    });
    result.append(el("div", { class: "scroll" }, el("table", { class: "draws" },
      el("thead", {}, el("tr", {}, el("th", { text: "draw" }), el("th", { text: "chance" }),
                       el("th", { text: "best answer" }),
                       el("th", { text: FIGURES.column || "value" }))),
      el("tbody", {}, ...rows))));
    result.append(el("p", { class: "muted small", text: "To play on, enter the draw under Play " +
      "along (an outcome button, or Random outcome)." }));
  }

  function solve() {
    state.following = false;
    runJob("Solve", async (signal, result) => {
      const body = { document: current(), options: optionValues("solve") };
      const drawn = drawPicture(current(), true, signal, "the solution drawn")
        .catch((error) => {
          if (error.name !== "AbortError") $("caption").textContent = "no drawing: " + error.message;
        });
      const answer = await api("solve", body, signal);
      showSolve(answer, result);
      await drawn;
    });
  }

  function showSolve(answer, result) {
    const good = ["optimal", "solvable", "feasible"].includes(answer.status);
    const bad = ["infeasible", "unsolvable"].includes(answer.status);
    result.append(el("p", {}, el("span", { class: "status " + (good ? "good" : bad ? "bad" : ""),
                                           text: answer.status }), " — ", answer.verdict));
    const objective = answer.objective || {};
    result.append(el("p", { class: "small" }, `objective: ${objective.text || objective.name} = `,
                     el("b", { text: fmt(objective.value) }), ` (bound ${fmt(objective.bound)})`));
    if (answer.solution) result.append(describe(answer.solution));
    if (answer.conflict) result.append(describe({ conflict: answer.conflict }));
  }

  // A solution (any JSON) as a definition list: lists of moves or placements one a line.
  function describe(data) {
    const list = el("dl", { class: "solution" });
    for (const [key, value] of Object.entries(data)) {
      if (key === "picture") {
        list.append(el("dt", { text: key }), el("dd", {}, el("pre", { text: String(value) })));
        continue;
      }
      list.append(el("dt", { text: key.replace(/_/g, " ") }), el("dd", {}, describeValue(value)));
    }
    return list;
  }

  function describeValue(value) {
    if (Array.isArray(value)) {
      if (!value.length) return el("span", { class: "muted", text: "none" });
      return el("ol", {}, ...value.slice(0, 60).map((item) => el("li", {}, describeValue(item))));
    }
    if (value && typeof value === "object") {
      if (typeof value.text === "string") return el("span", { text: value.text });
      if (typeof value.tile === "string" && Array.isArray(value.at)) {
        return el("span", { text: placementText(value) });
      }
      if (typeof value.move === "string") {
        return el("span", { text: value.move + (value.value !== undefined ? ` (${fmt(value.value)})` : "") });
      }
      return el("span", { text: Object.entries(value).map(([k, v]) =>
        `${k.replace(/_/g, " ")}: ${inlineValue(v)}`).join("; ") });
    }
    return el("span", { text: fmt(value) });
  }

  // A value nested in a solution's item, in words on one line (never as JSON): a list's items
  // and a table's entries by commas ("Sport 0.5, Drink 0.5"), a step of reasoning by its text,
  // nothing as "none".
  function inlineValue(value) {
    if (value === null || value === undefined) return "none";
    if (Array.isArray(value)) {
      if (!value.length) return "none";
      const texts = value.every((item) => item && typeof item.text === "string");
      return value.map(inlineValue).join(texts ? "; " : ", ");
    }
    if (typeof value === "object") {
      if (typeof value.text === "string") return value.text;
      return Object.entries(value).map(([k, v]) => `${k.replace(/_/g, " ")} ${inlineValue(v)}`)
        .join(", ");
    }
    return fmt(value);
  }

  function placementText(p) {
    return `${p.label ? p.label + ": " : ""}${p.tile} at ${p.at[0]},${p.at[1]}` +
      (p.rotation ? ` turned ${p.rotation}` : "") + (p.kind ? ` (${p.kind})` : "");
  }

  function verify() {
    state.following = false;
    runJob("Verify", async (signal, result) => {
      const answer = await api("verify", { document: current(), options: optionValues("verify") }, signal);
      // The verdict begins with the status word already shown ("invalid: 1 problem").
      const word = answer.valid ? "valid" : "invalid";
      let verdict = String(answer.verdict || "");
      if (verdict.startsWith(word)) verdict = verdict.slice(word.length).replace(/^[:;,]?\s*/, "");
      result.append(el("p", { class: "verdict-text" },
                       el("span", { class: "status " + (answer.valid ? "good" : "bad"), text: word }),
                       verdict ? " — " : "", verdict));
      state.problems = answer.problems || [];
      if (state.problems.length) {
        const items = state.problems.map((problem) => {
          const item = el("li", { tabindex: 0, title: "mark it in the picture" },
            el("code", { text: problem.code }), " ",
            problem.field ? el("span", { class: "muted", text: `${problem.field}: ` }) : null,
            el("span", { class: "problem-text", text: problem.message }));
          item.addEventListener("click", () => {
            result.querySelectorAll("li.active").forEach((n) => n.classList.remove("active"));
            item.classList.add("active");
            markProblems(problem);
          });
          return item;
        });
        result.append(el("ul", { class: "problems" }, ...items));
      }
      const rest = Object.fromEntries(Object.entries(answer).filter(([key]) =>
        !["game", "valid", "problems", "verdict", "text"].includes(key)));
      if (Object.keys(rest).length) result.append(describe(rest));
      markProblems();
    });
  }

  // -- play along: the move tree ---------------------------------------------------------------
  // Every position reached is a node of a tree: its first child continues the main line, the
  // others are variations (a move played from an earlier node starts one).  A node keeps the
  // apply answer of its position once fetched; `next` is the child last visited, which → and
  // End follow.

  let nodeCount = 0;

  function newNode(parent, move) {
    const node = { id: ++nodeCount, parent, move, children: [], next: null, answer: null };
    if (parent) parent.children.push(node);
    return node;
  }

  function pathOf(node) {
    const moves = [];
    for (let n = node; n && n.parent; n = n.parent) moves.unshift(n.move);
    return moves;
  }

  // The child of `node` by `move`, made when it is new.
  function childOf(node, move) {
    return node.children.find((c) => c.move === move) || newNode(node, move);
  }

  // The end of the line through `node`: the children last visited (else the main line).
  function lineEnd(node) {
    let n = node;
    while (n.children.length) n = n.next || n.children[0];
    return n;
  }

  // Where a variation branched off: the node before its first move (none on the main line).
  function branchPoint(node) {
    for (let n = node; n && n.parent; n = n.parent) {
      if (n.parent.children[0] !== n) return n.parent;
    }
    return null;
  }

  // A request for the position after `moves` from the start: a record is played from its
  // start (upto 0), so that its steps are the tree's main line.
  function applyBody(moves) {
    const body = { document: state.doc.data, moves };
    if (state.doc.kind === "record") body.upto = 0;
    return body;
  }

  async function reach(node) {
    if (!node.answer) node.answer = await api("apply", applyBody(pathOf(node)));
    return node.answer;
  }

  let moveRequest = 0;

  // Select `node`: its position is fetched (once), the picture and the panels follow it, and
  // the URL names it (`how`: "push" a new entry of the history, "replace" it, or "none").
  async function go(node, how) {
    const mine = ++moveRequest;
    cancelJobs();
    say("");
    sayMove("");
    try {
      await reach(node);
    } catch (error) {
      if (mine === moveRequest) sayMove(error.message, true);
      return false;
    }
    if (mine !== moveRequest) return false;
    for (let n = node; n.parent; n = n.parent) n.parent.next = n;
    state.node = node;
    afterMove(how === undefined ? "push" : how);
    return true;
  }

  async function play(text, random) {
    if (!state.node || (!text && !random)) return;
    const mine = ++moveRequest;
    cancelJobs();
    say("");
    sayMove("");
    try {
      const body = applyBody(pathOf(state.node));
      if (text) body.moves = body.moves.concat([text]);
      if (random) { body.random = true; body.seed = Math.floor(Math.random() * 2 ** 31); }
      const answer = await api("apply", body);
      if (mine !== moveRequest) return;
      $("move").value = "";
      landOn(answer);
    } catch (error) {
      if (mine === moveRequest) sayMove(error.message, true);
      return;
    }
    if (state.practice) await practise();
  }

  // The node an apply answer reached, made where new, selected.  The moves as the game writes
  // them (a random draw names its outcome): an existing node is gone to, a new one starts a
  // variation (or continues the line at its end).
  function landOn(answer) {
    let node = state.root;
    for (const move of answer.moves) node = childOf(node, move);
    node.answer = answer;
    for (let n = node; n.parent; n = n.parent) n.parent.next = n;
    state.node = node;
    afterMove("push");
  }

  // -- practice: the other seats played by a policy of the game ---------------------------------
  // You keep the seat to move when you press the button; the bots (the game's policies, GET
  // /api/games: policies, as `play --bot`) play every other seat and draw the chance
  // outcomes, one step at a time, each a node of the tree.

  function showPractice() {
    const policies = G.policies || [];
    const here = state.node && state.node.answer;
    $("practice-box").hidden = !policies.length || !here;
    $("practice").textContent = state.practice ? "Stop practice"
      : `Play against ${policies.includes("hint") ? "the hint" : "a bot"}`;
    $("practice").classList.toggle("quiet", Boolean(state.practice));
    $("bot-policy").disabled = Boolean(state.practice);
    $("practice-status").textContent = state.practice
      ? (state.practice.seat ? `you play ${state.practice.seat}; ${state.practice.policy} plays ` +
         "the others" : "you play the next seat to decide") : "";
  }

  async function practise() {
    const mine = moveRequest;
    while (state.practice && mine === moveRequest) {
      const here = state.node.answer;
      if (!here || here.over) break;
      if (!here.awaits_chance && !state.practice.seat) state.practice.seat = here.to_move;
      if (!here.awaits_chance && here.to_move === state.practice.seat) break;
      const body = applyBody(pathOf(state.node));
      body.bot = state.practice.policy;
      body.seed = Math.floor(Math.random() * 2 ** 31);
      $("practice-status").textContent = here.awaits_chance ? "drawing the chance outcome…"
        : `${here.to_move} (${state.practice.policy}) is thinking…`;
      try {
        const answer = await api("apply", body);
        if (mine !== moveRequest || !state.practice) return;
        if (answer.moves.length <= body.moves.length) throw new Error("the bot took no step");
        landOn(answer);
      } catch (error) {
        sayMove(error.message, true);
        state.practice = null;
      }
    }
    showPractice();
  }

  function togglePractice() {
    const here = state.node && state.node.answer;
    if (state.practice || !here) {
      state.practice = null;
      showPractice();
      return;
    }
    state.practice = { policy: $("bot-policy").value,
                       seat: here.awaits_chance ? null : here.to_move };
    showPractice();
    practise();
  }

  // The tree's node at `moves` from the root (made where new), reached; on a move that is
  // not legal there, the nodes made for it are taken out again and the error is told.
  async function walkTo(moves, how) {
    let node = state.root;
    const made = [];
    for (const move of moves) {
      const found = node.children.find((c) => c.move === move);
      node = found || newNode(node, move);
      if (!found) made.push(node);
    }
    const reached = await go(node, how);
    if (!reached) {
      for (const n of made.reverse()) n.parent.children = n.parent.children.filter((c) => c !== n);
      afterMove(how);
    }
  }

  function afterMove(how) {
    const hinted = state.following && state.doc.verbs.includes("hint");
    clear($("result"));
    $("caption").textContent = "";
    state.problems = [];
    showPosition();
    writeUrl(how);
    // The picture shows the selected node at once (the last node's picture and arrows would
    // stand for it while the hint thinks, and for good where the hint draws no arrows: a
    // chance step, a hint that fails).  The hint follows the selected node: once asked, it is
    // asked again at each node, and redraws the picture with its arrows.
    refreshPicture();
    if (hinted) hint();
  }

  function showPosition() {
    const here = state.node && state.node.answer;
    const playing = Boolean(state.doc && state.doc.playable && here);
    $("play").hidden = !state.doc || !state.doc.playable || state.puzzleMode && !here;
    if (!playing) {
      $("review").hidden = true;  // no line to review on a file that is no game
      return;
    }
    $("to-move").textContent = here.over ? "The game is over."
      : here.awaits_chance ? `Chance: ${here.to_move}. Pick the outcome, or press Random outcome.`
      : `${here.to_move} to move.`;
    $("undo").disabled = !state.node.parent;
    $("redo").disabled = !state.node.children.length;
    $("random").disabled = here.over || !here.awaits_chance;
    const legal = here.legal_moves || [];
    const datalist = $("legal-list");
    clear(datalist);
    for (const move of legal) datalist.append(el("option", { value: move }));
    $("legal-title").textContent = here.over ? "No legal move" :
      `Legal ${here.awaits_chance ? "outcomes" : "moves"} (${here.legal})`;
    filterLegal();
    showTree();
    showPractice();
  }

  // The tree as a list of moves: the main line one item a move (numbered), and after a move
  // its alternatives, each variation in brackets with its own variations nested.  Every move
  // is a button that goes there; the selected one is marked, those off the selected path are
  // muted.
  function showTree() {
    const list = $("history");
    clear(list);
    const path = new Set();
    for (let n = state.node; n; n = n.parent) path.add(n);
    const depth = (node) => pathOf(node).length;
    const marks = state.review ? state.review.marks : new Map();
    const button = (node, numbered) => {
      const judged = marks.get(node.id);
      const mark = judged && judged.mark ? MARKS[judged.mark] : "";
      return el("button", {
        type: "button", class: "node" + (node === state.node ? " current" : "") +
          (path.has(node) ? "" : " off") + (mark ? ` mark-${judged.mark}` : ""),
        "data-node": node.id, "aria-current": node === state.node ? "step" : null,
        "data-mark": judged && judged.mark ? judged.mark : null,
        title: judged && judged.mark && judged.mark !== "best"
          ? `${judged.mark}: gives up ${reviewNumber(judged.lost)}; best was ${judged.best}`
          : `step ${depth(node)}: go there`,
        onclick: () => go(node),
      }, numbered ? `${depth(node)}. ${node.move}` : node.move,
      mark ? el("span", { class: "mark", text: mark }) : null);
    };
    const variations = (node) => (node.parent && node.parent.children[0] === node
      ? node.parent.children.slice(1) : []).map((v) => el("span", { class: "variation" },
        "(", ...line(v), ")"));
    const line = (first) => {
      const parts = [];
      for (let n = first; n; n = n.children[0]) {
        parts.push(button(n, n === first), ...variations(n));
      }
      return parts;
    };
    for (let n = state.root.children[0]; n; n = n.children[0]) {
      const more = variations(n);
      list.append(el("li", { class: path.has(n) ? "" : "future", "data-node": n.id },
        button(n, false), more.length ? el("div", { class: "variations" }, ...more) : null));
    }
    $("tree-help").hidden = !state.root.children.length;
    $("review").hidden = !reviewOffered();
    $("review-run").disabled = !state.root.children.length;
    drawGraph();  // the review follows the selected move
  }

  // ←/→ step back and on, Home/↑ and End/↓ go to the first or the last move of the line, and
  // Escape or Backspace leaves a variation (back to where it branched off).
  function onKey(event) {
    if (!state.doc || !state.doc.playable || !state.node || event.altKey || event.ctrlKey ||
        event.metaKey) return;
    const target = event.target;
    if (target && (target.isContentEditable ||
                   ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    let to = null;
    if (event.key === "ArrowLeft") to = state.node.parent;
    else if (event.key === "ArrowRight") to = state.node.next || state.node.children[0];
    else if (event.key === "Home" || event.key === "ArrowUp") to = state.root;
    else if (event.key === "End" || event.key === "ArrowDown") to = lineEnd(state.node);
    else if (event.key === "Escape" || event.key === "Backspace") {
      to = branchPoint(state.node);
      if (to) to.next = to.children[0];
    } else return;
    event.preventDefault();
    if (to && to !== state.node) go(to);
  }

  function filterLegal() {
    const here = state.node && state.node.answer;
    const list = $("legal");
    clear(list);
    if (!here) return;
    const typed = $("move").value.trim().toLowerCase();
    const shown = (here.legal_moves || []).filter((m) => !typed || m.toLowerCase().includes(typed));
    // A chance outcome says its probability (the apply answer's `chances`).
    const chances = here.chances || {};
    for (const move of shown.slice(0, 80)) {
      const chance = typeof chances[move] === "number"
        ? el("span", { class: "chance", text: ` ${percent(chances[move])}` }) : null;
      list.append(el("li", {}, el("button", { type: "button", "data-move": move,
                                              onclick: () => play(move) }, move, chance)));
    }
    if (shown.length > 80) list.append(el("li", { class: "muted small", text: `… ${shown.length - 80} more: type to narrow` }));
  }

  // The tree as a game record: the main line's steps, and at a step the variations played
  // instead of it (`variations`: lines of steps; docs/formats.md).  Without variations it is
  // the server's TOML record of the main line; with them, the same record as JSON.
  async function downloadRecord() {
    if (!state.root) return;
    let end = state.root;
    while (end.children.length) end = end.children[0];
    try {
      const answer = await reach(end);
      const steps = (node) => {
        const items = [];
        for (let n = node; n; n = n.children[0]) {
          const item = { move: n.move };
          const others = n.parent.children[0] === n ? n.parent.children.slice(1) : [];
          if (others.length) item.variations = others.map((v) => steps(v));
          items.push(item);
        }
        return items;
      };
      const main = state.root.children[0];
      const varied = main && JSON.stringify(steps(main)).includes('"variations"');
      if (!varied) {
        download(`${G.game}.record.toml`, answer.record_text);
        return;
      }
      const record = Object.assign({}, answer.record);
      // The comments the server's record keeps (a draw at random) stay on the main line.
      const written = steps(main);
      (record.steps || []).forEach((step, index) => {
        if (step.comment && written[index]) written[index].comment = step.comment;
      });
      record.steps = written;
      download(`${G.game}.record.json`, JSON.stringify(record, null, 2) + "\n");
    } catch (error) {
      sayMove(error.message, true);
    }
  }

  // -- review: the line through the selected move, marked, with skill against luck ------------
  // POST /api/GAME/review on the line's game record (the apply answer's `record`): each
  // decision's mark, each player's accuracy and counts, and the game's figure after every
  // step with the decisions' loss and the luck as lines of a graph (SVG, clickable).

  const MARKS = { best: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
  const COLOURS = ["#2f6f4f", "#b42318", "#1f5fbf", "#a15c00", "#6b3fa0", "#0f766e"];
  const SHARED = "#2b2b2b";  // a line every player shares

  // A player's colour as a small square (set through the CSSOM: the page's CSP allows no
  // inline style attribute).
  function swatch(colour) {
    const node = el("span", { class: "swatch" });
    node.style.background = colour;
    return node;
  }

  function reviewOffered() {
    return Boolean(state.doc && state.doc.playable &&
                   (G.kinds || []).some((kind) => (kind.verbs || []).includes("review")));
  }

  // A figure of the review in the game's unit: a chance as percentage points.
  function reviewNumber(value, sign) {
    if (typeof value !== "number") return "–";
    const main = (FIGURES.shown || [])[0];
    const percentLike = main && main.style === "percent";
    const shown = percentLike ? 100 * value : value;
    const text = Math.abs(shown).toFixed(percentLike ? 1 : 2);
    return `${sign ? (shown < -1e-9 ? "−" : "+") : shown < -1e-9 ? "−" : ""}${text}`;
  }

  function reviewUnit(data) {
    const main = (FIGURES.shown || [])[0];
    const unit = (data.thresholds && data.thresholds.unit) || "";
    return `${main && main.style === "percent" ? "percentage points " : ""}${unit}`.trim();
  }

  function runReview() {
    if (!state.root || !state.node) return;
    const end = lineEnd(state.node);
    const controller = startJob("Review");
    $("review-message").textContent = "";
    (async () => {
      try {
        const answer = await reach(end);
        const data = await api("review", { document: answer.record,
                                           options: { time_limit: timeLimit() } },
                               controller.signal);
        const line = [];
        for (let n = end; n.parent; n = n.parent) line.unshift(n);
        const marks = new Map();
        for (const decision of data.decisions || []) {
          const node = line[decision.number - 1];
          if (!node) continue;
          // The best move as the command line counts it (Judged.is_best): a loss of 0 that
          // is a value (not "not valued", not a lower bound) and gives up nothing in words.
          const best = typeof decision.lost === "number" && decision.lost <= 1e-9 &&
            !decision.at_least && !decision.missed;
          const label = decision.label || (best ? "best" : null);
          marks.set(node.id, Object.assign({ mark: label }, decision));
        }
        state.review = { line, data, marks, cycle: {} };
        showReview();
        showTree();
      } catch (error) {
        if (error.name !== "AbortError") {
          $("review-message").textContent = error.message;
          $("review-message").className = "message error";
        }
      } finally {
        endJob(controller);
      }
    })();
  }

  // A player's luck as the command line's review says it: the sum, exact or an estimate, and
  // how many chance points it leaves out; "not computed" when none could be valued; "–" with
  // no chance point.
  function luckCell(numbers) {
    const cell = el("td", { class: "num luck" });
    if (!numbers.chance_points) {
      cell.append("–");
    } else if (typeof numbers.luck !== "number") {
      cell.append(el("span", { class: "how muted", text: "not computed" }));
      cell.title = `none of ${numbers.chance_points} chance points could be valued`;
    } else {
      const left = numbers.luck_not_computed || 0;
      cell.append(reviewNumber(numbers.luck, true), el("span", { class: "how muted",
        text: `(${numbers.luck_exact ? "exact" : "estimate"}${left ? `, ${left} not computed` : ""})` }));
      if (left) cell.title = `${left} of ${numbers.chance_points} chance points could not be valued: the sum leaves them out`;
    }
    return cell;
  }

  // The players' table: accuracy, the count of each mark (a click goes to the player's next
  // move of that mark), what the decisions gave up and the luck, each exact or estimated.
  function showReview() {
    const box = $("review-players");
    clear(box);
    const review = state.review;
    if (!review) { clear($("review-graph")); return; }
    const { data } = review;
    const unit = reviewUnit(data);
    const jump = (player, label) => {
      const nodes = review.line.filter((n) => {
        const m = review.marks.get(n.id);
        return m && m.actor === player && m.mark === label;
      });
      if (!nodes.length) return;
      const key = `${player}/${label}`;
      const at = (review.cycle[key] === undefined ? -1 : review.cycle[key]) + 1;
      review.cycle[key] = at % nodes.length;
      go(nodes[review.cycle[key]]);
    };
    const count = (player, numbers, label) => {
      const n = numbers[label] || 0;
      return n ? el("button", { type: "button", class: `count mark-${label}`,
                                title: `go to ${player}'s ${label === "inaccuracy" ? "inaccuracies" : label + "s"}`,
                                "data-player": player, "data-label": label,
                                onclick: () => jump(player, label) }, String(n))
        : el("span", { class: "muted", text: "0" });
    };
    const exact = (flag) => el("span", { class: "how muted", text: flag ? "(exact)" : "(estimate)" });
    const rows = Object.entries(data.players || {}).map(([player, numbers], index) => el("tr", {},
      el("td", {}, swatch(COLOURS[index % COLOURS.length]), player),
      el("td", { class: "num", text: numbers.decisions ? `${Math.round(100 * numbers.accuracy)}%` : "–" }),
      el("td", { class: "num" }, count(player, numbers, "inaccuracy")),
      el("td", { class: "num" }, count(player, numbers, "mistake")),
      el("td", { class: "num" }, count(player, numbers, "blunder")),
      el("td", { class: "num decision-loss" }, reviewNumber(numbers.decision_loss),
         numbers.decisions ? exact(numbers.decision_loss_exact) : null),
      luckCell(numbers)));
    box.append(el("table", { class: "review-players" },
      el("thead", {}, el("tr", {}, ...["player", "accuracy", "?!", "?", "??", "decisions gave up",
                                        "luck"].map((h, i) => el("th", { text: h, class: i ? "num" : null })))),
      el("tbody", {}, ...rows)));
    const notes = ["?! inaccuracies, ? mistakes, ?? blunders (a count goes to the move)",
                   `values in ${unit}`];
    if (data.thresholds) {
      notes.push(`inaccuracy from ${reviewNumber(data.thresholds.inaccuracy)}, mistake from ` +
                 `${reviewNumber(data.thresholds.mistake)}, blunder from ${reviewNumber(data.thresholds.blunder)}`);
    }
    if (data.luck_note) notes.push(`luck: ${data.luck_note}`);
    if (data.complete === false) notes.push(`stopped at step ${data.stopped_at} (the time limit)`);
    box.append(el("p", { class: "muted small", text: notes.join("; ") }));
    drawGraph();
  }

  // The graph: each player's value after every step (solid), what their decisions gave up so
  // far (dashed, downwards) and their luck so far (dotted); the selected move is a vertical
  // line; a click goes to the step under it.
  function drawGraph() {
    const box = $("review-graph");
    clear(box);
    const review = state.review;
    if (!review) return;
    const steps = review.data.steps || [];
    const players = Object.keys(review.data.players || {});
    if (!steps.length || !players.length) return;
    // As wide as its box (at most 640), so that its words keep their size on a phone.
    const wide = Math.round(box.clientWidth || 0);
    const [W, H, L, R, T, B] = [wide >= 300 ? Math.min(640, wide) : 640, 220, 44, 10, 10, 22];
    const last = Math.max(1, steps[steps.length - 1].number);
    const series = [];
    players.forEach((player, index) => {
      const colour = COLOURS[index % COLOURS.length];
      const pick = (f) => steps.map((s) => [s.number, f(s)]).filter(([, v]) => typeof v === "number");
      series.push({ player, kind: "value", colour, points: pick((s) => (s.values || {})[player]) });
      series.push({ player, kind: "decisions", colour, points: pick((s) => {
        const c = (s.cumulative || {})[player];
        return c && typeof c.decision_loss === "number" ? -c.decision_loss : null;
      }) });
      // No luck line for a player none of whose chance points could be valued (its running
      // sum stays 0, which would read as "no luck" rather than "not computed").
      const numbers = (review.data.players || {})[player] || {};
      if (numbers.chance_points && typeof numbers.luck !== "number") return;
      series.push({ player, kind: "luck", colour, points: pick((s) => {
        const c = (s.cumulative || {})[player];
        return c && typeof c.luck === "number" ? c.luck : null;
      }) });
    });
    // Where every player's line of a kind is the same (a cooperative game's one figure, a luck
    // of 0 for all), one black line says so instead of lines hidden under the last one drawn.
    const kinds = ["value", "decisions", "luck"];
    const shared = new Set(kinds.filter((kind) => {
      const lines = series.filter((s) => s.kind === kind).map((s) => JSON.stringify(s.points));
      return players.length > 1 && lines.length === players.length && new Set(lines).size === 1 &&
        lines[0] !== "[]";
    }));
    for (const kind of shared) {
      const first = series.find((s) => s.kind === kind);
      series.splice(0, series.length, ...series.filter((s) => s.kind !== kind),
                    Object.assign({}, first, { player: "every player", colour: SHARED }));
    }
    const all = series.flatMap((s) => s.points.map(([, v]) => v)).concat([0]);
    let [low, high] = [Math.min(...all), Math.max(...all)];
    if (high - low < 1e-9) high = low + 1;
    const x = (n) => L + ((W - L - R) * n) / last;
    const y = (v) => T + ((H - T - B) * (high - v)) / (high - low);
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "the game's figure after each step, with the decisions' loss and the luck");
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    add("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" });
    add("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "zero" });
    for (const v of [high, 0, low]) {
      if (v !== 0 && Math.abs(y(v) - y(0)) < 14) continue;
      add("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" }, reviewNumber(v));
    }
    add("text", { x: x(0), y: H - 6, "text-anchor": "start", class: "axis" }, "start");
    add("text", { x: x(last), y: H - 6, "text-anchor": "end", class: "axis" }, `step ${last}`);
    const dash = { value: "", decisions: "6 4", luck: "2 3" };
    for (const s of series) {
      if (s.points.length < 1) continue;
      add("polyline", { points: s.points.map(([n, v]) => `${x(n).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
                        fill: "none", stroke: s.colour, "stroke-width": s.kind === "value" ? 2.5 : 1.6,
                        "stroke-dasharray": dash[s.kind], class: `series ${s.kind}`,
                        "data-player": s.player });
    }
    const dotted = new Set();
    for (const [id, m] of review.marks) {
      if (!["mistake", "blunder"].includes(m.mark)) continue;
      const index = review.line.findIndex((n) => n.id === id);
      add("circle", { cx: x(index + 1), cy: T + 6, r: 4, class: `dot mark-${m.mark}` });
      dotted.add(m.mark);
    }
    const depth = review.line.indexOf(state.node) + 1;
    if (state.node === state.root || depth > 0) {
      const at = state.node === state.root ? 0 : depth;
      add("line", { x1: x(at), x2: x(at), y1: T, y2: H - B, class: "here" });
    }
    svg.addEventListener("click", (event) => {
      const point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      const local = point.matrixTransform(svg.getScreenCTM().inverse());
      const n = Math.max(0, Math.min(last, Math.round(((local.x - L) * last) / (W - L - R))));
      const node = n === 0 ? state.root : review.line[n - 1];
      if (node) go(node);
    });
    box.append(svg);
    const legend = el("p", { class: "legend small muted" },
      ...players.map((player, index) => el("span", {},
        swatch(COLOURS[index % COLOURS.length]), player, " ")),
      shared.size ? el("span", {}, swatch(SHARED), "every player, where all lines are the same ")
        : null,
      // only the kinds of line drawn (a game that values no position has no figure line)
      kinds.filter((kind) => series.some((s) => s.kind === kind && s.points.length))
        .map((kind) => ({ value: "— the figure after each step",
                          decisions: "– – what the decisions gave up so far",
                          luck: "··· luck so far" })[kind]).join(" · "),
      // the dots above a step and the dotted upright line say what they are too
      ...["mistake", "blunder"].filter((mark) => dotted.has(mark)).map((mark) => el("span",
        { class: `dot-key mark-${mark}` }, " · ", el("span", { class: "dot", text: "●" }),
        ` a ${mark}`)),
      " · ┆ the selected move");
    box.append(legend);
  }

  // -- the state in the URL --------------------------------------------------------------------
  // ?example=NAME names a shipped position, #name=FILE&doc=... carries your own (its text
  // compressed, deflate-raw in base64url), and each move=... one move of the path to the
  // selected node: a reload, Back/Forward and a copied link restore the same node.

  async function packText(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 8192) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
    }
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  async function unpackText(packed) {
    const base = packed.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(base + "===".slice((base.length + 3) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }

  function writeUrl(how) {
    if (!state.doc || how === "none") return;
    const url = new URL(window.location.pathname, window.location.origin);
    if (state.origin && state.origin.example) url.searchParams.set("example", state.origin.example);
    for (const move of state.node ? pathOf(state.node) : []) url.searchParams.append("move", move);
    if (state.origin && state.origin.packed) {
      url.hash = new URLSearchParams({ name: state.origin.name, doc: state.origin.packed }).toString();
    }
    if (url.href === window.location.href) return;
    if (how === "replace") window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
  }

  // The board as the URL says: the document (loaded when it is another) and the node.
  async function restore(how) {
    const url = new URL(window.location.href);
    const moves = url.searchParams.getAll("move");
    const fragment = new URLSearchParams(url.hash.slice(1));
    const packed = fragment.get("doc");
    if (packed) {
      if (state.doc && state.origin && state.origin.packed === packed) return walkTo(moves, how);
      let text;
      try {
        text = await unpackText(packed);
      } catch (error) {
        say("the link's document could not be read (its #doc= part is damaged)", true);
        return null;
      }
      const name = fragment.get("name") || "linked.toml";
      return load({ document: text, filename: name }, `your file ${name}`, "",
                  { moves, how, name, packed });
    }
    const first = G.shipped.find((s) => s.set === "examples" && s.name === "default") ||
                  G.shipped.find((s) => s.set === "examples") || G.shipped[0];
    const wanted = url.searchParams.get("example") || (first && first.qualified);
    if (!wanted) return null;
    if (state.doc && state.origin && state.origin.example &&
        [state.origin.example, state.origin.example.split("/").pop()].includes(wanted)) {
      return walkTo(moves, how);
    }
    return loadShipped(wanted, moves, how);
  }

  // -- puzzle mode -----------------------------------------------------------------------------

  function setupPuzzle() {
    const kind = state.doc.puzzle;
    state.puzzleMode = Boolean(kind);
    $("puzzle-mode").checked = state.puzzleMode;
    state.solved = null;
    state.revealed = 0;
    $("puzzle").hidden = !kind;
    clear($("steps"));
    $("verdict").textContent = "";
    const box = $("answer-box");
    clear(box);
    if (!kind) return;
    // The question, and the answers to pick from or what one looks like: the document's kind
    // declares them (GET /api/games, and the inspect answer).
    const declared = state.doc.document_kind || {};
    $("puzzle-question").textContent = declared.question || "";
    if (declared.choices && declared.choices.length) {
      const select = el("select", { id: "answer", "aria-label": "your answer" },
        el("option", { value: "", text: "your answer…" }),
        ...declared.choices.map((choice) => el("option", { value: choice, text: choice })));
      box.append(el("label", {}, "Answer ", select));
    } else {
      box.append(el("textarea", { id: "answer", rows: 4, spellcheck: "false",
        placeholder: declared.answer_help || "", "aria-label": "your answer" }));
    }
  }

  async function solution(signal) {
    if (!state.solved) {
      state.solved = await api("solve", puzzleBody({ options: { time_limit: timeLimit() } }), signal);
    }
    return state.solved;
  }

  // A request about the puzzle itself: a shipped puzzle by its name (the server reads the
  // whole file, answer and all, which the page never holds), else the document as loaded.
  function puzzleBody(fields) {
    const shipped = state.selected && state.doc.source.endsWith(state.selected);
    return Object.assign(shipped ? { example: state.selected } : { document: state.doc.data },
                         fields);
  }

  function puzzleSteps(solved) {
    const s = solved.solution || {};
    if (state.doc.puzzle === "rule") return (s.chain || []).map((step) => step.text);
    if (state.doc.puzzle === "layout") {
      // The first pre_placed placements are the puzzle's own: only the others are steps.
      const own = (s.placements || []).slice(s.pre_placed || 0);
      const byLabel = Object.fromEntries(own.map((p) => [p.label, p]));
      const order = s.build_order || own.map((p) => p.label);
      return order.map((label) => byLabel[label]).filter(Boolean);
    }
    return s.line || [];
  }

  function nextStep() {
    runJob("Next step", async (signal) => {
      const solved = await solution(signal);
      const steps = puzzleSteps(solved);
      if (!steps.length) {
        $("verdict").textContent = solved.status === "unknown"
          ? "the solver found no answer within the time limit: try a longer one"
          : "no step to reveal here: give your answer and check it, or Show the answer";
        return;
      }
      if (state.revealed >= steps.length) {
        $("verdict").textContent = "every step is revealed";
        return;
      }
      state.revealed += 1;
      const list = $("steps");
      clear(list);
      for (const step of steps.slice(0, state.revealed)) {
        list.append(el("li", { text: typeof step === "string" ? step : placementText(step) }));
      }
      if (state.doc.puzzle === "layout") {
        const shown = JSON.parse(JSON.stringify(state.doc.data));
        shown.placed = (shown.placed || []).concat(steps.slice(0, state.revealed).map(
          (p) => ({ tile: p.tile, at: p.at, rotation: p.rotation })));
        await drawPicture(shown, false, signal, `${state.revealed} of ${steps.length} placements revealed`);
      }
    });
  }

  function showAnswer() {
    runJob("Solve", async (signal, result) => {
      const solved = await solution(signal);
      showSolve(solved, result);
      if (state.doc.puzzle === "layout") {
        await drawPicture(state.doc.data, true, signal, "the answer drawn");
      }
    });
  }

  function checkAnswer() {
    const input = $("answer");
    const answer = input ? input.value.trim() : "";
    if (!answer) {
      $("verdict").textContent = "give an answer first";
      $("verdict").className = "verdict bad";
      return;
    }
    $("verdict").textContent = "";  // a new verdict replaces the old one, or none stays
    $("verdict").className = "verdict";
    runJob("Check", async (signal, result) => {
      const judged = await api("check", puzzleBody({ answer, options: { time_limit: timeLimit() } }),
                               signal);
      const verdict = $("verdict");
      verdict.textContent = judged.verdict;
      verdict.className = "verdict " + (judged.correct === true ? "good" : judged.correct === false ? "bad" : "");
      if (judged.problems && judged.problems.length) {
        result.append(el("ul", { class: "problems" }, ...judged.problems.map((p) =>
          el("li", {}, el("code", { text: p.code }), " ", p.message))));
      }
    });
  }

  // -- loading a position ----------------------------------------------------------------------

  // The Position list shows what is loaded: a shipped position, "(your own file)", or
  // nothing when no position could be loaded.
  function showSelected() {
    const select = $("shipped");
    if (state.doc) select.value = state.selected || "";
    else select.selectedIndex = -1;
  }

  // Load a document: a file that is bad input is an error (red, its one line), and the
  // position loaded before stays; a good file that is no game to play on (a Meeple Land
  // park, a Pool Party Stars log no rules fit) loads, and says why there is no play along.
  async function load(body, description, selected, how) {
    cancelJobs();
    say("loading…");
    sayMove("");
    const wanted = how || {};
    try {
      const inspected = await api("inspect", body);
      const previous = state.doc;
      state.doc = inspected;
      state.doc.description = description || "";
      // A record's steps are the tree's main line (the record is played from its start).
      const root = newNode(null, null);
      let end = root;
      try {
        if (inspected.playable) {
          const steps = inspected.kind === "record" ? (inspected.data.steps || []) : [];
          const answer = await api("apply", applyBody(steps.map((s) => s.move)));
          for (const move of answer.moves) end = childOf(end, move);
          end.answer = answer;
          if (inspected.kind === "record") addVariations(root, steps);
        }
      } catch (error) {
        state.doc = previous;
        throw error;
      }
      state.root = root;
      state.node = end;
      state.practice = null;
      state.review = null;
      clear($("review-players"));
      clear($("review-graph"));
      $("review-message").textContent = "";
      state.selected = selected || "";
      state.following = false;
      state.origin = wanted.packed ? { name: wanted.name, packed: wanted.packed }
        : wanted.text !== undefined ? { name: wanted.name, packed: await packText(wanted.text) }
        : { example: selected };
      state.problems = [];
      $("paste").value = inspected.text;
      $("description").textContent = description || `${inspected.source}`;
      clear($("result"));
      setupPuzzle();
      say(inspected.playable || state.puzzleMode ? "" : "Play along is not available: " +
          (inspected.not_playable || "this file is no game to play on") + ".");
      setBusy(false);
      if (wanted.moves && wanted.moves.length && inspected.playable) {
        await walkTo(wanted.moves, wanted.how);
      } else {
        afterMove(wanted.how || "push");
      }
    } catch (error) {
      say((state.doc ? "Not loaded — " : "") + error.message, true);
    }
    showSelected();
  }

  // A record's variations (each step may list lines played instead of it) as the tree's
  // other children, as written (each is checked when it is gone to).
  function addVariations(root, steps) {
    const walk = (node, items) => {
      let here = node;
      for (const item of items || []) {
        for (const line of item.variations || []) walk(here, line);
        here = childOf(here, item.move);
      }
    };
    walk(root, steps);
    for (const n of [root]) n.next = null;
  }

  function loadShipped(qualified, moves, how) {
    const item = G.shipped.find((s) => s.qualified === qualified || s.name === qualified);
    if (!item) {
      say(`no shipped ${G.title} position "${qualified}": pick one from the Position list`, true);
      showSelected();
      if (!state.doc) $("caption").textContent = "no position loaded";
      return null;
    }
    $("shipped").value = item.qualified;
    return load({ example: item.qualified }, item.description, item.qualified,
                { moves, how });
  }

  function buildControls() {
    const select = $("shipped");
    const groups = {};
    for (const item of G.shipped) {
      if (!groups[item.set]) {
        groups[item.set] = el("optgroup", { label: item.set });
        select.append(groups[item.set]);
      }
      groups[item.set].append(el("option", { value: item.qualified, text: item.name }));
    }
    select.append(el("option", { value: "", text: "(your own file)" }));
    const policies = G.policies || [];
    for (const policy of policies) $("bot-policy").append(el("option", { value: policy, text: policy }));
    if (policies.includes("hint")) $("bot-policy").value = "hint";
    $("practice").addEventListener("click", togglePractice);
    $("review-run").addEventListener("click", runReview);
    window.addEventListener("resize", () => { if (state.review) drawGraph(); });  // its width
    select.addEventListener("change", () => { if (select.value) loadShipped(select.value, [], "push"); });
    const options = $("options");
    for (const verb of ["hint", "solve", "verify"]) {
      for (const spec of (G.options[verb] || [])) {
        if (spec.file) continue;
        let input;
        if (spec.kind === "flag") {
          input = el("input", { type: "checkbox" });
        } else if (spec.kind === "choice") {
          input = el("select", {}, el("option", { value: "", text: "default" }),
            ...spec.choices.map((c) => el("option", { value: c, text: c })));
        } else {
          input = el("input", { type: spec.kind === "text" ? "text" : "number", size: 6,
                                min: spec.minimum, max: spec.maximum,
                                placeholder: spec.default === null ? "" : String(spec.default) });
        }
        input.dataset.option = spec.name;
        input.dataset.verb = verb;
        options.append(el("label", { title: spec.help }, `${verb} ${spec.name.replace(/_/g, " ")}`, input));
      }
    }
    if (!options.children.length) options.closest("details").hidden = true;
    $("hint").addEventListener("click", hint);
    setupZoom();
    $("puzzle-mode").addEventListener("change", () => {
      state.puzzleMode = $("puzzle-mode").checked && Boolean(state.doc && state.doc.puzzle);
      updateVerbButtons();
      showPosition();
    });
    $("solve").addEventListener("click", solve);
    $("verify").addEventListener("click", verify);
    $("cancel").addEventListener("click", cancelJobs);
    $("next-step").addEventListener("click", nextStep);
    $("show-answer").addEventListener("click", showAnswer);
    $("check").addEventListener("click", checkAnswer);
    $("move-form").addEventListener("submit", (event) => { event.preventDefault(); play($("move").value.trim()); });
    $("move").addEventListener("input", filterLegal);
    $("undo").addEventListener("click", () => { if (state.node && state.node.parent) go(state.node.parent); });
    $("redo").addEventListener("click", () => {
      const to = state.node && (state.node.next || state.node.children[0]);
      if (to) go(to);
    });
    $("random").addEventListener("click", () => play("", true));
    $("download").addEventListener("click", async () => {
      const here = state.node && state.node.answer;
      download(`${G.game}-position.toml`, here ? here.position_text : state.doc.text);
    });
    $("download-record").addEventListener("click", downloadRecord);
    $("upload").addEventListener("change", () => {
      const file = $("upload").files[0];
      if (!file) return;
      if (file.size > 1024 * 1024) { say("the file is over 1 MB", true); return; }
      const reader = new FileReader();
      reader.onload = () => {
        const text = String(reader.result);
        load({ document: text, filename: file.name }, `your file ${file.name}`, "",
             { text, name: file.name });
      };
      reader.readAsText(file);
      $("upload").value = "";
    });
    $("load-paste").addEventListener("click", () => {
      const text = $("paste").value;
      load({ document: text, filename: "pasted.toml" }, "your pasted file", "",
           { text, name: "pasted.toml" });
    });
  }

  buildControls();
  setBusy(false);
  showPosition();  // no position yet: no play along (Undo, Redo, Random outcome) to offer
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => { restore("none"); });
  restore("replace");
  window.partysolverBoard = state;  // for the browser tests and the curious
})();
