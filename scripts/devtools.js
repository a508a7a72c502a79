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

module.exports = { launch, connect };
