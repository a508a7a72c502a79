//! `d`: the board drawn as text, read from the position string (so this module needs
//! nothing from the game modules but their public text), then the position string, the
//! side to move, the rule score and the result.
//!
//! The game's facts give the board's shape. A square board (Cheversi's) is drawn 8x8 with
//! ranks and files; hex boards as hexagons, row
//! letters on the left, the number of each row's last cell on the right and the cell
//! numbers of the first and last rows above and below. Side 3:
//!
//! ```text
//!     1 2 3
//!   e . . . 3
//!  d . . . . 4
//! c . W . . . 5
//!  b . . . . 4
//!   a . . B 3
//!     1 2 3
//! ```

use crate::board::hex::geometry;
use crate::game::board_field::expand_row;
use crate::game::{BoardShape, Player};
use crate::registry::AnyGame;

/// Every line `d` prints for `game`.
pub fn describe(game: &AnyGame) -> Vec<String> {
    let text = game.position_text();
    let board = text.split_whitespace().next().unwrap_or("");
    let drawing = match game.variant().facts().board {
        BoardShape::Square => square_board(board),
        BoardShape::Hex => hex_board(board),
    };
    let mut lines = drawing.unwrap_or_else(|| vec!["(board not drawable)".to_string()]);
    let side = match game.side_to_move() {
        Player::One => "p1 (white)",
        Player::Two => "p2 (black)",
    };
    let [first, second] = game.score();
    lines.push(format!("Variant: {}", game.variant()));
    lines.push(format!("Position: {text}"));
    lines.push(format!("Side to move: {side}"));
    lines.push(format!("Rule score: p1 {first} p2 {second}"));
    lines.push(format!(
        "Result: {}",
        game.outcome().map_or("none", |outcome| outcome.as_str())
    ));
    lines
}

/// The 8x8 Cheversi board, rank 8 at the top.
fn square_board(board: &str) -> Option<Vec<String>> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    let mut lines = vec!["  +-----------------+".to_string()];
    for (index, rank) in ranks.iter().enumerate() {
        let cells = expand_row(rank)?;
        if cells.len() != 8 {
            return None;
        }
        let row: Vec<String> = cells.iter().map(char::to_string).collect();
        lines.push(format!("{} | {} |", 8 - index, row.join(" ")));
    }
    lines.push("  +-----------------+".to_string());
    lines.push("    a b c d e f g h".to_string());
    Some(lines)
}

/// A hexhex board; the position string lists rows from the last one down to row `a`.
fn hex_board(board: &str) -> Option<Vec<String>> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() % 2 == 0 {
        return None;
    }
    let side = rows.len().div_ceil(2);
    let shape = geometry(side)?;
    let numbers = |count: usize| -> String {
        (1..=count)
            .map(|number| (number % 10).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let edge = format!("{}{}", " ".repeat(side + 1), numbers(side));
    let mut lines = vec![edge.clone()];
    for (index, row) in rows.iter().enumerate() {
        let y = rows.len() - 1 - index;
        let cells = expand_row(row)?;
        if cells.len() != shape.row_length(y) {
            return None;
        }
        let indent = y.abs_diff(side - 1);
        let letter = char::from(b'a' + u8::try_from(y).ok()?);
        let glyphs: Vec<String> = cells.iter().map(char::to_string).collect();
        lines.push(format!(
            "{}{letter} {} {}",
            " ".repeat(indent),
            glyphs.join(" "),
            cells.len()
        ));
    }
    lines.push(edge);
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::{hex_board, square_board};

    #[test]
    fn hex_board_side_three_is_a_hexagon() {
        let lines = hex_board("3/4/1W3/4/2B").expect("a valid side-3 board");
        assert_eq!(
            lines,
            vec![
                "    1 2 3",
                "  e . . . 3",
                " d . . . . 4",
                "c . W . . . 5",
                " b . . . . 4",
                "  a . . B 3",
                "    1 2 3",
            ]
        );
        assert_eq!(hex_board("3/4/5/4"), None);
        assert_eq!(hex_board("3/4/6/4/3"), None);
    }

    #[test]
    fn square_board_puts_rank_eight_on_top() {
        let lines = square_board("8/8/8/3q4/4K3/8/8/8").expect("a valid board");
        assert_eq!(lines[4], "5 | . . . q . . . . |");
        assert_eq!(lines[5], "4 | . . . . K . . . |");
        assert_eq!(lines[10], "    a b c d e f g h");
        assert_eq!(square_board("8/8"), None);
    }
}
