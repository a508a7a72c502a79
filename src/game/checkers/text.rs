//! Text in and out: the openings, position strings and move notation.

use super::moves::Move;
use super::{Checkers, DRAW_PLIES, MAX_MOVE_NUMBER, NO_CELL};
use crate::board::hex::geometry;
use crate::board::hexset::HexSet;
use crate::board::strided::StridedSet;
use crate::game::{GameConfig, MoveError, Player, PositionError, Variant};

/// Kruzno's White men on side 6 (protocol.md, Appendix B); Black's are their point reflections.
const KRUZNO_WHITE: [&str; 12] = [
    "b2", "b3", "b4", "b5", "b6", "c3", "c4", "c5", "c6", "d4", "d5", "d6",
];

/// The board side a checkers position string gives (from its row count), if the row
/// count is odd; [`GameKind`](crate::game::GameKind) uses it to pick the set width before parsing.
pub fn position_side(text: &str) -> Option<usize> {
    let rows = text.split_whitespace().next()?.split('/').count();
    (rows % 2 == 1).then_some(rows.div_ceil(2))
}

impl<const N: usize> Checkers<N> {
    /// White's opening men on a board of `side`: Kruzno's twelve on side 6, otherwise
    /// the three rows nearest White's edge. Black's are the point reflection.
    fn opening_men(side: usize, border_rule: bool) -> StridedSet<N> {
        let Some(geometry) = geometry(side) else {
            return StridedSet::EMPTY;
        };
        if border_rule && side == 6 {
            KRUZNO_WHITE
                .iter()
                .filter_map(|name| geometry.parse_cell(name))
                .collect()
        } else {
            let rows = (0..3).fold(HexSet::EMPTY, |set, row| set | geometry.row_cells(row));
            StridedSet::from(rows)
        }
    }

    /// The point reflection of a set through the centre (White's half to Black's).
    fn reflected(&self, set: StridedSet<N>) -> StridedSet<N> {
        let last = self.geometry().bit_span() - 1;
        set.iter().map(|cell| last - cell).collect()
    }

    /// The start position of a configuration.
    pub(super) fn opening(config: &GameConfig) -> Result<Self, PositionError> {
        let side = config.board_size();
        let border_rule = config.variant == Variant::Kruzno;
        let mut position = Self::empty_board(side, border_rule, &side.to_string())?;
        let white = Self::opening_men(side, border_rule);
        position.men = [white, position.reflected(white)];
        position.finish_setup();
        Ok(position)
    }

    /// Most men a side may have on this board: what the opening gives it.
    fn men_limit(&self) -> u32 {
        Self::opening_men(self.geometry().side(), self.border_rule()).len()
    }

    pub(super) fn parse_position(text: &str, border_rule: bool) -> Result<Self, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(PositionError::Empty);
        }
        if fields.len() != 5 {
            return Err(PositionError::FieldCount {
                token: text.trim().to_string(),
                expected: 5,
                found: fields.len(),
            });
        }
        let board = fields[0];
        let rows: Vec<&str> = board.split('/').collect();
        let side = rows.len().div_ceil(2);
        if rows.len() % 2 == 0 {
            return Err(PositionError::BoardSize {
                token: board.to_string(),
                side,
                min: 4,
                max: 9,
            });
        }
        let mut position = Self::empty_board(side, border_rule, board)?;
        for (index, row_text) in rows.iter().enumerate() {
            let row = rows.len() - 1 - index;
            position.parse_row(row, row_text)?;
        }
        let limit = position.men_limit();
        for player in [Player::One, Player::Two] {
            let count = position.men[player.index()].len();
            if count > limit {
                return Err(PositionError::TooManyPieces {
                    token: board.to_string(),
                    reason: format!(
                        "{} has {count} men, the opening gives {limit}",
                        colour_name(player)
                    ),
                });
            }
        }
        position.side = match fields[1] {
            "w" => Player::One,
            "b" => Player::Two,
            other => {
                return Err(PositionError::SideToMove {
                    token: other.to_string(),
                });
            }
        };
        position.parse_obligations(fields[2])?;
        position.plies_since_capture = parse_number(fields[3], 0, DRAW_PLIES as u32)? as u16;
        position.move_number = parse_number(fields[4], 1, MAX_MOVE_NUMBER)?;
        position.finish_setup();
        Ok(position)
    }

    /// Reads one row's runs (`W`, `B`, decimal counts of empty cells) into the board.
    fn parse_row(&mut self, row: usize, text: &str) -> Result<(), PositionError> {
        let length = self.geometry().row_length(row);
        let mut number = 0; // cells filled so far
        let bytes = text.as_bytes();
        let mut index = 0;
        while index < bytes.len() {
            let byte = bytes[index];
            if byte.is_ascii_digit() {
                let digits = bytes[index..]
                    .iter()
                    .take_while(|byte| byte.is_ascii_digit())
                    .count();
                if byte == b'0' || digits > 2 {
                    return Err(PositionError::syntax(
                        text,
                        "empty runs are numbers from 1 to 99 without leading zeros",
                    ));
                }
                let run = bytes[index..index + digits]
                    .iter()
                    .fold(0usize, |value, &digit| value * 10 + (digit - b'0') as usize);
                number += run;
                index += digits;
            } else {
                let colour = match byte {
                    b'W' => 0,
                    b'B' => 1,
                    _ => {
                        let letter = text[index..].chars().next().unwrap_or('?');
                        return Err(PositionError::UnknownPiece {
                            token: text.to_string(),
                            letter,
                        });
                    }
                };
                if number < length {
                    let cell = self
                        .geometry()
                        .cell_at(row, number + 1)
                        .expect("a number within the row length names a cell");
                    self.men[colour].insert(cell);
                }
                number += 1;
                index += 1;
            }
            if number > length {
                break;
            }
        }
        if number != length {
            return Err(PositionError::RowLength {
                token: text.to_string(),
                expected: length,
                found: number,
            });
        }
        Ok(())
    }

    fn parse_obligations(&mut self, field: &str) -> Result<(), PositionError> {
        if field == "-" {
            return Ok(());
        }
        if !self.border_rule() {
            return Err(PositionError::rule(
                field,
                "hexcheckers has no border rule, the obligations field must be '-'",
            ));
        }
        let mut previous: Option<usize> = None;
        for name in field.split(',') {
            let cell = self
                .geometry()
                .parse_cell(name)
                .ok_or_else(|| PositionError::OffBoard {
                    token: name.to_string(),
                })?;
            if let Some(previous) = previous {
                if previous == cell {
                    return Err(PositionError::Duplicate {
                        token: name.to_string(),
                    });
                }
                if previous > cell {
                    return Err(PositionError::rule(
                        name,
                        "obligations must be listed in canonical cell order",
                    ));
                }
            }
            previous = Some(cell);
            let colour = if self.men[0].contains(cell) {
                0
            } else if self.men[1].contains(cell) {
                1
            } else {
                return Err(PositionError::rule(name, "no man stands on this cell"));
            };
            if !self.restricted().contains(cell) {
                return Err(PositionError::rule(
                    name,
                    "an obligated man must stand on the border",
                ));
            }
            if self.obligations[colour] != NO_CELL {
                return Err(PositionError::rule(
                    name,
                    "at most one obligated man per side",
                ));
            }
            self.obligations[colour] = cell as u16;
        }
        Ok(())
    }

    /// The canonical position string.
    pub(super) fn write_position(&self) -> String {
        let geometry = self.geometry();
        let mut text = String::new();
        for row in (0..geometry.rows()).rev() {
            let mut empty = 0;
            for number in 1..=geometry.row_length(row) {
                let cell = geometry
                    .cell_at(row, number)
                    .expect("numbers up to the row length name cells");
                let letter = if self.men[0].contains(cell) {
                    'W'
                } else if self.men[1].contains(cell) {
                    'B'
                } else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(letter);
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            if row > 0 {
                text.push('/');
            }
        }
        text.push(' ');
        text.push(self.side.letter());
        text.push(' ');
        let mut obligations: Vec<usize> = self
            .obligations
            .iter()
            .filter(|&&cell| cell != NO_CELL)
            .map(|&cell| cell as usize)
            .collect();
        obligations.sort_unstable();
        if obligations.is_empty() {
            text.push('-');
        }
        for (index, &cell) in obligations.iter().enumerate() {
            if index > 0 {
                text.push(',');
            }
            geometry.write_cell_name(cell, &mut text);
        }
        text.push_str(&format!(
            " {} {}",
            self.plies_since_capture, self.move_number
        ));
        text
    }

    /// Canonical move text: `c3-d4` for a step, `c3xe3xe5` for a chain.
    pub(super) fn write_move(&self, mv: Move) -> String {
        let mut text = String::with_capacity(4 + 4 * mv.segments());
        self.geometry().write_cell_name(mv.start(), &mut text);
        let separator = if mv.is_capture() { 'x' } else { '-' };
        for cell in self.landing_cells(mv) {
            text.push(separator);
            self.geometry().write_cell_name(cell, &mut text);
        }
        text
    }

    /// Parses a move: the canonical full path, or `from-to` / `fromxto` when exactly
    /// one legal move matches.
    pub(super) fn read_move(&self, text: &str) -> Result<Move, MoveError> {
        let token = text.trim();
        if token.is_empty() {
            return Err(MoveError::Empty);
        }
        let is_capture = token.contains(['x', 'X']);
        if is_capture && token.contains('-') {
            return Err(MoveError::syntax(token, "mixes '-' and 'x'"));
        }
        let names: Vec<&str> = token.split(['-', 'x', 'X']).collect();
        if names.len() < 2 {
            return Err(MoveError::syntax(
                token,
                "expected cells joined by '-' (step) or 'x' (capture)",
            ));
        }
        if !is_capture && names.len() > 2 {
            return Err(MoveError::syntax(token, "a step names two cells"));
        }
        if names.len() > super::MAX_JUMPS + 1 {
            return Err(MoveError::syntax(token, "too many cells"));
        }
        let mut cells = [0usize; super::MAX_JUMPS + 1];
        for (slot, name) in cells.iter_mut().zip(&names) {
            let looks_like_cell = name.len() >= 2
                && name.as_bytes()[0].is_ascii_alphabetic()
                && name.as_bytes()[1..].iter().all(u8::is_ascii_digit);
            *slot = match self.geometry().parse_cell(name) {
                Some(cell) => cell,
                None if looks_like_cell => {
                    return Err(MoveError::OffBoard {
                        token: name.to_string(),
                    });
                }
                None => return Err(MoveError::syntax(token, format!("bad cell '{name}'"))),
            };
        }
        let cells = &cells[..names.len()];
        let mut moves = Vec::new();
        self.generate(&mut moves);
        if moves.is_empty() {
            return Err(MoveError::GameOver {
                token: token.to_string(),
            });
        }
        let (from, to) = (cells[0], cells[cells.len() - 1]);
        // The full path, exactly.
        if let Some(&mv) = moves.iter().find(|&&mv| {
            mv.is_capture() == is_capture
                && mv.segments() == cells.len() - 1
                && mv.start() == from
                && self.landing_cells(mv).eq(cells[1..].iter().copied())
        }) {
            return Ok(mv);
        }
        // The short form: start and end only.
        if cells.len() == 2 {
            let matching: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    (mv.is_capture() || !is_capture)
                        && mv.start() == from
                        && self.landing_cells(mv).last() == Some(to)
                })
                .collect();
            match matching.len() {
                1 => return Ok(matching[0]),
                0 => {}
                count => {
                    return Err(MoveError::Ambiguous {
                        token: token.to_string(),
                        count,
                    });
                }
            }
        }
        Err(MoveError::illegal(token, self.why_illegal(from, &moves)))
    }

    /// A reason for rejecting a move that starts on `from`.
    fn why_illegal(&self, from: usize, moves: &[Move]) -> String {
        let name = self.geometry().cell_name(from);
        if !self.men[self.side.index()].contains(from) {
            return format!("no {} man on {name}", colour_name(self.side));
        }
        if moves.first().is_some_and(|mv| mv.is_capture()) {
            return "a capture is mandatory and must be completed".to_string();
        }
        if let Some(cell) = self.obligation(self.side) {
            if moves.iter().all(|mv| mv.start() == cell) && cell != from {
                return format!(
                    "the obligated man on {} must step off the border",
                    self.geometry().cell_name(cell)
                );
            }
        }
        "no such move".to_string()
    }
}

fn colour_name(player: Player) -> &'static str {
    match player {
        Player::One => "White",
        Player::Two => "Black",
    }
}

/// A decimal counter from a position string, within `low..=high`.
fn parse_number(token: &str, low: u32, high: u32) -> Result<u32, PositionError> {
    let error = |reason: String| PositionError::Number {
        token: token.to_string(),
        reason,
    };
    if token.is_empty() || !token.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(error("not a decimal number".to_string()));
    }
    if token.len() > 1 && token.starts_with('0') {
        return Err(error("leading zero".to_string()));
    }
    let value: u32 = token
        .parse()
        .map_err(|_| error(format!("must be from {low} to {high}")))?;
    if !(low..=high).contains(&value) {
        return Err(error(format!("must be from {low} to {high}")));
    }
    Ok(value)
}
