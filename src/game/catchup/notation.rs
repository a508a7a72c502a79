//! Catchup text: the turn notation (`c3,e5,g7`) and the position string
//! (`<rows> <w|b> <limit>`), with typed errors naming the offending token.

use super::moves::Move;
use super::position::Catchup;
use crate::board::HexGeometry;
use crate::board::hex::{MAX_SIDE, MIN_SIDE};
use crate::game::{CatchupRule, MoveError, Player, PositionError};

/// The canonical text of a turn.
pub(super) fn write_move(geometry: &HexGeometry, mv: Move) -> String {
    let mut text = String::with_capacity(12);
    for (index, &cell) in mv.cells().iter().enumerate() {
        if index > 0 {
            text.push(',');
        }
        geometry.write_cell_name(cell as usize, &mut text);
    }
    text
}

/// True when `text` has the shape of a cell name (a letter, then 1 or 2 digits without a
/// leading zero), whether or not the board has that cell.
fn looks_like_cell(text: &str) -> bool {
    let bytes = text.as_bytes();
    match bytes.split_first() {
        Some((letter, digits)) => {
            letter.is_ascii_alphabetic()
                && (1..=2).contains(&digits.len())
                && digits.iter().all(u8::is_ascii_digit)
                && digits[0] != b'0'
        }
        None => false,
    }
}

/// Parses a turn and checks it is legal in `position`.
pub(super) fn parse_move(position: &Catchup, text: &str) -> Result<Move, MoveError> {
    if text.is_empty() {
        return Err(MoveError::Empty);
    }
    if position.empty == 0 {
        return Err(MoveError::GameOver {
            token: text.to_string(),
        });
    }
    let geometry = position.tables.geometry;
    let empty = position.empty_cells();
    let mut cells = Vec::with_capacity(3);
    for token in text.split(',') {
        if token.is_empty() {
            return Err(MoveError::syntax(text, "empty cell between commas"));
        }
        if !looks_like_cell(token) {
            return Err(MoveError::syntax(
                token,
                "expected a cell: row letter and number, e.g. e5",
            ));
        }
        let cell = geometry
            .parse_cell(token)
            .ok_or_else(|| MoveError::OffBoard {
                token: token.to_string(),
            })?;
        if cells.contains(&cell) {
            return Err(MoveError::Duplicate {
                token: token.to_string(),
            });
        }
        if !empty.contains(cell) {
            return Err(MoveError::Occupied {
                token: token.to_string(),
            });
        }
        cells.push(cell);
    }
    let allowed = position.stones_allowed();
    if cells.len() > allowed {
        return Err(MoveError::TooManyStones {
            token: text.to_string(),
            given: cells.len(),
            allowed,
        });
    }
    Move::from_cells(&cells).ok_or_else(|| MoveError::illegal(text, "not a legal turn"))
}

/// The canonical position string.
pub(super) fn write_position(position: &Catchup) -> String {
    let geometry = position.tables.geometry;
    let mut text = String::with_capacity(geometry.cell_count() + 24);
    for y in (0..geometry.rows()).rev() {
        let mut run = 0;
        for number in 1..=geometry.row_length(y) {
            let Some(bit) = geometry.cell_at(y, number) else {
                continue;
            };
            let letter = if position.stones[0].contains(bit) {
                'W'
            } else if position.stones[1].contains(bit) {
                'B'
            } else {
                run += 1;
                continue;
            };
            if run > 0 {
                text.push_str(&run.to_string());
                run = 0;
            }
            text.push(letter);
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        if y > 0 {
            text.push('/');
        }
    }
    text.push(' ');
    text.push(position.to_move.letter());
    text.push(' ');
    text.push((b'0' + position.limit) as char);
    text
}

/// One row's cells: `None` for empty, `Some(player index)` for a stone.
fn parse_row(row: &str, expected: usize) -> Result<Vec<Option<usize>>, PositionError> {
    let mut cells = Vec::with_capacity(expected);
    let bytes = row.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        match byte {
            b'W' => cells.push(Some(0)),
            b'B' => cells.push(Some(1)),
            b'0'..=b'9' => {
                let end = bytes[at..]
                    .iter()
                    .position(|byte| !byte.is_ascii_digit())
                    .map_or(bytes.len(), |offset| at + offset);
                let digits = &row[at..end];
                if digits.len() > 2 || digits.starts_with('0') {
                    return Err(PositionError::Number {
                        token: row.to_string(),
                        reason: format!(
                            "empty run '{digits}' must be 1 to 99 without leading zero"
                        ),
                    });
                }
                let count: usize = digits.parse().map_err(|_| PositionError::Number {
                    token: row.to_string(),
                    reason: format!("bad empty run '{digits}'"),
                })?;
                cells.extend(std::iter::repeat_n(None, count));
                at = end;
                continue;
            }
            _ => {
                let letter = row[at..].chars().next().unwrap_or('?');
                return Err(PositionError::UnknownPiece {
                    token: row.to_string(),
                    letter,
                });
            }
        }
        at += 1;
    }
    if cells.len() != expected {
        return Err(PositionError::RowLength {
            token: row.to_string(),
            expected,
            found: cells.len(),
        });
    }
    Ok(cells)
}

/// Parses and validates a position string; `rule` comes from the configuration.
pub(super) fn parse_position(text: &str, rule: CatchupRule) -> Result<Catchup, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(PositionError::Empty);
    }
    if fields.len() != 3 {
        return Err(PositionError::FieldCount {
            token: text.trim().to_string(),
            expected: 3,
            found: fields.len(),
        });
    }
    let (board, side_field, limit_field) = (fields[0], fields[1], fields[2]);
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() % 2 == 0 {
        return Err(PositionError::syntax(
            board,
            format!("{} rows: a board of side n has 2n-1 rows", rows.len()),
        ));
    }
    let side = rows.len().div_ceil(2);
    if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
        return Err(PositionError::BoardSize {
            token: board.to_string(),
            side,
            min: MIN_SIDE,
            max: MAX_SIDE,
        });
    }
    let to_move = match side_field {
        "w" => Player::One,
        "b" => Player::Two,
        _ => {
            return Err(PositionError::SideToMove {
                token: side_field.to_string(),
            });
        }
    };
    let limit: u8 = match limit_field {
        "1" => 1,
        "2" => 2,
        "3" => 3,
        _ => {
            return Err(PositionError::Number {
                token: limit_field.to_string(),
                reason: "the stone limit must be 1, 2 or 3".to_string(),
            });
        }
    };
    let mut position = Catchup::empty_board(side, rule)?;
    let geometry = position.tables.geometry;
    for (row_index, row) in rows.iter().enumerate() {
        let y = geometry.rows() - 1 - row_index;
        let cells = parse_row(row, geometry.row_length(y))?;
        for (number, cell) in cells.into_iter().enumerate() {
            let (Some(index), Some(bit)) = (cell, geometry.cell_at(y, number + 1)) else {
                continue;
            };
            position.to_move = if index == 0 { Player::One } else { Player::Two };
            position.place_stone(bit);
        }
    }
    position.to_move = to_move;
    position.limit = limit;
    check_consistency(&position, text)?;
    position.hash = position.full_hash();
    Ok(position)
}

/// Rejects positions that no game can reach, as far as the position alone proves it.
fn check_consistency(position: &Catchup, text: &str) -> Result<(), PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, side_field, limit_field) = (fields[0], fields[1], fields[2]);
    let white = position.stones[0].len();
    let black = position.stones[1].len();
    let to_move = position.to_move;
    if white == 0 && black == 0 {
        if to_move == Player::Two {
            return Err(PositionError::CountsContradictSide {
                token: side_field.to_string(),
            });
        }
        if position.limit != 1 {
            return Err(PositionError::rule(
                limit_field,
                "White's first turn places exactly 1 stone (limit 1)",
            ));
        }
        return Ok(());
    }
    if position.limit == 1 {
        return Err(PositionError::rule(
            limit_field,
            "limit 1 only on the empty board (White's first turn)",
        ));
    }
    if white == 0 {
        return Err(PositionError::CountsContradictSide {
            token: board.to_string(),
        });
    }
    if black == 0 && (to_move == Player::One || white != 1) {
        // Black has not moved yet, so only White's single first stone can be on the board.
        return Err(PositionError::CountsContradictSide {
            token: board.to_string(),
        });
    }
    if position.limit == 3 {
        let mover = position.player_score(to_move);
        let other = position.player_score(to_move.opponent());
        let possible = other >= 2
            && match position.rule {
                CatchupRule::Revised => other >= mover,
                CatchupRule::Original => other > mover,
            };
        if !possible {
            return Err(PositionError::rule(
                limit_field,
                format!(
                    "3 stones need the opponent's last turn to have {} (scores: mover {mover}, opponent {other})",
                    match position.rule {
                        CatchupRule::Revised => "raised its score to at least the mover's",
                        CatchupRule::Original => "grown the largest group on the board",
                    }
                ),
            ));
        }
    }
    Ok(())
}
