//! How the engine plays each game: the one place where a game's search meets what only
//! that game has.
//!
//! - Cheversi: alpha-beta, with the exact phase by the solver of `tessera solve`
//!   (`ExactPlies`), 100 centi-units per point.
//! - Kruzno and hex checkers: alpha-beta probing the ending tables (the built-in ones and
//!   an `EndingsFile`); with several lines in an ending the tables cover, the lines'
//!   exact values from the tables instead ([`ending_lines`]).
//! - Catchup: MCTS with the playout and priors of the `CatchupPlayout` option.

use crate::eval::catchup::CatchupTree;
use crate::game::catchup::Catchup;
use crate::game::checkers::Checkers;
use crate::game::cheversi::{Cheversi, Move as CheversiMove, PLACEMENTS};
use crate::search::GameSearchResult;
use crate::solve::cheversi::{CheversiState, solver_nodes_estimate};
use crate::solve::driver::{self, Settings as SolveSettings};
use crate::solve::search::Shared as SolveShared;

use super::ending_lines;
use super::exact::ExactSolver;
use super::{Algorithm, AlphaBetaSupply, Engine, EngineGame, SearchRequest};

/// Cheversi's solver (`tessera solve`) for the exact phase.
struct CheversiSolver;

impl ExactSolver<Cheversi> for CheversiSolver {
    fn nodes_estimate(&self, position: &Cheversi) -> u64 {
        solver_nodes_estimate(PLACEMENTS.saturating_sub(position.placements()))
    }

    /// The exact final margin, 100 per point.
    fn solve(
        &self,
        position: &Cheversi,
        shared: &SolveShared,
        threads: usize,
    ) -> Option<(CheversiMove, i32)> {
        let settings = SolveSettings {
            threads,
            ..SolveSettings::default()
        };
        let state = CheversiState::new(position.clone());
        let solution = driver::solve_until_stopped(&state, &settings, shared, None)?;
        Some((solution.best?, 100 * solution.value))
    }

    /// Every move's exact final margin, 100 per point (`tessera solve --all`).
    fn solve_each(
        &self,
        position: &Cheversi,
        shared: &SolveShared,
        threads: usize,
    ) -> Option<Vec<(CheversiMove, i32)>> {
        let settings = SolveSettings {
            threads,
            all: true,
            ..SolveSettings::default()
        };
        let state = CheversiState::new(position.clone());
        let solution = driver::solve_until_stopped(&state, &settings, shared, None)?;
        Some(
            solution
                .moves
                .into_iter()
                .map(|(mv, value)| (mv, 100 * value))
                .collect(),
        )
    }
}

impl EngineGame for Cheversi {
    const ALGORITHM: Algorithm = Algorithm::AlphaBeta;

    fn full_search(
        engine: &mut Engine,
        request: SearchRequest<'_, Self>,
    ) -> GameSearchResult<Self::Move> {
        let supply = AlphaBetaSupply {
            tables: &(),
            exact: Some(&CheversiSolver),
        };
        engine.alpha_beta_search(request, supply)
    }
}

impl<const N: usize> EngineGame for Checkers<N> {
    const ALGORITHM: Algorithm = Algorithm::AlphaBeta;

    fn full_search(
        engine: &mut Engine,
        request: SearchRequest<'_, Self>,
    ) -> GameSearchResult<Self::Move> {
        // A handle on the loaded file (shared, not copied): the search borrows the engine.
        let tables = engine.ending_tables().clone();
        // Several lines in an ending the tables cover: every line's exact value. An
        // analysis (`go infinite`) waits for the built-in tables rather than never
        // seeing them: its search would not look again.
        let lines = engine.options().lines;
        if lines > 1 {
            let mut exact_tables = tables.clone();
            if request.limits.infinite {
                exact_tables.set_wait_for_built_in(true);
            }
            if let Some(result) = ending_lines::report_exact_lines(
                request.record,
                &exact_tables,
                lines,
                request.limits,
                request.report,
            ) {
                return result;
            }
        }
        let supply = AlphaBetaSupply {
            tables: &tables,
            exact: None,
        };
        engine.alpha_beta_search(request, supply)
    }
}

impl EngineGame for Catchup {
    const ALGORITHM: Algorithm = Algorithm::Mcts;

    fn full_search(
        engine: &mut Engine,
        request: SearchRequest<'_, Self>,
    ) -> GameSearchResult<Self::Move> {
        let policy = engine.options().catchup_playout;
        let root = CatchupTree::for_search(request.record.position().clone(), policy);
        engine.mcts_search(request, root)
    }
}
