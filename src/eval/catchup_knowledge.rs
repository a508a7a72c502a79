//! Catchup knowledge for MCTS: a feature code per candidate stone, weights per code and
//! per rule, and the playout and priors built on them.
//!
//! A stone's code ([`feature_code`]) says how many of the mover's groups it joins (0, 1,
//! 2, 3 or more), whether it touches the opponent (none, a group smaller than the
//! opponent's largest, or the largest itself), whether it raises the mover's score, and
//! whether it is the stone that makes this turn hand the opponent 3 stones under the rule
//! in force. The weights are fitted, not chosen: `scripts/catchup_fit.rs` plays games
//! with long MCTS searches and fits one strength per code to the stones those searches
//! chose among the empty cells (the Bradley-Terry model of a weighted draw, solved by
//! minorization-maximization), and the distribution of stones per turn to how many they
//! placed. A step's prior is `0.4 + 0.1 ln(weight / weight of a lone stone)`, clamped to
//! 0.05..0.95; ending a turn early keeps 0.4. The tables are static, one per rule, fitted
//! on side 5 and used on every side.
//!
//! The fit (`scripts/catchup_fit.rs`): 80 games per rule on side 5 (two random turns, then
//! every move by a 30,000-simulation search with uniform playouts), one strength per code
//! fitted to the 4,058 (revised) and 4,066 (original) stones those searches chose among
//! the empty cells; the stones per turn are the searches' own counts. The strongest codes
//! join two groups, raise the score and touch the opponent's largest group (weight 1.0
//! revised); a lone stone weighs 0.014, a stone that only touches small opponent groups
//! 0.024, one that raises the score with nothing else 0.016-0.057. The searches placed all
//! stones allowed in 95% of turns (revised: 3 of 3 in 749 of 797 turns, 2 of 2 in 862 of
//! 875). README.md ("Measured figures") gives the matches and speeds that measured it.
//!
//! The knowledge playout draws each stone by rejection: a uniformly drawn empty cell is
//! kept with probability its code's weight over the largest weight, up to
//! [`DRAW_ATTEMPTS`] draws. No allocation and no per-cell bookkeeping beyond the groups
//! the board keeps anyway.

use crate::game::CatchupRule;
use crate::game::catchup::{CellBuffer, Contacts, PlayoutPosition, next_limit};
use crate::search::rng::Rng;

/// Number of feature codes.
pub const CODES: usize = 48;

/// Most draws for one stone; the last draw is kept whatever its weight. Eight keeps the
/// drawn distribution close to the weighted one when most cells weigh little (the empty
/// board) while bounding the cost.
pub const DRAW_ATTEMPTS: usize = 8;

/// Which playout (and prior) the Catchup search uses: the `CatchupPlayout` option.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayoutPolicy {
    /// Random stones on random cells, as many as allowed twice as often as fewer. The
    /// default: at equal simulations the knowledge playout measured only slightly
    /// stronger, at about a quarter of the speed (protocol.md, Catchup search).
    #[default]
    Uniform,
    /// Stones drawn by fitted weights of their feature codes ([`feature_code`]).
    Knowledge,
}

impl PlayoutPolicy {
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

/// The fitted knowledge of one rule.
#[derive(Debug)]
pub struct Knowledge {
    /// Acceptance weight per code, the strongest 65535.
    pub weights: [u16; CODES],
    /// For 1, 2 and 3 stones allowed, the probability (of 65536) of placing fewer than
    /// 2 and fewer than 3 stones.
    pub fewer_than: [[u16; 2]; 4],
    /// The prior of a step of each code (MCTS: a mean result over virtual visits):
    /// `0.4 + 0.1 ln(weight / weight of a lone stone)`, clamped to 0.05..0.95.
    pub priors: [f32; CODES],
}

impl Knowledge {
    /// The knowledge for `rule`.
    pub fn of(rule: CatchupRule) -> &'static Knowledge {
        match rule {
            CatchupRule::Revised => &super::catchup_weights::REVISED,
            CatchupRule::Original => &super::catchup_weights::ORIGINAL,
        }
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

    /// Draws one stone for the mover from the `length` cells of `empty` by weight
    /// (rejection), removes it from the list and places it on the board.
    #[inline]
    pub fn place_stone<B: PlayoutPosition>(
        &self,
        board: &mut B,
        empty: &mut CellBuffer,
        length: &mut usize,
        scores: &mut TurnScores,
        rng: &mut Rng,
    ) {
        let mover = board.side_to_move().index();
        let mut attempt = 0;
        let index = loop {
            let draw = rng.next_u64();
            // The low half picks the cell, the top 16 bits decide whether to keep it.
            let index = (((draw & 0xFFFF_FFFF) * *length as u64) >> 32) as usize;
            attempt += 1;
            if attempt == DRAW_ATTEMPTS {
                break index;
            }
            let code = feature_code(
                board.contacts(empty[usize::from(index as u8)], mover),
                scores,
            );
            if ((draw >> 48) as u16) < self.weights[code] || self.weights[code] == u16::MAX {
                break index;
            }
        };
        let cell = empty[usize::from(index as u8)];
        *length -= 1;
        empty[usize::from(index as u8)] = empty[usize::from(*length as u8)];
        board.place(cell, mover);
        scores.mover = board.player_score(board.side_to_move());
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
