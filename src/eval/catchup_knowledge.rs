//! Catchup knowledge for MCTS: a feature code per candidate stone, weights per code and
//! per rule, and the playout and priors built on them.
//!
//! A stone's code ([`feature_code`]) says how many of the mover's groups it joins (0, 1,
//! 2, 3 or more), whether it touches the opponent (none, a group smaller than the
//! opponent's largest, or the largest itself), whether it raises the mover's score, and
//! whether it is the stone that makes this turn hand the opponent 3 stones under the rule
//! in force. The weights are fitted, not chosen: `scripts/fits/catchup_fit.rs` plays games
//! with long MCTS searches and fits one strength per code to the stones those searches
//! chose among the empty cells (the Bradley-Terry model of a weighted draw, solved by
//! minorization-maximization), and the distribution of stones per turn to how many they
//! placed. A step's prior is `0.4 + 0.1 ln(weight / weight of a lone stone)`, clamped to
//! 0.05..0.95; ending a turn early keeps 0.4. The tables are static, one per rule, fitted
//! on side 5 and used on every side.
//!
//! The tables in `catchup_weights.rs` come from 80 games per rule on side 5 (two random
//! turns, then every move by a 30,000-simulation search with uniform playouts). The
//! strongest codes join two groups, raise the score and touch the opponent's largest
//! group; a lone stone weighs least.
//!
//! The knowledge playout draws its first [`KNOWLEDGE_STONES`] stones (whole turns), each
//! exactly in proportion to its code's draw weight (the fitted strength to the power
//! [`TEMPERATURE`]), and the rest uniformly. For the weighted draws the empty cells are kept in a list
//! split into frontier cells (next to a stone) and lone ones (code 0 for either player),
//! updated in constant time per stone ([`EmptyCells`]); a proposal picks the lone part
//! by its total weight or a frontier cell by the largest weight, and a frontier cell is
//! kept with probability its weight over the largest ([`Knowledge::place_stone`]). The
//! draw is exact, so each stone follows the weights however open the board is. No
//! allocation.

use crate::game::CatchupRule;
use crate::game::catchup::{CellBuffer, Contacts, PlayoutPosition, next_limit};
use crate::search::rng::Rng;

pub use super::catchup_weights::{CODES, Knowledge};

/// Most proposals for one stone; the last is kept whatever its weight. A bound only: with
/// the square-root weights a stone takes a few proposals on average.
pub const DRAW_ATTEMPTS: usize = 64;

/// Stones a knowledge playout draws by weight; the rest of the playout is uniform. The
/// first stones after the tree's position carry most of what the weights know, and the
/// weighted draw costs several times a uniform one: knowledge for the first 10 stones
/// keeps nearly all the strength of whole knowledge playouts at about twice their speed
/// (the contributor guide, `crate::docs::search_and_solve`).
pub const KNOWLEDGE_STONES: usize = 10;

/// The exponent applied to the fitted strengths for the playout's draws: 0.5 scores as
/// well as 1 at equal simulations, with fewer rejected proposals.
pub const TEMPERATURE: f64 = 0.5;

/// Which playout (and prior) the Catchup search uses: the `CatchupPlayout` option.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayoutPolicy {
    /// Random stones on random cells, as many as allowed twice as often as fewer, with
    /// priors from neighbour counts and plain UCT (exploration 0.6), kept so that anyone
    /// can repeat the comparison.
    Uniform,
    /// The default: the first [`KNOWLEDGE_STONES`] stones of each playout drawn by the
    /// fitted weights of their feature codes ([`feature_code`]), priors from the same
    /// weights, and a tree that keeps all-moves-as-first statistics (RAVE, exploration
    /// 0.05); README.md's headline figures have its score against `Uniform`.
    Knowledge,
}

impl Default for PlayoutPolicy {
    fn default() -> Self {
        PlayoutPolicy::DEFAULT
    }
}

impl PlayoutPolicy {
    /// The default, as the `CatchupPlayout` option advertises it.
    pub const DEFAULT: PlayoutPolicy = PlayoutPolicy::Knowledge;
    pub const ALL: [PlayoutPolicy; 2] = [PlayoutPolicy::Uniform, PlayoutPolicy::Knowledge];
    /// The `CatchupPlayout` option values, in the order of [`PlayoutPolicy::ALL`].
    pub const NAMES: [&'static str; 2] = ["uniform", "knowledge"];

    pub const fn name(self) -> &'static str {
        PlayoutPolicy::NAMES[self as usize]
    }

    /// The policy named `text` (case-insensitive).
    pub fn from_name(text: &str) -> Option<PlayoutPolicy> {
        PlayoutPolicy::ALL
            .into_iter()
            .find(|policy| policy.name().eq_ignore_ascii_case(text))
    }
}

/// The scores a turn starts from and the mover's score now, for [`feature_code`].
#[derive(Copy, Clone, Debug)]
pub struct TurnScores {
    pub rule: CatchupRule,
    /// The mover's score and the larger of both scores when the turn started.
    pub before: [usize; 2],
    /// The mover's score now (after the stones already placed this turn).
    pub mover: usize,
    /// The opponent's score (it does not change during the mover's turn).
    pub opponent: usize,
}

impl TurnScores {
    /// True when a turn that leaves the mover at `mover_after` hands the opponent 3
    /// stones.
    #[inline]
    fn grants(&self, mover_after: usize) -> bool {
        next_limit(self.rule, self.before, [mover_after, self.opponent]) == 3
    }
}

/// The terms of a candidate stone (see the module comment).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The mover's distinct groups the stone joins, 3 standing for 3 or more.
    pub own_groups: usize,
    /// 0: touches no opponent stone; 1: only groups smaller than the opponent's largest
    /// (or the opponent has no group of 2); 2: the opponent's largest group.
    pub opponent: usize,
    /// The stone raises the mover's score (its group would be the mover's new largest).
    pub raises: bool,
    /// The stone makes this turn hand the opponent 3 stones, which it did not yet.
    pub grants: bool,
}

impl Features {
    /// The features of a stone with `contacts` at `scores`.
    #[inline]
    pub fn of(contacts: Contacts, scores: &TurnScores) -> Features {
        let opponent = if contacts.opponent_groups == 0 {
            0
        } else if usize::from(contacts.opponent_largest) >= scores.opponent && scores.opponent >= 2
        {
            2
        } else {
            1
        };
        let joined = usize::from(contacts.joined_size);
        Features {
            own_groups: usize::from(contacts.own_groups.min(3)),
            opponent,
            raises: joined > scores.mover,
            grants: scores.grants(joined.max(scores.mover)) && !scores.grants(scores.mover),
        }
    }

    /// The code, below [`CODES`].
    #[inline]
    pub fn code(self) -> usize {
        ((self.own_groups * 3 + self.opponent) * 2 + usize::from(self.raises)) * 2
            + usize::from(self.grants)
    }
}

/// The feature code of a stone with `contacts` ([`Features::code`]).
#[inline]
pub fn feature_code(contacts: Contacts, scores: &TurnScores) -> usize {
    Features::of(contacts, scores).code()
}

/// A short description of a code, for the fitting tool and the write-up.
pub fn code_name(code: usize) -> String {
    let grants = code & 1;
    let raises = (code >> 1) & 1;
    let opponent = (code >> 2) % 3;
    let own = (code >> 2) / 3;
    let touch = ["none", "small", "largest"][opponent];
    format!("own {own} opponent {touch} raises {raises} grants {grants}")
}

/// The playout's draw weights of one rule: the fitted strengths raised to
/// [`TEMPERATURE`], the strongest 65535 (see [`Knowledge::place_stone`]).
#[derive(Debug)]
pub struct DrawWeights {
    pub weights: [u16; CODES],
    /// The largest weight of a stone next to no own stone (the codes below 12).
    pub apart_bound: u16,
}

impl DrawWeights {
    fn of(fitted: &Knowledge) -> DrawWeights {
        let largest = f64::from(*fitted.weights.iter().max().expect("codes"));
        let mut weights = [0u16; CODES];
        for (weight, &raw) in weights.iter_mut().zip(&fitted.weights) {
            let scaled = (f64::from(raw) / largest).powf(TEMPERATURE) * 65535.0;
            *weight = (scaled.round() as u16).max(1);
        }
        let apart_bound = *weights[..12].iter().max().expect("codes");
        DrawWeights {
            weights,
            apart_bound,
        }
    }
}

impl Knowledge {
    /// The knowledge for `rule`.
    pub fn of(rule: CatchupRule) -> &'static Knowledge {
        match rule {
            CatchupRule::Revised => &super::catchup_weights::REVISED,
            CatchupRule::Original => &super::catchup_weights::ORIGINAL,
        }
    }

    /// The draw weights of `rule`, built from the fitted tables on first use.
    pub fn draw_weights(rule: CatchupRule) -> &'static DrawWeights {
        static WEIGHTS: std::sync::OnceLock<[DrawWeights; 2]> = std::sync::OnceLock::new();
        let weights = WEIGHTS.get_or_init(|| {
            [
                DrawWeights::of(Knowledge::of(CatchupRule::Revised)),
                DrawWeights::of(Knowledge::of(CatchupRule::Original)),
            ]
        });
        &weights[rule as usize]
    }

    /// How many stones a turn places, of `allowed` (1 to 3).
    #[inline]
    pub fn turn_length(&self, allowed: usize, rng: &mut Rng) -> usize {
        let [one, two] = self.fewer_than[allowed];
        let roll = (rng.next_u64() >> 48) as u16;
        let stones = if roll < one {
            1
        } else if roll < two {
            2
        } else {
            3
        };
        stones.min(allowed)
    }

    /// Draws one stone for the mover from `empty` by `draw` weight, removes it from the
    /// list, places it on the board and keeps the frontier.
    ///
    /// Exact rejection sampling with a proposal that knows the frontier: a lone cell
    /// (no stone next to it: always code 0) is proposed in proportion to its own weight
    /// and kept, a frontier cell in proportion to the largest weight and kept with
    /// probability its weight over that. Up to [`DRAW_ATTEMPTS`] proposals; the last one
    /// is kept whatever. One random word per proposal, no division; the cell within a
    /// part is picked from 16 bits, so cells differ in chance by at most 1 in 65536/n.
    #[inline]
    pub fn place_stone<B: PlayoutPosition>(
        draw: &DrawWeights,
        board: &mut B,
        empty: &mut EmptyCells,
        scores: &mut TurnScores,
        rng: &mut Rng,
    ) {
        let mover = board.side_to_move().index();
        let lone = (empty.length - empty.frontier) as u64;
        let frontier_mass = empty.frontier as u64 * u64::from(u16::MAX);
        let total = frontier_mass + lone * u64::from(draw.weights[0]);
        let mut attempt = 0;
        let index = loop {
            let word = rng.next_u64();
            // The low 32 bits pick the part of the list, the next 16 the cell in it, the
            // top 16 decide whether to keep a frontier cell.
            let within = (word >> 32) & 0xFFFF;
            if ((word & 0xFFFF_FFFF) * total) >> 32 >= frontier_mass {
                break empty.frontier + ((within * lone) >> 16) as usize;
            }
            let index = ((within * empty.frontier as u64) >> 16) as usize;
            attempt += 1;
            if attempt == DRAW_ATTEMPTS {
                break index;
            }
            let keep = (word >> 48) as u16;
            // A cell next to no own stone weighs at most `apart_bound`: most such
            // proposals are turned down before their contacts are read.
            if keep >= draw.apart_bound && !board.touches_own(empty.cells[index], mover) {
                continue;
            }
            let code = feature_code(board.contacts(empty.cells[index], mover), scores);
            if keep < draw.weights[code] || draw.weights[code] == u16::MAX {
                break index;
            }
        };
        let cell = empty.remove(index);
        board.place(cell, mover);
        empty.widen(board, cell);
        scores.mover = board.player_score(board.side_to_move());
    }
}

/// No list position: the cell is not in the list.
const UNLISTED: u8 = u8::MAX;

/// The empty cells of a knowledge playout, frontier first: cells next to a stone, then
/// lone cells (no stone next to them, so every lone cell has code 0 for either player).
/// Each cell knows its place in the list, so a stone is removed and its lone neighbours
/// join the frontier in constant time; no allocation.
pub struct EmptyCells {
    /// The cells: `frontier` frontier cells, then the lone ones, `length` in all.
    pub cells: CellBuffer,
    /// Each cell's index in `cells`, [`UNLISTED`] for a cell not in the list.
    position: CellBuffer,
    pub frontier: usize,
    pub length: usize,
}

impl EmptyCells {
    /// The empty cells of `board`, sorted into frontier and lone ones.
    #[inline]
    pub fn of<B: PlayoutPosition>(board: &B) -> EmptyCells {
        let mut empty = EmptyCells {
            cells: [0; 256],
            position: [UNLISTED; 256],
            frontier: 0,
            length: 0,
        };
        let mut all: CellBuffer = [0; 256];
        let length = board.empty_cells(&[], &mut all);
        // Frontier cells from the front, lone ones from the back, then the lone ones
        // turned back into increasing order so the list does not depend on the board.
        let mut back = length;
        for &cell in &all[..length] {
            if board.touches_stone(cell) {
                empty.cells[empty.frontier] = cell;
                empty.frontier += 1;
            } else {
                back -= 1;
                empty.cells[back] = cell;
            }
        }
        empty.cells[empty.frontier..length].reverse();
        for (index, &cell) in empty.cells[..length].iter().enumerate() {
            empty.position[usize::from(cell)] = index as u8;
        }
        empty.length = length;
        empty
    }

    /// Asserts the list's invariants (tests).
    #[cfg(test)]
    pub fn check<B: PlayoutPosition>(&self, board: &B) {
        assert!(
            self.frontier <= self.length,
            "f {} l {}",
            self.frontier,
            self.length
        );
        for (i, &c) in self.cells[..self.length].iter().enumerate() {
            assert_eq!(usize::from(self.position[usize::from(c)]), i);
            assert_eq!(
                board.touches_stone(c),
                i < self.frontier,
                "cell {c} at {i} f {}",
                self.frontier
            );
        }
    }

    /// Moves the cell at index `from` to index `to` (overwriting what was there).
    #[inline(always)]
    fn shift(&mut self, from: usize, to: usize) {
        let cell = self.cells[usize::from(from as u8)];
        self.cells[usize::from(to as u8)] = cell;
        self.position[usize::from(cell)] = to as u8;
    }

    /// Takes the cell at `index` out of the list and returns it.
    #[inline]
    pub fn remove(&mut self, index: usize) -> u8 {
        let cell = self.cells[usize::from(index as u8)];
        let mut hole = index;
        if hole < self.frontier {
            self.frontier -= 1;
            self.shift(self.frontier, hole);
            hole = self.frontier;
        }
        self.length -= 1;
        // The last cell fills the hole, unless the hole is the last place (then the cell
        // just moved there must keep its position).
        if hole != self.length {
            self.shift(self.length, hole);
        }
        self.position[usize::from(cell)] = UNLISTED;
        cell
    }

    /// After a stone on `cell`: its lone empty neighbours join the frontier.
    #[inline]
    pub fn widen<B: PlayoutPosition>(&mut self, board: &B, cell: u8) {
        for &neighbour in &board.neighbour_ordinals(cell)[..6] {
            let index = usize::from(self.position[usize::from(neighbour)]);
            if index != usize::from(UNLISTED) && index >= self.frontier {
                self.shift(self.frontier, index);
                self.cells[self.frontier] = neighbour;
                self.position[usize::from(neighbour)] = self.frontier as u8;
                self.frontier += 1;
            }
        }
    }
}

/// The scores at the start of the mover's turn on `board`.
#[inline]
pub fn turn_scores<B: PlayoutPosition>(board: &B, rule: CatchupRule) -> TurnScores {
    let mover = board.side_to_move();
    let before = board.scores_before_turn();
    TurnScores {
        rule,
        before,
        mover: before[0],
        opponent: board.player_score(mover.opponent()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(rule: CatchupRule, mover: usize, opponent: usize) -> TurnScores {
        TurnScores {
            rule,
            before: [mover, mover.max(opponent)],
            mover,
            opponent,
        }
    }

    #[test]
    fn codes_cover_every_feature_combination_once() {
        let mut seen = [false; CODES];
        for own_groups in 0..4 {
            for opponent in 0..3 {
                for raises in [false, true] {
                    for grants in [false, true] {
                        let features = Features {
                            own_groups,
                            opponent,
                            raises,
                            grants,
                        };
                        assert!(!seen[features.code()], "{features:?}");
                        seen[features.code()] = true;
                        let name = code_name(features.code());
                        assert!(name.starts_with(&format!("own {own_groups} ")), "{name}");
                    }
                }
            }
        }
    }

    #[test]
    fn joining_groups_counts_them_and_raises_the_score_past_the_largest() {
        let at = scores(CatchupRule::Revised, 2, 4);
        let merge = Features::of(Contacts::new(2, 4, 0, 0), &at);
        assert_eq!((merge.own_groups, merge.raises), (2, true));
        let small = Features::of(Contacts::new(1, 2, 0, 0), &at);
        assert_eq!((small.own_groups, small.raises), (1, false));
        assert_eq!(Features::of(Contacts::new(4, 9, 0, 0), &at).own_groups, 3);
        let alone = Features::of(Contacts::new(0, 1, 0, 0), &at);
        assert_eq!(
            (alone.own_groups, alone.opponent, alone.raises),
            (0, 0, false)
        );
    }

    #[test]
    fn touching_the_opponents_largest_group_is_its_own_term() {
        let at = scores(CatchupRule::Revised, 2, 4);
        assert_eq!(Features::of(Contacts::new(0, 1, 1, 4), &at).opponent, 2);
        assert_eq!(Features::of(Contacts::new(0, 1, 2, 3), &at).opponent, 1);
        // With only single opponent stones there is no largest group to press.
        let singles = scores(CatchupRule::Revised, 1, 1);
        assert_eq!(
            Features::of(Contacts::new(0, 1, 1, 1), &singles).opponent,
            1
        );
    }

    #[test]
    fn granting_three_stones_follows_each_rule() {
        // Mover 2, opponent 3: reaching 3 ties the opponent. The revised rule grants
        // (raised and at least the opponent's), the original does not (the board's
        // largest group stays 3).
        let tie = Contacts::new(1, 3, 0, 0);
        assert!(Features::of(tie, &scores(CatchupRule::Revised, 2, 3)).grants);
        assert!(!Features::of(tie, &scores(CatchupRule::Original, 2, 3)).grants);
        // Reaching 4 grows the board's largest group: both rules grant.
        let past = Contacts::new(2, 4, 0, 0);
        assert!(Features::of(past, &scores(CatchupRule::Revised, 2, 3)).grants);
        assert!(Features::of(past, &scores(CatchupRule::Original, 2, 3)).grants);
        // A stone that does not raise the mover's score grants nothing.
        assert!(
            !Features::of(
                Contacts::new(1, 2, 0, 0),
                &scores(CatchupRule::Revised, 2, 3)
            )
            .grants
        );
        // Once an earlier stone of the turn has granted, later ones do not grant again.
        let mut granted = scores(CatchupRule::Original, 2, 3);
        granted.mover = 4;
        assert!(!Features::of(Contacts::new(1, 5, 0, 0), &granted).grants);
    }

    #[test]
    fn codes_are_distinct_and_named() {
        let mut names: Vec<String> = (0..CODES).map(code_name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CODES);
    }

    #[test]
    fn policy_names_round_trip() {
        for policy in PlayoutPolicy::ALL {
            assert_eq!(PlayoutPolicy::from_name(policy.name()), Some(policy));
        }
        assert_eq!(
            PlayoutPolicy::from_name("KNOWLEDGE"),
            Some(PlayoutPolicy::Knowledge)
        );
        assert_eq!(PlayoutPolicy::from_name("smart"), None);
    }
}
