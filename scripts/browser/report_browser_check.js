// Drives headless Chromium over the DevTools protocol for report_browser_check.sh:
// opens a report, runs its self-test (draw.js against the Rust drawings), steps through
// a game with the arrow keys and buttons, filters and sorts the list, and saves
// screenshots. Any JavaScript exception or console error fails the check.
// Usage: node --experimental-websocket report_browser_check.js CHROMIUM REPORT.html OUTDIR
"use strict";
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require(path.join(__dirname, "devtools.js"));

const [chromium, reportFile, outDir] = process.argv.slice(2);
const problems = [];
const fail = (text) => { problems.push(text); console.error("FAIL: " + text); };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const browser = await launch(chromium);
  try {
    const { send, evaluate } = await openPage(browser, fail, { width: 1300, height: 1000, echoConsole: true });
    const started = Date.now();
    await send("Page.navigate", { url: "file://" + path.resolve(reportFile) + "#selftest" });
    let ready = false;
    for (let attempt = 0; attempt < 600 && !ready; attempt++) {
      await sleep(100);
      ready = await evaluate("document.body !== null && document.body.dataset.ready === 'yes'").catch(() => false);
    }
    const loadMs = Date.now() - started;
    if (!ready) throw new Error("the page never became ready");
    const readyMs = await evaluate("Number(document.body.dataset.readyMs)");
    const rows = await evaluate("document.querySelectorAll('#game-list tbody tr').length");
    console.log("page of " + rows + " games ready " + readyMs + " ms after navigation by the page's clock (" +
      loadMs + " ms here): parsed, self-test done, first game drawn");
    const openMs = await evaluate("(() => { const t = performance.now(); return reportOpen(REPORT.games.length - 1, 0).then(() => Math.round(performance.now() - t)); })()");
    console.log("opening the last game took " + openMs + " ms");
    await evaluate("reportOpen(REPORT.games.findIndex((game) => game.data !== undefined), 0)");
    const selftest = await evaluate("document.body.dataset.selftest");
    if (selftest !== "pass") fail("self-test: " + selftest);
    else console.log("self-test passed: " + await evaluate("REPORT.checks.length") + " positions drawn by draw.js equal the Rust drawings");

    const screenshot = async (file, clip) => {
      const params = { format: "png", captureBeyondViewport: true };
      if (clip) params.clip = { ...clip, scale: 1 };
      const { data } = await send("Page.captureScreenshot", params);
      fs.writeFileSync(path.join(outDir, file), Buffer.from(data, "base64"));
      console.log("saved " + path.join(outDir, file));
    };
    const key = async (name, code) => {
      for (const type of ["rawKeyDown", "keyUp"]) {
        await send("Input.dispatchKeyEvent", { type, key: name, code: name, windowsVirtualKeyCode: code });
      }
    };
    const ply = () => evaluate("reportState.ply");

    // Step through the first game with the arrow keys, then the buttons.
    const frames = await evaluate("reportState.game.frames.length");
    if ((await ply()) !== 0) fail("a game opens at ply 0");
    for (let expected = 1; expected < frames; expected++) {
      await key("ArrowRight", 39);
      if ((await ply()) !== expected) { fail("ArrowRight should reach ply " + expected + ", got " + await ply()); break; }
      const current = await evaluate("(document.querySelector('#move-list tr.current') || {}).dataset?.ply");
      if (current !== String(expected)) { fail("move list highlights " + current + " at ply " + expected); break; }
    }
    await key("ArrowRight", 39);
    if ((await ply()) !== frames - 1) fail("ArrowRight past the end should stay at the last ply");
    await key("ArrowLeft", 37);
    if ((await ply()) !== frames - 2) fail("ArrowLeft should step back");
    await key("Home", 36);
    if ((await ply()) !== 0) fail("Home should go to ply 0");
    await evaluate("document.getElementById('next').click()");
    if ((await ply()) !== 1) fail("the > button should step forward");
    await evaluate("document.getElementById('last').click()");
    if ((await ply()) !== frames - 1) fail("the >| button should go to the end");
    console.log("stepped through game 1: " + frames + " positions by keys and buttons");

    // Filter and sort the list.
    const filtered = await evaluate(`(() => {
      const select = document.getElementById('filter-result');
      select.value = '1-0';
      select.dispatchEvent(new Event('input'));
      const shown = document.querySelectorAll('#game-list tbody tr:not(.hidden)').length;
      const expected = document.querySelectorAll('#game-list tbody tr[data-result="1-0"]').length;
      select.value = '';
      select.dispatchEvent(new Event('input'));
      return [shown, expected];
    })()`);
    if (filtered[0] !== filtered[1]) fail("filter by result shows " + filtered[0] + " rows, expected " + filtered[1]);
    const sorted = await evaluate(`(() => {
      document.querySelectorAll('#game-list th')[6].click();
      const plies = Array.from(document.querySelectorAll('#game-list tbody tr')).map((tr) => Number(tr.cells[6].textContent));
      return plies.every((value, index) => index === 0 || plies[index - 1] <= value);
    })()`);
    if (!sorted) fail("sorting by plies does not sort");

    // The whole report, then one position of every variant in the viewer.
    await evaluate("window.scrollTo(0, 0)");
    // The whole page, cut at 6000 px (a long game list would exceed the screenshot limit).
    const height = await evaluate("Math.min(6000, document.documentElement.scrollHeight)");
    await screenshot("report.png", { x: 0, y: 0, width: 1300, height });
    const variants = await evaluate("REPORT.variants");
    for (const variant of variants) {
      const index = await evaluate("REPORT.games.findIndex((game) => game.layout && game.layout.startsWith('" + variant + "/'))");
      if (index < 0) { fail("no game of " + variant + " in the report"); continue; }
      const count = await evaluate("reportOpen(" + index + ", 0).then(() => reportState.game.frames.length)");
      await evaluate("reportOpen(" + index + ", " + Math.floor(count * 2 / 3) + ")");
      const box = await evaluate(`(() => {
        const element = document.querySelector('#replay .viewer');
        element.scrollIntoView();
        const rect = element.getBoundingClientRect();
        return { x: rect.left + window.scrollX, y: rect.top + window.scrollY, width: rect.width, height: rect.height };
      })()`);
      await screenshot("position-" + variant + ".png", box);
    }
    await sleep(200);
  } finally {
    browser.child.kill("SIGTERM");
    await sleep(300);
    fs.rmSync(browser.profile, { recursive: true, force: true });
  }
}

main().then(() => {
  if (problems.length) { console.error(problems.length + " problem(s)"); process.exit(1); }
  console.log("browser check passed");
}, (error) => { console.error("FAIL: " + error.message); process.exit(1); });
