//! Pictures of positions: `tessera render` and the report's replay viewer.
//!
//! Drawing is split in three so that Rust and the report page draw the same way:
//! - [`layout`](mod@layout): the fixed board of a variant and side (cells with their labels, as in
//!   `protocol.md`: hexagons with row `a`, White's edge, at the bottom; Cheversi as a
//!   chessboard), every cell's centre, and the templates of pieces and marks; plain data.
//! - [`frame`](mod@frame): what one position shows (pieces, last move, overlays, caption); plain
//!   data, computed with the rules library.
//! - [`svg`]: frame + layout to SVG text. `draw.js` ([`DRAW_JS`]) is the same routine in
//!   JavaScript, used by the report page on the same data.
//!
//! [`markup`] escapes text for SVG and HTML, the pictures' and the report page's.
//!
//! Output is deterministic: the same position and move give the same bytes.

pub mod frame;
pub mod layout;
pub mod markup;
pub mod svg;

pub use frame::{Frame, FrameError, Mark, frame};
pub use layout::{Layout, MarkKind, layout};

use crate::registry::AnyGame;

/// The page's copy of [`svg::draw`].
pub const DRAW_JS: &str = include_str!("draw.js");

/// The SVG picture of `game`'s position; `last_move` (canonical text) is drawn as the
/// move that led to it.
pub fn render(game: &AnyGame, last_move: Option<&str>) -> Result<String, FrameError> {
    let frame = frame(game, last_move)?;
    let side = picture_side(game);
    let layout = layout(game.variant(), side)
        .ok_or_else(|| FrameError(format!("no board of side {side}")))?;
    Ok(svg::draw(&layout, &frame))
}

/// The board side the position string gives (a Kruzno position may use any side 4-9).
pub fn picture_side(game: &AnyGame) -> usize {
    let text = game.position_text();
    let rows = text
        .split_whitespace()
        .next()
        .map_or(0, |board| board.split('/').count());
    match game.variant().facts().board {
        crate::game::BoardShape::Square => 8,
        crate::game::BoardShape::Hex => rows.div_ceil(2),
    }
}
