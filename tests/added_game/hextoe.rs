//! Hextoe: three (or four) in a row on a small hexhex board. A game written outside the
//! crate, with the crate's public API only, and plugged in through one registry entry
//! ([`ENTRY`]).
//!
//! Rules: White and Black take turns placing one stone on an empty cell, White first. The
//! first to have `line` stones in a row along one of the board's three axes wins; a full
//! board without one is a draw. Parameters ([`FACTS`]): the board side, 2 to 4 (3 by
//! default), and `HextoeLine`, the length of a winning line: 3 (the default) or 4.
//!
//! Notation: a move is the cell's name, as in the other hex games (rows `a` from White's
//! edge up, cells numbered from White's left): `c3`. Position string: `<rows, last first,
//! W/B/runs of empty cells> <w|b>`; the side-3 start is `3/4/5/4/3 w`. Side 3:
//!
//! ```text
//!         e1 e2 e3
//!       d1 d2 d3 d4
//!     c1 c2 c3 c4 c5
//!       b1 b2 b3 b4
//!         a1 a2 a3
//! ```
//!
//! Representation: one `u64` of stones per colour over the bits of
//! [`tessera::board::hex`] (side 4 spans 49 bits). The engine plays it by alpha-beta on a
//! small evaluation (open lines); it belongs to none of the families of alpha-beta games.

use tessera::board::hex::{Direction, HexGeometry, geometry};
use tessera::engine::{Algorithm, AlphaBetaSupply, Engine, EngineGame, SearchRequest};
use tessera::game::board_field::expand_row;
use tessera::game::{
    BoardShape, GameConfig, GameFacts, GameParameter, MoveError, Outcome, Player, PositionError,
    Rules, ScoreUnits,
};
use tessera::registry::{GameEntry, Registry};
use tessera::search::GameSearchResult;
use tessera::search::game::{
    AlphaBetaGame, Evaluate, ExactTables, FixedLength, ProgressRule, SearchGame, StagedMoves,
};

/// Hextoe's facts: what the registry, the protocol's options and the match runner read.
pub static FACTS: GameFacts = GameFacts {
    name: "hextoe",
    title: "Hextoe",
    sizes: 2..=4,
    default_size: 3,
    board: BoardShape::Hex,
    parameters: &[GameParameter {
        option: LINE_OPTION,
        flag: "line",
        title: "Hextoe line",
        values: &["3", "4"],
    }],
    score_units: ScoreUnits::Hundredths("lines"),
    levels: &[],
};

/// The option that sets the length of a winning line.
pub const LINE_OPTION: &str = "HextoeLine";

/// The registry entry: one rules type, set up by [`GameEntry::of`].
pub static ENTRY: GameEntry = GameEntry::of::<Hextoe>(&FACTS);

/// The built-in games and Hextoe.
pub fn registry() -> Registry {
    Registry::builtin()
        .with(&ENTRY)
        .expect("hextoe is a new game with sound facts")
}

/// A move: the bit of the cell it fills.
pub type Move = u8;

/// A Hextoe position.
#[derive(Clone, Debug)]
pub struct Hextoe {
    geometry: &'static HexGeometry,
    /// White's stones, then Black's, as bits of the geometry.
    stones: [u64; 2],
    to_move: Player,
    /// Stones in a row that win.
    line: u32,
    /// Who made a line (the player who moved last), if anyone.
    winner: Option<Player>,
}

/// One direction per axis of the board.
const AXES: [Direction; 3] = [Direction::Right, Direction::UpRight, Direction::UpLeft];

impl Hextoe {
    fn empty(side: usize, line: u32) -> Result<Self, PositionError> {
        let geometry = geometry(side)
            .filter(|_| FACTS.sizes.contains(&side))
            .ok_or_else(|| PositionError::BoardSize {
                token: side.to_string(),
                side,
                min: *FACTS.sizes.start(),
                max: *FACTS.sizes.end(),
            })?;
        Ok(Hextoe {
            geometry,
            stones: [0, 0],
            to_move: Player::One,
            line,
            winner: None,
        })
    }

    /// The winning line's length a configuration chose.
    fn line_of(config: &GameConfig) -> u32 {
        config
            .parameter(LINE_OPTION)
            .and_then(|value| value.parse().ok())
            .unwrap_or(3)
    }

    fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// The longest row of `player`'s stones through `bit` along `axis`.
    fn run_through(&self, player: Player, bit: usize, axis: Direction) -> u32 {
        let own = self.stones[player.index()];
        let count = |direction: Direction| {
            self.geometry
                .ray(bit, direction)
                .take_while(|&next| own >> next & 1 != 0)
                .count() as u32
        };
        1 + count(axis) + count(axis.opposite())
    }

    /// `player`'s longest row of stones (0 without stones).
    fn longest_row(&self, player: Player) -> u32 {
        let own = self.stones[player.index()];
        self.geometry
            .cells()
            .iter()
            .map(|&bit| usize::from(bit))
            .filter(|&bit| own >> bit & 1 != 0)
            .flat_map(|bit| AXES.map(|axis| self.run_through(player, bit, axis)))
            .max()
            .unwrap_or(0)
    }

    /// The cells of every window of `line` cells in a row on the board.
    fn windows(&self) -> Vec<u64> {
        let mut windows = Vec::new();
        for &bit in self.geometry.cells() {
            for axis in AXES {
                let cells: Vec<usize> = std::iter::once(usize::from(bit))
                    .chain(self.geometry.ray(usize::from(bit), axis))
                    .take(self.line as usize)
                    .collect();
                if cells.len() == self.line as usize {
                    windows.push(cells.iter().fold(0, |set, &cell| set | 1 << cell));
                }
            }
        }
        windows
    }
}

impl Rules for Hextoe {
    type Move = Move;

    fn start(config: &GameConfig) -> Result<Self, PositionError> {
        Hextoe::empty(config.board_size(), Hextoe::line_of(config))
    }

    fn from_position_text(text: &str, config: &GameConfig) -> Result<Self, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side_to_move] = fields[..] else {
            return Err(PositionError::FieldCount {
                token: text.to_string(),
                expected: 2,
                found: fields.len(),
            });
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() % 2 == 0 {
            return Err(PositionError::syntax(
                board,
                "a hexhex board has an odd row count",
            ));
        }
        let mut position = Hextoe::empty(rows.len().div_ceil(2), Hextoe::line_of(config))?;
        let geometry = position.geometry;
        for (index, row) in rows.iter().enumerate() {
            let y = rows.len() - 1 - index;
            let cells = expand_row(row).ok_or_else(|| PositionError::syntax(row, "bad row"))?;
            if cells.len() != geometry.row_length(y) {
                return Err(PositionError::RowLength {
                    token: row.to_string(),
                    expected: geometry.row_length(y),
                    found: cells.len(),
                });
            }
            for (number, glyph) in cells.into_iter().enumerate() {
                let bit = geometry.cell_at(y, number + 1).expect("a cell of the row");
                match glyph {
                    'W' => position.stones[0] |= 1 << bit,
                    'B' => position.stones[1] |= 1 << bit,
                    '.' => {}
                    letter => {
                        return Err(PositionError::UnknownPiece {
                            token: row.to_string(),
                            letter,
                        });
                    }
                }
            }
        }
        position.to_move = match side_to_move {
            "w" => Player::One,
            "b" => Player::Two,
            _ => {
                return Err(PositionError::SideToMove {
                    token: side_to_move.to_string(),
                });
            }
        };
        let [white, black] = position.stones.map(u64::count_ones);
        let expected_white = black + u32::from(position.to_move == Player::Two);
        if white != expected_white {
            return Err(PositionError::CountsContradictSide {
                token: text.to_string(),
            });
        }
        let mover = position.to_move;
        if position.longest_row(mover) >= position.line {
            return Err(PositionError::rule(
                text,
                "the side to move has a line: the game ended before its turn",
            ));
        }
        if position.longest_row(mover.opponent()) >= position.line {
            position.winner = Some(mover.opponent());
        }
        Ok(position)
    }

    fn position_text(&self) -> String {
        let geometry = self.geometry;
        let mut rows = Vec::new();
        for y in (0..geometry.rows()).rev() {
            let mut row = String::new();
            let mut run = 0;
            for number in 1..=geometry.row_length(y) {
                let bit = geometry.cell_at(y, number).expect("a cell of the row");
                let glyph = if self.stones[0] >> bit & 1 != 0 {
                    'W'
                } else if self.stones[1] >> bit & 1 != 0 {
                    'B'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    row.push_str(&run.to_string());
                    run = 0;
                }
                row.push(glyph);
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            rows.push(row);
        }
        format!("{} {}", rows.join("/"), self.to_move.letter())
    }

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let occupied = self.occupied();
        moves.extend(
            self.geometry
                .cells()
                .iter()
                .filter(|&&bit| occupied >> bit & 1 == 0)
                .map(|&bit| bit as Move),
        );
    }

    fn play_unchecked(&mut self, mv: Move) {
        let mover = self.to_move;
        self.stones[mover.index()] |= 1 << mv;
        if AXES
            .iter()
            .any(|&axis| self.run_through(mover, usize::from(mv), axis) >= self.line)
        {
            self.winner = Some(mover);
        }
        self.to_move = mover.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(winner) => Some(Outcome::Win(winner)),
            None if self.occupied().count_ones() as usize == self.geometry.cell_count() => {
                Some(Outcome::Draw)
            }
            None => None,
        }
    }

    /// Each side's longest row of stones.
    fn score(&self) -> [i32; 2] {
        [Player::One, Player::Two].map(|player| self.longest_row(player) as i32)
    }

    fn hash(&self) -> u64 {
        let mix = |mut value: u64| {
            value = (value ^ (value >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            value = (value ^ (value >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            value ^ (value >> 31)
        };
        let shape = (self.geometry.side() as u64) << 8 | u64::from(self.line);
        mix(self.stones[0] ^ mix(self.stones[1] ^ mix(shape)))
    }

    fn move_text(&self, mv: Move) -> String {
        self.geometry.cell_name(usize::from(mv))
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let token = text.trim();
        if token.is_empty() {
            return Err(MoveError::Empty);
        }
        let bit = self
            .geometry
            .parse_cell(token)
            .ok_or_else(|| MoveError::OffBoard {
                token: token.to_string(),
            })?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver {
                token: token.to_string(),
            });
        }
        if self.occupied() >> bit & 1 != 0 {
            return Err(MoveError::Occupied {
                token: token.to_string(),
            });
        }
        Ok(bit as Move)
    }
}

impl SearchGame for Hextoe {
    fn evaluation_report(&self) -> (Vec<(String, i32)>, i32) {
        (self.evaluation_terms(), self.evaluate())
    }
}

impl Evaluate for Hextoe {
    /// Open lines: every window of `line` cells with stones of one side only counts the
    /// square of its stones for that side, ten centi-units each.
    fn evaluate(&self) -> i32 {
        let mover = self.to_move.index();
        let mut value = 0;
        for window in self.windows() {
            let own = (self.stones[mover] & window).count_ones() as i32;
            let other = (self.stones[1 - mover] & window).count_ones() as i32;
            match (own, other) {
                (own, 0) => value += 10 * own * own,
                (0, other) => value -= 10 * other * other,
                _ => {}
            }
        }
        value
    }
}

impl AlphaBetaGame for Hextoe {
    /// No forcing moves: quiescence is the evaluation.
    const HAS_NOISY_MOVES: bool = false;
}

// Hextoe belongs to none of the families of alpha-beta games.
impl StagedMoves for Hextoe {}
impl FixedLength for Hextoe {}
impl ProgressRule for Hextoe {}
impl ExactTables for Hextoe {
    type Tables = ();
}

/// The engine plays Hextoe by alpha-beta with nothing supplied beyond the position.
impl EngineGame for Hextoe {
    const ALGORITHM: Algorithm = Algorithm::AlphaBeta;

    fn full_search(
        engine: &mut Engine,
        request: SearchRequest<'_, Self>,
    ) -> GameSearchResult<Move> {
        let supply = AlphaBetaSupply {
            tables: &(),
            exact: None,
        };
        engine.alpha_beta_search(request, supply)
    }
}
