//! The HTTP side of `tessera gui` as the page speaks it, for the end-to-end tests: the
//! real binary started on 127.0.0.1, requests and replies (chunked bodies too), and the
//! state the page polls. The deadlines only stop a broken build from hanging.

// Each test crate that includes this uses a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tessera::game::{GameConfig, Variant};
use tessera::registry::AnyGame;

pub const TESSERA: &str = env!("CARGO_BIN_EXE_tessera");
/// Long enough for a loaded 2-core machine; reached only when something is broken.
pub const PATIENCE: Duration = Duration::from_secs(180);

pub struct Gui {
    pub child: Child,
    /// `127.0.0.1:PORT`
    pub address: String,
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Reply {
    pub status: u16,
    pub body: Value,
    /// The status line and headers.
    pub head: String,
}

/// A chunked HTTP body decoded.
pub fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|pair| pair == b"\r\n") else {
            return out;
        };
        let size_text = String::from_utf8_lossy(&data[..end]).to_string();
        let size = usize::from_str_radix(size_text.trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        data = &data[end + 2..];
        out.extend_from_slice(&data[..size.min(data.len())]);
        data = &data[(size + 2).min(data.len())..];
    }
}

impl Gui {
    pub fn start(arguments: &[&str]) -> Gui {
        let mut child = Command::new(TESSERA)
            .arg("gui")
            .args(arguments)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tessera gui starts");
        let stdout = child.stdout.take().expect("a pipe");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the listening line");
        let address = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Gui { child, address }
    }

    /// One request with the given Host and extra headers; the reply's status and JSON.
    pub fn raw(
        &self,
        method: &str,
        path: &str,
        host: &str,
        headers: &[&str],
        body: &[u8],
    ) -> Reply {
        let mut stream = send_request(&self.address, method, path, host, headers, body);
        read_reply(&mut stream)
    }

    pub fn get(&self, path: &str) -> Reply {
        self.raw("GET", path, &self.address.clone(), &[], b"")
    }

    pub fn post(&self, path: &str, body: Value) -> Reply {
        let text = body.to_string();
        self.raw(
            "POST",
            path,
            &self.address.clone(),
            &["Content-Type: application/json"],
            text.as_bytes(),
        )
    }

    pub fn state(&self) -> Value {
        let reply = self.get("/api/state");
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.body
    }

    /// Follows the state (long polls) until `done` holds.
    pub fn wait_for(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        let mut state = self.state();
        while !done(&state) {
            assert!(Instant::now() < deadline, "never saw {what}: {state}");
            let version = state["version"].as_u64().expect("a version");
            let reply = self.get(&format!("/api/state?after={version}"));
            assert_eq!(reply.status, 200, "{}", reply.body);
            state = reply.body;
        }
        state
    }
}

/// Connects and sends one request (`Connection: close`); the reply is still to be read.
pub fn send_request(
    address: &str,
    method: &str,
    path: &str,
    host: &str,
    headers: &[&str],
    body: &[u8],
) -> TcpStream {
    let mut stream = TcpStream::connect(address).expect("connect");
    // Only a broken server waits this long: a hang fails the test instead of blocking it.
    stream
        .set_read_timeout(Some(PATIENCE))
        .expect("a read timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for header in headers {
        head.push_str(header);
        head.push_str("\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).expect("write the head");
    // The server may refuse before reading the whole body.
    let _ = stream.write_all(body);
    stream
}

/// The reply on `stream`: its status and JSON body (`Null` when not JSON).
pub fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let split = answer
        .windows(4)
        .position(|four| four == b"\r\n\r\n")
        .expect("a complete answer");
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("a status");
    let mut content = answer[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        content = unchunk(&content);
    }
    let body = serde_json::from_slice(&content).unwrap_or(Value::Null);
    Reply { status, body, head }
}

pub fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|text| text.as_str().expect("a move").to_string())
        .collect()
}

pub fn engine_status(state: &Value) -> &str {
    state["engines"][0]["status"].as_str().unwrap_or("")
}

/// The game the state describes, replayed by the rules library.
pub fn replay(state: &Value) -> AnyGame {
    let variant: Variant = state["variant"]
        .as_str()
        .expect("a variant")
        .parse()
        .expect("known");
    let mut config = GameConfig {
        size: state["side"].as_u64().map(|side| side as usize),
        ..GameConfig::new(variant)
    };
    for (option, value) in state["parameters"].as_object().expect("the parameters") {
        let value = value.as_str().expect("a value");
        config
            .set_parameter(option, value)
            .expect("a parameter of the game");
    }
    let mut game = AnyGame::from_position_text(config, state["start"].as_str().expect("a start"))
        .expect("a valid start");
    for text in moves_of(state) {
        game.play_text(&text)
            .expect("every move on the table is legal");
    }
    game
}
