// Headless Chromium over the DevTools protocol, shared by the browser checks
// (gui_browser_check.js, report_browser_check.js): start it with a fresh profile, and
// connect to its DevTools socket (needs node --experimental-websocket).
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const os = require("os");

/// Starts `chromium` headless; resolves to { child, url, profile } once DevTools listens.
function launch(chromium) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-chromium-"));
  const child = spawn(chromium, [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank",
  ], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error("Chromium did not start: " + seen)), 30000);
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (found) { clearTimeout(timer); resolve({ child, url: found[1], profile }); }
    });
    child.on("exit", (code) => reject(new Error("Chromium exited with " + code + ": " + seen)));
  });
}

function connect(url) {
  const socket = new WebSocket(url);
  let next = 1;
  const waiting = new Map();
  const listeners = [];
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id && waiting.has(message.id)) {
      const { resolve, reject } = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
    } else if (message.method) {
      listeners.forEach((listener) => listener(message));
    }
  };
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject });
    socket.send(JSON.stringify({ id, method, params, sessionId }));
  });
  return new Promise((resolve, reject) => {
    socket.onopen = () => resolve({ send, on: (listener) => listeners.push(listener), socket });
    socket.onerror = () => reject(new Error("cannot connect to " + url));
  });
}

// A fresh page in `browser`, sized `width` x `height`, whose JavaScript exceptions,
// console errors and browser log errors go to `fail` (other console lines are echoed
// when `echoConsole`). Returns the page's `send` and an `evaluate` that returns the
// expression's value and throws on an exception: what every browser check needs first.
async function openPage(browser, fail, { width, height, echoConsole }) {
  const cdp = await connect(browser.url);
  const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true });
  const send = (method, params) => cdp.send(method, params, sessionId);
  cdp.on((message) => {
    if (message.sessionId !== sessionId) return;
    if (message.method === "Runtime.exceptionThrown") {
      const details = message.params.exceptionDetails;
      fail("JavaScript exception: " + (details.exception ? details.exception.description : details.text));
    } else if (message.method === "Runtime.consoleAPICalled") {
      const words = message.params.args.map((arg) => arg.value !== undefined ? arg.value : arg.description).join(" ");
      if (message.params.type === "error" || message.params.type === "assert") fail("console error: " + words);
      else if (echoConsole) console.log("console: " + words);
    } else if (message.method === "Log.entryAdded" && message.params.entry.level === "error") {
      fail("browser log error: " + message.params.entry.text);
    }
  });
  await send("Runtime.enable");
  await send("Log.enable");
  await send("Page.enable");
  const resize = () => send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
  await resize();
  const evaluate = async (expression) => {
    const result = await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (result.exceptionDetails) throw new Error("evaluate " + expression + ": " + result.exceptionDetails.text);
    return result.result.value;
  };
  return { send, evaluate, resize };
}

module.exports = { launch, connect, openPage };
