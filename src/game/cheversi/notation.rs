//! Move and position text: parsing with typed errors that name the token, and the
//! canonical forms.
//!
//! Moves: `Ke4` (canonical: uppercase letter, lowercase square). Accepted on input: an `@`
//! between letter and square (`K@e4`), either case for the letter and the square (`ke4`,
//! `KE4`), surrounding whitespace. Nothing is ambiguous: a move is always one letter, an
//! optional `@`, one square.
//!
//! Positions: `<ranks 8..1 split by '/'> <w|b> <last placement square or ->`, e.g.
//! `8/8/8/8/8/8/8/8 w -`. Ranks use `KQRBN` for White, `kqrbn` for Black and one digit 1-8
//! per run of empty squares (two digits in a row are refused, as in chess FEN). The side
//! field is exactly `w` or `b`; the last-placement square is accepted in either case.

use crate::game::{MoveError, Player, PositionError};

use super::bitboard::{KING_ATTACKS, Square, Squares, neighbours};
use super::movegen::Refusal;
use super::piece::{Move, PieceKind};
use super::position::{Cheversi, PLACEMENTS};

/// Why a square token did not parse.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum SquareError {
    /// Not a letter followed by a number.
    Syntax,
    /// A letter and a number, but not a square of the 8x8 board.
    OffBoard,
}

/// Parses a square (`e4`; either case). `i9`, `a0` and `e10` are off the board; anything
/// that is not one letter followed by digits is a syntax error.
pub(super) fn parse_square(text: &str) -> Result<Square, SquareError> {
    let mut chars = text.chars();
    let file = chars.next().ok_or(SquareError::Syntax)?;
    let rank = chars.as_str();
    if !file.is_ascii_alphabetic()
        || rank.is_empty()
        || !rank.bytes().all(|byte| byte.is_ascii_digit())
    {
        return Err(SquareError::Syntax);
    }
    let file_index = file.to_ascii_lowercase() as u32 - 'a' as u32;
    match (rank.as_bytes(), u8::try_from(file_index)) {
        ([digit @ b'1'..=b'8'], Ok(file_index)) => {
            Square::new(file_index, digit - b'1').ok_or(SquareError::OffBoard)
        }
        _ => Err(SquareError::OffBoard),
    }
}

/// Parses move text without checking legality.
pub(super) fn parse_move_text(text: &str) -> Result<Move, MoveError> {
    let token = text.trim();
    if token.is_empty() {
        return Err(MoveError::Empty);
    }
    let mut chars = token.chars();
    let letter = chars.next().ok_or(MoveError::Empty)?;
    let rest = chars.as_str();
    let square_text = rest.strip_prefix('@').unwrap_or(rest);
    if parse_square(token).is_ok() || (letter == '@' && parse_square(rest).is_ok()) {
        return Err(MoveError::syntax(
            token,
            "missing piece letter, expected K, Q, R, B or N before the square",
        ));
    }
    if !letter.is_alphabetic() {
        return Err(MoveError::syntax(
            token,
            "expected a piece letter K, Q, R, B or N",
        ));
    }
    let kind = PieceKind::from_letter(letter).ok_or_else(|| MoveError::UnknownPiece {
        token: token.to_string(),
        letter,
    })?;
    let square = parse_square(square_text).map_err(|error| match error {
        SquareError::Syntax => {
            MoveError::syntax(token, "expected a square like e4 after the letter")
        }
        SquareError::OffBoard => MoveError::OffBoard {
            token: token.to_string(),
        },
    })?;
    Ok(Move::new(kind, square))
}

/// Parses move text and checks it is legal in `position`.
pub(super) fn parse_legal_move(position: &Cheversi, text: &str) -> Result<Move, MoveError> {
    let mv = parse_move_text(text)?;
    check_move(position, mv, text.trim())
}

/// `Ok(mv)` when `mv` is legal, else the error saying why, naming `token`.
pub(super) fn check_move(position: &Cheversi, mv: Move, token: &str) -> Result<Move, MoveError> {
    let token = token.to_string();
    match position.refusal(mv) {
        None => Ok(mv),
        Some(Refusal::GameOver) => Err(MoveError::GameOver { token }),
        Some(Refusal::Occupied) => Err(MoveError::Occupied { token }),
        Some(Refusal::NotInHand) => Err(MoveError::NotInHand { token }),
        Some(Refusal::Rule(reason)) => Err(MoveError::Illegal {
            token,
            reason: reason.to_string(),
        }),
    }
}

/// The canonical position string.
pub(super) fn position_text(position: &Cheversi) -> String {
    let mut text = String::with_capacity(40);
    for rank in (0..8).rev() {
        let mut empty_run = 0;
        for file in 0..8 {
            let piece = Square::new(file, rank).and_then(|square| position.piece_at(square));
            match piece {
                None => empty_run += 1,
                Some((player, kind)) => {
                    if empty_run > 0 {
                        text.push(char::from(b'0' + empty_run));
                        empty_run = 0;
                    }
                    let letter = kind.letter();
                    text.push(match player {
                        Player::One => letter,
                        Player::Two => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        if empty_run > 0 {
            text.push(char::from(b'0' + empty_run));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text.push(' ');
    text.push(position.side_to_move().letter());
    text.push(' ');
    match position.last_placement() {
        Some(last) => text.push_str(&last.square().to_string()),
        None => text.push('-'),
    }
    text
}

/// Pieces per `[colour][kind]` from the board field.
fn parse_board(board: &str) -> Result<[[u64; 5]; 2], PositionError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::syntax(
            board,
            format!("expected 8 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    let mut pieces = [[0u64; 5]; 2];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let mut file: usize = 0;
        let mut previous_digit = false;
        for letter in rank_text.chars() {
            if let Some(run) = letter.to_digit(10) {
                if previous_digit {
                    return Err(PositionError::syntax(
                        rank_text,
                        "two digits in a row; write one digit per run of empty squares",
                    ));
                }
                if !(1..=8).contains(&run) {
                    return Err(PositionError::syntax(
                        rank_text,
                        "an empty run must be 1 to 8 squares",
                    ));
                }
                previous_digit = true;
                file += run as usize;
                continue;
            }
            previous_digit = false;
            let kind = PieceKind::from_letter(letter)
                .filter(|_| letter.is_ascii_alphabetic())
                .ok_or_else(|| PositionError::UnknownPiece {
                    token: rank_text.to_string(),
                    letter,
                })?;
            let colour = if letter.is_ascii_uppercase() { 0 } else { 1 };
            if let Some(square) = u8::try_from(file)
                .ok()
                .and_then(|file| Square::new(file, rank))
            {
                pieces[colour][kind.index()] |= square.bit();
            }
            file += 1;
        }
        if file != 8 {
            return Err(PositionError::RowLength {
                token: rank_text.to_string(),
                expected: 8,
                found: file,
            });
        }
    }
    Ok(pieces)
}

fn player_name(player: Player) -> &'static str {
    match player {
        Player::One => "White",
        Player::Two => "Black",
    }
}

/// Parses and validates a position string. Accepts every position reachable by legal play
/// and refuses, with the token and the rule, every position that breaks a rule visibly.
pub(super) fn parse_position(text: &str) -> Result<Cheversi, PositionError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(PositionError::Empty);
    }
    let fields: Vec<&str> = trimmed.split_whitespace().collect();
    let [board, side, last] = fields[..] else {
        return Err(PositionError::FieldCount {
            token: trimmed.to_string(),
            expected: 3,
            found: fields.len(),
        });
    };
    let pieces = parse_board(board)?;

    // Too many of a kind.
    for player in [Player::One, Player::Two] {
        for kind in PieceKind::ALL {
            let count = pieces[player.index()][kind.index()].count_ones();
            if count > kind.count() as u32 {
                return Err(PositionError::TooManyPieces {
                    token: board.to_string(),
                    reason: format!(
                        "{} has {count} of kind {}, at most {}",
                        player_name(player),
                        kind.letter(),
                        kind.count()
                    ),
                });
            }
        }
    }

    let side_to_move = match side {
        "w" => Player::One,
        "b" => Player::Two,
        _ => {
            return Err(PositionError::SideToMove {
                token: side.to_string(),
            });
        }
    };
    let placed = |player: Player| -> u32 {
        pieces[player.index()]
            .iter()
            .map(|set| set.count_ones())
            .sum()
    };
    let (white_placed, black_placed) = (placed(Player::One), placed(Player::Two));
    if white_placed != black_placed && white_placed != black_placed + 1 {
        return Err(PositionError::rule(
            board,
            format!(
                "White has placed {white_placed} pieces and Black {black_placed}; White must be \
                 level or one ahead (the sides alternate)"
            ),
        ));
    }
    let expected_side = if white_placed == black_placed {
        Player::One
    } else {
        Player::Two
    };
    if side_to_move != expected_side {
        return Err(PositionError::CountsContradictSide {
            token: side.to_string(),
        });
    }

    let has = |player: Player, kind: PieceKind| pieces[player.index()][kind.index()] != 0;
    if white_placed > 0 && !has(Player::One, PieceKind::King) {
        return Err(PositionError::rule(
            board,
            "White's first placement is its King, so it must be on the board (rule 1)",
        ));
    }
    if black_placed >= 7 && !has(Player::Two, PieceKind::Queen) {
        return Err(PositionError::rule(
            board,
            "Black's Queen must be placed by Black's 7th placement (rule 6)",
        ));
    }
    if has(Player::Two, PieceKind::King) && black_placed < 8 {
        return Err(PositionError::rule(
            board,
            "Black's King can only be Black's 8th placement (rule 3)",
        ));
    }
    for player in [Player::One, Player::Two] {
        let bishops = pieces[player.index()][PieceKind::Bishop.index()];
        if bishops.count_ones() == 2 {
            let mut squares = Squares(bishops);
            if let (Some(first), Some(second)) = (squares.next(), squares.next()) {
                if first.is_dark() == second.is_dark() {
                    return Err(PositionError::rule(
                        board,
                        format!(
                            "{}'s Bishops stand on the same square colour (rule 4)",
                            player_name(player)
                        ),
                    ));
                }
            }
        }
    }
    let occupied: u64 = pieces.iter().flatten().fold(0, |all, set| all | set);
    if !is_connected(occupied) {
        return Err(PositionError::rule(
            board,
            "every placement after the first touches a piece, so the pieces must form one \
             group (rule 2)",
        ));
    }

    // The last-placement field.
    let total = white_placed + black_placed;
    let last_square = if last == "-" {
        if total > 0 {
            return Err(PositionError::rule(
                last,
                "the board is not empty, so the last placement's square must be given",
            ));
        }
        None
    } else {
        let square = parse_square(last).map_err(|error| match error {
            SquareError::Syntax => PositionError::syntax(last, "expected a square like e4 or -"),
            SquareError::OffBoard => PositionError::OffBoard {
                token: last.to_string(),
            },
        })?;
        if total == 0 {
            return Err(PositionError::rule(
                last,
                "the board is empty, so the last placement must be -",
            ));
        }
        let just_moved = side_to_move.opponent();
        if pieces[just_moved.index()]
            .iter()
            .all(|set| set & square.bit() == 0)
        {
            return Err(PositionError::rule(
                last,
                format!(
                    "the last placement must hold a piece of the side that just moved ({})",
                    player_name(just_moved)
                ),
            ));
        }
        Some(square)
    };
    let position = Cheversi::from_pieces(&pieces, last_square);
    check_placement_order(&position, last)?;
    Ok(position)
}

/// Rules 3, 5, 7 and 8 as far as the board and the last placement show them.
fn check_placement_order(position: &Cheversi, last_token: &str) -> Result<(), PositionError> {
    let Some(last) = position.last_placement() else {
        return Ok(());
    };
    let empty = !position.occupied();
    // Rule 5: a Queen on the board while the opponent's Queen is still in hand must be the
    // last placement, or the opponent would have had to answer it.
    for player in [Player::One, Player::Two] {
        let queen = position.pieces(player, PieceKind::Queen);
        if queen != 0
            && position.in_hand(player.opponent(), PieceKind::Queen) > 0
            && last.square().bit() != queen
        {
            return Err(PositionError::rule(
                last_token,
                format!(
                    "{}'s Queen is still in hand, so {}'s Queen must be the last placement \
                     (rule 5)",
                    player_name(player.opponent()),
                    player_name(player)
                ),
            ));
        }
    }
    match position.placements() {
        // White's 8th just placed, Black's King to come (rule 7).
        placements if placements == PLACEMENTS - 1 => {
            if last.kind() == PieceKind::King {
                return Err(PositionError::rule(
                    last_token,
                    "White's King was White's first placement, not its 8th (rule 1)",
                ));
            }
            if KING_ATTACKS[last.square().index()] & empty == 0 {
                return Err(PositionError::rule(
                    last_token,
                    "White's 8th placement must leave an empty square next to it (rule 7)",
                ));
            }
        }
        PLACEMENTS => {
            if last.kind() != PieceKind::King {
                return Err(PositionError::rule(
                    last_token,
                    "Black's 8th and last placement is its King (rule 3)",
                ));
            }
            let white_eighth_candidates =
                position.pieces_of(Player::One) & !position.pieces(Player::One, PieceKind::King);
            if KING_ATTACKS[last.square().index()] & white_eighth_candidates == 0 {
                return Err(PositionError::rule(
                    last_token,
                    "Black's King must touch White's 8th piece (rule 8)",
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// True when the pieces form one group in the 8-neighbourhood (or there are none).
fn is_connected(occupied: u64) -> bool {
    if occupied == 0 {
        return true;
    }
    let mut group = occupied & occupied.wrapping_neg();
    loop {
        let grown = (group | neighbours(group)) & occupied;
        if grown == group {
            return group == occupied;
        }
        group = grown;
    }
}
