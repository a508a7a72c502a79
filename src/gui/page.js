// The page of `tessera gui`. It follows the server's state with a long poll, draws the
// board with the pictures' draw.js (the same drawing as `tessera render`), turns clicks
// into moves and sends them; the server and its rules library decide what is legal.
"use strict";
// `games` holds the server's list of games (GET /api/games): names, sides, parameters.
const GUI = { state: null, games: [], layouts: {}, selection: [], piece: null, busy: false, formFilled: false, errors: [] };
const SVG_NS = "http://www.w3.org/2000/svg";
const PIECES = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658" };
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function showError(text) {
  GUI.errors.push(text);
  if (GUI.errors.length > 5) GUI.errors.shift();
  renderMessages();
}

async function post(path, body) {
  GUI.busy = true;
  try {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
    });
    const data = await response.json();
    if (!response.ok) { showError(data.error || response.statusText); return null; }
    render(data);
    return data;
  } catch (error) {
    showError("the server did not answer: " + error.message);
    return null;
  } finally {
    GUI.busy = false;
  }
}

async function poll() {
  for (;;) {
    try {
      const after = GUI.state ? GUI.state.version : 0;
      const response = await fetch("/api/state?after=" + after);
      const data = await response.json();
      if (!response.ok) throw new Error(data.error || response.statusText);
      render(data);
    } catch (error) {
      $("status").textContent = "the server does not answer (" + error.message + "); retrying";
      await sleep(1000);
    }
  }
}

// ---- the board ----

function layoutKey(state) { return state.variant + "/" + state.side; }

async function layoutFor(state) {
  const key = layoutKey(state);
  if (!GUI.layouts[key]) {
    const response = await fetch("/api/layout?variant=" + state.variant + "&side=" + state.side);
    const layout = await response.json();
    if (!response.ok) throw new Error(layout.error);
    layout.points = layout.centres.map((centre) => centre.split(" ").map(Number));
    layout.index = new Map(layout.names.map((name, index) => [name, index]));
    let spacing = Infinity;
    for (let i = 1; i < layout.points.length; i++) {
      const [x, y] = layout.points[i];
      spacing = Math.min(spacing, Math.hypot(x - layout.points[0][0], y - layout.points[0][1]));
    }
    layout.reach = spacing * 0.55;
    // Two draws may fetch the same layout at once (the first state and the next); the
    // first one stored stays, since a board's click handler compares its layout with it
    // (a second object would make that board ignore every click).
    GUI.layouts[key] = GUI.layouts[key] || layout;
  }
  return GUI.layouts[key];
}

// The cells a move names, in order (a Cheversi placement: its square).
function moveCells(variant, text) {
  if (variant === "cheversi") return [text.slice(1)];
  if (variant === "catchup") return text.split(",");
  return text.split(/[-x]/);
}

function humanToMove() {
  const state = GUI.state;
  if (!state || state.result) return false;
  const seat = state.to_move === "white" ? state.seats[0] : state.seats[1];
  return seat === "human";
}

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// Where the pieces or stones being entered could go next.
function targets() {
  const state = GUI.state;
  if (!humanToMove()) return [];
  if (state.variant === "catchup") return [];
  if (state.variant === "cheversi") {
    return state.legal.filter((move) => (GUI.piece === null || move[0] === GUI.piece) && GUI.selection.length === 0)
      .map((move) => move.slice(1));
  }
  const depth = GUI.selection.length;
  const found = new Set();
  for (const move of state.legal) {
    const cells = moveCells(state.variant, move);
    if (cells.length > depth && GUI.selection.every((cell, i) => cells[i] === cell)) found.add(cells[depth]);
  }
  return [...found];
}

// The colours of the analysis lines, line 1 first, on the board and in the list.
const LINE_COLOURS = ["#1d4ed8", "#dc2626", "#d97706", "#7c3aed", "#0e7490"];

// The lines of the analysis's last report (several with MultiPV), best first.
function rankedLines() {
  const search = GUI.state.search;
  return search.current && search.ranked ? search.ranked : [];
}

function latestPv() {
  const search = GUI.state.search;
  if (!search.current) return [];
  for (let i = search.lines.length - 1; i >= 0; i--) {
    if (search.lines[i].pv.length > 0) return search.lines[i].pv;
  }
  return [];
}

async function drawBoard() {
  const state = GUI.state;
  if (!state.frame) return;
  const layout = await layoutFor(state);
  if (state !== GUI.state) return;
  // Redraw only what changed: a board replaced between a press and its release would
  // swallow the click.
  // Several lines: each line's first move in its colour; one line: its moves numbered.
  const ranked = rankedLines();
  const firsts = ranked.length > 1 ? ranked.map((line) => line.pv[0]) : [];
  const pv = firsts.length > 0 ? [] : latestPv().slice(0, 6);
  const key = JSON.stringify([state.position_id, state.frame, GUI.selection, GUI.piece, pv, firsts, targets()]);
  if (key === GUI.drawnKey) return;
  GUI.drawnKey = key;
  const board = $("board");
  board.innerHTML = picture.draw(layout, state.frame);
  const svg = board.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const overlay = element("g", { id: "overlay" }, svg);
  const point = (name) => layout.points[layout.index.get(name)];
  for (const name of GUI.selection) {
    if (!layout.index.has(name)) continue;
    const [x, y] = point(name);
    element("circle", { class: "sel", cx: x, cy: y, r: layout.reach * 0.95 }, overlay);
  }
  for (const name of targets()) {
    if (!layout.index.has(name)) continue;
    const [x, y] = point(name);
    element("circle", { class: "target", cx: x, cy: y, r: layout.reach * 0.28 }, overlay);
  }
  // The principal variation, over the marks of the move being entered: numbered
  // cells, checkers paths as dashed lines.
  pv.forEach((move, number) => {
    const cells = moveCells(state.variant, move).filter((name) => layout.index.has(name));
    if (cells.length === 0) return;
    if (state.variant === "kruzno" || state.variant === "hexcheckers") {
      element("polyline", { class: "pv-line", points: cells.map((name) => point(name).join(",")).join(" ") }, overlay);
    }
    const shown = state.variant === "catchup" ? cells : [cells[cells.length - 1]];
    for (const name of shown) {
      const [x, y] = point(name);
      element("circle", { class: "pv-mark", cx: x, cy: y, r: layout.reach * 0.45 }, overlay);
      element("text", { class: "pv-text", x, y }, overlay).textContent = String(number + 1);
    }
  });
  drawLines(firsts, layout, overlay);
  svg.addEventListener("click", (event) => onBoardClick(event, layout, svg));
  board.dataset.drawn = layoutKey(state) + "/" + state.position_id;
}

// The first moves of several lines, each in its line's colour with its number: a
// checkers path as a line from a dot to the numbered landing cell, a placement or a
// Catchup turn's stones as numbered discs. Discs of several lines on one cell sit side
// by side.
function drawLines(firsts, layout, overlay) {
  const variant = GUI.state.variant;
  const point = (name) => layout.points[layout.index.get(name)];
  const placed = new Map();
  const disc = (name, colour, number) => {
    const count = placed.get(name) || 0;
    placed.set(name, count + 1);
    let [x, y] = point(name);
    const radius = layout.reach * (count === 0 ? 0.42 : 0.3);
    if (count > 0) {
      const angle = -Math.PI / 2 + (count - 1) * (Math.PI / 3);
      x += Math.cos(angle) * layout.reach * 0.62;
      y += Math.sin(angle) * layout.reach * 0.62;
    }
    element("circle", { class: "line-mark", cx: x, cy: y, r: radius, fill: colour }, overlay);
    element("text", { class: "pv-text", x, y }, overlay).textContent = String(number);
  };
  firsts.forEach((move, index) => {
    if (!move) return;
    const colour = LINE_COLOURS[index % LINE_COLOURS.length];
    const cells = moveCells(variant, move).filter((name) => layout.index.has(name));
    if (cells.length === 0) return;
    if (variant === "kruzno" || variant === "hexcheckers") {
      const points = cells.map((name) => point(name).join(",")).join(" ");
      element("polyline", { class: "line-path", points, stroke: colour }, overlay);
      const [x, y] = point(cells[0]);
      element("circle", { class: "line-mark", cx: x, cy: y, r: layout.reach * 0.16, fill: colour }, overlay);
      disc(cells[cells.length - 1], colour, index + 1);
    } else {
      for (const name of cells) disc(name, colour, index + 1);
    }
  });
}

function cellAt(event, layout, svg) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const local = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  let best = null, distance = layout.reach;
  layout.points.forEach(([x, y], index) => {
    const d = Math.hypot(x - local.x, y - local.y);
    if (d < distance) { distance = d; best = index; }
  });
  return best === null ? null : layout.names[best];
}

// The screen position of a cell's centre (used by scripts/browser/gui_browser_check.sh to click).
GUI.cellPoint = (name) => {
  const layout = GUI.layouts[layoutKey(GUI.state)];
  const svg = $("board").querySelector("svg");
  const [x, y] = layout.points[layout.index.get(name)];
  const screen = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
  return { x: screen.x, y: screen.y };
};

function onBoardClick(event, layout, svg) {
  // A board of an earlier game still on screen while the new one's layout loads.
  if (layout !== GUI.layouts[layoutKey(GUI.state)]) return;
  const cell = cellAt(event, layout, svg);
  if (cell === null || !humanToMove() || GUI.busy) return;
  const state = GUI.state;
  if (state.variant === "catchup") return pickStone(cell, layout);
  if (state.variant === "cheversi") return pickSquare(cell);
  pickPathCell(cell);
}

function pickStone(cell, layout) {
  const state = GUI.state;
  const at = GUI.selection.indexOf(cell);
  if (at >= 0) GUI.selection.splice(at, 1);
  else if (state.frame.contents[layout.index.get(cell)] === "." && GUI.selection.length < state.stones_allowed) {
    GUI.selection.push(cell);
  }
  redraw();
}

function pickSquare(cell) {
  const kinds = GUI.state.legal.filter((move) => move.slice(1) === cell).map((move) => move[0]);
  if (GUI.piece !== null && kinds.includes(GUI.piece)) return play(GUI.piece + cell);
  if (kinds.length === 1) return play(kinds[0] + cell);
  GUI.piece = null;
  GUI.selection = kinds.length > 0 ? [cell] : [];
  redraw();
}

function pickPathCell(cell) {
  const state = GUI.state;
  const paths = state.legal.map((move) => [move, moveCells(state.variant, move)]);
  const next = GUI.selection.concat([cell]);
  const extending = paths.filter(([, cells]) => cells.length >= next.length && next.every((c, i) => cells[i] === c));
  if (extending.length > 0) {
    const exact = extending.filter(([, cells]) => cells.length === next.length);
    if (exact.length === 1 && extending.length === 1) return play(exact[0][0]);
    GUI.selection = next;
  } else if (GUI.selection.length > 0 && cell === GUI.selection[GUI.selection.length - 1]) {
    // A click on the last cell again ends a move that could go on.
    const exact = paths.filter(([, cells]) => cells.length === GUI.selection.length &&
      GUI.selection.every((c, i) => cells[i] === c));
    if (exact.length === 1) return play(exact[0][0]);
  } else if (paths.some(([, cells]) => cells[0] === cell)) {
    GUI.selection = [cell];
  } else {
    GUI.selection = [];
  }
  redraw();
}

async function play(move) {
  GUI.selection = [];
  GUI.piece = null;
  await post("/api/move", { move });
}

function redraw() {
  drawBoard().catch((error) => showError("cannot draw the board: " + error.message));
  renderPicker();
}

// True when `value` differs from the last one drawn under `name`: panels are rebuilt
// only then, so a button is never replaced under a click.
function changed(name, value) {
  const key = JSON.stringify(value);
  GUI.drawn = GUI.drawn || {};
  if (GUI.drawn[name] === key) return false;
  GUI.drawn[name] = key;
  return true;
}

function renderPicker() {
  const state = GUI.state;
  if (!changed("picker", [state.position_id, GUI.selection, GUI.piece, humanToMove(), state.legal.length])) return;
  const picker = $("picker");
  picker.replaceChildren();
  if (!humanToMove()) return;
  const button = (text, action, extra) => {
    const node = document.createElement("button");
    node.textContent = text;
    if (extra) node.className = extra;
    node.addEventListener("click", action);
    picker.appendChild(node);
    return node;
  };
  if (state.variant === "catchup") {
    const count = GUI.selection.length;
    const end = button("End turn (" + count + " of up to " + state.stones_allowed + ")", () => {
      if (count >= 1) play(GUI.selection.join(","));
    });
    end.id = "end-turn";
    end.disabled = count < 1;
    button("Clear", () => { GUI.selection = []; redraw(); });
  } else if (state.variant === "cheversi") {
    const square = GUI.selection[0];
    const kinds = new Set(state.legal.filter((move) => square === undefined || move.slice(1) === square)
      .map((move) => move[0]));
    for (const kind of ["K", "Q", "R", "B", "N"]) {
      if (!kinds.has(kind)) continue;
      const node = button(PIECES[kind], () => {
        if (square !== undefined) return play(kind + square);
        GUI.piece = GUI.piece === kind ? null : kind;
        redraw();
      }, "piece" + (GUI.piece === kind ? " chosen" : ""));
      node.dataset.piece = kind;
      node.title = { K: "King", Q: "Queen", R: "Rook", B: "Bishop", N: "Knight" }[kind];
    }
  } else if (GUI.selection.length > 0) {
    button("Clear", () => { GUI.selection = []; redraw(); });
  }
}

// ---- the panels ----

// The lines of the last report, best first: each with its colour and number (as on the
// board), its score (an exact one marked "exact"), depth, nodes and moves.
function renderRankedLines(ranked) {
  const table = document.createElement("table");
  table.className = "ranked";
  const head = table.insertRow();
  for (const title of ["line", "score (side to move)", "depth", "nodes", "pv"]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.appendChild(cell);
  }
  ranked.forEach((line, index) => {
    const row = table.insertRow();
    const number = document.createElement("span");
    number.className = "swatch";
    number.style.background = LINE_COLOURS[index % LINE_COLOURS.length];
    number.textContent = String(index + 1);
    row.insertCell().appendChild(number);
    const score = row.insertCell();
    score.className = "score";
    score.textContent = line.exact_text ?? line.score_text ?? "";
    if (line.exact !== null) {
      const badge = document.createElement("span");
      badge.className = "exact";
      badge.textContent = "exact";
      badge.title = "proven " + line.exact + " (not an estimate)";
      score.appendChild(badge);
    }
    row.insertCell().textContent = line.depth === null ? "" : line.depth + (line.seldepth ? "/" + line.seldepth : "");
    row.insertCell().textContent = line.nodes ?? "";
    const pv = row.insertCell();
    pv.className = "pv";
    pv.textContent = line.pv.join(" ");
  });
  return table;
}

function renderAnalysis() {
  const state = GUI.state;
  const box = $("analysis");
  if (document.activeElement !== $("lines")) $("lines").value = String(state.analysis_lines);
  const ranked = rankedLines();
  if (ranked.length > 0) {
    const title = document.createElement("div");
    title.textContent = (state.search.purpose === "analysis" ? "Analysis" : "Search for the move") +
      " by " + state.engines[state.search.engine].name;
    box.replaceChildren(title, renderRankedLines(ranked));
    return;
  }
  const lines = state.search.lines.filter((line) => line.depth !== null || line.score !== null);
  if (lines.length === 0 || !state.search.current) { box.replaceChildren(); return; }
  const table = document.createElement("table");
  const head = table.insertRow();
  for (const title of ["depth", "score (side to move)", "nodes", "nps", "pv"]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.appendChild(cell);
  }
  for (const line of lines.slice(-8).reverse()) {
    const row = table.insertRow();
    const values = [line.depth === null ? "" : line.depth + (line.seldepth ? "/" + line.seldepth : ""),
      line.score_text ?? "", line.nodes ?? "", line.nps ?? "", line.pv.join(" ")];
    values.forEach((value, index) => {
      const cell = row.insertCell();
      cell.textContent = value;
      if (index === 4) cell.className = "pv";
    });
  }
  const title = document.createElement("div");
  title.textContent = (state.search.purpose === "analysis" ? "Analysis" : "Search for the move") +
    " by " + state.engines[state.search.engine].name;
  box.replaceChildren(title, table);
}

function renderEngines() {
  if (!changed("engines", [GUI.state.engines, GUI.state.eval])) return;
  const box = $("engines");
  box.replaceChildren();
  GUI.state.engines.forEach((engine, index) => {
    const line = document.createElement("div");
    const text = document.createElement("span");
    text.textContent = engine.name + ": " + engine.status + (engine.pid ? " (pid " + engine.pid + ")" : "") +
      (engine.problem ? ": " + engine.problem : "");
    if (engine.status === "failed") text.className = "failed";
    const restart = document.createElement("button");
    restart.textContent = "Restart";
    restart.dataset.engine = String(index);
    restart.addEventListener("click", () => post("/api/restart", { engine: index }));
    line.append(text, " ", restart);
    box.appendChild(line);
  });
  const evaluation = GUI.state.eval;
  $("eval-lines").textContent = evaluation && evaluation.current ? evaluation.lines.join("\n") : "";
}

function renderMoves() {
  const state = GUI.state;
  if (!changed("moves", [state.moves, state.redo, state.position, state.paused])) return;
  const list = $("moves");
  list.replaceChildren();
  const all = state.moves.concat(state.redo);
  all.forEach((move, index) => {
    const item = document.createElement("li");
    item.textContent = move;
    if (index >= state.moves.length) item.className = "redo";
    if (index === state.moves.length - 1) item.className = "current";
    item.addEventListener("click", () => {
      const target = index + 1, now = GUI.state.moves.length;
      if (target < now) post("/api/undo", { count: now - target });
      else if (target > now) post("/api/redo", { count: target - now });
    });
    list.appendChild(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  $("position").value = state.position;
  $("undo").disabled = state.moves.length === 0;
  $("to-start").disabled = state.moves.length === 0;
  $("redo").disabled = state.redo.length === 0;
  $("to-end").disabled = state.redo.length === 0;
  $("resume").hidden = !state.paused;
}

function clockText(ms) {
  const seconds = Math.max(0, ms) / 1000;
  const minutes = Math.floor(seconds / 60);
  return minutes + ":" + (seconds - minutes * 60).toFixed(1).padStart(4, "0");
}

function renderClocks() {
  const state = GUI.state;
  const box = $("clocks");
  if (!state || !state.clocks) { box.replaceChildren(); return; }
  const passed = performance.now() - GUI.receivedAt;
  const spans = ["white", "black"].map((colour) => {
    const span = document.createElement("span");
    const running = state.clocks.running === colour;
    span.textContent = colour + " " + clockText(state.clocks[colour] - (running ? passed : 0));
    if (running) span.className = "running";
    return span;
  });
  box.replaceChildren(...spans);
}

function renderMessages() {
  const list = $("messages");
  list.replaceChildren();
  for (const text of (GUI.state ? GUI.state.messages : []).slice(-6)) {
    const item = document.createElement("li");
    item.textContent = text;
    list.appendChild(item);
  }
  for (const text of GUI.errors) {
    const item = document.createElement("li");
    item.textContent = text;
    item.className = "error";
    list.appendChild(item);
  }
}

function seatLabel(seat) {
  if (seat === "human") return "a person";
  return GUI.state.engines[Number(seat.slice(6))].name;
}

function renderStatus() {
  const state = GUI.state;
  let text;
  if (state.result) {
    const winner = state.result.winner ? state.result.winner[0].toUpperCase() + state.result.winner.slice(1) + " wins" : "Draw";
    text = "Game over: " + winner + " (" + state.result.reason + ")";
  } else {
    const seat = state.to_move === "white" ? state.seats[0] : state.seats[1];
    text = (state.to_move === "white" ? "White" : "Black") + " to move (" + seatLabel(seat) + ")";
    if (state.paused) text += ", engines paused";
    else if (seat !== "human") {
      const engine = state.engines[Number(seat.slice(6))];
      text += ", " + engine.status;
    }
  }
  $("status").textContent = text;
  $("result").textContent = state.result ? text : "";
}

function fillForm(state) {
  const seats = ["white", "black"];
  for (const id of seats) {
    const select = $(id);
    select.replaceChildren();
    const options = ["human"].concat(state.engines.map((_, index) => "engine" + index));
    for (const value of options) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value === "human" ? "a person" : state.engines[Number(value.slice(6))].name;
      select.appendChild(option);
    }
  }
  if (GUI.formFilled) return;
  GUI.formFilled = true;
  $("variant").value = state.variant;
  fillSizes(state.side, state.parameters);
  $("white").value = state.seats[0];
  $("black").value = state.seats[1];
  const game = gameNamed(state.variant);
  if (game) fillStrengths(game, state.strength);
  for (const kind of ["movetime", "nodes", "depth", "clock"]) {
    if (state.limits[kind] !== null) { $("limit-kind").value = kind; $("limit-value").value = state.limits[kind]; break; }
  }
}

function gameNamed(name) { return GUI.games.find((game) => game.name === name); }

function fillVariants() {
  const select = $("variant");
  select.replaceChildren();
  for (const game of GUI.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    select.appendChild(option);
  }
}

// The board sides and the parameters of the chosen game; `values` keeps earlier choices.
function fillSizes(chosen, values) {
  const game = gameNamed($("variant").value);
  if (!game) return;
  const [low, high] = game.sizes;
  const select = $("size");
  select.replaceChildren();
  for (let side = low; side <= high; side++) {
    const option = document.createElement("option");
    option.value = String(side);
    option.textContent = String(side);
    select.appendChild(option);
  }
  select.value = String(chosen >= low && chosen <= high ? chosen : game.default_size);
  const box = $("parameters");
  box.replaceChildren();
  for (const parameter of game.parameters) {
    const label = document.createElement("label");
    label.textContent = parameter.title + " ";
    const choice = document.createElement("select");
    choice.dataset.option = parameter.option;
    for (const value of parameter.values) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value;
      choice.appendChild(option);
    }
    if (values && values[parameter.option]) choice.value = values[parameter.option];
    label.appendChild(choice);
    box.appendChild(label);
  }
  fillStrengths(game);
}

// The strength choices of the engine seats: full strength, or one of the game's levels by
// its Elo (sent to the engine as UCI_LimitStrength and UCI_Elo).
function fillStrengths(game, chosen) {
  ["white-strength", "black-strength"].forEach((id, index) => {
    const select = $(id);
    const previous = chosen ? String(chosen[index] === null ? "full" : chosen[index]) : select.value;
    select.replaceChildren();
    const full = document.createElement("option");
    full.value = "full";
    full.textContent = "full strength";
    select.appendChild(full);
    (game.levels || []).forEach((elo, level) => {
      const option = document.createElement("option");
      option.value = String(elo);
      option.textContent = "level " + (level + 1) + " (Elo " + elo + ")";
      select.appendChild(option);
    });
    select.value = [...select.options].some((option) => option.value === previous) ? previous : "full";
  });
}

function strengthFields() {
  return { white_strength: $("white-strength").value, black_strength: $("black-strength").value };
}

function parameterValues() {
  const values = {};
  for (const choice of $("parameters").querySelectorAll("select")) values[choice.dataset.option] = choice.value;
  return values;
}

function render(state) {
  if (GUI.state && state.version < GUI.state.version) return;
  const changed = !GUI.state || GUI.state.position_id !== state.position_id;
  GUI.state = state;
  GUI.receivedAt = performance.now();
  if (changed) { GUI.selection = []; GUI.piece = null; }
  if (!GUI.formFilled || $("white").options.length !== state.engines.length + 1) fillForm(state);
  redraw();
  renderMoves();
  renderStatus();
  renderAnalysis();
  renderEngines();
  renderClocks();
  renderMessages();
}

function limitFields() {
  const kind = $("limit-kind").value;
  const text = $("limit-value").value.trim();
  if (kind === "clock") return { clock: text };
  return { [kind]: Number(text) };
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (error) {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

function readLoadFile(file) {
  const reader = new FileReader();
  reader.onload = () => {
    const text = String(reader.result);
    const games = text.trim().startsWith("{")
      ? text.split("\n").filter((line) => line.trim() !== "")
      : text.split(/\n(?=\[Event )/).filter((game) => game.trim() !== "");
    const choice = $("load-choice");
    choice.replaceChildren();
    games.forEach((game, index) => {
      const option = document.createElement("option");
      option.value = String(index);
      const white = /"white":"([^"]*)"|\[White "([^"]*)"\]/.exec(game);
      option.textContent = "game " + (index + 1) + (white ? " (White " + (white[1] || white[2]) + ")" : "");
      choice.appendChild(option);
    });
    GUI.loaded = games;
    $("load-text").value = games[0] || "";
  };
  reader.readAsText(file);
}

async function loadGames() {
  for (;;) {
    try {
      const response = await fetch("/api/games");
      const games = await response.json();
      if (!response.ok) throw new Error(games.error || response.statusText);
      GUI.games = games;
      fillVariants();
      return;
    } catch (error) {
      $("status").textContent = "the server does not answer (" + error.message + "); retrying";
      await sleep(1000);
    }
  }
}

async function setup() {
  $("variant").addEventListener("change", () => fillSizes(0, parameterValues()));
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const request = {
      variant: $("variant").value, size: Number($("size").value), parameters: parameterValues(),
      white: $("white").value, black: $("black").value, ...limitFields(), ...strengthFields(),
    };
    const fen = $("fen").value.trim();
    if (fen !== "") request.fen = fen;
    post("/api/new", request);
  });
  $("apply").addEventListener("click", () =>
    post("/api/settings", { white: $("white").value, black: $("black").value, ...limitFields(), ...strengthFields() }));
  $("undo").addEventListener("click", () => post("/api/undo", { count: 1 }));
  $("redo").addEventListener("click", () => post("/api/redo", { count: 1 }));
  $("to-start").addEventListener("click", () => post("/api/undo", { count: GUI.state.moves.length }));
  $("to-end").addEventListener("click", () => post("/api/redo", { count: GUI.state.redo.length }));
  $("resume").addEventListener("click", () => post("/api/resume"));
  $("analyse").addEventListener("click", () => post("/api/analyse"));
  $("stop").addEventListener("click", () => post("/api/stop"));
  $("eval").addEventListener("click", () => post("/api/eval"));
  $("lines").addEventListener("change", () => post("/api/lines", { lines: Number($("lines").value) }));
  $("copy-position").addEventListener("click", () => copy(GUI.state.position));
  $("copy-moves").addEventListener("click", () => copy(GUI.state.moves.join(" ")));
  $("load-file").addEventListener("change", (event) => { if (event.target.files[0]) readLoadFile(event.target.files[0]); });
  $("load-choice").addEventListener("change", () => { $("load-text").value = GUI.loaded[Number($("load-choice").value)] || ""; });
  $("load").addEventListener("click", () => post("/api/load", { text: $("load-text").value }));
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "TEXTAREA" || !GUI.state) return;
    if (event.key === "ArrowLeft" && GUI.state.moves.length > 0) post("/api/undo", { count: 1 });
    if (event.key === "ArrowRight" && GUI.state.redo.length > 0) post("/api/redo", { count: 1 });
    if (event.key === "Escape") { GUI.selection = []; GUI.piece = null; redraw(); }
  });
  setInterval(renderClocks, 200);
  await loadGames();
  poll();
}

setup();
