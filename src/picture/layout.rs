//! The drawing data of one board: the fixed part of the picture (cells, labels, style) as
//! SVG text, every cell's centre, and the templates that pieces and marks are stamped
//! from. A [`Layout`] is plain data, serialised into the report page, so the page's
//! drawing routine (`draw.js`) and [`super::svg`] stamp the same templates at the same
//! centres and produce the same text.

use super::markup::escape;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::board::hex::geometry;
use crate::game::Variant;

/// What a mark says about its cells; the index into [`Layout::marks`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum MarkKind {
    /// The cells of the last move (a Catchup turn's stones, a placement, a checkers path).
    LastMove = 0,
    /// Cells of White's largest Catchup group(s).
    GroupWhite = 1,
    /// Cells of Black's largest Catchup group(s).
    GroupBlack = 2,
    /// A checkers move as a line through its start and landing cells.
    MovePath = 3,
    /// Men the last capture removed.
    Captured = 4,
    /// A Kruzno man that must leave the border on its owner's next turn.
    Obligation = 5,
    /// Empty Cheversi squares White attacks, labelled with the number of attackers.
    AttackWhite = 6,
    /// Empty Cheversi squares Black attacks, labelled with the number of attackers.
    AttackBlack = 7,
}

/// Number of mark kinds.
pub const MARK_KINDS: usize = 8;

/// How one kind of mark is drawn.
#[derive(Clone, Debug, Serialize)]
pub struct MarkStyle {
    /// Drawn over the pieces (`true`) or under them.
    pub over: bool,
    /// One element through all the cells' centres (`{}` becomes the point list) instead
    /// of one stamped element per cell (`{}` becomes the cell's label).
    pub path: bool,
    pub template: String,
}

/// Everything needed to draw any position of one variant and board side.
#[derive(Clone, Debug, Serialize)]
pub struct Layout {
    /// The opening `<svg>` tag, the style sheet and the fixed board drawing.
    pub head: String,
    /// `"x y"` of every cell, in canonical cell order (hex: row `a` first; Cheversi: `a1`,
    /// `b1`, ..., `h8`).
    pub centres: Vec<String>,
    /// Cell names in the same order.
    pub names: Vec<String>,
    /// The template of each piece letter of the position string.
    pub pieces: BTreeMap<char, String>,
    /// Mark styles indexed by [`MarkKind`].
    pub marks: Vec<MarkStyle>,
    /// The opening `<text>` tag of each caption line below the board.
    pub caption: Vec<String>,
}

/// One style sheet for every board, so boards of several variants can share a page.
const STYLE: &str = "<style>\
.board{fill:#f4ecd8}\
.cell{fill:#e9dcb8;stroke:#8a7a5a;stroke-width:1}\
.cell.restricted{fill:#cdb98f}\
.square.light{fill:#efe2c4}.square.dark{fill:#b58863}\
.name{font:7px sans-serif;fill:#8a7a5a;text-anchor:middle}\
.label{font:bold 12px sans-serif;fill:#5a4a2a;text-anchor:middle}\
.caption{font:12px sans-serif;fill:#222}\
.man.white,.stone.white{fill:#fbfbf6;stroke:#222;stroke-width:1.5}\
.man.black,.stone.black{fill:#262626;stroke:#000;stroke-width:1.5}\
.glyph{font:32px 'DejaVu Sans',sans-serif;text-anchor:middle;stroke-width:1}\
.glyph.white{fill:#fbfbf6;stroke:#222}.glyph.black{fill:#262626;stroke:#000}\
.last{fill:none;stroke:#e0a800;stroke-width:4}\
.group.white{fill:#7fb8e8}.group.black{fill:#e89a7f}\
.path{fill:none;stroke:#d33;stroke-width:3;stroke-linejoin:round;stroke-opacity:0.8}\
.captured{stroke:#d33;stroke-width:3}\
.obligation{fill:none;stroke:#1a7f37;stroke-width:3;stroke-dasharray:4 2}\
.count{font:bold 10px sans-serif;text-anchor:middle;paint-order:stroke;stroke:#fff;stroke-width:2.5px}\
.count.white{fill:#1d4ed8}.count.black{fill:#b91c1c}\
</style>";

/// Hex cell radius (centre to corner) in SVG units.
const RADIUS: f64 = 20.0;
/// Side of a Cheversi square in SVG units.
const SQUARE: f64 = 44.0;
/// Room around the board for labels.
const MARGIN: f64 = 28.0;
/// Caption lines below the board, and their spacing.
const CAPTION_LINES: usize = 4;
const CAPTION_STEP: f64 = 16.0;
/// The narrowest picture, so captions fit under small boards.
const MIN_WIDTH: f64 = 380.0;

/// A number as SVG text: one decimal, so output is the same on every machine (the
/// report's plots use it too).
pub(crate) fn coordinate(value: f64) -> String {
    format!("{value:.1}")
}

/// The layout of a variant's board with side `side` (ignored for Cheversi); `None` for
/// a side no hex board has, and for added games (pictures know the built-in games only).
pub fn layout(variant: Variant, side: usize) -> Option<Layout> {
    match variant {
        Variant::Cheversi => Some(square_layout()),
        Variant::Kruzno => hex_layout(side, true, "man"),
        Variant::HexCheckers => hex_layout(side, false, "man"),
        Variant::Catchup => hex_layout(side, false, "stone"),
        Variant::Added(_) => None,
    }
}

/// Opening tag, style sheet and background; the caption area below `board_height`.
fn begin(board_width: f64, board_height: f64) -> (String, Vec<String>) {
    let width = board_width.max(MIN_WIDTH);
    let height = board_height + 8.0 + CAPTION_STEP * CAPTION_LINES as f64;
    let mut head = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">",
        coordinate(width),
        coordinate(height),
        coordinate(width),
        coordinate(height)
    );
    head.push_str(STYLE);
    let _ = write!(
        head,
        "<rect class=\"board\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\"/>",
        coordinate(width),
        coordinate(height)
    );
    let caption = (0..CAPTION_LINES)
        .map(|line| {
            format!(
                "<text class=\"caption\" x=\"10.0\" y=\"{}\">",
                coordinate(board_height + 4.0 + CAPTION_STEP * (line as f64 + 0.75))
            )
        })
        .collect();
    (head, caption)
}

fn label(out: &mut String, x: f64, y: f64, text: &str) {
    let _ = write!(
        out,
        "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
        coordinate(x),
        coordinate(y + 4.0),
        escape(text)
    );
}

/// Mark styles; `cell` is the outline of one cell around its centre, `inner` the same
/// outline a little smaller (for the last move's frame, drawn over the pieces).
fn mark_styles(
    cell: &str,
    inner: &str,
    piece_radius: f64,
    count_offset: (f64, f64),
) -> Vec<MarkStyle> {
    let stamp = |over: bool, template: String| MarkStyle {
        over,
        path: false,
        template,
    };
    let (dx, dy) = count_offset;
    let styles = vec![
        stamp(true, inner.replace("CLASS", "last")),
        stamp(false, cell.replace("CLASS", "group white")),
        stamp(false, cell.replace("CLASS", "group black")),
        MarkStyle {
            over: true,
            path: true,
            template: "<polyline class=\"path\" points=\"{}\"/>".to_string(),
        },
        stamp(
            true,
            "<path class=\"captured\" d=\"M-7,-7L7,7M-7,7L7,-7\"/>".to_string(),
        ),
        stamp(
            true,
            format!(
                "<circle class=\"obligation\" r=\"{}\"/>",
                coordinate(piece_radius + 3.5)
            ),
        ),
        stamp(
            true,
            format!(
                "<text class=\"count white\" x=\"{}\" y=\"{}\">{{}}</text>",
                coordinate(-dx),
                coordinate(dy)
            ),
        ),
        stamp(
            true,
            format!(
                "<text class=\"count black\" x=\"{}\" y=\"{}\">{{}}</text>",
                coordinate(dx),
                coordinate(dy)
            ),
        ),
    ];
    debug_assert_eq!(styles.len(), MARK_KINDS);
    styles
}

/// A hexhex board of side `side` with row `a` (White's edge) at the bottom and pointy
/// hexagons, as in `protocol.md`; Kruzno's restricted ring shaded when `border_rule`;
/// pieces drawn with the style class `kind` (`man` or `stone`).
fn hex_layout(side: usize, border_rule: bool, kind: &str) -> Option<Layout> {
    let shape = geometry(side)?;
    let step = 3f64.sqrt() * RADIUS;
    let rows = shape.rows();
    let board_width = 2.0 * MARGIN + step * rows as f64;
    let board_height = 2.0 * MARGIN + 1.5 * RADIUS * (rows as f64 - 1.0) + 2.0 * RADIUS;
    let centre_of = |y: usize, number: usize| -> (f64, f64) {
        let indent = y.abs_diff(side - 1) as f64 * step / 2.0;
        let x = MARGIN + step / 2.0 + indent + (number - 1) as f64 * step;
        let y = MARGIN + RADIUS + 1.5 * RADIUS * (rows - 1 - y) as f64;
        (x, y)
    };
    let corners: Vec<(f64, f64)> = (0..6)
        .map(|corner| {
            let angle = std::f64::consts::PI / 180.0 * (90.0 + 60.0 * corner as f64);
            (RADIUS * angle.cos(), -RADIUS * angle.sin())
        })
        .collect();
    let points = |x: f64, y: f64| -> String {
        corners
            .iter()
            .map(|(dx, dy)| format!("{},{}", coordinate(x + dx), coordinate(y + dy)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (mut head, caption) = begin(board_width, board_height);
    let border = shape.border::<{ crate::board::hex::MAX_WORDS }>();
    let mut centres = Vec::new();
    let mut names = Vec::new();
    for &bit in shape.cells() {
        let bit = bit as usize;
        let (x, y) = centre_of(shape.row(bit), shape.number(bit));
        let name = shape.cell_name(bit);
        let class = if border_rule && border.contains(bit) {
            "cell restricted"
        } else {
            "cell"
        };
        let _ = write!(
            head,
            "<polygon class=\"{class}\" data-cell=\"{name}\" points=\"{}\"/>",
            points(x, y)
        );
        let _ = write!(
            head,
            "<text class=\"name\" x=\"{}\" y=\"{}\">{name}</text>",
            coordinate(x),
            coordinate(y + RADIUS * 0.8)
        );
        centres.push(format!("{} {}", coordinate(x), coordinate(y)));
        names.push(name);
    }
    for y in 0..rows {
        let letter = char::from(b'a' + y as u8).to_string();
        let (first_x, row_y) = centre_of(y, 1);
        let (last_x, _) = centre_of(y, shape.row_length(y));
        label(&mut head, first_x - step * 0.85, row_y, &letter);
        label(&mut head, last_x + step * 0.85, row_y, &letter);
    }
    for number in 1..=side {
        let (x, bottom) = centre_of(0, number);
        let (_, top) = centre_of(rows - 1, number);
        label(&mut head, x, bottom + RADIUS * 1.45, &number.to_string());
        label(&mut head, x, top - RADIUS * 1.45, &number.to_string());
    }
    let relative_cell = |scale: f64| {
        format!(
            "<polygon class=\"CLASS\" points=\"{}\"/>",
            corners
                .iter()
                .map(|(dx, dy)| format!("{},{}", coordinate(dx * scale), coordinate(dy * scale)))
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    let piece_radius = RADIUS * 0.65;
    let pieces = [('W', "white"), ('B', "black")]
        .into_iter()
        .map(|(letter, colour)| {
            (
                letter,
                format!(
                    "<circle class=\"{kind} {colour}\" r=\"{}\"/>",
                    coordinate(piece_radius)
                ),
            )
        })
        .collect();
    Some(Layout {
        head,
        centres,
        names,
        pieces,
        marks: mark_styles(
            &relative_cell(1.0),
            &relative_cell(0.85),
            piece_radius,
            (8.0, -4.0),
        ),
        caption,
    })
}

/// The Cheversi board: rank 8 at the top, `a1` dark, pieces as chess glyphs.
fn square_layout() -> Layout {
    let size = 8.0 * SQUARE;
    let board = 2.0 * MARGIN + size;
    let (mut head, caption) = begin(board, board);
    let mut centres = Vec::new();
    let mut names = Vec::new();
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let x = MARGIN + f64::from(file) * SQUARE;
            let y = MARGIN + f64::from(7 - rank) * SQUARE;
            let name = format!("{}{}", char::from(b'a' + file), rank + 1);
            // a1 is dark: file + rank (both from 1) even.
            let shade = if (file + rank) % 2 == 0 {
                "dark"
            } else {
                "light"
            };
            let _ = write!(
                head,
                "<rect class=\"square {shade}\" data-cell=\"{name}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                coordinate(x),
                coordinate(y),
                coordinate(SQUARE),
                coordinate(SQUARE)
            );
            centres.push(format!(
                "{} {}",
                coordinate(x + SQUARE / 2.0),
                coordinate(y + SQUARE / 2.0)
            ));
            names.push(name);
        }
    }
    for index in 0..8u8 {
        let along = MARGIN + (f64::from(index) + 0.5) * SQUARE;
        let file = char::from(b'a' + index).to_string();
        label(&mut head, along, MARGIN + size + MARGIN / 2.0, &file);
        label(&mut head, along, MARGIN / 2.0, &file);
        let rank = (8 - index).to_string();
        label(&mut head, MARGIN / 2.0, along, &rank);
        label(&mut head, MARGIN + size + MARGIN / 2.0, along, &rank);
    }
    // Solid glyphs for both sides (the outlined white ones fill poorly), told apart by
    // fill and stroke.
    let glyphs = [
        ('K', '\u{265A}'),
        ('Q', '\u{265B}'),
        ('R', '\u{265C}'),
        ('B', '\u{265D}'),
        ('N', '\u{265E}'),
    ];
    let mut pieces = BTreeMap::new();
    for (letter, glyph) in glyphs {
        for (key, colour) in [(letter, "white"), (letter.to_ascii_lowercase(), "black")] {
            pieces.insert(
                key,
                format!("<text class=\"glyph {colour}\" y=\"11.0\">{glyph}</text>"),
            );
        }
    }
    let relative_square = |side: f64| {
        format!(
            "<rect class=\"CLASS\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            coordinate(-side / 2.0),
            coordinate(-side / 2.0),
            coordinate(side),
            coordinate(side)
        )
    };
    Layout {
        head,
        centres,
        names,
        pieces,
        marks: mark_styles(
            &relative_square(SQUARE),
            &relative_square(SQUARE - 4.0),
            18.0,
            (13.0, 18.0),
        ),
        caption,
    }
}
