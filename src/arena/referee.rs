//! One game between two engine processes, refereed by the rules library.
//!
//! Every `bestmove` is checked and applied with [`AnyGame::play_text`]; the result comes
//! from [`AnyGame::outcome`], never from the engines. Any failure (malformed or illegal
//! move, time forfeit, crash, stall) loses the game for the engine at fault, and an engine
//! that crashed or stalled is killed so the worker restarts it for the next game.

use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use crate::game::{GameConfig, Outcome, Player};
use crate::registry::AnyGame;

use super::clock::GameClock;
use super::engine_process::{EngineError, EngineProcess};
use super::openings::Opening;
use super::record::{GameResult, MatchRecord, OpeningRecord, Termination};
use super::schedule::{GameJob, engine_seed_range};
use super::settings::{EngineSpec, MoveLimits, ProtocolDialect, Timeouts};

/// The option by which the runner gives each engine a seed per game.
const SEED_OPTION: &str = "Seed";

/// Everything that stays the same from game to game.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub config: GameConfig,
    pub limits: MoveLimits,
    pub timeouts: Timeouts,
    /// Engine plies after which the game is drawn.
    pub max_plies: Option<usize>,
    pub engines: [EngineSpec; 2],
    pub seed: u64,
}

/// The two engine slots of a worker (first and second `--engine`); `None` means the engine
/// must be (re)started before its next game.
pub type EngineSlots = [Option<EngineProcess>; 2];

/// Why a `bestmove` line is not acceptable, before the rules look at the move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineViolation(pub String);

/// The move of a `bestmove` line: exactly `bestmove <move>`, or `bestmove <move> ponder
/// <move>` (the ponder move is ignored). Anything else breaks the protocol, which asks
/// engines for exactly two tokens.
pub fn judge_bestmove(line: &str) -> Result<&str, LineViolation> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.as_slice() {
        ["bestmove", token] => Ok(token),
        ["bestmove", token, "ponder", _] => Ok(token),
        ["bestmove"] => Err(LineViolation("bestmove without a move".to_string())),
        _ => Err(LineViolation(format!(
            "extra tokens after the move ({line})"
        ))),
    }
}

/// The reply a well-formed `bestmove <move> ponder <reply>` line names.
pub fn ponder_move(line: &str) -> Option<&str> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["bestmove", _, "ponder", reply] => Some(reply),
        _ => None,
    }
}

/// The `go` command for the side to move. `clocks` are per colour; a side without a
/// clock (an engine on its own fixed-time limit) is reported with the mover's clock, so
/// engines that expect both fields still get them.
pub fn go_command(
    limits: &MoveLimits,
    clocks: &[Option<GameClock>; 2],
    mover: Player,
    dialect: ProtocolDialect,
) -> String {
    let mut go = String::from("go");
    if let Some(own) = &clocks[mover.index()] {
        let names = match dialect {
            ProtocolDialect::Uci => ["wtime", "btime", "winc", "binc"],
            ProtocolDialect::Ugi | ProtocolDialect::Auto => ["p1time", "p2time", "p1inc", "p2inc"],
        };
        let white = clocks[0].as_ref().unwrap_or(own);
        let black = clocks[1].as_ref().unwrap_or(own);
        go.push_str(&format!(
            " {} {} {} {} {} {} {} {}",
            names[0],
            white.remaining().as_millis(),
            names[1],
            black.remaining().as_millis(),
            names[2],
            white.increment().as_millis(),
            names[3],
            black.increment().as_millis()
        ));
        if let Some(moves) = own.moves_to_go() {
            go.push_str(&format!(" movestogo {moves}"));
        }
    }
    if let Some(movetime) = limits.movetime {
        go.push_str(&format!(" movetime {}", movetime.as_millis()));
    }
    if let Some(nodes) = limits.nodes {
        go.push_str(&format!(" nodes {nodes}"));
    }
    if let Some(depth) = limits.depth {
        go.push_str(&format!(" depth {depth}"));
    }
    go
}

/// The `position` command for the game so far.
pub fn position_command(opening: &Opening, moves: &[String]) -> String {
    let mut command = match &opening.position {
        Some(text) => format!("position fen {text}"),
        None => "position startpos".to_string(),
    };
    let mut all = opening.moves.iter().chain(moves).peekable();
    if all.peek().is_some() {
        command.push_str(" moves");
        for text in all {
            command.push(' ');
            command.push_str(text);
        }
    }
    command
}

/// How a game ended, before it becomes a record.
struct Ending {
    result: GameResult,
    termination: Termination,
    reason: String,
}

impl Ending {
    /// The engine in `seat` (0 first, 1 second) loses.
    fn loss(
        white_engine: usize,
        seat: usize,
        termination: Termination,
        name: &str,
        detail: &str,
    ) -> Self {
        Ending {
            result: GameResult::loss_for(seat == white_engine),
            termination,
            reason: format!("{name} loses: {detail}"),
        }
    }
}

fn termination_of(error: &EngineError) -> Termination {
    match error {
        EngineError::Stalled(_) => Termination::Stall,
        EngineError::Start(_) | EngineError::Crashed(_) => Termination::Crash,
    }
}

/// Gives `engine` the seed `choose` picks in its advertised range, ahead of a new game
/// (which restarts its random stream), when it advertises `Seed` and `spec` does not set
/// it. Returns the seed it plays with: the user's, the one given, or `None` when it takes
/// none. The runner and the GUI both seed games this way.
pub fn seed_engine(
    engine: &mut EngineProcess,
    spec: &EngineSpec,
    choose: impl FnOnce(RangeInclusive<u64>) -> u64,
) -> Result<Option<u64>, EngineError> {
    match spec.option_value(SEED_OPTION) {
        Some(value) => Ok(value.trim().parse::<u64>().ok()),
        None => match engine.advertised(SEED_OPTION) {
            Some(option) => {
                let seed = choose(engine_seed_range(option.range));
                let name = option.name.clone();
                engine
                    .send(&format!("setoption name {name} value {seed}"))
                    .map(|()| Some(seed))
            }
            None => Ok(None),
        },
    }
}

/// Makes sure the engine in `seat` runs and is ready for game `game`, and returns the
/// `Seed` it plays that game with. An engine that advertises `Seed` and whose `Seed` the
/// user did not set gets a seed of its own for the game (from the match seed, the game
/// number and the seat) before `uginewgame`, which restarts its random stream from it;
/// with `option.Seed=` the user's value stands. `None`: the engine takes no seed.
fn prepare(
    slots: &mut EngineSlots,
    seat: usize,
    game: &GameJob,
    settings: &GameSettings,
) -> Result<Option<u64>, EngineError> {
    let timeout = settings.timeouts.ready;
    let spec = &settings.engines[seat];
    let mut engine = match slots[seat].take() {
        Some(engine) => engine,
        None => EngineProcess::start(spec, &settings.config, timeout)?,
    };
    let seed = seed_engine(&mut engine, spec, |range| {
        game.engine_seed(settings.seed, seat, range)
    });
    match seed.and_then(|seed| engine.new_game(timeout).map(|()| seed)) {
        Ok(seed) => {
            slots[seat] = Some(engine);
            Ok(seed)
        }
        Err(error) => {
            engine.kill();
            Err(error)
        }
    }
}

/// Gets both engines ready for the game; returns the seed each plays with, or the
/// ending when one cannot play (it loses) or neither can (the game is aborted).
fn prepare_both(
    slots: &mut EngineSlots,
    game: &GameJob,
    settings: &GameSettings,
    names: &[String; 2],
) -> Result<[Option<u64>; 2], Ending> {
    let readiness = [
        prepare(slots, 0, game, settings),
        prepare(slots, 1, game, settings),
    ];
    let failed = |seat: usize, error: &EngineError| {
        Ending::loss(
            game.white_engine(),
            seat,
            termination_of(error),
            &names[seat],
            &error.to_string(),
        )
    };
    match readiness {
        [Ok(first), Ok(second)] => Ok([first, second]),
        [Err(first), Err(second)] => Err(Ending {
            result: GameResult::Unfinished,
            termination: Termination::Aborted,
            reason: format!("{} {first}; {} {second}", names[0], names[1]),
        }),
        [Err(error), Ok(_)] => Err(failed(0, &error)),
        [Ok(_), Err(error)] => Err(failed(1, &error)),
    }
}

/// Plays one game and returns its record. Engines that crashed or stalled are removed
/// from `slots` (killed and reaped).
pub fn play_game(
    slots: &mut EngineSlots,
    job: &GameJob,
    opening_index: usize,
    opening: &Opening,
    settings: &GameSettings,
) -> MatchRecord {
    let white_engine = job.white_engine();
    let names = [
        settings.engines[0].name.clone(),
        settings.engines[1].name.clone(),
    ];
    let mut moves: Vec<String> = Vec::new();
    let mut times_ms: Vec<u64> = Vec::new();
    let start = opening.replay(settings.config);
    let start_position = match &start {
        Ok(game) => game.start_position_text(),
        Err(_) => opening.position.clone().unwrap_or_default(),
    };
    let mut final_position = start_position.clone();
    let mut engine_seeds = [None, None];
    let ending = match start {
        Err(error) => Ending {
            result: GameResult::Unfinished,
            termination: Termination::Aborted,
            reason: error.to_string(),
        },
        Ok(mut game) => match prepare_both(slots, job, settings, &names) {
            Err(ending) => ending,
            Ok(seeds) => {
                engine_seeds = seeds;
                let mut ponders = [None, None];
                let ending = play_moves(
                    slots,
                    &mut game,
                    white_engine,
                    opening,
                    settings,
                    &names,
                    &mut moves,
                    &mut times_ms,
                    &mut ponders,
                );
                stop_pondering(slots, &mut ponders, settings.timeouts.grace);
                final_position = game.position_text();
                ending
            }
        },
    };
    MatchRecord {
        game: job.game,
        pair: job.pair,
        variant: settings.config.variant.name().to_string(),
        size: settings.config.board_size(),
        rule: settings.config.parameter_words(),
        engines: names.clone(),
        white_engine,
        white: names[white_engine].clone(),
        black: names[1 - white_engine].clone(),
        opening: OpeningRecord {
            index: opening_index,
            position: start_position,
            moves: opening.moves.clone(),
        },
        moves,
        times_ms,
        result: ending.result,
        termination: ending.termination,
        reason: ending.reason,
        final_position,
        seed: settings.seed,
        engine_seeds,
        sprt: None,
    }
}

/// What each seat's engine ponders on: the reply it expects (canonical text), while it
/// thinks on the opponent's time.
type Ponders = [Option<String>; 2];

/// Ends the searches still pondering when a game is over: `stop`, and the `bestmove` it
/// brings is dropped. An engine that does not answer within `wait` is killed.
fn stop_pondering(slots: &mut EngineSlots, ponders: &mut Ponders, wait: Duration) {
    for seat in 0..2 {
        if ponders[seat].take().is_none() {
            continue;
        }
        let Some(engine) = slots[seat].as_mut() else {
            continue;
        };
        if stop_search(engine, wait).is_err()
            && let Some(engine) = slots[seat].take()
        {
            engine.kill();
        }
    }
}

/// `stop` to a pondering search, and its `bestmove`, dropped.
fn stop_search(engine: &mut EngineProcess, wait: Duration) -> Result<(), EngineError> {
    engine.send("stop")?;
    engine.wait_for(
        |line| line.split_whitespace().next() == Some("bestmove"),
        wait,
        "bestmove after stop",
    )?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn play_moves(
    slots: &mut EngineSlots,
    game: &mut AnyGame,
    white_engine: usize,
    opening: &Opening,
    settings: &GameSettings,
    names: &[String; 2],
    moves: &mut Vec<String>,
    times_ms: &mut Vec<u64>,
    ponders: &mut Ponders,
) -> Ending {
    // Each engine plays under its own limits (its `tc=`/`st=`... words, else the match's);
    // the clock of a colour follows the engine playing it.
    let seat_limits = settings
        .engines
        .each_ref()
        .map(|engine| engine.effective_limits(settings.limits));
    let margin = settings.timeouts.margin;
    let seat_of = |player: Player| {
        if player == Player::One {
            white_engine
        } else {
            1 - white_engine
        }
    };
    let mut clocks: [Option<GameClock>; 2] = [Player::One, Player::Two]
        .map(|player| seat_limits[seat_of(player)].clock.map(GameClock::new));
    loop {
        if let Some(outcome) = game.outcome() {
            let score = game.score();
            let result = match outcome {
                Outcome::Win(Player::One) => GameResult::WhiteWins,
                Outcome::Win(Player::Two) => GameResult::BlackWins,
                Outcome::Draw => GameResult::Draw,
            };
            return Ending {
                result,
                termination: Termination::Normal,
                reason: format!(
                    "{} by the rules, score {}-{}",
                    outcome.as_str(),
                    score[0],
                    score[1]
                ),
            };
        }
        if settings.max_plies.is_some_and(|most| moves.len() >= most) {
            return Ending {
                result: GameResult::Draw,
                termination: Termination::MaxPlies,
                reason: format!("draw after {} plies (--max-plies)", moves.len()),
            };
        }
        let mover = game.side_to_move();
        let seat = seat_of(mover);
        let limits = seat_limits[seat];
        let loss = |termination: Termination, detail: &str| {
            Ending::loss(white_engine, seat, termination, &names[seat], detail)
        };
        let Some(engine) = slots[seat].as_mut() else {
            return loss(Termination::Crash, "engine not running");
        };
        // The longest the move may take before a time forfeit, if anything bounds it.
        let clock_limit = clocks[mover.index()]
            .as_ref()
            .map(|clock| clock.allowed(margin));
        let movetime_limit = limits.movetime.map(|movetime| movetime + margin);
        let time_limit = match (clock_limit, movetime_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let wait = time_limit.map_or(settings.timeouts.unbounded_move, |limit| {
            limit + settings.timeouts.grace
        });
        // A pondering engine whose reply was played goes on (its clock runs from the
        // `ponderhit`); one whose reply was not is stopped, its move dropped.
        let sent = match ponders[seat].take() {
            Some(reply) if moves.last() == Some(&reply) => {
                engine.send("ponderhit").map(|()| Instant::now())
            }
            pondered => {
                let stopped = match pondered {
                    Some(_) => stop_search(engine, settings.timeouts.grace),
                    None => Ok(()),
                };
                engine.drain();
                let go = go_command(&limits, &clocks, mover, engine.dialect());
                stopped
                    .and_then(|()| engine.send(&position_command(opening, moves)))
                    .and_then(|()| engine.send(&go))
                    .map(|()| Instant::now())
            }
        };
        let answer = sent.and_then(|sent| {
            engine
                .wait_for(
                    |line| line.split_whitespace().next() == Some("bestmove"),
                    wait,
                    "bestmove",
                )
                .map(|(line, at)| (line, at.saturating_duration_since(sent)))
        });
        let (line, elapsed) = match answer {
            Ok(answer) => answer,
            Err(error) => {
                if let Some(engine) = slots[seat].take() {
                    engine.kill();
                }
                return loss(termination_of(&error), &error.to_string());
            }
        };
        if let Some(limit) = time_limit {
            if elapsed > limit {
                return loss(
                    Termination::TimeForfeit,
                    &format!(
                        "move took {} ms, {} ms allowed",
                        elapsed.as_millis(),
                        limit.as_millis()
                    ),
                );
            }
        }
        if let Some(clock) = clocks[mover.index()].as_mut() {
            if let Err(flagged) = clock.charge(elapsed, margin) {
                return loss(
                    Termination::TimeForfeit,
                    &format!(
                        "move took {} ms, {} ms left",
                        flagged.elapsed.as_millis(),
                        flagged.allowed.as_millis()
                    ),
                );
            }
        }
        let token = match judge_bestmove(&line) {
            Ok(token) => token,
            Err(LineViolation(reason)) => return loss(Termination::MalformedBestmove, &reason),
        };
        match game.play_text(token) {
            Ok(canonical) => {
                moves.push(canonical);
                times_ms.push(duration_ms(elapsed));
            }
            Err(error) => return loss(Termination::IllegalMove, &error.to_string()),
        }
        if !settings.engines[seat].ponder || game.outcome().is_some() {
            continue;
        }
        // The engine thinks on the reply it expects, if that is a legal move here.
        let Some(reply) = ponder_move(&line).and_then(|reply| game.canonical_move_text(reply).ok())
        else {
            continue;
        };
        let Some(engine) = slots[seat].as_mut() else {
            continue;
        };
        let mut expected = moves.clone();
        expected.push(reply.clone());
        let go =
            go_command(&limits, &clocks, mover, engine.dialect()).replacen("go", "go ponder", 1);
        let started = engine
            .send(&position_command(opening, &expected))
            .and_then(|()| engine.send(&go));
        if let Err(error) = started {
            if let Some(engine) = slots[seat].take() {
                engine.kill();
            }
            return loss(termination_of(&error), &error.to_string());
        }
        ponders[seat] = Some(reply);
    }
}

fn duration_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::clock::TimeControl;

    #[test]
    fn bestmove_lines() {
        assert_eq!(judge_bestmove("bestmove e5"), Ok("e5"));
        assert_eq!(judge_bestmove("bestmove  c3-d4  \r"), Ok("c3-d4"));
        assert_eq!(judge_bestmove("bestmove Ke4 ponder Qd5"), Ok("Ke4"));
        assert!(judge_bestmove("bestmove").is_err());
        assert!(judge_bestmove("bestmove e5 e6").is_err());
        assert!(judge_bestmove("bestmove e5 ponder").is_err());
        assert!(judge_bestmove("bestmove e5 ponder a1 extra").is_err());
    }

    #[test]
    fn go_commands_per_dialect() {
        let limits = MoveLimits {
            clock: Some("40/10+0.1".parse().expect("valid")),
            nodes: Some(500),
            ..MoveLimits::default()
        };
        let control = limits.clock.expect("set");
        let clocks = [Some(GameClock::new(control)), Some(GameClock::new(control))];
        assert_eq!(
            go_command(&limits, &clocks, Player::Two, ProtocolDialect::Ugi),
            "go p1time 10000 p2time 10000 p1inc 100 p2inc 100 movestogo 40 nodes 500"
        );
        assert_eq!(
            go_command(&limits, &clocks, Player::One, ProtocolDialect::Uci),
            "go wtime 10000 btime 10000 winc 100 binc 100 movestogo 40 nodes 500"
        );
        // Time odds: black on 40 s + 0.4 s, white on its own fixed time (no clock).
        let black: TimeControl = "40+0.4".parse().expect("valid");
        let odds = [None, Some(GameClock::new(black))];
        assert_eq!(
            go_command(&limits, &odds, Player::Two, ProtocolDialect::Ugi),
            "go p1time 40000 p2time 40000 p1inc 400 p2inc 400 nodes 500"
        );
        assert_eq!(
            go_command(
                &MoveLimits::default(),
                &odds,
                Player::One,
                ProtocolDialect::Ugi
            ),
            "go"
        );
        let fixed = MoveLimits {
            movetime: Some(Duration::from_millis(250)),
            depth: Some(3),
            ..MoveLimits::default()
        };
        assert_eq!(
            go_command(&fixed, &[None, None], Player::One, ProtocolDialect::Ugi),
            "go movetime 250 depth 3"
        );
    }

    #[test]
    fn position_commands() {
        let start = Opening::start();
        assert_eq!(position_command(&start, &[]), "position startpos");
        let book = Opening {
            position: Some("8/8/8/8/8/8/8/8 w -".to_string()),
            moves: vec!["Ke4".to_string()],
        };
        assert_eq!(
            position_command(&book, &["Qd5".to_string()]),
            "position fen 8/8/8/8/8/8/8/8 w - moves Ke4 Qd5"
        );
    }
}
