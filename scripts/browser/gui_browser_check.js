// Drives headless Chromium over the DevTools protocol for gui_browser_check.sh: starts
// `tessera gui`, and in every variant plays one whole game as a person against Tessera at
// the game's weakest strength level (chosen in the page's form), by clicking (cells with
// real mouse events; Cheversi's piece buttons, Catchup's "End turn"), asks for analysis in
// three lines once, then analyses one position near the end per game whose lines carry
// exact values, and saves screenshots. Any JavaScript exception,
// console error or failed request fails the check, and so does a click that makes no move.
// Usage: node --experimental-websocket gui_browser_check.js CHROMIUM TESSERA OUTDIR
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require(path.join(__dirname, "devtools.js"));
const readline = require("readline");

const [chromium, tessera, outDir] = process.argv.slice(2);
const problems = [];
const fail = (text) => { problems.push(text); console.error("FAIL: " + text); };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer() {
  const child = spawn(tessera, ["gui"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error("tessera gui printed no address")), 30000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      const found = /^listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line);
      if (found) resolve({ child, url: found[1] });
      else reject(new Error("unexpected first line: " + line));
    });
    child.on("exit", (code) => reject(new Error("tessera gui exited with " + code)));
  });
}

// A small seeded generator, so a failing game can be played again.
let seed = 20261125;
function random(count) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % count;
}

async function main() {
  const server = await startServer();
  const browser = await launch(chromium);
  try {
    const { send, evaluate, resize: desktop } = await openPage(browser, fail, { width: 1300, height: 1100, echoConsole: false });
    const screenshot = async (file) => {
      const { data } = await send("Page.captureScreenshot", { format: "png" });
      fs.writeFileSync(path.join(outDir, file), Buffer.from(data, "base64"));
      console.log("saved " + path.join(outDir, file));
    };
    const clickAt = async (x, y) => {
      for (const type of ["mouseMoved", "mousePressed", "mouseReleased"]) {
        await send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
      }
    };
    const clickElement = async (selector) => {
      const point = await evaluate(`(() => { const node = document.querySelector(${JSON.stringify(selector)});
        if (!node || node.disabled || node.offsetParent === null) return null;
        node.scrollIntoView({ block: "center" });
        const box = node.getBoundingClientRect(); return { x: box.x + box.width / 2, y: box.y + box.height / 2 }; })()`);
      if (point === null) throw new Error("nothing to click at " + selector);
      await clickAt(point.x, point.y);
    };
    const clickCell = async (name) => {
      await evaluate("window.scrollTo(0, 0)");
      const point = await evaluate(`GUI.cellPoint(${JSON.stringify(name)})`);
      await clickAt(point.x, point.y);
      await sleep(15);
    };
    const waitFor = async (what, expression, limitMs) => {
      const deadline = Date.now() + limitMs;
      while (Date.now() < deadline) {
        if (await evaluate(expression)) return;
        await sleep(40);
      }
      // What the page held then, to find the cause of a rare failure.
      const held = await evaluate(`JSON.stringify({ moves: GUI.state.moves.length, legal: GUI.state.legal.length,
        selection: GUI.selection, piece: GUI.piece, busy: GUI.busy, engines: GUI.state.engines.map((engine) => engine.status),
        ranked: GUI.state.search.ranked.map((line) => [line.multipv, line.pv[0], line.exact]),
        marks: document.querySelectorAll('#overlay .line-mark').length, messages: GUI.state.messages.slice(-3), errors: GUI.errors,
        position: GUI.state.position_id, drawn: document.getElementById("board").dataset.drawn, seats: GUI.state.seats, toMove: GUI.state.to_move })`);
      throw new Error("timed out waiting for " + what + " (" + held + ")");
    };

    // Analysis in three lines: the list, best first, and each line's first move on the
    // board in its colour and number; with `exact`, every line's score marked exact.
    const analyse = async (file, exact) => {
      await evaluate(`(() => { const node = document.getElementById("lines"); node.value = "3"; node.dispatchEvent(new Event("change")); })()`);
      await waitFor("three lines asked for", "GUI.state.analysis_lines === 3", 5000);
      await clickElement("#analyse");
      const wanted = exact ? " && GUI.state.search.ranked.every((line) => line.exact !== null) && document.querySelectorAll('#analysis .exact').length === GUI.state.search.ranked.length" : "";
      // As many lines as there are legal moves, up to three (a capture may be forced).
      const lines = exact ? "GUI.state.search.ranked.length >= 1" : "GUI.state.search.ranked.length === (GUI.state.variant === 'catchup' ? 3 : Math.min(3, GUI.state.legal.length))";
      await waitFor("analysis in three lines" + (exact ? ", exact" : ""), "GUI.state.search.purpose === 'analysis' && GUI.state.search.current && " + lines + wanted + " && document.querySelectorAll('#analysis .swatch').length === GUI.state.search.ranked.length && (GUI.state.search.ranked.length === 1 || document.querySelectorAll('#overlay .line-mark').length >= GUI.state.search.ranked.length)", 60000);
      await sleep(300);
      await screenshot(file);
      const shown = await evaluate("[...document.querySelectorAll('#analysis table.ranked tr')].slice(1).map((row) => row.textContent).join(' | ')");
      console.log(file + ": " + shown);
      await clickElement("#stop");
      await waitFor("the analysis stopped", "GUI.state.engines[0].status === 'ready' && !GUI.state.analysing", 30000);
    };

    await send("Page.navigate", { url: server.url });
    await waitFor("the first state", "typeof GUI === 'object' && GUI.state !== null && document.querySelector('#board svg') !== null", 30000);

    // GUI_CHECK_VARIANTS=catchup,kruzno plays only those (to look into one failure).
    const only = (process.env.GUI_CHECK_VARIANTS || "").split(",").filter((name) => name !== "");
    const variants = [["cheversi", 8], ["kruzno", 6], ["hexcheckers", 9], ["catchup", 5]]
      .filter(([name]) => only.length === 0 || only.includes(name));
    for (const [variant, side] of variants) {
      const started = Date.now();
      await evaluate(`(() => {
        const set = (id, value) => { const node = document.getElementById(id); node.value = value; node.dispatchEvent(new Event("change")); };
        set("variant", ${JSON.stringify(variant)}); set("size", "${side}");
        set("white", "human"); set("black", "engine0"); set("limit-kind", "nodes"); set("limit-value", "300");
      })()`);
      // The engine plays at the game's weakest strength level (its Elo from the table).
      const elo = await evaluate(`(() => {
        const select = document.getElementById("black-strength");
        if (select.options.length < 2) return null;
        select.value = select.options[1].value;
        return Number(select.value);
      })()`);
      if (elo === null) fail(variant + ": no strength levels offered");
      await clickElement("#start");
      await waitFor(variant + " started", `GUI.state.variant === ${JSON.stringify(variant)} && GUI.state.moves.length === 0 && GUI.state.side === ${side}`, 30000);
      await waitFor(variant + " against a level", `GUI.state.strength[1] === ${elo} && GUI.state.strength[0] === null`, 5000);
      if (variant === "cheversi") await screenshot("strength-choice.png");
      let plies = 0;
      let analysed = false;
      let phoneShot = false;
      for (;;) {
        await waitFor("a person's turn or the end", "GUI.state.result !== null || (GUI.state.seats[GUI.state.to_move === 'white' ? 0 : 1] === 'human' && !GUI.busy && document.getElementById('board').dataset.drawn === GUI.state.variant + '/' + GUI.state.side + '/' + GUI.state.position_id)", 120000);
        const state = await evaluate("GUI.state");
        if (state.result !== null) break;
        if (state.moves.length === 6 && !analysed) {
          analysed = true;
          await analyse(variant + "-analysis.png", false);
        }
        const before = state.moves.length;
        if (variant === "catchup") {
          const layout = await evaluate("GUI.layouts[GUI.state.variant + '/' + GUI.state.side].names");
          const empty = layout.filter((name, index) => state.frame.contents[index] === ".");
          const count = 1 + random(Math.min(state.stones_allowed, empty.length));
          const chosen = [];
          while (chosen.length < count) {
            const cell = empty[random(empty.length)];
            if (!chosen.includes(cell)) chosen.push(cell);
          }
          for (const cell of chosen) await clickCell(cell);
          await waitFor("the stones " + chosen.join(",") + " picked", `GUI.selection.length === ${count}`, 5000)
            .catch(async (error) => { throw new Error(error.message + ", picked: " + await evaluate("GUI.selection.join(',')")); });
          await clickElement("#end-turn");
        } else {
          const move = state.legal[random(state.legal.length)];
          if (variant === "cheversi") {
            await clickElement(`#picker button[data-piece="${move[0]}"]`);
            await clickCell(move.slice(1));
          } else {
            for (const cell of move.split(/[-x]/)) await clickCell(cell);
          }
        }
        await waitFor("the clicked move played", `GUI.state.moves.length > ${before} || GUI.state.result !== null`, 10000);
        plies = (await evaluate("GUI.state.moves.length"));
        if (plies >= 2 && variant === "kruzno" && !phoneShot) {
          phoneShot = true;
          await send("Emulation.setDeviceMetricsOverride", { width: 400, height: 860, deviceScaleFactor: 1, mobile: true });
          await sleep(300);
          await screenshot("phone.png");
          await desktop();
          await sleep(200);
        }
      }
      const final = await evaluate("GUI.state");
      const shown = await evaluate("document.getElementById('result').textContent");
      if (!shown.startsWith("Game over")) fail(variant + ": the page does not show the result (" + shown + ")");
      await screenshot(variant + "-end.png");
      console.log(variant + " against level 1 (Elo " + elo + "): " + final.moves.length + " plies, " + shown + " (" +
        ((Date.now() - started) / 1000).toFixed(1) + " s)");
    }
    // Exact values near the end: Cheversi 7 placements before the end (the solver),
    // a hex checkers ending the built-in tables cover, a Catchup position the MCTS-solver
    // proves; a person on both seats, so nobody moves.
    const exactPositions = [
      ["cheversi", 8, "8/8/8/8/3b4/3n4/1RbqBQ2/2R1K3 b e2"],
      ["hexcheckers", 4, "4/5/5W/6B/4W1/5/4 w - 0 40"],
      ["catchup", 3, "WWB/BBW1/WB1W1/1BBW/WB1 w 2"],
    ].filter(([name]) => only.length === 0 || only.includes(name));
    for (const [variant, side, fen] of exactPositions) {
      await evaluate(`(() => {
        const set = (id, value) => { const node = document.getElementById(id); node.value = value; node.dispatchEvent(new Event("change")); };
        set("variant", ${JSON.stringify(variant)}); set("size", "${side}");
        set("white", "human"); set("black", "human"); set("fen", ${JSON.stringify(fen)});
      })()`);
      await clickElement("#start");
      await waitFor(variant + " position set", `GUI.state.variant === ${JSON.stringify(variant)} && GUI.state.side === ${side} && GUI.state.moves.length === 0 && document.getElementById('board').dataset.drawn === GUI.state.variant + '/' + GUI.state.side + '/' + GUI.state.position_id`, 30000);
      await analyse(variant + "-exact.png", true);
    }
    await evaluate(`document.getElementById("fen").value = ""`);
  } finally {
    browser.child.kill();
    server.child.kill();
    await sleep(300);
    try { fs.rmSync(browser.profile, { recursive: true, force: true }); } catch (error) { /* Chromium may still be writing */ }
  }
  if (problems.length > 0) {
    console.error(problems.length + " problem(s)");
    process.exit(1);
  }
  console.log("browser check passed");
}

main().catch((error) => { console.error("FAIL: " + error.message); process.exit(1); });
