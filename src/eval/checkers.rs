//! Hex checkers evaluation (Kruzno and hexcheckers), 100 centi-units per man.
//!
//! Terms, each "own minus opponent's":
//! - *material*: 100 per man.
//! - *centre*: 3 per ring a man stands inside the border (central men reach more).
//! - *mobility*: 2 per (man, direction) with an empty neighbouring cell.
//! - *advancement* (tempo): per man, with r the rows advanced from its own edge,
//!   3/4 x r^2 on sides 7 to 9 and 3 x r on smaller boards.
//! - *border* (Kruzno only): -12 per man on the restricted outer ring.
//! - *hunt*: for the side with more men, against at most 8 enemy men: 15 x (diameter -
//!   distance from each enemy man to the nearest own man) (closing out won endings).
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
/// Per squared row advanced (see [`side_terms`]), in quarter units.
const ADVANCE_QUARTERS: i32 = 3;
const BORDER: i32 = -12;
const HUNT: i32 = 15;
const HUNT_MEN: u32 = 8;

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
    hunt: i32,
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
    let quadratic = geometry.side() >= 7;
    let mut centre = 0;
    let mut advancement = 0;
    for cell in men.iter() {
        centre += i32::from(centre_table[cell]);
        let row = geometry.row(cell);
        let advanced = match player {
            Player::One => row,
            Player::Two => last_row - row,
        } as i32;
        // On big boards (side 7 and up) quadratic: pushing a man already forward gains
        // more, so men reach the enemy across the wide gap before the 80-ply rule
        // instead of the whole front creeping. On small boards, where the armies meet
        // at once, linear (quadratic there made men run off and be lost: measured).
        advancement += if quadratic {
            advanced * advanced
        } else {
            4 * advanced
        };
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
        hunt: hunt(geometry, men, position.men(player.opponent())),
        centre,
        mobility,
        advancement,
        border,
    }
}

/// For the side ahead in men against at most [`HUNT_MEN`] enemy men: for each enemy man,
/// the board's diameter minus its distance to the nearest own man, so a won ending is closed out
/// (a side must capture or block every man to win) instead of drifting into the 80-ply
/// rule.
fn hunt<const N: usize>(geometry: &HexGeometry, men: HexSet<N>, enemies: HexSet<N>) -> i32 {
    if enemies.len() > HUNT_MEN || men.len() <= enemies.len() {
        return 0;
    }
    // A bonus that grows as the distance shrinks (never a penalty, so being ahead in
    // men never looks worse than being level).
    let diameter = 2 * (geometry.side() as i32 - 1);
    let mut total = 0;
    for enemy in enemies.iter() {
        let nearest = men
            .iter()
            .map(|own| geometry.distance(own, enemy))
            .min()
            .unwrap_or(0);
        total += diameter - nearest as i32;
    }
    total
}

fn weighted<const N: usize>(position: &Checkers<N>, player: Player) -> [(&'static str, i32); 6] {
    let own = side_terms(position, player);
    let opp = side_terms(position, player.opponent());
    [
        ("material", MAN * (own.material - opp.material)),
        ("centre", CENTRE * (own.centre - opp.centre)),
        ("mobility", MOBILITY * (own.mobility - opp.mobility)),
        (
            "advancement",
            ADVANCE_QUARTERS * (own.advancement - opp.advancement) / 4,
        ),
        ("border", BORDER * (own.border - opp.border)),
        ("hunt", HUNT * (own.hunt - opp.hunt)),
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
