// The report page: game list (sort, filter), replay viewer (buttons, arrow keys), and a
// self-test (#selftest) that redraws the Rust-drawn check positions with draw.js and
// steps through a game, for scripts/browser/report_browser_check.sh.
(() => {
  const layouts = REPORT.layouts;
  const games = REPORT.games;
  const state = { index: -1, ply: 0, game: null };
  const cache = new Map();
  const $ = (id) => document.getElementById(id);

  async function unpack(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  // The packed games: line k of the plain-text element is packed game k.
  let packedText = null;
  let lineStarts = null;
  function packedGame(number) {
    if (packedText === null) {
      packedText = $("packed-games").textContent;
      lineStarts = [];
      let at = packedText.indexOf("\n") + 1;
      while (at > 0 && at < packedText.length) {
        lineStarts.push(at);
        at = packedText.indexOf("\n", at) + 1;
      }
    }
    const start = lineStarts[number];
    const end = packedText.indexOf("\n", start);
    return packedText.slice(start, end < 0 ? packedText.length : end);
  }

  async function load(index) {
    if (cache.has(index)) return cache.get(index);
    const entry = games[index];
    if (!entry || entry.data === undefined) throw new Error("game " + index + " cannot be replayed: " + (entry ? entry.problem : "no such game"));
    const raw = await unpack(packedGame(entry.data));
    const game = {
      layout: layouts[entry.layout],
      frames: [],
      moves: raw.moves, opening: raw.opening, times: raw.times, movers: raw.movers,
      white: raw.white, black: raw.black, problem: raw.problem,
    };
    // Frames after the first list only the cells that changed: [cell, letter, ...].
    let contents = [];
    for (const [change, marks, caption] of raw.frames) {
      if (typeof change === "string") contents = change.split("");
      else for (let at = 0; at < change.length; at += 2) contents[change[at]] = change[at + 1];
      game.frames.push({
        contents: contents.join(""),
        marks: marks.map(([kind, cells, labels]) => ({ kind, cells, labels })),
        caption,
      });
    }
    if (cache.size > 50) cache.clear();
    cache.set(index, game);
    return game;
  }

  // Moves after a replay problem are the record's raw text.
  function escapeHtml(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function row(index) {
    return document.querySelector('#game-list tr[data-index="' + index + '"]');
  }

  function moveList(game) {
    const body = $("move-list").tBodies[0];
    const used = [0, 0];
    const rows = [];
    game.moves.forEach((move, ply) => {
      const side = game.movers[ply] === "b" ? "Black" : "White";
      const engineMove = ply - game.opening;
      let time = "", total = "";
      if (engineMove >= 0 && engineMove < game.times.length) {
        const colour = side === "White" ? 0 : 1;
        used[colour] += game.times[engineMove];
        time = String(game.times[engineMove]);
        total = (used[colour] / 1000).toFixed(2);
      }
      rows.push('<tr data-ply="' + (ply + 1) + '"' + (engineMove < 0 ? ' class="opening"' : "") +
        "><td>" + (ply + 1) + "</td><td>" + side + "</td><td>" + escapeHtml(move) + "</td><td>" + time +
        "</td><td>" + total + "</td></tr>");
    });
    body.innerHTML = rows.join("");
  }

  function draw() {
    const game = state.game;
    if (!game) return;
    const frame = game.frames[state.ply];
    $("board").innerHTML = picture.draw(game.layout, frame);
    $("ply").textContent = "ply " + state.ply + " / " + (game.frames.length - 1);
    for (const current of document.querySelectorAll("#move-list tr.current")) current.classList.remove("current");
    const highlighted = document.querySelector('#move-list tr[data-ply="' + state.ply + '"]');
    if (highlighted) {
      highlighted.classList.add("current");
      const box = highlighted.closest(".moves");
      if (box) box.scrollTop = Math.max(0, highlighted.offsetTop - box.clientHeight / 2);
    }
  }

  async function open(index, ply) {
    const game = await load(index);
    state.index = index;
    state.game = game;
    state.ply = Math.max(0, Math.min(ply, game.frames.length - 1));
    for (const selected of document.querySelectorAll("#game-list tr.selected")) selected.classList.remove("selected");
    const selected = row(index);
    if (selected) selected.classList.add("selected");
    const number = selected ? selected.cells[0].textContent : String(index + 1);
    $("replay-title").textContent = "Game " + number + ": " + game.white + " (White) vs " + game.black +
      " (Black)" + (selected ? ", " + selected.cells[3].textContent + " by " + selected.cells[5].textContent : "") +
      (game.problem ? " (replay stops early: " + game.problem + ")" : "");
    moveList(game);
    draw();
  }

  function step(delta) {
    if (!state.game) return;
    state.ply = Math.max(0, Math.min(state.ply + delta, state.game.frames.length - 1));
    draw();
  }

  function visibleRows() {
    return Array.from(document.querySelectorAll("#game-list tbody tr:not(.hidden)"));
  }

  function otherGame(delta) {
    const rows = visibleRows();
    if (rows.length === 0) return Promise.resolve();
    const at = rows.findIndex((tr) => Number(tr.dataset.index) === state.index);
    const next = rows[Math.max(0, Math.min(rows.length - 1, at < 0 ? 0 : at + delta))];
    return open(Number(next.dataset.index), 0);
  }

  function filter() {
    const result = $("filter-result").value;
    const termination = $("filter-termination").value;
    const text = $("filter-text").value.toLowerCase();
    let shown = 0;
    for (const tr of $("game-list").tBodies[0].rows) {
      const visible = (!result || tr.dataset.result === result) &&
        (!termination || tr.dataset.termination === termination) &&
        (!text || tr.textContent.toLowerCase().includes(text));
      tr.classList.toggle("hidden", !visible);
      if (visible) shown++;
    }
    $("shown").textContent = shown + " games";
  }

  function sortBy(column, numeric) {
    const body = $("game-list").tBodies[0];
    const header = $("game-list").tHead.rows[0].cells[column];
    const descending = header.dataset.sorted === "ascending";
    for (const th of $("game-list").tHead.rows[0].cells) delete th.dataset.sorted;
    header.dataset.sorted = descending ? "descending" : "ascending";
    const key = (tr) => numeric ? Number(tr.cells[column].textContent) : tr.cells[column].textContent;
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      const order = x < y ? -1 : x > y ? 1 : Number(a.dataset.index) - Number(b.dataset.index);
      return descending ? -order : order;
    });
    body.append(...rows);
  }

  function report(error) {
    console.error(String(error && error.stack ? error.stack : error));
  }

  $("first").addEventListener("click", () => step(-1e9));
  $("previous").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => step(1e9));
  $("move-list").addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-ply]");
    if (tr && state.game) { state.ply = Number(tr.dataset.ply); draw(); }
  });
  $("game-list").tBodies[0].addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-index]");
    if (tr) open(Number(tr.dataset.index), 0).then(() => $("replay").scrollIntoView()).catch(report);
  });
  Array.from($("game-list").tHead.rows[0].cells).forEach((th, column) => {
    th.addEventListener("click", () => sortBy(column, th.dataset.type === "number"));
  });
  for (const id of ["filter-result", "filter-termination", "filter-text"]) $(id).addEventListener("input", filter);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const actions = {
      ArrowLeft: () => step(-1), ArrowRight: () => step(1),
      Home: () => step(-1e9), End: () => step(1e9),
      n: () => otherGame(1).catch(report), p: () => otherGame(-1).catch(report),
    };
    const action = actions[event.key];
    if (action) { event.preventDefault(); action(); }
  });

  // The self-test: every check position drawn by draw.js must equal the Rust drawing.
  async function selfTest() {
    const failures = [];
    for (const check of REPORT.checks) {
      const game = await load(check.game);
      const drawn = picture.draw(game.layout, game.frames[check.ply]);
      if (drawn !== check.svg) failures.push("game " + check.game + " ply " + check.ply + " differs from the Rust drawing");
    }
    return failures;
  }

  function fromHash() {
    const words = new URLSearchParams(location.hash.slice(1));
    return { game: words.get("game"), ply: words.get("ply"), selftest: words.has("selftest") };
  }

  async function start() {
    const wanted = fromHash();
    if (wanted.selftest) {
      const failures = await selfTest();
      document.body.dataset.selftest = failures.length ? "fail" : "pass";
      if (failures.length) failures.forEach((failure) => console.error("self-test: " + failure));
      else console.log("self-test: " + REPORT.checks.length + " check pictures equal");
    }
    const first = games.findIndex((game) => game.data !== undefined);
    if (wanted.game !== null) await open(Number(wanted.game), Number(wanted.ply || 0));
    else if (first >= 0) await open(first, 0);
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = "yes";
  }
  // For the browser check and the console: the viewer's state and a way to open a game.
  window.reportState = state;
  window.reportOpen = open;
  start().catch(report);
})();
