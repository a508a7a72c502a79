//! What a picture of one position shows, as data: the piece on every cell, the marks
//! (last move, overlays) and the caption lines. The rules library supplies the facts
//! (attacks, obligations, scores, the result); [`super::svg`] and the page's `draw.js`
//! turn a [`Frame`] into SVG text the same way.

use serde::Serialize;

use super::layout::MarkKind;
use crate::board::hex::{HexGeometry, geometry};
use crate::game::board_field::expand_row;
use crate::game::cheversi::{Cheversi, PieceKind, Squares, attacks};
use crate::game::{BoardShape, CatchupRule, Outcome, Player, Variant};
use crate::registry::AnyGame;

/// Some cells of the board with one meaning, optionally a label per cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub kind: MarkKind,
    /// Cell indices in canonical order (for a path: in the order of the path).
    pub cells: Vec<u16>,
    /// One label per cell, or empty.
    pub labels: Vec<String>,
}

/// One position as a picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// One position-string letter per cell in canonical order, `.` for an empty cell.
    pub contents: String,
    pub marks: Vec<Mark>,
    pub caption: Vec<String>,
}

/// Why a position cannot be drawn (only a position string the rules did not write).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw the position ({0})")]
pub struct FrameError(pub String);

fn player_name(player: Player) -> &'static str {
    match player {
        Player::One => "White",
        Player::Two => "Black",
    }
}

/// The board field of a position string as one letter per cell, canonical order (the
/// string lists the last row first; the first row comes first here).
fn contents_of(position: &str) -> Option<String> {
    let board = position.split_whitespace().next()?;
    let mut contents = String::new();
    for row in board.split('/').rev() {
        contents.extend(expand_row(row)?);
    }
    Some(contents)
}

/// Canonical index of a cell name: hex cells by their ordinal, Cheversi squares by
/// `rank * 8 + file`.
fn cell_index(shape: Option<&HexGeometry>, name: &str) -> Option<u16> {
    match shape {
        Some(shape) => {
            let bit = shape.parse_cell(name)?;
            shape.ordinal(bit).map(|ordinal| ordinal as u16)
        }
        None => {
            let bytes = name.as_bytes();
            match bytes {
                [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
                    Some(u16::from((rank - b'1') * 8 + (file - b'a')))
                }
                _ => None,
            }
        }
    }
}

fn mark(kind: MarkKind, cells: Vec<u16>) -> Mark {
    Mark {
        kind,
        cells,
        labels: Vec::new(),
    }
}

/// The picture of `game`'s current position; `last_move` is the canonical text of the
/// move that led to it, if any.
pub fn frame(game: &AnyGame, last_move: Option<&str>) -> Result<Frame, FrameError> {
    let position = game.position_text();
    let variant = game.variant();
    let side = game.config().board_size();
    let shape = match variant.facts().board {
        BoardShape::Square => None,
        BoardShape::Hex => {
            // A position string's row count fixes the side (Kruzno from any side 4-9).
            let rows = position
                .split_whitespace()
                .next()
                .map_or(0, |board| board.split('/').count());
            Some(geometry(rows.div_ceil(2)).ok_or_else(|| FrameError(position.clone()))?)
        }
    };
    let contents = contents_of(&position).ok_or_else(|| FrameError(position.clone()))?;
    let mut marks = Vec::new();
    if let Some(text) = last_move {
        marks.extend(last_move_marks(variant, shape, text));
    }
    let [white, black] = game.score();
    let detail = match variant {
        Variant::Cheversi => {
            if let Some(record) = game.record::<Cheversi>() {
                marks.extend(cheversi_attacks(record.position()));
            }
            format!("Score (attacked empty squares): White {white}, Black {black}")
        }
        Variant::Kruzno | Variant::HexCheckers => {
            let mut line = format!("Men: White {white}, Black {black}");
            let obligations = obligations(shape, &position, &contents);
            if !obligations.is_empty() {
                let named: Vec<String> = obligations
                    .iter()
                    .map(|(player, name, _)| format!("{} {name}", player_name(*player)))
                    .collect();
                line.push_str(&format!("; must leave the border: {}", named.join(", ")));
                marks.push(mark(
                    MarkKind::Obligation,
                    obligations.iter().map(|(_, _, cell)| *cell).collect(),
                ));
            }
            line
        }
        Variant::Added(_) => format!("Score: White {white}, Black {black}"),
        Variant::Catchup => {
            let (line, group_marks) = shape.map_or_else(
                || (String::new(), Vec::new()),
                |shape| catchup_groups(shape, &contents),
            );
            marks.extend(group_marks);
            line
        }
    };
    marks.sort_by_key(|mark| mark.kind);
    let title = match variant {
        Variant::Cheversi => "Cheversi".to_string(),
        Variant::Kruzno => format!("Kruzno, side {side}"),
        Variant::HexCheckers => format!("Hex checkers, side {side}"),
        Variant::Catchup => format!(
            "Catchup, side {side}, {} rule",
            CatchupRule::of(game.config()).name()
        ),
        Variant::Added(added) => format!("{}, side {side}", added.facts().title),
    };
    let mover = match game.outcome() {
        Some(_) => "game over".to_string(),
        None => format!("{} to move", player_name(game.side_to_move())),
    };
    let plies = game.ply_count();
    let last = match last_move {
        Some(text) => format!("Last move (ply {plies}): {text}"),
        None => "No move shown".to_string(),
    };
    let result = match game.outcome() {
        Some(Outcome::Win(player)) => format!("Result: {} wins", player_name(player)),
        Some(Outcome::Draw) => "Result: draw".to_string(),
        None => "Result: none yet".to_string(),
    };
    Ok(Frame {
        contents,
        marks,
        caption: vec![format!("{title} \u{b7} {mover}"), detail, last, result],
    })
}

/// The marks of a move from its canonical text: a placement's square, a Catchup turn's
/// stones, a checkers move's whole path with the men it captured.
fn last_move_marks(variant: Variant, shape: Option<&HexGeometry>, text: &str) -> Vec<Mark> {
    let cells = |names: &mut dyn Iterator<Item = &str>| -> Vec<u16> {
        names.filter_map(|name| cell_index(shape, name)).collect()
    };
    match variant {
        Variant::Cheversi => {
            let square = text.get(1..).unwrap_or("");
            vec![mark(
                MarkKind::LastMove,
                cells(&mut std::iter::once(square)),
            )]
        }
        Variant::Catchup => {
            let mut stones = cells(&mut text.split(','));
            stones.sort_unstable();
            vec![mark(MarkKind::LastMove, stones)]
        }
        Variant::Added(_) => Vec::new(),
        Variant::Kruzno | Variant::HexCheckers => {
            let Some(shape) = shape else {
                return Vec::new();
            };
            let path = cells(&mut text.split(['-', 'x']));
            let mut marks = Vec::new();
            if let (Some(&first), Some(&last)) = (path.first(), path.last()) {
                let mut ends = vec![first, last];
                ends.sort_unstable();
                ends.dedup();
                marks.push(mark(MarkKind::LastMove, ends));
            }
            if text.contains('x') {
                // A jump lands two steps away: the jumped man stands half way.
                let mut captured: Vec<u16> = path
                    .windows(2)
                    .filter_map(|pair| {
                        let from = shape.cells()[usize::from(pair[0])] as usize;
                        let to = shape.cells()[usize::from(pair[1])] as usize;
                        let ((fx, fy), (tx, ty)) = (shape.axial(from), shape.axial(to));
                        let middle = (fx + tx) / 2 + shape.width() * ((fy + ty) / 2);
                        shape.ordinal(middle).map(|ordinal| ordinal as u16)
                    })
                    .collect();
                captured.sort_unstable();
                marks.push(mark(MarkKind::Captured, captured));
            }
            marks.push(mark(MarkKind::MovePath, path));
            marks
        }
    }
}

/// Every empty Cheversi square either side attacks, labelled with its attacker count.
fn cheversi_attacks(position: &crate::game::cheversi::Cheversi) -> Vec<Mark> {
    let occupied = position.occupied();
    [
        (Player::One, MarkKind::AttackWhite),
        (Player::Two, MarkKind::AttackBlack),
    ]
    .into_iter()
    .map(|(player, kind)| {
        let mut counts = [0u32; 64];
        for piece in PieceKind::ALL {
            for square in Squares(position.pieces(player, piece)) {
                for target in Squares(attacks(piece, square, occupied) & !occupied) {
                    counts[target.index()] += 1;
                }
            }
        }
        let squares: Vec<u16> = (0..64u16)
            .filter(|&square| counts[usize::from(square)] > 0)
            .collect();
        Mark {
            kind,
            labels: squares
                .iter()
                .map(|&square| counts[usize::from(square)].to_string())
                .collect(),
            cells: squares,
        }
    })
    .filter(|mark| !mark.cells.is_empty())
    .collect()
}

/// Kruzno obligations from the position string's third field: owner, cell name, index.
fn obligations(
    shape: Option<&HexGeometry>,
    position: &str,
    contents: &str,
) -> Vec<(Player, String, u16)> {
    let field = position.split_whitespace().nth(2).unwrap_or("-");
    field
        .split(',')
        .filter_map(|name| {
            let cell = cell_index(shape, name)?;
            let owner = match contents.as_bytes().get(usize::from(cell))? {
                b'W' => Player::One,
                b'B' => Player::Two,
                _ => return None,
            };
            Some((owner, name.to_string(), cell))
        })
        .collect()
}

/// Catchup groups: the caption line with each side's group sizes, largest first, and
/// the cells of each side's largest group(s) (when larger than a single stone).
fn catchup_groups(shape: &HexGeometry, contents: &str) -> (String, Vec<Mark>) {
    let colours = contents.as_bytes();
    let mut group_of: Vec<Option<usize>> = vec![None; colours.len()];
    // (colour, cells) per group, found in canonical cell order.
    let mut groups: Vec<(u8, Vec<u16>)> = Vec::new();
    for start in 0..colours.len() {
        let colour = colours[start];
        if colour == b'.' || group_of[start].is_some() {
            continue;
        }
        let id = groups.len();
        let mut cells = Vec::new();
        let mut stack = vec![start];
        group_of[start] = Some(id);
        while let Some(cell) = stack.pop() {
            cells.push(cell as u16);
            let bit = shape.cells()[cell] as usize;
            for direction in crate::board::Direction::ALL {
                let Some(next) = shape
                    .neighbour(bit, direction)
                    .and_then(|next| shape.ordinal(next))
                else {
                    continue;
                };
                if colours[next] == colour && group_of[next].is_none() {
                    group_of[next] = Some(id);
                    stack.push(next);
                }
            }
        }
        cells.sort_unstable();
        groups.push((colour, cells));
    }
    let mut parts = Vec::new();
    let mut marks = Vec::new();
    for (letter, name, kind) in [
        (b'W', "White", MarkKind::GroupWhite),
        (b'B', "Black", MarkKind::GroupBlack),
    ] {
        let mut sizes: Vec<usize> = groups
            .iter()
            .filter(|(colour, _)| *colour == letter)
            .map(|(_, cells)| cells.len())
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let largest = sizes.first().copied().unwrap_or(0);
        // The five largest fit the caption's width on a side-2 board too.
        let mut shown: Vec<String> = sizes.iter().take(5).map(usize::to_string).collect();
        if sizes.len() > 5 {
            shown.push(format!("(+{})", sizes.len() - 5));
        }
        parts.push(if shown.is_empty() {
            format!("{name} none")
        } else {
            format!("{name} {}", shown.join(" "))
        });
        if largest >= 2 {
            let mut cells: Vec<u16> = groups
                .iter()
                .filter(|(colour, cells)| *colour == letter && cells.len() == largest)
                .flat_map(|(_, cells)| cells.iter().copied())
                .collect();
            cells.sort_unstable();
            marks.push(mark(kind, cells));
        }
    }
    (format!("Groups: {}", parts.join("; ")), marks)
}
