// rosen's web page: draws what the JSON API sends and sends clicks back. It knows no rule of the
// game: legal moves, their target squares, scores and territories all come from the server.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SQ = 56, X0 = 30, Y0 = 12;                       // board geometry (viewBox 548 x 550)
const FILES = "abcdefghi";
const ANGLE = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };
// ?delay=MS sets the pause that lets an engine move be seen (default 450; the browser tests use 0).
const DELAY = Math.max(0, parseInt(new URLSearchParams(location.search).get("delay") ?? "450", 10) || 0);
const SEAT_NAME = { r: "Red", w: "White", r1: "Red 1", w1: "White 1", r2: "Red 2", w2: "White 2" };

const state = {
  tab: "play",
  game: null,          // the game's JSON view (GET /api/games/{id})
  gameRequest: 0,      // the latest new-game request: an earlier one's late answer is dropped
  hero: false,         // the hero toggle
  busy: null,          // the id of the game whose request is in flight (the play tab)
  looping: false,      // the engine's loop runs
  engineError: null,   // {id, message}: that game's engine move failed; the page says why and offers Retry
  recordFor: null,     // the id of the game the Download link holds
  shownBoard: null,    // the board last drawn, to animate new tokens
  an: { fens: [], moves: [], winrates: [], ply: 0, wanted: 0, gen: 0, shown: 0, view: null, reshuffle: "eager", run: null,
    games: [] },
};

// --- small helpers ------------------------------------------------------------------------------

function el(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
function squareXY(square) {                              // top-left corner of a square
  const f = FILES.indexOf(square[0]), r = parseInt(square.slice(1), 10);
  return [X0 + f * SQ, Y0 + (9 - r) * SQ];
}
function centre(square) { const [x, y] = squareXY(square); return [x + SQ / 2, y + SQ / 2]; }
function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }
// Makes an SVG node work as a button: a click, or Enter/Space once the keyboard has focused it.
// `label` also names the node across redraws, so that the keyboard's focus survives them.
function clickable(node, label, action) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.setAttribute("data-focus", label);
  node.addEventListener("click", once(action));
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action(); } });
}
// A click handler that ignores the second (and third) click of a double click: a local server
// answers the first in 20 ms, so a double click once played two moves.
function once(action) { return (e) => { if (!e || !(e.detail > 1)) action(e); }; }
// Runs a redraw and gives the keyboard's focus back to the node of the same name, if it is still there.
function keepingFocus(redraw) {
  const name = document.activeElement && document.activeElement.getAttribute &&
    document.activeElement.getAttribute("data-focus");
  redraw();
  if (name) {
    const again = [...document.querySelectorAll("[data-focus]")].find((n) => n.getAttribute("data-focus") === name);
    if (again) again.focus({ preventScroll: true });   // the user may have scrolled away meanwhile
  }
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) { options.body = JSON.stringify(body); options.headers["Content-Type"] = "application/json"; }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const e = new Error(data.error || `HTTP ${response.status}`);
    Object.assign(e, { field: data.field, status: response.status });
    throw e;
  }
  return data;
}
function showMessage(text) {
  const m = $("message");
  m.hidden = !text;
  m.textContent = text || "";
}
function setStatus(text, colour, thinking = false) {
  const s = $("status");
  s.innerHTML = "";
  if (colour) html("span", { class: "dot", style: `background:${colour === "red" ? "var(--red)" : "var(--white)"}` }, s);
  html("span", thinking ? { class: "thinking" } : {}, s, text);
}

// --- cards --------------------------------------------------------------------------------------

function cardSVG(name, { hero = false, classes = "" } = {}) {
  const m = /^([NESW]{1,2})([123])$/.exec(name);
  const svg = el("svg", { viewBox: "0 0 52 70", class: `card ${classes}`, "data-card": name });
  el("rect", { x: 1, y: 1, width: 50, height: 68, rx: 6, fill: hero ? "#fff6d8" : "#fffdf8",
    stroke: hero ? "#d4a017" : "#8c8377", "stroke-width": hero ? 2.5 : 1.5 }, svg);
  el("title", {}, svg, hero ? `hero + ${name}` : name);
  if (!m) return svg;
  const g = el("g", { transform: `translate(26 30) rotate(${ANGLE[m[1]]})` }, svg);
  el("line", { x1: 0, y1: 12, x2: 0, y2: -11, stroke: "#3a2f2a", "stroke-width": 3.5, "stroke-linecap": "round" }, g);
  el("path", { d: "M0 -19 L-8 -7 L8 -7 Z", fill: "#3a2f2a" }, g);
  const n = parseInt(m[2], 10);
  for (let i = 0; i < n; i++) el("circle", { cx: 26 + (i - (n - 1) / 2) * 10, cy: 59, r: 3.4, fill: "#b3261e" }, svg);
  el("text", { x: 7, y: 14, "font-size": 10, fill: "#7a6f66", "font-family": "system-ui, sans-serif" }, svg, name);
  return svg;
}

// --- the board ----------------------------------------------------------------------------------

function crownPath(parent) {
  const g = el("g", { id: "crown" }, parent);
  el("path", { d: "M-15 9 L-17 -8 L-8 0 L0 -13 L8 0 L17 -8 L15 9 Z", fill: "#d4a017", stroke: "#6b4f05",
    "stroke-width": 1.6, "stroke-linejoin": "round" }, g);
  el("rect", { x: -15, y: 9, width: 30, height: 5, fill: "#b8860b", stroke: "#6b4f05", "stroke-width": 1.2 }, g);
  for (const [x, y] of [[-17, -8], [0, -13], [17, -8]]) el("circle", { cx: x, cy: y, r: 2.6, fill: "#fff3c4" }, g);
  return g;
}

// Draws a position's view. extra: {targets: [{move, target, hero}], onTarget(move), last: square,
// territories: bool, pv: [{square, colour}]}
function drawBoard(view, extra = {}) {
  const svg = $("board");
  let crown = $("crown");
  let layer = $("layer");
  if (!layer) {
    svg.innerHTML = "";
    layer = el("g", { id: "layer" }, svg);
    crown = crownPath(svg);
  }
  layer.innerHTML = "";
  for (let r = 9; r >= 1; r--) {
    for (let f = 0; f < 9; f++) {
      const sq = FILES[f] + r, [x, y] = squareXY(sq);
      el("rect", { x, y, width: SQ, height: SQ, class: (f + r) % 2 ? "sq" : "sq alt", "data-square": sq }, layer);
    }
    el("text", { x: 14, y: Y0 + (9 - r) * SQ + SQ / 2 + 5, class: "coord" }, layer, String(r));
  }
  for (let f = 0; f < 9; f++) el("text", { x: X0 + f * SQ + SQ / 2, y: Y0 + 9 * SQ + 20, class: "coord" }, layer, FILES[f]);
  el("rect", { x: X0, y: Y0, width: 9 * SQ, height: 9 * SQ, fill: "none", stroke: "#3a2f2a", "stroke-width": 2 }, layer);
  // tokens (board rows: rank 9 first, files a..i)
  const previous = state.shownBoard;
  view.board.forEach((row, i) => {
    for (let f = 0; f < 9; f++) {
      const c = row[f];
      if (c === ".") continue;
      const sq = FILES[f] + (9 - i), [cx, cy] = centre(sq);
      const fresh = previous && previous[i][f] !== c;
      el("circle", { cx, cy, r: 21, class: "token" + (fresh ? " new" : ""), "data-token": c, "data-square": sq,
        fill: c === "r" ? "var(--red)" : "var(--white)", stroke: c === "r" ? "var(--red-dark)" : "var(--white-edge)",
        "stroke-width": 2 }, layer);
      el("circle", { cx: cx - 6, cy: cy - 7, r: 6, fill: "#fff", opacity: c === "r" ? 0.18 : 0.6, "pointer-events": "none" }, layer);
    }
  });
  state.shownBoard = view.board.slice();
  if (extra.last) { const [x, y] = squareXY(extra.last); el("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, rx: 4, class: "last" }, layer); }
  if (extra.territories && view.territories) drawTerritories(layer, view.territories);
  if (extra.pv && extra.pv.length) drawPV(layer, view.crown, extra.pv);
  for (const t of extra.targets || []) {
    const [x, y] = squareXY(t.target), [cx, cy] = centre(t.target);
    const play = () => extra.onTarget && extra.onTarget(t.move);
    // the whole square takes the click (a finger misses an 11-pixel dot on a phone); the dot takes the focus
    el("rect", { x, y, width: SQ, height: SQ, class: "target-area" }, layer).addEventListener("click", once(play));
    const dot = el("circle", { cx, cy, r: 10, class: "target" + (t.hero ? " hero" : ""), "data-target": t.target,
      "data-move": t.move }, layer);
    el("title", {}, dot, t.move);
    clickable(dot, `${t.move} to ${t.target}`, play);
  }
  const [cx, cy] = centre(view.crown);
  crown.style.transform = `translate(${cx}px, ${cy}px)`;
  crown.setAttribute("data-square", view.crown);
  svg.appendChild(crown);                                 // on top of everything
}

function drawTerritories(layer, territories) {
  for (const colour of ["red", "white"]) {
    for (const squares of territories[colour].territories) {
      const inside = new Set(squares);
      const d = [];
      for (const sq of squares) {                          // outline: edges with no neighbour inside
        const f = FILES.indexOf(sq[0]), r = parseInt(sq.slice(1), 10), [x, y] = squareXY(sq);
        if (!inside.has(FILES[f] + (r + 1))) d.push(`M${x} ${y}h${SQ}`);
        if (!inside.has(FILES[f] + (r - 1))) d.push(`M${x} ${y + SQ}h${SQ}`);
        if (!inside.has(FILES[f - 1] + r)) d.push(`M${x} ${y}v${SQ}`);
        if (!inside.has(FILES[f + 1] + r)) d.push(`M${x + SQ} ${y}v${SQ}`);
      }
      el("path", { d: d.join(""), class: `territory ${colour}` }, layer);
      if (squares.length > 1) {
        const [cx, cy] = centre(squares[0]);
        el("text", { x: cx, y: cy + 5, class: "tsize", fill: colour === "red" ? "#fff" : "#1f5f9f" }, layer,
          String(squares.length));
      }
    }
  }
}

function drawPV(layer, from, pv) {
  let [px, py] = centre(from);
  const pts = [`${px},${py}`];
  const marks = [];
  pv.forEach((step, i) => {
    if (!step.square) return;
    const [x, y] = centre(step.square);
    pts.push(`${x},${y}`);
    marks.push([x, y, i + 1, step.colour]);
  });
  el("polyline", { points: pts.join(" "), class: "pv-line" }, layer);
  for (const [x, y, n, colour] of marks) {
    const g = el("g", { class: "pv-dot" }, layer);
    el("circle", { cx: x, cy: y, r: 11, fill: colour === "red" ? "var(--red)" : "#6c6258", stroke: "#fff", "stroke-width": 2 }, g);
    el("text", { x, y: y + 4.5 }, g, String(n));
  }
}

function drawGraph(svg, values, current) {
  svg.innerHTML = "";
  const W = Math.max(200, Math.round(svg.clientWidth || 400)), H = 110, n = Math.max(values.length - 1, 1);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const px = (i) => 6 + (i / n) * (W - 12), py = (v) => 6 + (1 - v) * (H - 12);
  el("rect", { x: 0, y: 0, width: W, height: H / 2, fill: "#b3261e", opacity: 0.05 }, svg);
  el("line", { x1: 0, x2: W, y1: py(0.5), y2: py(0.5), stroke: "#cbbfae", "stroke-dasharray": "4 4" }, svg);
  el("text", { x: 4, y: 14, "font-size": 10, fill: "#7a6f66" }, svg, "Red 100%");
  el("text", { x: 4, y: H - 4, "font-size": 10, fill: "#7a6f66" }, svg, "White 100%");
  const pts = [];
  values.forEach((v, i) => { if (v !== null && v !== undefined) pts.push([px(i), py(v)]); });
  if (pts.length) el("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#2f6f5e", "stroke-width": 2 }, svg);
  for (const [x, y] of pts) el("circle", { cx: x, cy: y, r: 2.5, fill: "#2f6f5e" }, svg);
  if (current !== undefined && values.length > 1) el("line", { x1: px(current), x2: px(current), y1: 0, y2: H, stroke: "#d4a017", "stroke-width": 2 }, svg);
}

// --- hands, pile, scores ------------------------------------------------------------------------

// mode: {active: seat whose cards can be clicked, onCard(card)}
function drawHands(view, { active = null, onCard = null } = {}) {
  const box = $("hands");
  box.innerHTML = "";
  html("h2", {}, box, "Hands");
  const legal = new Set(view.legal_moves.map((m) => m.move));
  for (const seat of view.seats) {
    const row = html("div", { class: "hand" + (seat === view.turn && !view.is_terminal ? " to-move" : ""), "data-seat": seat }, box);
    const who = html("span", { class: "who" }, row, (seat === view.turn && !view.is_terminal ? "▶ " : "") + SEAT_NAME[seat]);
    html("span", { class: "heroes", title: "hero cards left" }, who, view.heroes[seat] ? "♞".repeat(view.heroes[seat]) : "no heroes");
    for (const card of view.hands[seat]) {
      const mine = seat === active;
      const move = (state.hero ? "H:" : "") + card;
      const classes = mine ? (legal.has(move) ? "legal" : "dim mine") : "";
      const svg = cardSVG(card, { hero: mine && state.hero, classes });
      if (mine && onCard) clickable(svg, (state.hero ? "hero " : "") + card, () => onCard(card));
      row.appendChild(svg);
    }
  }
}

function drawInfo(box, view) {
  box.innerHTML = "";
  html("h2", {}, box, "Table");
  const dl = html("dl", { class: "info-grid" }, box);
  const row = (k, v) => { html("dt", {}, dl, k); const dd = html("dd", {}, dl); if (typeof v === "string") dd.textContent = v; else dd.appendChild(v); };
  row("Draw pile", `${view.pile_size} cards (order hidden)`);
  const discard = html("div", { class: "small-cards", id: "discard" });
  for (const c of view.discard) discard.appendChild(cardSVG(c));
  row("Discard", view.discard.length ? discard : "empty");
  row("Tokens left", String(view.supply));
  row("Score", `Red ${view.scores.red} · White ${view.scores.white}`);
}

function drawScoreline(view) {
  const box = $("scoreline");
  box.innerHTML = "";
  if (!view.is_terminal) return;
  const t = view.territories;
  const sum = (c) => (t[c].sizes.length ? t[c].sizes.map((n) => `${n}²`).join(" + ") + " = " : "") + t[c].score;
  const winner = view.winner === "draw" ? "A draw" : `${cap(view.winner)} wins`;
  html("div", { class: "final", id: "final-score" }, box, `Game over: ${winner}, ${view.scores.red} to ${view.scores.white}`);
  html("div", {}, box, `Red: ${sum("red")}`);
  html("div", {}, box, `White: ${sum("white")}`);
}

// --- moves from the side panel (both tabs) ------------------------------------------------------

// The Draw, Pass and Hero buttons and the hint, for the position `p`; `active`: its moves may be played.
function drawActions(p, active) {
  const legal = new Set(p.legal_moves.map((m) => m.move));
  $("draw-button").disabled = !(active && legal.has("draw"));
  $("pass-button").disabled = !(active && legal.has("pass"));
  $("hero-toggle").disabled = !active || p.heroes[p.turn] === 0;
  $("hero-toggle").setAttribute("aria-pressed", String(state.hero));
  const plain = p.legal_moves.some((m) => m.target && !m.hero), heroes = p.legal_moves.some((m) => m.hero);
  $("hint").textContent = !active ? "" : legal.has("pass") ? "No move: pass." :
    !plain && heroes && !state.hero ? (legal.has("draw") ? "No card moves the crown: draw, or press Hero." :
      "Only hero moves: press Hero.") : !plain && !heroes ? "No card moves the crown: draw." :
      "Click a card or a marked square.";
}

// The Hero toggle goes off where it cannot be used (no hero left, or no move to make): pressed
// and disabled, it turned every card into a hero move nobody could undo.
function releaseHero(p, active) {
  if (state.hero && (!active || p.heroes[p.turn] === 0)) state.hero = false;
}

// The hands, the actions and the table serve both tabs: they move to the panel shown.
function placeSharedPanels(tab) {
  let after = tab === "play" ? $("new-game") : $("search-panel");
  for (const id of ["hands", "actions", "game-info"]) { after.after($(id)); after = $(id); }
}

// A move from the side panel or the board goes to the tab shown.
function sidePanelMove(move) { return state.tab === "play" ? playMove(move) : analysisMove(move); }

// --- play ---------------------------------------------------------------------------------------

const SAVED_GAME = "rosen.game";               // this tab's game id: a reload or Back keeps the game

function humanTurn(game) {
  const p = game.position;
  return !p.is_terminal && !game.engine_to_move;
}
function isCurrent(id) { return Boolean(state.game) && state.game.id === id; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function renderGame() { keepingFocus(drawGame); }

function drawGame() {
  const game = state.game;
  if (!game || state.tab !== "play") return;
  const p = game.position;
  const waiting = state.busy === game.id;              // this game's request is in flight
  const human = humanTurn(game) && !waiting;
  releaseHero(p, human);
  const targets = human ? p.legal_moves.filter((m) => m.target && m.hero === state.hero) : [];
  const last = game.last_move && !/^(draw|pass)/.test(game.last_move) ? p.crown : null;
  drawBoard(p, { targets, onTarget: playMove, last, territories: p.is_terminal });
  drawHands(p, { active: human ? p.turn : null, onCard: (card) => playMove((state.hero ? "H:" : "") + card) });
  drawInfo($("game-info"), p);
  drawScoreline(p);
  drawActions(p, human);
  const colour = p.colour_to_move;
  const failed = game.engine_to_move && !p.is_terminal && !waiting && state.engineError !== null &&
    state.engineError.id === game.id;
  $("retry-engine").hidden = !failed;
  if (failed) showMessage(state.engineError.message);  // said again after a visit to the other tab
  if (p.is_terminal) setStatus(p.winner === "draw" ? "Game over: a draw" : `Game over: ${cap(p.winner)} wins`, p.winner === "draw" ? null : p.winner);
  else if (failed) setStatus(`Engine (${SEAT_NAME[p.turn]}) has not moved`, colour);
  else if (game.engine_to_move) setStatus(`Engine (${SEAT_NAME[p.turn]}) is thinking`, colour, true);
  else setStatus(`Your move: ${SEAT_NAME[p.turn]}`, colour);
  const s = game.last_search;
  const played = s && s.played && s.played !== s.best_move ? `${s.played} (a random move of its level; its search chose ${s.best_move})` : s && s.best_move;
  $("engine-line").textContent = s ? `engine: ${played}, win rate ${(100 * s.winrate).toFixed(1)}%, margin ${s.score >= 0 ? "+" : ""}${s.score.toFixed(1)}, ${s.iterations} iterations` : "";
  drawGraph($("play-graph"), game.history.map((h) => h.red_winrate), game.history.length - 1);
  $("record-link").hidden = !(p.is_terminal && state.recordFor === game.id);   // only once this game's record is in
}

// A whole number from a number field, or an error naming the field (the browser hands over "1e3" as
// typed, and parseInt read it as 1). Empty: `fallback` if there is one, else an error.
function wholeNumber(input, field, fallback) {
  const text = input.value.trim();
  if (text === "" && fallback !== undefined) return fallback;
  const n = Number(text), min = Number(input.min || 0);
  if (text === "" || !Number.isSafeInteger(n) || n < min) {
    throw new Error(`${field}: expected a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}, got '${text}'`);
  }
  return n;
}

async function newGame(event) {
  if (event) event.preventDefault();
  const form = $("new-game-form");
  let body;
  try { body = newGameBody(form); } catch (e) { showMessage(e.message); return; }  // the shown game stays
  const request = ++state.gameRequest;
  showMessage("");
  try {
    const game = await api("POST", "/api/games", body);
    if (request !== state.gameRequest) {  // a later New game (or the page's first) was asked for meanwhile
      api("DELETE", `/api/games/${game.id}`).catch(() => {});
      return;
    }
    // The game shown goes only now that its successor exists: a refused request left the page
    // showing a game it had already deleted.
    const old = state.game;
    startGame(game);
    if (old && old.id !== game.id) api("DELETE", `/api/games/${old.id}`).catch(() => {});
    $("new-game").open = false;
    await engineLoop();
  } catch (e) { if (request === state.gameRequest) showMessage(e.message); }
}

// The request body of the New game form, or an error naming the field at fault.
function newGameBody(form) {
  const players = parseInt(form.players.value, 10);
  const body = { players, reshuffle: form.reshuffle.value };
  const seed = wholeNumber(form.seed, "seed", null);
  if (seed !== null) body.seed = seed;
  if (players === 2) {
    const you = form.you.value;
    body.engine_seats = you === "both" ? [] : you === "none" ? ["r", "w"] : [you === "r" ? "w" : "r"];
  } else {
    body.engine_seats = [...form.querySelectorAll("input[name=engine4]:checked")].map((i) => i.value);
  }
  body[form.budget.value] = wholeNumber(form.amount, form.budget.value);
  body.level = parseInt(form.level.value, 10);
  return body;
}

function startGame(game) {
  state.game = game;
  state.hero = false;
  state.shownBoard = null;
  state.engineError = null;
  try { sessionStorage.setItem(SAVED_GAME, game.id); } catch (e) { /* storage off: a reload starts anew */ }
  renderGame();
}

// Tabs of this page tell each other which game they show: a duplicated tab (its sessionStorage is
// a copy) must not resume the game its original still plays, or two pages drive one game.
// Two tabs loading at once both ask: the one with the smaller random token keeps the game.
const tabs = "BroadcastChannel" in window ? new BroadcastChannel("rosen-games") : null;
const tabToken = Math.random();
let claiming = null;                           // the game id this tab asks about while it loads
if (tabs) tabs.addEventListener("message", (e) => {
  const ask = e.data && e.data.ask;
  if (!ask) return;
  const shows = state.game && state.game.id === ask;
  if (shows || (claiming === ask && tabToken < e.data.token)) tabs.postMessage({ have: ask });
});
function shownElsewhere(id) {
  if (!tabs) return Promise.resolve(false);
  claiming = id;
  return new Promise((resolve) => {
    const done = (answer) => {
      tabs.removeEventListener("message", listen);
      clearTimeout(timer);
      if (answer) claiming = null;             // it is the other tab's: this one asks no more
      resolve(answer);
    };
    const listen = (e) => { if (e.data && e.data.have === id) done(true); };
    const timer = setTimeout(() => done(false), 250);
    tabs.addEventListener("message", listen);
    tabs.postMessage({ ask: id, token: tabToken });
  });
}

// The page's first game: the one this tab played before a reload, or a new one.
async function resumeOrNewGame() {
  let id = null;
  try { id = sessionStorage.getItem(SAVED_GAME); } catch (e) { /* storage off */ }
  const asked = state.gameRequest;
  if (id && await shownElsewhere(id)) id = null;          // a duplicated tab: a game of its own
  if (state.gameRequest !== asked) return;                 // New game was clicked meanwhile
  if (id) {
    const request = ++state.gameRequest;
    try {
      const game = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      if (request !== state.gameRequest) return;         // New game was clicked meanwhile
      startGame(game);
      $("new-game").open = false;
      if (game.position.is_terminal) await fetchRecord(game.id);
      else await engineLoop();
      return;
    } catch (e) {
      if (request !== state.gameRequest) return;
      /* the server forgot it (a restart, or its limit of games): a new game */
    }
  }
  await newGame();
}

async function playMove(move) {
  const game = state.game;
  if (!game || state.busy === game.id) return;
  state.busy = game.id;
  let moved = false;
  const movedTo = (view) => {           // the view after the move, answered or read back
    state.game = view;
    moved = true;
    if (state.tab === "play") { state.hero = false; showMessage(""); }  // the other tab's toggle stays
  };
  try {
    const answer = await api("POST", `/api/games/${game.id}/move`, { move });
    if (isCurrent(game.id)) movedTo(answer);
  } catch (e) {
    // The move may have been made all the same (an answer lost with its connection): the
    // server's game says; a second click would otherwise play the next seat's move.
    const fresh = isCurrent(game.id) ? await api("GET", `/api/games/${game.id}`).catch(() => null) : null;
    if (fresh && isCurrent(game.id) && fresh.history.length !== game.history.length) {
      movedTo(fresh);
    } else if (isCurrent(game.id) && state.tab === "play") {
      showMessage(e.message);
    }
  } finally {
    if (state.busy === game.id) state.busy = null;
  }
  if (!isCurrent(game.id)) return;                            // another game started meanwhile: it has its own loop
  renderGame();
  if (moved) await engineLoop();
}

async function engineLoop() {
  if (state.looping) return;                                // one loop at a time: it sees every turn
  state.looping = true;
  try {
    let id;
    do { id = state.game && state.game.id; await engineTurns(); } while (state.game && state.game.id !== id);
  } finally { state.looping = false; }
}

async function engineTurns() {
  const id = state.game && state.game.id;
  while (isCurrent(id) && state.game.engine_to_move && !state.game.position.is_terminal) {
    state.busy = id;
    state.engineError = null;
    renderGame();
    let answer = null;
    try {
      const started = Date.now();
      answer = await engineMove(id);
      await sleep(Math.max(0, (DELAY * 3) / 4 - (Date.now() - started)));
    } catch (e) {
      // The game stays whole on the server: the page says why and offers Retry (a busy server, a
      // lost connection); the answer for a game no longer shown is dropped with its error.
      if (isCurrent(id)) {
        state.engineError = { id, message: e.message };
        if (state.tab === "play") showMessage(e.message);
      }
    } finally {
      if (state.busy === id) state.busy = null;
    }
    if (!isCurrent(id)) return;
    if (answer) state.game = answer;
    renderGame();
    if (!answer) return;
    await sleep(DELAY);                                       // let the crown's move be seen
  }
  if (isCurrent(id) && state.game.position.is_terminal) await fetchRecord(id);
}

// The engine's move in game `id`: the server's answer, or -- when the request failed -- the game
// as the server has it, if the engine moved there all the same (a connection dropped after the
// request; a search from before a reload still held the game: 409, so wait for its move).
async function engineMove(id) {
  const before = state.game.history.length;
  try {
    return await api("POST", `/api/games/${id}/engine`);
  } catch (e) {
    if (!isCurrent(id)) throw e;                             // given up meanwhile: nothing to ask
    const deadline = Date.now() + 70_000;                    // longer than any engine budget (60 s)
    for (;;) {
      const fresh = await api("GET", `/api/games/${id}`).catch(() => null);
      if (!fresh) throw e;
      if (!fresh.engine_to_move || fresh.position.is_terminal || fresh.history.length !== before) return fresh;
      if (e.status !== 409 || !isCurrent(id) || Date.now() > deadline) throw e;
      await sleep(300);
    }
  }
}

function retryEngine() {
  if (!state.game) return;
  state.engineError = null;
  showMessage("");
  engineLoop();
}

async function fetchRecord(id) {
  try {
    const record = await api("GET", `/api/games/${id}/record`);
    if (!isCurrent(id)) return;
    const link = $("record-link");
    if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([JSON.stringify(record) + "\n"], { type: "application/json" }));
    state.recordFor = id;
    renderGame();
  } catch (e) { /* the record is a convenience */ }
}

// --- analyse ------------------------------------------------------------------------------------
//
// Every request that changes what the tab shows takes a new generation (`an.gen`); an answer is
// applied only while its generation is the latest, so a slow answer never lands on a later view,
// and a double click plays its move once. The line (fens, moves, win rates) and the view change
// together, when the answer comes.

function fieldError(box, e) {
  box.hidden = !e;
  box.innerHTML = "";
  if (!e) return;
  if (e.field) { html("b", {}, box, e.field); box.appendChild(document.createTextNode(" — ")); }
  box.appendChild(document.createTextNode(e.message));
}

// Shows ply `ply` of the line {fens, moves, winrates, rule}; fens[ply] may be a user's text (it is
// replaced by its canonical form). Returns whether it was shown.
async function showLine(line, ply) {
  const an = state.an;
  if (!line.fens.length) return false;
  stopAnalysis();
  ply = Math.max(0, Math.min(ply, line.fens.length - 1));
  const gen = ++an.gen;
  an.wanted = ply;
  let view;
  try {
    view = await api("POST", "/api/position", { fen: line.fens[ply], reshuffle: line.rule });
  } catch (e) {
    if (gen === an.gen) { an.wanted = an.ply; $("an-reshuffle").value = an.reshuffle; fieldError($("fen-error"), e); }
    return false;
  }
  if (gen !== an.gen) return false;
  const fens = line.fens.slice();
  fens[ply] = view.fen;
  Object.assign(an, { fens, moves: line.moves, winrates: line.winrates });
  setAnalysisRule(line.rule);
  setView(view, ply);
  return true;
}

function showPly(ply) {
  const an = state.an;
  return showLine({ fens: an.fens, moves: an.moves, winrates: an.winrates, rule: an.reshuffle }, ply);
}

function setView(view, ply) {
  const an = state.an;
  stopAnalysis();                                  // a run begun while this view was on its way searched the old one
  an.shown = an.gen;                               // the generation of the view shown
  an.view = view;
  an.ply = an.wanted = ply;
  $("fen").value = view.fen;
  fieldError($("fen-error"), null);
  $("an-summary").innerHTML = "";                  // a search's summary belongs to the view it searched
  $("an-moves").innerHTML = "";
  renderAnalysis();
}

function renderAnalysis(pv = null) { keepingFocus(() => drawAnalysis(pv)); }

function drawAnalysis(pv) {
  const an = state.an;
  if (!an.view || state.tab !== "analyse") return;
  const v = an.view;
  const next = an.moves[an.ply];
  const lastMove = an.ply > 0 ? an.moves[an.ply - 1] : null;
  const active = !v.is_terminal;
  releaseHero(v, active);
  drawBoard(v, { last: lastMove && !/^(draw|pass)/i.test(lastMove) ? v.crown : null, territories: v.is_terminal,
    pv: pv || [], targets: active ? v.legal_moves.filter((m) => m.target && m.hero === state.hero) : [],
    onTarget: analysisMove });
  drawHands(v, { active: active ? v.turn : null, onCard: (card) => analysisMove((state.hero ? "H:" : "") + card) });
  drawInfo($("game-info"), v);
  drawActions(v, active);
  drawScoreline(v);
  if (!an.run) setStatus(v.is_terminal ? `Game over: ${v.winner === "draw" ? "a draw" : cap(v.winner) + " wins"}` : `${SEAT_NAME[v.turn]} to move`, v.is_terminal ? null : v.colour_to_move);
  const slider = $("slider");
  slider.max = String(an.fens.length - 1);
  slider.value = String(an.ply);
  $("ply-label").textContent = `ply ${an.ply} of ${an.fens.length - 1}` + (next ? ` · next ${next}` : "");
  drawGraph($("an-graph"), an.winrates, an.ply);
  const list = $("an-moves-list");
  list.innerHTML = "";
  an.moves.forEach((m, i) => {
    const span = html("span", { class: i + 1 === an.ply ? "current" : "" }, list, m);
    span.addEventListener("click", () => showPly(i + 1));
    list.appendChild(document.createTextNode(" "));
  });
}

async function analysisMove(move) {
  const an = state.an;
  if (!an.view) return;
  stopAnalysis();
  const gen = ++an.gen, from = an.view, ply = an.ply;
  try {
    const view = await api("POST", "/api/position", { fen: from.fen, move, reshuffle: an.reshuffle });
    if (gen !== an.gen) return;
    an.fens = an.fens.slice(0, ply + 1).concat([view.fen]);
    an.moves = an.moves.slice(0, ply).concat([move]);
    an.winrates = an.winrates.slice(0, ply + 1).concat([null]);
    if (state.tab === "analyse") { state.hero = false; showMessage(""); }  // the other tab's toggle stays
    setView(view, ply + 1);
  } catch (e) { if (gen === state.an.gen && state.tab === "analyse") showMessage(e.message); }
}

async function setPosition() {
  state.shownBoard = null;
  await showLine({ fens: [$("fen").value.trim()], moves: [], winrates: [null], rule: $("an-reshuffle").value }, 0);
}

function summaryHTML(info) {
  const box = $("an-summary");
  box.innerHTML = "";
  const line1 = html("div", {}, box);
  html("b", { id: "an-best" }, line1, info.best_move);
  line1.appendChild(document.createTextNode(
    `  win rate ${(100 * info.winrate).toFixed(1)}%  margin ${info.score >= 0 ? "+" : ""}${info.score.toFixed(1)}`));
  html("div", { id: "an-stats" }, box,
    `${info.iterations.toLocaleString()} visits · ${info.nps.toLocaleString()}/s · depth ${info.depth.toFixed(1)} · ${(info.time_ms / 1000).toFixed(1)} s${info.done ? (info.stopped ? " · stopped" : " · done") : ""}`);
  html("div", {}, box, "pv " + info.pv.join(" "));
  const table = $("an-moves");
  table.innerHTML = "<tr><th>move</th><th>visits</th><th>win rate</th><th>margin</th><th>line</th></tr>";
  const most = Math.max(1, ...info.moves.map((m) => m.visits));
  for (const m of info.moves) {
    const tr = html("tr", {}, table);
    html("td", {}, tr, m.move);
    const td = html("td", {}, tr);
    html("span", { class: "bar", style: `width:${Math.round(40 * m.visits / most)}px` }, td);
    td.appendChild(document.createTextNode(" " + m.visits));
    html("td", {}, tr, (100 * m.winrate).toFixed(1) + "%");
    html("td", {}, tr, (m.score >= 0 ? "+" : "") + m.score.toFixed(1));
    html("td", {}, tr, m.pv.slice(1, 6).join(" "));
  }
}

// Stores a win rate of the position `fen` (under `rule`) wherever the line shown holds it.
function storeWinrate(fen, rule, value) {
  const an = state.an;
  if (rule !== an.reshuffle) return;
  an.fens.forEach((f, i) => { if (f === fen) an.winrates[i] = value; });
}

async function runAnalysis() {
  const an = state.an;
  if (!an.view || an.run) return;
  const budget = $("an-budget").value;
  const params = new URLSearchParams({ fen: an.view.fen, reshuffle: an.reshuffle });
  const controller = new AbortController();
  const run = { controller, id: null, gen: an.shown, fen: an.view.fen, rule: an.reshuffle };
  try {
    if (budget !== "infinite") params.set(budget, String(wholeNumber($("an-amount"), budget)));
  } catch (e) { showMessage(e.message); return; }
  an.run = run;
  $("run").disabled = true;
  $("stop").disabled = false;
  showMessage("");
  setStatus("Searching", an.view.colour_to_move, true);
  try {
    const response = await fetch(`/api/analyse?${params}`, { signal: controller.signal });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw Object.assign(new Error(data.error || `HTTP ${response.status}`), { field: data.field });
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const chunk = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(chunk), data = /^data: (.*)$/m.exec(chunk);
        if (!event || !data) continue;
        const payload = JSON.parse(data[1]);
        if (event[1] === "start") run.id = payload.id;
        else if (event[1] === "info" || event[1] === "done") {
          // Only on the view it searched: the user may have stepped, moved or dealt anew meanwhile.
          if (run.gen === an.shown) { summaryHTML(payload); renderAnalysis(payload.pv_squares); }
          if (event[1] === "done") { storeWinrate(run.fen, run.rule, payload.red_winrate); drawGraph($("an-graph"), an.winrates, an.ply); }
        }
      }
    }
  } catch (e) {
    if (e.name !== "AbortError" && run.gen === an.shown && state.tab === "analyse") showMessage(e.message);
  } finally {
    if (an.run === run) an.run = null;
    $("run").disabled = false;
    $("stop").disabled = true;
    if (state.tab === "analyse" && an.view) setStatus(an.view.is_terminal ? "Game over" : `${SEAT_NAME[an.view.turn]} to move`, an.view.colour_to_move);
  }
}

function stopAnalysis() {
  const run = state.an.run;
  if (!run || run.stopping) return;              // one request a run (a second one was a 404)
  run.stopping = true;
  if (run.id) api("POST", `/api/analyses/${run.id}/stop`).catch(() => run.controller.abort());
  else run.controller.abort();                 // closing the stream stops the search too
}

async function evaluateGame() {
  const an = state.an;
  if (!an.fens.length) return;
  const button = $("evaluate");
  const fens = an.fens.slice(), rule = an.reshuffle;
  button.disabled = true;
  try {
    const out = await api("POST", "/api/evaluate", { fens, reshuffle: rule, iterations: 1000 });
    fens.forEach((fen, i) => storeWinrate(fen, rule, out.red_winrates[i]));   // where the line still holds it
    renderAnalysis();
  } catch (e) { if (state.tab === "analyse") showMessage(e.message); }
  button.disabled = false;
}

async function loadRecord(file) {
  const an = state.an;
  try {
    const text = await file.text();
    const out = await api("POST", "/api/records", { text });
    an.games = out.games;
    const select = $("record-game");
    select.innerHTML = "";
    out.games.forEach((g, i) => html("option", { value: i }, select,
      `game ${i + 1}: ${g.red || "red"} – ${g.white || "white"}, ${g.winner} ${g.scores.join(":")}`));
    if (out.omitted) html("option", { disabled: "" }, select, `(${out.omitted} more games in the file, not shown)`);
    select.hidden = out.games.length < 2 && !out.omitted;
    fieldError($("record-error"), null);
    openRecordGame(0);
  } catch (e) { fieldError($("record-error"), e); }
}

// The analysis's rule (R7) and the selector that shows it change together: what the page shows
// is what it sends.
function setAnalysisRule(rule) {
  state.an.reshuffle = rule;
  $("an-reshuffle").value = rule;
}

function openRecordGame(i) {
  const g = state.an.games[i];
  state.shownBoard = null;
  showLine({ fens: g.fens, moves: g.moves, winrates: g.fens.map(() => null), rule: g.reshuffle }, 0);
}

// --- tabs and wiring ----------------------------------------------------------------------------

function showTab(tab) {
  stopAnalysis();                              // a search nobody sees would hold a slot and the CPU
  if (state.tab === "analyse" && tab !== "analyse") state.an.gen += 1;  // its late answers are dropped
  state.tab = tab;
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === tab);
  $("play-panel").hidden = tab !== "play";
  $("analyse-panel").hidden = tab !== "analyse";
  placeSharedPanels(tab);
  showMessage("");
  state.hero = false;
  state.shownBoard = null;
  $("scoreline").innerHTML = "";
  $("retry-engine").hidden = true;
  inertSidePanels();                           // nothing of the other tab can be clicked meanwhile
  if (tab === "play") { if (state.game) renderGame(); else setStatus("Start a new game"); }
  else {
    if (state.an.view) renderAnalysis();
    else if (state.game) gameToAnalysis();
    else newDeal();
  }
}

// Until the shown tab's view is drawn (an answer away on the Analyse tab), the board's targets
// and the shared panels must not act for the other tab: a card there once played in the game.
function inertSidePanels() {
  for (const node of document.querySelectorAll("#board .target, #board .target-area")) node.remove();
  $("hands").innerHTML = "";
  $("game-info").innerHTML = "";
  for (const id of ["draw-button", "pass-button", "hero-toggle"]) $(id).disabled = true;
  $("hint").textContent = "";
}

function gameToAnalysis() {
  const h = state.game.history;
  showLine({ fens: h.map((x) => x.fen), moves: h.slice(0, -1).map((x) => x.move),
    winrates: h.map((x) => x.red_winrate), rule: state.game.position.reshuffle }, h.length - 1);
}

async function newDeal() {
  // A fresh deal's public view, from a throwaway game nobody plays.
  const rule = $("an-reshuffle").value;
  const players = parseInt($("an-players").value, 10);  // the team game's deals too, not only 2-player ones
  const gen = ++state.an.gen;
  try {
    const game = await api("POST", "/api/games", { engine_seats: [], reshuffle: rule, players });
    api("DELETE", `/api/games/${game.id}`).catch(() => {});
    if (gen !== state.an.gen) return;
    state.shownBoard = null;
    await showLine({ fens: [game.position.fen], moves: [], winrates: [null], rule }, 0);
  } catch (e) { if (gen === state.an.gen) showMessage(e.message); }
}

window.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("new-game-form").addEventListener("submit", newGame);
  $("players").addEventListener("change", (e) => {
    $("seats2").hidden = e.target.value !== "2";
    $("seats4").hidden = e.target.value !== "4";
  });
  $("budget").addEventListener("change", (e) => { $("amount").value = e.target.value === "time_ms" ? 500 : 2000; });
  $("hero-toggle").addEventListener("click", () => {
    state.hero = !state.hero;
    if (state.tab === "play") renderGame(); else renderAnalysis();
  });
  $("draw-button").addEventListener("click", once(() => sidePanelMove("draw")));
  $("pass-button").addEventListener("click", once(() => sidePanelMove("pass")));
  $("retry-engine").addEventListener("click", retryEngine);
  $("to-analyse").addEventListener("click", () => { if (state.game) { state.an.view = null; showTab("analyse"); } });
  $("load-fen").addEventListener("click", setPosition);
  $("new-deal").addEventListener("click", newDeal);
  // Another rule is another game from the position shown (its history was played under the old one).
  $("an-reshuffle").addEventListener("change", setPosition);
  $("run").addEventListener("click", runAnalysis);
  $("stop").addEventListener("click", stopAnalysis);
  $("first").addEventListener("click", () => showPly(0));
  $("back").addEventListener("click", () => showPly(state.an.wanted - 1));
  $("forward").addEventListener("click", () => showPly(state.an.wanted + 1));
  $("last").addEventListener("click", () => showPly(state.an.fens.length - 1));
  $("slider").addEventListener("input", (e) => showPly(parseInt(e.target.value, 10)));
  $("evaluate").addEventListener("click", evaluateGame);
  $("record-file").addEventListener("change", (e) => {
    if (e.target.files[0]) loadRecord(e.target.files[0]);
    e.target.value = "";                         // choosing the same file again loads it again
  });
  $("record-game").addEventListener("change", (e) => openRecordGame(parseInt(e.target.value, 10)));
  window.addEventListener("beforeunload", stopAnalysis);
  setStatus("Start a new game");
  drawBoard({ board: Array(9).fill("........."), crown: "e5" });
  resumeOrNewGame();
});
