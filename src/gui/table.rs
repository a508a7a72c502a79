//! The game on the GUI's table and everything the page sees: seats, limits, clocks, the
//! engines' state and their latest output. Plain state behind one mutex; the HTTP
//! handlers change it on the page's requests, the engine driver on the engines' answers.
//!
//! The rules library referees every move, from a person or an engine: a move is played
//! only through [`AnyGame::play_text`], and the result comes from [`AnyGame::outcome`]
//! (or from a clock that ran out).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::arena::clock::{GameClock, TimeControl};
use crate::arena::settings::MoveLimits;
use crate::game::{GameConfig, Outcome, Player};
use crate::picture::picture_side;
use crate::registry::{AnyGame, Registry};

use super::info::{Info, parse_info};
use super::lines::RankedLines;

#[path = "table_view.rs"]
mod view;
use super::records::LoadedGame;

/// Most lines an analysis may show (`MultiPV`).
pub const MAX_ANALYSIS_LINES: usize = 5;
/// `info` lines kept for the page per search.
const INFO_LINES: usize = 30;
/// Event lines kept for the page.
const MESSAGES: usize = 12;
/// The most plies one undo or redo request steps.
pub const MAX_STEPS: usize = 100_000;

/// Who plays one colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// The engine with this index in the server's `--engine` list.
    Engine(usize),
}

impl Seat {
    fn name(self) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Engine(index) => format!("engine{index}"),
        }
    }

    /// `human` or `engine<N>` for one of `engines` engines.
    fn parse(text: &str, engines: usize) -> Result<Seat, String> {
        if text == "human" {
            return Ok(Seat::Human);
        }
        text.strip_prefix("engine")
            .and_then(|index| index.parse::<usize>().ok())
            .filter(|index| *index < engines)
            .map(Seat::Engine)
            .ok_or_else(|| {
                format!(
                    "unknown player, expected human or engine0..engine{} ({text})",
                    engines.saturating_sub(1)
                )
            })
    }
}

/// What an engine is doing, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineStatus {
    Stopped,
    Starting,
    Ready,
    Thinking,
    Analysing,
    /// Crashed, hung or broke the protocol: no more jobs until the page restarts it.
    Failed(String),
}

/// One engine of the `--engine` list, as the page sees it.
#[derive(Clone, Debug)]
pub struct EngineView {
    pub name: String,
    pub status: EngineStatus,
    pub pid: Option<u32>,
    /// The page asked for a fresh process.
    pub restart: bool,
}

/// The output of the latest search.
#[derive(Clone, Debug, Default)]
pub struct Search {
    pub engine: usize,
    /// `move` (a game move) or `analysis`.
    pub purpose: &'static str,
    pub position_id: u64,
    pub lines: Vec<Info>,
    /// The lines of its last report, with their exact values.
    pub ranked: RankedLines,
}

/// The page's settings for a new game (`POST /api/new`) or for the current one
/// (`POST /api/settings`, without variant and position).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    pub variant: Option<String>,
    pub size: Option<usize>,
    /// Values of game parameters by option name (`{"CatchupRule": "original"}`).
    #[serde(default)]
    pub parameters: BTreeMap<String, String>,
    pub fen: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub clock: Option<String>,
    /// The strength of an engine playing White or Black: `full`, or an Elo sent as
    /// `UCI_LimitStrength true` and `UCI_Elo` before each of its moves.
    pub white_strength: Option<String>,
    pub black_strength: Option<String>,
}

/// Everything on the table.
pub struct Table {
    /// Goes up on every change; the page's long poll waits for it.
    pub version: u64,
    /// Goes up whenever the position changes: a search of an older one is void.
    pub position_id: u64,
    /// Goes up with every new game: the engines then get `uginewgame` and a seed of
    /// their own for it.
    pub game_number: u64,
    game: AnyGame,
    moves: Vec<String>,
    /// Moves taken back, the next one last.
    redo: Vec<String>,
    forfeit: Option<(Player, String)>,
    pub seats: [Seat; 2],
    pub strength: SeatStrengths,
    pub limits: MoveLimits,
    clocks: Option<[GameClock; 2]>,
    turn_started: Instant,
    /// Engines do not move until the page says so (after undo, redo and loading).
    pub paused: bool,
    pub engines: Vec<EngineView>,
    /// The page wants the engine's analysis of the current position.
    pub analysing: bool,
    /// Lines an analysis shows (`MultiPV`, 1 to [`MAX_ANALYSIS_LINES`]).
    pub analysis_lines: usize,
    pub stop_requested: bool,
    pub eval_requested: bool,
    /// The position of the last eval, and its lines.
    pub eval: Option<(u64, Vec<String>)>,
    pub search: Search,
    messages: Vec<String>,
    pub shutdown: bool,
}

fn player_name(player: Player) -> &'static str {
    match player {
        Player::One => "White",
        Player::Two => "Black",
    }
}

/// Per seat, the Elo an engine there plays at (`UCI_Elo`); `None` at full strength.
pub type SeatStrengths = [Option<u32>; 2];

/// A seat's strength from the page: `full` (`None`), or an Elo.
fn strength_of(text: &Option<String>, old: Option<u32>) -> Result<Option<u32>, String> {
    match text.as_deref().map(str::trim) {
        None => Ok(old),
        Some("full") => Ok(None),
        Some(text) => text
            .parse::<u32>()
            .map(Some)
            .map_err(|_| format!("strength: expected full or an Elo ({text})")),
    }
}

/// A search-limit set from the page's numbers: each must be above zero.
fn limits_of(request: &GameRequest) -> Result<MoveLimits, String> {
    let positive = |value: Option<u64>, name: &str| match value {
        Some(0) => Err(format!("{name} must be above 0 (0)")),
        other => Ok(other),
    };
    let clock = match &request.clock {
        Some(text) => Some(
            text.parse::<TimeControl>()
                .map_err(|error| error.to_string())?,
        ),
        None => None,
    };
    let limits = MoveLimits {
        clock,
        movetime: positive(request.movetime, "movetime")?.map(Duration::from_millis),
        nodes: positive(request.nodes, "nodes")?,
        depth: positive(request.depth.map(u64::from), "depth")?.map(|depth| depth as u32),
    };
    if limits.is_empty() {
        return Err("give the engine a limit: movetime, nodes, depth or clock".to_string());
    }
    Ok(limits)
}

impl Table {
    /// A table with the start position of `config`, a person as White and the first
    /// engine as Black.
    pub fn new(config: GameConfig, engine_names: Vec<String>) -> Result<Self, String> {
        let game = AnyGame::new(config).map_err(|error| error.to_string())?;
        let engines = engine_names
            .into_iter()
            .map(|name| EngineView {
                name,
                status: EngineStatus::Stopped,
                pid: None,
                restart: false,
            })
            .collect();
        Ok(Table {
            version: 1,
            position_id: 1,
            game_number: 0,
            game,
            moves: Vec::new(),
            redo: Vec::new(),
            forfeit: None,
            seats: [Seat::Human, Seat::Engine(0)],
            strength: [None, None],
            limits: MoveLimits {
                movetime: Some(Duration::from_millis(1000)),
                ..MoveLimits::default()
            },
            clocks: None,
            turn_started: Instant::now(),
            paused: false,
            engines,
            analysing: false,
            analysis_lines: 1,
            stop_requested: false,
            eval_requested: false,
            eval: None,
            search: Search::default(),
            messages: Vec::new(),
            shutdown: false,
        })
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The game's result: by the rules, or a clock that ran out.
    pub fn outcome(&self) -> Option<(Outcome, String)> {
        if let Some((loser, reason)) = &self.forfeit {
            return Some((Outcome::Win(loser.opponent()), reason.clone()));
        }
        self.game
            .outcome()
            .map(|outcome| (outcome, "by the rules".to_string()))
    }

    /// Marks a change for the page.
    pub fn touch(&mut self) {
        self.version += 1;
    }

    /// A line in the page's event list (and the log).
    pub fn message(&mut self, text: String) {
        log::info!("{text}");
        self.messages.push(text);
        if self.messages.len() > MESSAGES {
            self.messages.remove(0);
        }
        self.touch();
    }

    /// The position changed: searches of the old one are void, the mover's clock starts.
    fn position_changed(&mut self) {
        self.position_id += 1;
        self.turn_started = Instant::now();
        self.stop_requested = false;
        self.touch();
    }

    pub fn clocks(&self) -> Option<&[GameClock; 2]> {
        self.clocks.as_ref()
    }

    /// Time the side to move has used on this move so far.
    pub fn turn_elapsed(&self) -> Duration {
        self.turn_started.elapsed()
    }

    /// Starts a new game from the page's settings; on any error nothing changes.
    pub fn new_game(&mut self, request: &GameRequest) -> Result<(), String> {
        let registry = Registry::builtin();
        let variant = match &request.variant {
            Some(name) => registry.find(name).map_err(|error| error.to_string())?,
            None => self.game.variant(),
        };
        let mut config = GameConfig {
            size: request.size,
            ..GameConfig::new(variant)
        };
        for (option, text) in &request.parameters {
            let parameter = registry
                .parameter(option)
                .ok_or_else(|| format!("unknown game parameter ({option})"))?;
            config.parameters.set(parameter, parameter.parse(text)?);
        }
        let game = match request.fen.as_deref().map(str::trim) {
            Some(text) if !text.is_empty() => AnyGame::from_position_text(config, text),
            _ => AnyGame::new(config),
        }
        .map_err(|error| error.to_string())?;
        let (seats, strength, limits) = self.seats_and_limits(request)?;
        self.game_number += 1;
        self.game = game;
        self.moves.clear();
        self.redo.clear();
        self.forfeit = None;
        self.seats = seats;
        self.strength = strength;
        self.set_limits(limits);
        self.paused = false;
        self.eval = None;
        self.position_changed();
        self.message(format!(
            "new game: {}, {} against {}",
            self.describe(),
            self.seat_name(Player::One),
            self.seat_name(Player::Two)
        ));
        Ok(())
    }

    /// Changes who plays and the engine's limits, keeping the game.
    pub fn change_settings(&mut self, request: &GameRequest) -> Result<(), String> {
        if request.variant.is_some()
            || request.fen.is_some()
            || request.size.is_some()
            || !request.parameters.is_empty()
        {
            return Err(
                "variant, size, parameters and position need a new game (settings)".to_string(),
            );
        }
        let (seats, strength, limits) = self.seats_and_limits(request)?;
        self.seats = seats;
        self.strength = strength;
        self.set_limits(limits);
        self.paused = false;
        self.touch();
        Ok(())
    }

    /// The seats, their strength and the limits of `request`, the current ones where it
    /// gives none.
    fn seats_and_limits(
        &self,
        request: &GameRequest,
    ) -> Result<([Seat; 2], SeatStrengths, MoveLimits), String> {
        let count = self.engines.len();
        let seat = |text: &Option<String>, old: Seat| match text {
            Some(text) => Seat::parse(text, count),
            None => Ok(old),
        };
        let seats = [
            seat(&request.white, self.seats[0])?,
            seat(&request.black, self.seats[1])?,
        ];
        let given = request.movetime.is_some()
            || request.nodes.is_some()
            || request.depth.is_some()
            || request.clock.is_some();
        let limits = if given {
            limits_of(request)?
        } else {
            self.limits
        };
        let strength = [
            strength_of(&request.white_strength, self.strength[0])?,
            strength_of(&request.black_strength, self.strength[1])?,
        ];
        Ok((seats, strength, limits))
    }

    fn set_limits(&mut self, limits: MoveLimits) {
        if limits.clock != self.limits.clock || self.moves.is_empty() {
            self.clocks = limits
                .clock
                .map(|control| [GameClock::new(control), GameClock::new(control)]);
        }
        self.limits = limits;
    }

    fn describe(&self) -> String {
        let config = self.game.config();
        let side = picture_side(&self.game);
        let mut text = format!("{} side {side}", config.variant);
        for (parameter, value) in config.parameter_values() {
            text.push_str(&format!(", {value} {}", parameter.flag));
        }
        text
    }

    fn seat_name(&self, player: Player) -> String {
        match self.seats[player.index()] {
            Seat::Human => "a person".to_string(),
            Seat::Engine(index) => self
                .engines
                .get(index)
                .map_or_else(|| format!("engine {index}"), |engine| engine.name.clone()),
        }
    }

    /// Plays a person's move: only when a person holds the side to move.
    pub fn human_move(&mut self, text: &str) -> Result<String, String> {
        if let Seat::Engine(_) = self.seats[self.game.side_to_move().index()] {
            return Err(format!("it is the engine's turn ({text})"));
        }
        let elapsed = self.turn_elapsed();
        self.play(text, elapsed)
    }

    /// Plays a move checked by the rules and charges the mover's clock.
    pub fn play(&mut self, text: &str, elapsed: Duration) -> Result<String, String> {
        if let Some((_, reason)) = self.outcome() {
            return Err(format!("the game is over, {reason} ({text})"));
        }
        let mover = self.game.side_to_move();
        let canonical = self
            .game
            .play_text(text)
            .map_err(|error| error.to_string())?;
        self.moves.push(canonical.clone());
        self.redo.clear();
        if let Some(clocks) = &mut self.clocks {
            if let Err(flag) = clocks[mover.index()].charge(elapsed, Duration::ZERO) {
                self.forfeit = Some((
                    mover,
                    format!(
                        "{} lost on time ({} ms used, {} ms left)",
                        player_name(mover),
                        flag.elapsed.as_millis(),
                        flag.allowed.as_millis()
                    ),
                ));
            }
        }
        self.position_changed();
        Ok(canonical)
    }

    /// Ends the game when the side to move has run out of time (checked as time passes,
    /// so a person who never moves loses too).
    pub fn check_flag(&mut self) {
        if self.outcome().is_some() || self.paused {
            return;
        }
        let mover = self.game.side_to_move();
        let Some(clocks) = &self.clocks else {
            return;
        };
        let left = clocks[mover.index()].remaining();
        let used = self.turn_elapsed();
        if used > left {
            self.forfeit = Some((
                mover,
                format!(
                    "{} lost on time ({} ms left)",
                    player_name(mover),
                    left.as_millis()
                ),
            ));
            self.touch();
        }
    }

    /// Rebuilds the game from its start and `moves`; all are legal by construction.
    fn replay(&mut self, moves: Vec<String>) -> Result<(), String> {
        let start = self.game.start_position_text();
        let mut game = AnyGame::from_position_text(*self.game.config(), &start)
            .map_err(|error| error.to_string())?;
        for text in &moves {
            game.play_text(text).map_err(|error| error.to_string())?;
        }
        self.game = game;
        self.moves = moves;
        Ok(())
    }

    /// Takes back up to `count` plies; with a person at the table it goes on back to a
    /// person's turn. Engines then wait for the page (`resume`).
    pub fn undo(&mut self, count: usize) -> Result<(), String> {
        if self.moves.is_empty() {
            return Err("no move to take back (undo)".to_string());
        }
        let mut moves = self.moves.clone();
        let mut redo = self.redo.clone();
        for _ in 0..count.clamp(1, MAX_STEPS) {
            let Some(last) = moves.pop() else { break };
            redo.push(last);
        }
        self.replay(moves)?;
        let human = self.seats.contains(&Seat::Human);
        while human
            && matches!(
                self.seats[self.game.side_to_move().index()],
                Seat::Engine(_)
            )
            && !self.moves.is_empty()
        {
            let mut moves = self.moves.clone();
            if let Some(last) = moves.pop() {
                redo.push(last);
            }
            self.replay(moves)?;
        }
        self.redo = redo;
        self.forfeit = None;
        self.after_step();
        Ok(())
    }

    /// Plays again up to `count` plies taken back.
    pub fn redo(&mut self, count: usize) -> Result<(), String> {
        if self.redo.is_empty() {
            return Err("no move to play again (redo)".to_string());
        }
        for _ in 0..count.clamp(1, MAX_STEPS) {
            let Some(next) = self.redo.pop() else { break };
            self.game
                .play_text(&next)
                .map_err(|error| error.to_string())?;
            self.moves.push(next);
        }
        self.after_step();
        Ok(())
    }

    fn after_step(&mut self) {
        self.paused = matches!(
            self.seats[self.game.side_to_move().index()],
            Seat::Engine(_)
        );
        self.position_changed();
    }

    /// A loaded game, at its start, every move ready to be stepped through with redo;
    /// both colours go to people so that no engine moves in between.
    pub fn load(&mut self, loaded: LoadedGame) -> Result<(), String> {
        let game = AnyGame::from_position_text(loaded.config, &loaded.start)
            .map_err(|error| error.to_string())?;
        self.game_number += 1;
        self.game = game;
        self.moves.clear();
        self.redo = loaded.moves.into_iter().rev().collect();
        self.forfeit = None;
        self.seats = [Seat::Human, Seat::Human];
        self.clocks = None;
        self.limits.clock = None;
        if self.limits.is_empty() {
            self.limits.movetime = Some(Duration::from_millis(1000));
        }
        self.paused = false;
        self.eval = None;
        self.position_changed();
        self.message(format!(
            "loaded a game of {} with {} plies",
            self.describe(),
            self.redo.len()
        ));
        Ok(())
    }

    /// The engine that should move now, if any.
    pub fn engine_to_move(&self) -> Option<usize> {
        if self.outcome().is_some() || self.paused {
            return None;
        }
        match self.seats[self.game.side_to_move().index()] {
            Seat::Engine(index) => Some(index),
            Seat::Human => None,
        }
    }

    /// `position` for the current game, as an outside GUI sends it.
    pub fn position_command(&self) -> String {
        let mut command = format!("position fen {}", self.game.start_position_text());
        if !self.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&self.moves.join(" "));
        }
        command
    }

    /// Starts collecting a search's output.
    pub fn begin_search(&mut self, engine: usize, purpose: &'static str) {
        self.search = Search {
            engine,
            purpose,
            position_id: self.position_id,
            lines: Vec::new(),
            ranked: RankedLines::default(),
        };
        if let Some(view) = self.engines.get_mut(engine) {
            view.status = if purpose == "analysis" {
                EngineStatus::Analysing
            } else {
                EngineStatus::Thinking
            };
        }
        self.touch();
    }

    /// An engine line during a search; `info` lines are kept for the page.
    pub fn search_line(&mut self, line: &str) {
        if let Some(info) = parse_info(line) {
            self.search.ranked.push(&info);
            self.search.lines.push(info);
            if self.search.lines.len() > INFO_LINES {
                self.search.lines.remove(0);
            }
            self.touch();
        }
    }

    pub fn set_status(&mut self, engine: usize, status: EngineStatus, pid: Option<u32>) {
        if let Some(view) = self.engines.get_mut(engine) {
            if let EngineStatus::Failed(reason) = &status {
                let text = format!("engine {} failed: {reason}", view.name);
                view.status = status;
                view.pid = pid;
                self.message(text);
                return;
            }
            view.status = status;
            view.pid = pid;
        }
        self.touch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    fn table(variant: Variant) -> Table {
        Table::new(GameConfig::new(variant), vec!["tessera".to_string()]).expect("a table")
    }

    #[test]
    fn a_bad_move_changes_nothing() {
        let mut table = table(Variant::Kruzno);
        let before = (table.version, table.game.position_text());
        assert!(table.human_move("c3-c9").is_err());
        assert!(table.human_move("").is_err());
        assert_eq!((table.version, table.game.position_text()), before);
        let legal = table.game.legal_move_texts();
        assert!(table.human_move(&legal[0]).is_ok());
        let error = table
            .human_move(&table.game.legal_move_texts()[0])
            .expect_err("engine's turn");
        assert!(error.contains("engine's turn"), "{error}");
    }

    #[test]
    fn undo_goes_back_to_the_person_and_redo_plays_again() {
        let mut table = table(Variant::Cheversi);
        table.human_move("Ke4").expect("legal");
        table.play("Qd5", Duration::ZERO).expect("legal");
        let after = table.game.position_text();
        table.undo(1).expect("undo");
        assert!(
            table.moves.is_empty(),
            "back to the person's turn: {:?}",
            table.moves
        );
        assert!(!table.paused);
        table.redo(2).expect("redo");
        assert_eq!(table.game.position_text(), after);
        assert!(table.redo(1).is_err());
    }

    #[test]
    fn settings_are_checked_before_anything_changes() {
        let mut table = table(Variant::Catchup);
        for bad in [
            GameRequest {
                variant: Some("go".into()),
                ..GameRequest::default()
            },
            GameRequest {
                size: Some(12),
                ..GameRequest::default()
            },
            GameRequest {
                fen: Some("9/9 w 1".into()),
                ..GameRequest::default()
            },
            GameRequest {
                white: Some("engine7".into()),
                ..GameRequest::default()
            },
            GameRequest {
                nodes: Some(0),
                ..GameRequest::default()
            },
            GameRequest {
                clock: Some("soon".into()),
                ..GameRequest::default()
            },
            GameRequest {
                black_strength: Some("strong".into()),
                ..GameRequest::default()
            },
        ] {
            let version = table.version;
            assert!(table.new_game(&bad).is_err(), "{bad:?}");
            assert_eq!(table.version, version);
        }
        let good = GameRequest {
            variant: Some("hexcheckers".into()),
            size: Some(5),
            white: Some("engine0".into()),
            black: Some("human".into()),
            nodes: Some(300),
            white_strength: Some("900".into()),
            ..GameRequest::default()
        };
        table.new_game(&good).expect("valid");
        assert_eq!(table.engine_to_move(), Some(0));
        assert_eq!(table.limits.nodes, Some(300));
        assert_eq!(table.strength, [Some(900), None]);
        let full = GameRequest {
            white_strength: Some("full".into()),
            ..GameRequest::default()
        };
        table.change_settings(&full).expect("valid");
        assert_eq!(table.strength, [None, None]);
    }
}
