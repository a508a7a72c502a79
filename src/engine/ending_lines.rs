//! Hex checkers' exact lines: with several lines (`MultiPV` above 1), when the ending
//! tables cover the position and every move's result, each line is its move's exact
//! value read from the tables, and the search ends there (a table probe per move, no
//! tree).
//!
//! A line's score is what the single-line search gives the same move: a win `cp 100000 -
//! n`, `n` the plies from the root to the capture that converts it (the winner's fastest,
//! the loser's longest defence), a loss the negation, a move that ends the game `mate 1`;
//! a draw is `cp 0` (its exact value, without the contempt a search adds). Each line is
//! followed by its marker, `info string proven win N`, `proven loss N` or `proven draw`.
//! A line's `pv` follows the tables' best play up to the conversion (at most
//! [`PV_PLIES`] plies; one move for a draw).

use std::time::Instant;

use crate::endings::{EndingTables, Value};
use crate::game::checkers::{Checkers, Move};
use crate::game::{GameRecord, Outcome, Rules};
use crate::search::alphabeta::{MATE, TABLE_WIN, pv_text};
use crate::search::{GameSearchResult, Score, SearchInfo, SearchLimits};

/// Longest principal variation a line shows.
pub const PV_PLIES: usize = 24;

/// A move's exact value for the side that plays it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExactValue {
    /// The move wins the game on the spot (the opponent has no man or no move left).
    WinsNow,
    /// Won: the converting capture comes `plies` plies from the position (the move included).
    Win(u32),
    /// Lost: the opponent's converting capture comes `plies` plies from the position.
    Loss(u32),
    /// Drawn; `men_ahead` after the move, the search's tie-break between drawn lines.
    Draw { men_ahead: i32 },
}

impl ExactValue {
    /// The score the line reports.
    pub fn score(self) -> Score {
        match self {
            ExactValue::WinsNow => Score::Mate(1),
            ExactValue::Win(plies) => Score::Centipawns(TABLE_WIN - plies as i32),
            ExactValue::Loss(plies) => Score::Centipawns(-(TABLE_WIN - plies as i32)),
            ExactValue::Draw { .. } => Score::Centipawns(0),
        }
    }

    /// The marker line's words after `info string`.
    pub fn marker(self) -> String {
        match self {
            ExactValue::WinsNow => "proven win 1".to_string(),
            ExactValue::Win(plies) => format!("proven win {plies}"),
            ExactValue::Loss(plies) => format!("proven loss {plies}"),
            ExactValue::Draw { .. } => "proven draw".to_string(),
        }
    }

    /// Best first: the quickest win, then draws (more men ahead first), the longest loss.
    fn rank(self) -> i32 {
        match self {
            ExactValue::WinsNow => MATE - 1,
            ExactValue::Win(plies) => TABLE_WIN - plies as i32,
            ExactValue::Loss(plies) => -(TABLE_WIN - plies as i32),
            ExactValue::Draw { men_ahead } => men_ahead,
        }
    }
}

/// The value of `mv` for the side to move in `position`, whose result `child` is (with
/// `outcome`, its result by the rules and by repetition), when the game ends there or
/// the tables cover it.
fn value_of_move<const N: usize>(
    position: &Checkers<N>,
    child: &Checkers<N>,
    outcome: Option<Outcome>,
    tables: &EndingTables,
) -> Option<ExactValue> {
    let mover = position.side_to_move();
    let men_ahead = child.men(mover).len() as i32 - child.men(mover.opponent()).len() as i32;
    match outcome {
        Some(Outcome::Win(winner)) if winner == mover => return Some(ExactValue::WinsNow),
        // A move cannot lose on the spot: the side that moved still has men and a turn
        // passed; the tables would say so otherwise.
        Some(Outcome::Win(_)) => return None,
        Some(Outcome::Draw) => return Some(ExactValue::Draw { men_ahead }),
        None => {}
    }
    Some(match tables.value(child)? {
        Value::Loss(0) => ExactValue::WinsNow,
        Value::Loss(plies) => ExactValue::Win(u32::from(plies) + 1),
        Value::Win(plies) => ExactValue::Loss(u32::from(plies) + 1),
        Value::Draw => ExactValue::Draw { men_ahead },
    })
}

/// Each of `moves` (legal in `position`) with its exact value, `play` giving the position
/// a move leads to and that position's result; `None` when a move's result is not
/// covered.
fn valued_moves<const N: usize>(
    position: &Checkers<N>,
    moves: Vec<Move>,
    tables: &EndingTables,
    mut play: impl FnMut(Move) -> (Checkers<N>, Option<Outcome>),
) -> Option<Vec<(Move, ExactValue)>> {
    moves
        .into_iter()
        .map(|mv| {
            let (child, outcome) = play(mv);
            Some((mv, value_of_move(position, &child, outcome, tables)?))
        })
        .collect()
}

/// Every legal move of the record's position with its exact value, in the rules' move
/// order, when the tables cover the position and every move's result; `None` otherwise
/// (the search plays as usual) or when the game is over.
pub fn exact_move_values<const N: usize>(
    record: &GameRecord<Checkers<N>>,
    tables: &EndingTables,
) -> Option<Vec<(Move, ExactValue)>> {
    let position = record.position();
    tables.value(position)?;
    let mut moves = Vec::new();
    record.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    // Played on the record, so that a repetition counts.
    valued_moves(position, moves, tables, |mv| {
        let mut child = record.clone();
        child.play_unchecked(mv);
        (child.position().clone(), child.outcome())
    })
}

/// The best move of `position` by the tables (the quickest win, the longest defence; of
/// equal values the first), with its value; `None` when a move's result is not covered
/// or there is no move.
fn table_best_move<const N: usize>(
    position: &Checkers<N>,
    tables: &EndingTables,
) -> Option<(Move, ExactValue)> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    valued_moves(position, moves, tables, |mv| {
        let mut child = position.clone();
        child.play_unchecked(mv);
        let outcome = child.outcome();
        (child, outcome)
    })?
    .into_iter()
    .reduce(|best, next| {
        if next.1.rank() > best.1.rank() {
            next
        } else {
            best
        }
    })
}

/// The principal variation of a line that starts with `first`, valued `value`: the
/// tables' best play up to the converting capture (the plies of the value), at most
/// [`PV_PLIES`] plies.
fn table_line<const N: usize>(
    position: &Checkers<N>,
    first: Move,
    value: ExactValue,
    tables: &EndingTables,
) -> Vec<Move> {
    let plies = match value {
        ExactValue::Win(plies) | ExactValue::Loss(plies) => plies as usize,
        ExactValue::WinsNow | ExactValue::Draw { .. } => 1,
    };
    let mut line = vec![first];
    let mut current = position.clone();
    current.play_unchecked(first);
    while line.len() < plies.min(PV_PLIES) && current.outcome().is_none() {
        let Some((mv, _)) = table_best_move(&current, tables) else {
            break;
        };
        line.push(mv);
        current.play_unchecked(mv);
    }
    line
}

/// With several lines, the exact lines of the record's position when the tables cover
/// it (see the module notes): reports the best `lines` of them, each followed by its
/// marker, and returns line 1 as the search's result; `None` when the tables do not
/// cover it.
pub fn report_exact_lines<const N: usize>(
    record: &GameRecord<Checkers<N>>,
    tables: &EndingTables,
    lines: usize,
    limits: &SearchLimits,
    report: &mut dyn FnMut(SearchInfo),
) -> Option<GameSearchResult<Move>> {
    let received = limits.received.unwrap_or_else(Instant::now);
    let mut valued = exact_move_values(record, tables)?;
    // The best first; of equal values, the first in the rules' order.
    let nodes = valued.len() as u64;
    valued.sort_by_key(|&(_, value)| std::cmp::Reverse(value.rank()));
    valued.truncate(lines.max(1));
    let position = record.position();
    let elapsed = received.elapsed();
    for (rank, &(mv, value)) in valued.iter().enumerate() {
        let line = table_line(position, mv, value, tables);
        report(SearchInfo {
            depth: Some(1),
            seldepth: Some(line.len() as u32),
            multipv: Some(rank as u32 + 1),
            score: Some(value.score()),
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            time_ms: elapsed.as_millis() as u64,
            pv: pv_text(position, &line),
            ..SearchInfo::default()
        });
        report(SearchInfo {
            string: Some(value.marker()),
            ..SearchInfo::default()
        });
    }
    let (best, value) = valued[0];
    Some(GameSearchResult {
        best_move: Some(best),
        ponder: None,
        score: Some(value.score()),
        nodes,
        depth: 1,
    })
}
