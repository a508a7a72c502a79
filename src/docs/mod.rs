//! The contributor guide, for people who change Tessera. Users read README.md and
//! protocol.md; this guide is rendered by `cargo doc` (so CI checks its links) from
//! `src/docs/*.md`.
//!
//! 1. [`architecture`]: the rooms of the crate, their order, and where each thing lives.
//! 2. [`search_and_solve`]: how the searches and the solver work, and why.
//! 3. [`adding_a_game`]: the checklists: a game added from outside the crate through the
//!    registry, and a game built into Tessera.
//! 4. [`measuring`]: how to measure a change: equal time and equal nodes, SPRT, the bench
//!    signature.
//! 5. [`commits`]: the commit form.

#[doc = include_str!("architecture.md")]
pub mod architecture {}

#[doc = include_str!("search_and_solve.md")]
pub mod search_and_solve {}

#[doc = include_str!("adding_a_game.md")]
pub mod adding_a_game {}

#[doc = include_str!("measuring.md")]
pub mod measuring {}

#[doc = include_str!("commits.md")]
pub mod commits {}
