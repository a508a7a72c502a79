//! Hex checkers evaluation (Kruzno and hexcheckers), 100 centi-units per man.
//!
//! Terms, each "own minus opponent's":
//! - *material*: 100 per man.
//! - *centre*: 3 per ring a man stands inside the border (central men reach more).
//! - *mobility*: 2 per (man, direction) with an empty neighbouring cell.
//! - *advancement* (tempo): 1 per row a man has advanced from its own edge.
//! - *border* (Kruzno only): -12 per man on the restricted outer ring.
//!
//! Captures are noisy moves: quiescence follows capture chains to the end, and since a
//! capture is compulsory there is no stand-pat while one is available.

use std::sync::OnceLock;

use crate::board::HexSet;
use crate::board::hex::{Direction, HexGeometry, MAX_BITS, MAX_SIDE, geometry};
use crate::game::checkers::{Checkers, Move};
use crate::game::{Player, Rules};
use crate::search::game::{Algorithm, HISTORY_SIZE, MoveTree, SearchGame, first_step};

const MAN: i32 = 100;
const CENTRE: i32 = 3;
const MOBILITY: i32 = 2;
const ADVANCE: i32 = 1;
const BORDER: i32 = -12;

/// Per board side, per cell bit: how many rings inside the border the cell lies.
fn centre_tables() -> &'static [Vec<u8>] {
    static TABLES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        (0..=MAX_SIDE)
            .map(|side| {
                let mut table = vec![0u8; MAX_BITS];
                if let Some(geometry) = geometry(side) {
                    for &cell in geometry.cells() {
                        let cell = cell as usize;
                        table[cell] = (side - 1 - geometry.ring(cell)) as u8;
                    }
                }
                table
            })
            .collect()
    })
}

struct Terms {
    material: i32,
    centre: i32,
    mobility: i32,
    advancement: i32,
    border: i32,
}

fn side_terms<const N: usize>(position: &Checkers<N>, player: Player) -> Terms {
    let geometry: &HexGeometry = position.geometry();
    let men = position.men(player);
    let valid: HexSet<N> = geometry.valid();
    let empty = valid.without(position.men(Player::One) | position.men(Player::Two));
    let centre_table = &centre_tables()[geometry.side()];
    let last_row = geometry.rows() - 1;
    let mut centre = 0;
    let mut advancement = 0;
    for cell in men.iter() {
        centre += i32::from(centre_table[cell]);
        let row = geometry.row(cell);
        advancement += match player {
            Player::One => row,
            Player::Two => last_row - row,
        } as i32;
    }
    let mut mobility = 0;
    for direction in Direction::ALL {
        mobility += (men.shifted(geometry.offset(direction)) & empty).len() as i32;
    }
    let border = if position.border_rule() {
        (men & geometry.border()).len() as i32
    } else {
        0
    };
    Terms {
        material: men.len() as i32,
        centre,
        mobility,
        advancement,
        border,
    }
}

fn weighted<const N: usize>(position: &Checkers<N>, player: Player) -> [(&'static str, i32); 5] {
    let own = side_terms(position, player);
    let opp = side_terms(position, player.opponent());
    [
        ("material", MAN * (own.material - opp.material)),
        ("centre", CENTRE * (own.centre - opp.centre)),
        ("mobility", MOBILITY * (own.mobility - opp.mobility)),
        ("advancement", ADVANCE * (own.advancement - opp.advancement)),
        ("border", BORDER * (own.border - opp.border)),
    ]
}

impl<const N: usize> SearchGame for Checkers<N> {
    const ALGORITHM: Algorithm = Algorithm::AlphaBeta;
    type Tree = MoveTree<Checkers<N>>;

    fn evaluate(&self) -> i32 {
        weighted(self, self.side_to_move())
            .iter()
            .map(|(_, value)| value)
            .sum()
    }

    fn evaluation_terms(&self) -> Vec<(String, i32)> {
        weighted(self, Player::One)
            .iter()
            .map(|&(name, value)| (name.to_string(), value))
            .collect()
    }

    fn is_noisy(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    /// Longer capture chains first.
    fn order_hint(&self, mv: Move) -> i32 {
        mv.capture_count() as i32 * 100
    }

    fn history_index(&self, mv: Move) -> usize {
        ((mv.start() * 6 + mv.direction(0)) * 2 + usize::from(mv.is_capture())) & (HISTORY_SIZE - 1)
    }

    fn expected_moves_left(&self) -> u32 {
        40
    }

    fn tree(&self) -> Self::Tree {
        MoveTree(self.clone())
    }

    fn move_from_steps(&self, steps: &[Move]) -> Option<Move> {
        first_step(steps)
    }
}
