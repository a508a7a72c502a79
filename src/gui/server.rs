//! HTTP for `tessera gui`, on tiny_http: the page's files and a small JSON API.
//!
//! Every request is checked before anything else: its `Host` must be the address the
//! server listens on (a page on another site that rebinds its own name to 127.0.0.1 is
//! refused), a `POST` must carry JSON (`Content-Type: application/json`, which a foreign
//! page cannot send without asking first) from no other origin, and a body may not exceed
//! [`MAX_BODY`]. A request that fails a check, or asks for something impossible, gets an
//! error status and a JSON `{"error": ...}` and changes nothing.
//!
//! API (every answer is JSON; the state is [`super::table::Table::view`]):
//! - `GET /api/state[?after=V]`: the state; with `after`, waits (up to 10 s) until its
//!   version is above V, so the page follows engines live with one request at a time.
//!   A waiting poll holds no worker ([`super::polls`]): any number of open pages leave
//!   the workers to the other requests; past [`MAX_PARKED`] waiting polls, 503.
//! - `GET /api/games`: the games the page offers, from the registry: each one's name,
//!   title, board sides (`[low, high]`), default side and parameters (option, title,
//!   values, the default first) and the Elo of its engine's strength levels.
//! - `GET /api/layout?variant=NAME&side=N`: the board's drawing data.
//! - `POST /api/new`, `/api/settings`: a new game, or new seats and limits;
//!   `/api/move {"move"}`, `/api/undo {"count"}`, `/api/redo {"count"}`, `/api/resume`,
//!   `/api/stop`, `/api/analyse`, `/api/eval`, `/api/restart {"engine"}`,
//!   `/api/load {"text"}`, `/api/lines {"lines"}` (lines an analysis shows, 1 to 5: the
//!   engine's `MultiPV`; a running analysis starts again with them).

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response, Server};

use crate::game::Variant;
use crate::picture::layout;
use crate::registry::Registry;

use super::driver::Shared;
use super::polls::{self, Answer, MAX_PARKED, Polls};
use super::records::read_game;
use super::table::{EngineStatus, GameRequest, MAX_ANALYSIS_LINES};

/// The largest request body accepted (a game record of thousands of moves fits).
pub const MAX_BODY: usize = 256 * 1024;
/// Threads answering requests (a waiting long poll holds none of them).
const WORKERS: usize = 8;

const PAGE_HTML: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const PAGE_JS: &str = include_str!("page.js");

/// A bound server, not yet answering.
pub struct Listener {
    server: Arc<Server>,
    address: SocketAddr,
    /// `Host` values accepted: the address served (and `localhost` on a loopback address).
    hosts: Vec<String>,
    shared: Arc<Shared>,
    polls: Polls,
}

impl Listener {
    pub fn bind(host: IpAddr, port: u16, shared: Arc<Shared>) -> Result<Self, String> {
        let server = Server::http(SocketAddr::new(host, port))
            .map_err(|error| format!("cannot listen on {host}:{port}: {error}"))?;
        let address = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| "the server has no IP address".to_string())?;
        let mut hosts = vec![address.to_string()];
        if host.is_loopback() {
            hosts.push(format!("localhost:{}", address.port()));
        }
        Ok(Listener {
            server: Arc::new(server),
            address,
            hosts,
            shared,
            polls: Polls::new(),
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Answers requests until the server fails.
    pub fn serve(self) {
        let context = Arc::new(self);
        let writers = polls::start_writers(answer_poll);
        let keeper = Arc::clone(&context);
        let started = std::thread::Builder::new()
            .name("poll keeper".to_string())
            .spawn(move || {
                keeper.polls.keep(&keeper.shared, &|answer| {
                    // Without writer threads the keeper writes the answer itself.
                    if let Err(unsent) = writers.send(answer) {
                        answer_poll(unsent.0);
                    }
                });
            });
        if let Err(error) = started {
            log::error!("cannot start the poll keeper, long polls answer at once: {error}");
        }
        let workers: Vec<_> = (0..WORKERS)
            .filter_map(|number| {
                let context = Arc::clone(&context);
                std::thread::Builder::new()
                    .name(format!("http {number}"))
                    .spawn(move || {
                        while let Ok(request) = context.server.recv() {
                            // A bug met by one request must not take a worker with it
                            // (its client sees the connection close); the table's lock
                            // recovers from the panic (see `Shared::lock`).
                            let handled =
                                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                    context.handle(request)
                                }));
                            if handled.is_err() {
                                log::error!("a request panicked; the worker goes on");
                            }
                        }
                    })
                    .ok()
            })
            .collect();
        for worker in workers {
            let _ = worker.join();
        }
    }

    fn header(request: &Request, name: &'static str) -> Option<String> {
        request
            .headers()
            .iter()
            .find(|header| header.field.equiv(name))
            .map(|header| header.value.as_str().to_string())
    }

    /// Why the request may not be served, if it may not.
    fn refuse(&self, request: &Request) -> Option<(u16, String)> {
        let host = Self::header(request, "Host").unwrap_or_default();
        if !self
            .hosts
            .iter()
            .any(|ours| ours.eq_ignore_ascii_case(&host))
        {
            return Some((
                403,
                format!(
                    "this server answers only to {} (Host: {host})",
                    self.hosts[0]
                ),
            ));
        }
        if let Some(origin) = Self::header(request, "Origin") {
            let ours = self
                .hosts
                .iter()
                .any(|ours| origin.eq_ignore_ascii_case(&format!("http://{ours}")));
            if !ours {
                return Some((
                    403,
                    format!("requests from other pages are refused (Origin: {origin})"),
                ));
            }
        }
        if request
            .body_length()
            .is_some_and(|length| length > MAX_BODY)
        {
            return Some((413, format!("the body is larger than {MAX_BODY} bytes")));
        }
        if *request.method() == Method::Post {
            let json = Self::header(request, "Content-Type")
                .is_some_and(|kind| kind.to_ascii_lowercase().starts_with("application/json"));
            if !json {
                return Some((
                    415,
                    "send JSON (Content-Type: application/json)".to_string(),
                ));
            }
        }
        None
    }

    fn handle(&self, mut request: Request) {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
        let refused = self.refuse(&request);
        if refused.is_none() && *request.method() == Method::Get && path == "/api/state" {
            return self.state(request, query);
        }
        let response = match refused {
            Some((status, reason)) => error(status, &reason),
            None => match (request.method().clone(), path) {
                (Method::Get, "/") => file(PAGE_HTML, "text/html; charset=utf-8"),
                (Method::Get, "/page.css") => file(PAGE_CSS, "text/css; charset=utf-8"),
                (Method::Get, "/page.js") => file(PAGE_JS, "text/javascript; charset=utf-8"),
                (Method::Get, "/draw.js") => {
                    file(crate::picture::DRAW_JS, "text/javascript; charset=utf-8")
                }
                (Method::Get, "/api/games") => api_games(&Registry::builtin()).into_response(),
                (Method::Get, "/api/layout") => api_layout(query).into_response(),
                (Method::Post, _) if path.starts_with("/api/") => match read_body(&mut request) {
                    Ok(body) => api_post(&self.shared, path, &body).into_response(),
                    Err((status, reason)) => error(status, &reason),
                },
                (
                    _,
                    "/" | "/page.css" | "/page.js" | "/draw.js" | "/api/state" | "/api/games"
                    | "/api/layout",
                ) => error(405, &format!("method not allowed ({})", request.method())),
                _ => error(404, &format!("no such page ({path})")),
            },
        };
        respond(request, response);
    }

    /// The state, at once or (parked) once its version passes `after`.
    fn state(&self, request: Request, query: &str) {
        let after = match parameter(query, "after").map(|text| (text, text.parse::<u64>())) {
            None => None,
            Some((_, Ok(version))) => Some(version),
            Some((text, Err(_))) => {
                let reason = format!("after must be a version number ({text})");
                return respond(request, error(400, &reason));
            }
        };
        let table = self.shared.lock();
        let request = match after {
            Some(after) if table.version <= after && !table.shutdown => {
                match self.polls.park(&table, request, after) {
                    None => return,
                    Some(request) => {
                        drop(table);
                        let reason = format!(
                            "too many pages are waiting for changes (the limit is {MAX_PARKED}); \
                             ask again in a moment"
                        );
                        let mut response = error(503, &reason);
                        if let Some(header) = header("Retry-After", "1") {
                            response.add_header(header);
                        }
                        return respond(request, response);
                    }
                }
            }
            _ => request,
        };
        let response = json_response(200, &table.view());
        drop(table);
        respond(request, response);
    }
}

/// An answer of the JSON API: a status and its JSON body (`{"error": ...}` unless 200).
#[derive(Debug)]
pub struct ApiReply {
    pub status: u16,
    pub body: Value,
}

impl ApiReply {
    fn error(status: u16, reason: &str) -> Self {
        ApiReply {
            status,
            body: json!({ "error": reason }),
        }
    }

    fn into_response(self) -> Response<std::io::Cursor<Vec<u8>>> {
        if self.status != 200 {
            log::info!("refused ({}): {}", self.status, self.body);
        }
        json_response(self.status, &self.body)
    }
}

/// Answers `POST <path>` with `body` on the table in `shared`: the API without HTTP (the
/// fuzz targets drive it directly).
pub fn api_post(shared: &Shared, path: &str, body: &str) -> ApiReply {
    let result = match path {
        "/api/new" => parse::<GameRequest>(body)
            .and_then(|request| shared.update(|table| table.new_game(&request))),
        "/api/settings" => parse::<GameRequest>(body)
            .and_then(|request| shared.update(|table| table.change_settings(&request))),
        "/api/move" => parse::<MoveRequest>(body).and_then(|request| {
            shared.update(|table| table.human_move(&request.r#move).map(|_| ()))
        }),
        "/api/undo" => parse::<StepRequest>(body)
            .and_then(|request| shared.update(|table| table.undo(request.count.unwrap_or(1)))),
        "/api/redo" => parse::<StepRequest>(body)
            .and_then(|request| shared.update(|table| table.redo(request.count.unwrap_or(1)))),
        "/api/load" => parse::<LoadRequest>(body)
            .and_then(|request| read_game(&request.text))
            .and_then(|game| shared.update(|table| table.load(game))),
        "/api/resume" => parse::<Empty>(body).map(|_| {
            shared.update(|table| {
                table.paused = false;
                table.touch();
            })
        }),
        "/api/stop" => parse::<Empty>(body).map(|_| {
            shared.update(|table| {
                table.analysing = false;
                if table.engine_to_move().is_some() {
                    table.stop_requested = true;
                }
                table.touch();
            })
        }),
        "/api/analyse" => parse::<Empty>(body).and_then(|_| {
            shared.update(|table| {
                if table.outcome().is_some() {
                    return Err("the game is over (analyse)".to_string());
                }
                table.analysing = true;
                table.touch();
                Ok(())
            })
        }),
        "/api/lines" => parse::<LinesRequest>(body).and_then(|request| {
            if !(1..=MAX_ANALYSIS_LINES).contains(&request.lines) {
                return Err(format!(
                    "lines {} out of range 1..{MAX_ANALYSIS_LINES} (lines)",
                    request.lines
                ));
            }
            shared.update(|table| {
                table.analysis_lines = request.lines;
                table.touch();
            });
            Ok(())
        }),
        "/api/eval" => parse::<Empty>(body).map(|_| {
            shared.update(|table| {
                table.eval_requested = true;
                table.touch();
            })
        }),
        "/api/restart" => parse::<RestartRequest>(body).and_then(|request| {
            shared.update(|table| {
                let count = table.engines.len();
                let engine = table.engines.get_mut(request.engine).ok_or_else(|| {
                    format!(
                        "no engine {}, there are {count} ({})",
                        request.engine, request.engine
                    )
                })?;
                engine.restart = true;
                engine.status = EngineStatus::Starting;
                table.touch();
                Ok(())
            })
        }),
        _ => return ApiReply::error(404, &format!("no such request ({path})")),
    };
    match result {
        Ok(()) => ApiReply {
            status: 200,
            body: shared.lock().view(),
        },
        Err(reason) => ApiReply::error(400, &reason),
    }
}

/// Sends an answer; a client that has gone away is only logged.
fn respond(request: Request, response: Response<std::io::Cursor<Vec<u8>>>) {
    let url = request.url().to_string();
    if let Err(failure) = request.respond(response) {
        log::debug!("cannot answer {url}: {failure}");
    }
}

/// Answers a parked long poll with the state's JSON.
fn answer_poll((request, body): Answer) {
    respond(request, json_text_response(200, body.as_str().to_string()));
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    r#move: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepRequest {
    count: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadRequest {
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinesRequest {
    lines: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RestartRequest {
    engine: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// A JSON body as `T`; an empty body reads as `{}`.
fn parse<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, String> {
    let body = if body.trim().is_empty() { "{}" } else { body };
    serde_json::from_str(body).map_err(|error| format!("bad request body: {error}"))
}

/// The body as text, at most [`MAX_BODY`] bytes (also when no length was announced).
fn read_body(request: &mut Request) -> Result<String, (u16, String)> {
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|failure| (400, format!("cannot read the body: {failure}")))?;
    if bytes.len() > MAX_BODY {
        return Err((413, format!("the body is larger than {MAX_BODY} bytes")));
    }
    String::from_utf8(bytes).map_err(|failure| {
        (
            400,
            format!(
                "the body is not UTF-8 (byte {})",
                failure.utf8_error().valid_up_to()
            ),
        )
    })
}

/// One `name=value` of a query string (values here are plain words and numbers).
fn parameter<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// Answers `GET /api/games`: the games of `registry`, in order, with their facts.
pub fn api_games(registry: &Registry) -> ApiReply {
    let games: Vec<Value> = registry
        .facts()
        .map(|facts| {
            let parameters: Vec<Value> = facts
                .parameters
                .iter()
                .map(|parameter| {
                    json!({
                        "option": parameter.option,
                        "title": parameter.title,
                        "values": parameter.values,
                    })
                })
                .collect();
            json!({
                "name": facts.name,
                "title": facts.title,
                "sizes": [facts.sizes.start(), facts.sizes.end()],
                "default_size": facts.default_size,
                "parameters": parameters,
                "levels": facts.levels.iter().map(|level| level.elo).collect::<Vec<_>>(),
            })
        })
        .collect();
    ApiReply {
        status: 200,
        body: Value::Array(games),
    }
}

/// Answers `GET /api/layout?<query>`: the drawing data of a board.
pub fn api_layout(query: &str) -> ApiReply {
    let variant = parameter(query, "variant").unwrap_or("");
    let Ok(variant) = variant.parse::<Variant>() else {
        return ApiReply::error(400, &format!("unknown variant ({variant})"));
    };
    let side_text = parameter(query, "side").unwrap_or("");
    let side = side_text
        .parse::<usize>()
        .ok()
        .filter(|side| (2..=crate::board::hex::MAX_SIDE).contains(side));
    match side.and_then(|side| layout(variant, side)) {
        Some(layout) => match serde_json::to_value(&layout) {
            Ok(body) => ApiReply { status: 200, body },
            Err(failure) => ApiReply::error(500, &failure.to_string()),
        },
        None => ApiReply::error(400, &format!("no board of that side ({side_text})")),
    }
}

fn header(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

/// Headers on every answer: no caching, no sniffing, no framing by other pages, and a
/// page that can reach nothing but this server.
fn with_common_headers(
    mut response: Response<std::io::Cursor<Vec<u8>>>,
) -> Response<std::io::Cursor<Vec<u8>>> {
    let headers = [
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        (
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
        ),
    ];
    for (name, value) in headers {
        if let Some(header) = header(name, value) {
            response.add_header(header);
        }
    }
    response
}

fn file(text: &'static str, kind: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut response = Response::from_string(text);
    if let Some(header) = header("Content-Type", kind) {
        response.add_header(header);
    }
    with_common_headers(response)
}

fn json_response(status: u16, value: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    json_text_response(status, value.to_string())
}

fn json_text_response(status: u16, text: String) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut response = Response::from_string(text).with_status_code(status);
    if let Some(header) = header("Content-Type", "application/json") {
        response.add_header(header);
    }
    with_common_headers(response)
}

fn error(status: u16, reason: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    log::info!("refused ({status}): {reason}");
    let mut response = json_response(status, &json!({ "error": reason }));
    if status == 413 || status == 403 {
        // The rest of an oversized or refused body is not read: close the connection.
        if let Some(header) = header("Connection", "close") {
            response.add_header(header);
        }
    }
    response
}
