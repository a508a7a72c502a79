//! Static evaluation and search hints per game: one module per rules module, each
//! implementing [`crate::search::game::SearchGame`] for its concrete game types, plus what
//! its search reads: [`Evaluate`](crate::search::game::Evaluate) and
//! [`AlphaBetaGame`](crate::search::game::AlphaBetaGame) (Cheversi, checkers) or
//! [`MctsGame`](crate::search::game::MctsGame) (Catchup).

pub mod catchup;
pub mod catchup_knowledge;
mod catchup_weights;
pub mod checkers;
mod checkers_conversion;
pub mod cheversi;
