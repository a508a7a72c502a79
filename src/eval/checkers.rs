//! Search hints for Checkers. PLACEHOLDER until the rules module lands: material-free,
//! rule score only.

use crate::game::Rules;
use crate::game::checkers::Checkers;
use crate::search::game::{Algorithm, MoveTree, SearchGame, TreeGame, first_step};

impl SearchGame for Checkers {
    const ALGORITHM: Algorithm = Algorithm::AlphaBeta;
    type Tree = MoveTree<Checkers>;

    fn evaluate(&self) -> i32 {
        let score = self.score();
        let own = self.side_to_move().index();
        100 * (score[own] - score[1 - own])
    }

    fn tree(&self) -> Self::Tree {
        MoveTree(self.clone())
    }

    fn move_from_steps(&self, steps: &[<Self::Tree as TreeGame>::Step]) -> Option<Self::Move> {
        first_step(steps)
    }
}
