//! Hex checkers evaluation (Kruzno and hexcheckers), 100 centi-units per man.
//!
//! Terms, each "own minus opponent's":
//! - *material*: 100 per man.
//! - *centre*: 3 per ring a man stands inside the border (central men reach more).
//! - *mobility*: 2 per (man, direction) with an empty neighbouring cell.
//! - *advancement* (tempo): per man, with r the rows advanced from its own edge,
//!   3/4 x r^2 on sides 7 to 9 and 3 x r on smaller boards; on sides 7 to 9 not for a
//!   side earning conversion terms (men parked on the enemy's edge caught nobody: with it
//!   the leader converted 2 of 60 real-game endings at 20,000 nodes, without it 9).
//! - *border* (Kruzno only): -12 per man on the restricted outer ring.
//! - Conversion terms (module `checkers_conversion`), for the side with more men once the
//!   enemy has at most 8 men (a won ending is closed out by capturing or blocking every
//!   enemy man, before the 80-ply rule). Each is a bonus that only grows when an enemy man
//!   is captured, so taking a man never looks worse than keeping it on the board:
//!   - *hunt*: 15 x (8 x diameter - sum over enemy men of the distance to the nearest own
//!     man).
//!   - *restrict*: 10 x (48 - enemy step moves): zero enemy moves is the win itself.
//!   - *space*: 3 (8 on sides 7 to 9) x (board cells - cells the enemy men reach before
//!     any own man, walking over empty cells): the whole army closes in.
//!   - *gather* (sides 7 to 9): 16 x (per own man, the board's diameter + 1 minus its
//!     distance to the nearest enemy man; plus 8 per own man for each enemy man short of
//!     8): every hunter comes, from anywhere on the board, and hunters are kept.
//!
//!   On side 7 the conversion terms grow in as the enemy men fall (times
//!   ((9 - enemy men) / 9)^2); on sides 8 and 9 they need 4 men of the side ahead (3 on
//!   side 7).
//! - *spearhead* (sides 7 to 9, before the first capture): 15 per row advanced by each
//!   of the four most advanced men, so that a few men cross the middle and open the game
//!   within the 80-ply count.
//! - *drawn* (no border rule): in the material classes the exact endings tables show
//!   drawn, a man counts 40 and the rest a quarter, at most 15 (`drawn_class`).
//!
//! The weights were chosen by matches. Fitted to game outcomes on sides 7 to 9
//! (`scripts/fits/hexcheckers_fit.py`) side 9's placement terms came out as centre -7.5,
//! mobility 16.6 and advancement -0.21, but played they let every game against
//! `minimax2` die 30 v 30 at the 80-ply rule: the outcomes cannot see that advancing is
//! what reaches the enemy in time. So these weights are kept.
//!
//! The draw handling (contempt, the slide towards the 80-ply draw, contact, the material
//! guard) is the search's (`crate::search::alphabeta`); the [`ProgressRule`] hooks below
//! size it for these games.
//!
//! Captures are noisy moves: quiescence follows capture chains to the end (longest
//! first), and since a capture is compulsory there is no stand-pat while one is
//! available; at the leaves only captures are generated. Steps are staged
//! ([`StagedMoves`]): with no capture on the board the table move and the killers are
//! tried before the steps are listed, by their codes; a killer is never a capture, and
//! captures are compulsory, so killers only compete with steps. In hex checkers without
//! the border rule the engine's ending tables give endings with few men their exact
//! value ([`ExactTables`]).

use crate::board::StridedSet;
use crate::board::hex::HexGeometry;
use crate::endings::{EndingTables, Value};
use crate::game::checkers::{Checkers, DRAW_PLIES, GrowingTask, Move, Placement};
use crate::game::{Player, Rules};
use crate::search::game::{
    AlphaBetaGame, DRAW_FADE_LIMIT, Evaluate, ExactTables, FixedLength, HISTORY_SIZE,
    MaterialGuard, ProgressRule, SearchGame, StagedMoves, TableValue, find_move,
};

use super::checkers_conversion::{
    Conversion, ConversionTask, ConversionWeights, FULL_RAMP, contact_distance, contact_men,
    converting,
};

const MAN: i32 = 100;
/// [`AlphaBetaGame::contempt`] on the big boards while no man has been captured.
const UNTOUCHED_CONTEMPT: i32 = 150;

/// Men per army at the start on a big board (no border rule): the three rows nearest
/// its edge, of `side`, `side + 1` and `side + 2` cells.
fn opening_men(side: usize) -> i32 {
    3 * side as i32 + 3
}

/// True on the big boards (sides 7 to 9) while no man of either army has been taken.
fn untouched<const N: usize>(position: &Checkers<N>) -> bool {
    let side = position.geometry().side();
    let men = position.men(Player::One).len() + position.men(Player::Two).len();
    side >= 7 && men as i32 == 2 * opening_men(side)
}

/// Men [`ProgressRule::plies_to_contact`] brings next to the enemy while both armies
/// are whole on the big boards: an exchange needs a man offered and one to take back,
/// and the game opens only by a capture (three men scored better than the nearest man
/// alone against `minimax2` and `sampled2`; the figures are in the commit log).
const UNTOUCHED_CONTACT_MEN: u32 = 3;
/// Plies before the 80-ply draw from which, with both armies whole, the fade goes all the
/// way to the draw (`draw_fade_limit`): a line with no capture by then is a draw, however
/// far its men have advanced, so only an exchange keeps its value.
const UNTOUCHED_FULL_FADE_PLIES: u32 = 20;
/// [`ProgressRule::draw_fade_limit`] on side 7 once a man is taken: less than a man.
const SIDE_7_FADE_LIMIT: i32 = 90;
/// [`ProgressRule::material_guard`]: a man given and not won back within the search is
/// worth at most the draw, less 100. A man is worth more than a draw avoided: with the
/// guard off the engine gave a man at each 80-ply limit whenever the evaluation liked the
/// position (the placement terms are worth several men against an army that stays home)
/// and bled a man a count against a defender.
const GUARD_PENALTY: i32 = 100;
/// The lead the engine may spend ([`MaterialGuard::secure_lead`]) once the count has at
/// most [`SPEND_PLIES`] left at the root: a man given to keep a won game going beats the
/// certain draw (with no secure lead, side 7 scored less against `minimax2` and
/// `minimax4`).
const SECURE_LEAD: i32 = 2;
/// Plies before the 80-ply draw from which a lead above [`SECURE_LEAD`] may be spent.
/// Earlier in the count no man is needed to restart it, and with the lead spendable the
/// evaluation's taste bought trades of two men for one (a 14 v 8 ending gave two for
/// one because `gather` liked the closer hunters); 10 plies converted more real-game
/// leads than 20 (figures in the commit log).
const SPEND_PLIES: u32 = 10;
/// Tie-break per man ahead in an ending the tables show drawn. Without it a drawn 1 v 2
/// scored the same as the 80-ply draw at 2 v 2, and at the limit the engine gave its man
/// (side 8, 100 ms against `minimax2`: a game ended 1 v 2).
const TABLE_DRAW_PER_MAN: i32 = 10;
const CENTRE: i32 = 3;
const MOBILITY: i32 = 2;
/// Per squared row advanced (see [`advancement`]), in quarter units.
const ADVANCE_QUARTERS: i32 = 3;
const BORDER: i32 = -12;

/// The advancement term of an army, in quarter units: per man, with r the rows it has
/// advanced from its own edge, r^2 on sides 7 to 9 and 4 x r on smaller boards.
///
/// On big boards quadratic: pushing a man already forward gains more, so men reach the
/// enemy across the wide gap before the 80-ply rule instead of the whole front creeping.
/// On small boards, where the armies meet at once, linear (quadratic there made men run
/// off and be lost: measured).
fn advancement(side: usize, placement: Placement) -> i32 {
    if side >= 7 {
        placement.advanced_squared() as i32
    } else {
        4 * placement.advanced() as i32
    }
}

/// Per row advanced by each of a side's [`SPEARHEAD_MEN`] most advanced men, on the big
/// boards while no man has been taken ([`spearhead`]).
const SPEARHEAD_ROW: i32 = 15;
/// The men of a spearhead: enough to offer a man, take back and cover the taker.
const SPEARHEAD_MEN: u32 = 4;
/// Rows of the spearhead each supporter of its front man is worth ([`support`]). Lone
/// runners cannot open the game against an army that stays home; a group can: with it
/// the engine opened 130 of 160 first counts against four members, 111 without, and
/// pushing single men harder opened fewer (figures in the commit log).
const SUPPORT_ROWS: usize = 6;
/// Rings around the front man within which own men support it.
const SUPPORT_RINGS: usize = 2;
/// Supporters counted: with the front man, the three men of an exchange (one offered,
/// one to take back, one to cover the taker); counting a third scored less.
const SUPPORT_MEN: usize = 2;

/// Per backed offer ([`Checkers::backed_offers`]), own minus the opponent's, on the big
/// boards while neither side converts. Against an army that stays home the search sees
/// no capture within its horizon, and the other terms give no gradient towards a shape
/// from which an exchange can be forced; this one does. It costs about a sixth of the
/// nodes a second and still wins more games at equal time, with more exchanges per game
/// (figures in the commit log).
const BACKED_OFFER: i32 = 25;

/// The rows advanced from its own edge by each of `player`'s [`SPEARHEAD_MEN`] most
/// advanced men, summed, plus [`SUPPORT_ROWS`] per supporter of the front man
/// ([`support`]). Before the first capture the game opens only if a few men cross
/// the empty middle (11 rows on side 9) in the 40 moves of the 80-ply count; the squared
/// advancement alone spreads those moves over the whole front, and a distance to the
/// enemy would count the same for both sides and cancel out.
fn spearhead<const N: usize>(position: &Checkers<N>, player: Player) -> i32 {
    let rows = position.geometry().rows();
    let men = position.men(player);
    let mut wanted = SPEARHEAD_MEN;
    let mut sum = 0;
    // Row by row from the enemy's edge back (a few rows: only the front men count).
    for advanced in (0..rows).rev() {
        let row = match player {
            Player::One => advanced,
            Player::Two => rows - 1 - advanced,
        };
        let in_row = men & position.row_cells(row);
        if wanted == SPEARHEAD_MEN && !in_row.is_empty() {
            sum += SUPPORT_ROWS * support(position, men, in_row);
        }
        let count = in_row.len().min(wanted);
        sum += count as usize * advanced;
        wanted -= count;
        if wanted == 0 {
            break;
        }
    }
    sum as i32
}

/// Own men (of `men`) within [`SUPPORT_RINGS`] of the best supported man of the front
/// row `front`, at most [`SUPPORT_MEN`]. The best one, not the first by cell number: that
/// choice would differ between the colours.
fn support<const N: usize>(
    position: &Checkers<N>,
    men: StridedSet<N>,
    front: StridedSet<N>,
) -> usize {
    position.with_grown(SupportTask {
        valid: position.valid(),
        men,
        front,
    })
}

/// [`support`] with the board's width fixed for its rings
/// ([`Checkers::with_grown`]): it runs at every leaf before the first capture.
struct SupportTask<const N: usize> {
    valid: StridedSet<N>,
    men: StridedSet<N>,
    front: StridedSet<N>,
}

impl<const N: usize> GrowingTask<N> for SupportTask<N> {
    type Output = usize;

    /// Stops at the first man with all the supporters counted (at the start, the first
    /// man of the whole front row).
    fn run(self, grown: impl Fn(StridedSet<N>) -> StridedSet<N> + Copy) -> usize {
        let SupportTask {
            valid,
            men,
            mut front,
        } = self;
        let mut best = 0;
        while let Some(man) = front.pop_first() {
            let mut around = StridedSet::EMPTY;
            around.insert(man);
            for _ in 0..SUPPORT_RINGS {
                // Masked at each ring: an unmasked step off one edge of the padded layout
                // wraps to the far edge of the next row, and a second step reaches the board.
                around = grown(around) & valid;
            }
            best = best.max((around & men).len() as usize - 1);
            if best >= SUPPORT_MEN {
                return SUPPORT_MEN;
            }
        }
        best
    }
}

struct Terms {
    material: i32,
    centre: i32,
    mobility: i32,
    advancement: i32,
    border: i32,
}

/// Both sides' plain terms, indexed by colour; `mobility` is each colour's open steps.
fn plain_terms<const N: usize>(position: &Checkers<N>, mobility: [u32; 2]) -> [Terms; 2] {
    let geometry: &HexGeometry = position.geometry();
    [Player::One, Player::Two].map(|player| {
        let colour = player.index();
        let men = position.men(player);
        let placement = position.placement(player);
        // With the border rule the restricted ring is the border.
        let border = if position.border_rule() {
            (men & position.restricted()).len() as i32
        } else {
            0
        };
        Terms {
            material: men.len() as i32,
            centre: placement.centre() as i32,
            mobility: mobility[colour] as i32,
            advancement: advancement(geometry.side(), placement),
            border,
        }
    })
}

/// The names of the [`weighted`] terms, in order.
const TERM_NAMES: [&str; 12] = [
    "material",
    "centre",
    "mobility",
    "advancement",
    "border",
    "hunt",
    "restrict",
    "space",
    "gather",
    "spearhead",
    "offers",
    "drawn",
];

/// Where `drawn` stands in [`TERM_NAMES`].
const DRAWN_TERM: usize = 11;

/// The weighted terms from `player`'s view, named by [`TERM_NAMES`] (apart, so the
/// evaluation at every node only adds numbers); `mobility` is each colour's open steps
/// when the caller has counted them already.
#[inline]
fn weighted<const N: usize>(
    position: &Checkers<N>,
    player: Player,
    mobility: Option<[u32; 2]>,
) -> [i32; 12] {
    let geometry = position.geometry();
    let weights = ConversionWeights::for_side(geometry.side());
    let (own_men, opp_men) = (position.men(player), position.men(player.opponent()));
    let valid = position.valid();
    let empty = valid.without(own_men | opp_men);
    let mobility = mobility.unwrap_or_else(|| position.open_steps(empty));
    let [own, opp] = match (plain_terms(position, mobility), player) {
        ([white, black], Player::One) => [white, black],
        ([white, black], Player::Two) => [black, white],
    };
    let own_converting = converting(weights, own.material, opp.material);
    let opp_converting = converting(weights, opp.material, own.material);
    // A side's mobility is exactly the step count its opponent's `restrict` needs.
    let conversion_of = |converting, men, enemies, enemy_terms: &Terms| {
        if converting {
            position.with_grown(ConversionTask {
                geometry,
                valid,
                men,
                enemies,
                empty,
                enemy_steps: enemy_terms.mobility,
                with_gather: weights.gather != 0,
            })
        } else {
            Conversion::default()
        }
    };
    let own_conversion = conversion_of(own_converting, own_men, opp_men, &opp);
    let opp_conversion = conversion_of(opp_converting, opp_men, own_men, &own);
    let advancement_of = |converting, terms: &Terms| {
        if converting && weights.replaces_advancement {
            0
        } else {
            terms.advancement
        }
    };
    let (own_ramp, opp_ramp) = (weights.ramp(opp.material), weights.ramp(own.material));
    let ramped = |weight: i32, own_term: i32, opp_term: i32| {
        weight * (own_term * own_ramp - opp_term * opp_ramp) / FULL_RAMP
    };
    let mut terms = [
        MAN * (own.material - opp.material),
        CENTRE * (own.centre - opp.centre),
        MOBILITY * (own.mobility - opp.mobility),
        ADVANCE_QUARTERS
            * (advancement_of(own_converting, &own) - advancement_of(opp_converting, &opp))
            / 4,
        BORDER * (own.border - opp.border),
        ramped(weights.hunt, own_conversion.hunt, opp_conversion.hunt),
        ramped(
            weights.restrict,
            own_conversion.restrict,
            opp_conversion.restrict,
        ),
        ramped(weights.space, own_conversion.space, opp_conversion.space),
        ramped(weights.gather, own_conversion.gather, opp_conversion.gather),
        if untouched(position) {
            SPEARHEAD_ROW * (spearhead(position, player) - spearhead(position, player.opponent()))
        } else {
            0
        },
        if geometry.side() >= 7 && !own_converting && !opp_converting {
            let offers = position.backed_offers();
            BACKED_OFFER
                * (offers[player.index()] as i32 - offers[player.opponent().index()] as i32)
        } else {
            0
        },
        0,
    ];
    // `drawn`: what the scaling of a drawn class takes off the sum of the others.
    if drawn_class(position, own.material, opp.material) {
        terms[DRAWN_TERM] = drawn_value(&terms) - terms.iter().sum::<i32>();
    }
    terms
}

/// In an ending the exact tables show drawn, the positional terms count a
/// [`DRAWN_DIVISOR`]th and a man [`DRAWN_MAN`] ([`drawn_value`]).
const DRAWN_DIVISOR: i32 = 4;
/// A man in a drawn ending: twice the smallest contempt, and the positional terms there
/// count at most [`DRAWN_POSITIONAL`] either way, so a man down always scores below the
/// draw and no man is given to dodge the 80-ply rule.
const DRAWN_MAN: i32 = 40;
const DRAWN_POSITIONAL: i32 = 15;

/// True if the material is a class the exact endings tables (`tessera endings`, sides 4
/// to 9, no border rule) show drawn whatever the placement, apart from tactics already on
/// the board: the side ahead has two men or fewer (2 v 1 and 2 v 2 are won only by a
/// capture within 6 plies on every side), or 3 v 2 (won only by short tactics on sides 4
/// and 5, where the tables reach), or 3 v 1 on sides 8 and 9 (9.4% and 7.0% of
/// placements won; the lone man escapes). With the border rule (Kruzno) nothing is
/// solved, so nothing is scaled.
fn drawn_class<const N: usize>(position: &Checkers<N>, men: i32, enemies: i32) -> bool {
    let (more, fewer) = (men.max(enemies), men.min(enemies));
    !position.border_rule()
        && fewer >= 1
        && more > fewer
        && (more <= 2 || (more == 3 && (fewer == 2 || position.geometry().side() >= 8)))
}

/// The value of the weighted `terms` (material first) in a drawn class
/// ([`drawn_class`]): the side ahead does not trade into such an ending and the side
/// behind seeks it, while more men (tactics) and the usual terms still rank moves.
fn drawn_value(terms: &[i32; 12]) -> i32 {
    let material = terms[0];
    let sum: i32 = terms.iter().sum::<i32>() - terms[DRAWN_TERM];
    ((sum - material) / DRAWN_DIVISOR).clamp(-DRAWN_POSITIONAL, DRAWN_POSITIONAL)
        + material / MAN * DRAWN_MAN
}

/// [`Evaluate::evaluate`], with each colour's open steps if already counted.
fn evaluate_with<const N: usize>(position: &Checkers<N>, mobility: Option<[u32; 2]>) -> i32 {
    weighted(position, position.side_to_move(), mobility)
        .iter()
        .sum()
}

impl<const N: usize> SearchGame for Checkers<N> {
    fn expected_moves_left(&self) -> u32 {
        40
    }

    fn advancement(&self, player: Player) -> i32 {
        self.placement(player).advanced() as i32
    }

    fn evaluation_report(&self) -> (Vec<(String, i32)>, i32) {
        (self.evaluation_terms(), self.evaluate())
    }
}

impl<const N: usize> Evaluate for Checkers<N> {
    fn evaluate(&self) -> i32 {
        evaluate_with(self, None)
    }

    fn evaluation_terms(&self) -> Vec<(String, i32)> {
        TERM_NAMES
            .iter()
            .zip(weighted(self, Player::One, None))
            .map(|(name, value)| (name.to_string(), value))
            .collect()
    }
}

impl<const N: usize> AlphaBetaGame for Checkers<N> {
    fn is_noisy(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    fn noisy_moves(&self, moves: &mut Vec<Move>) -> bool {
        let open = self.captures_or_open_steps(moves);
        open.is_some_and(|open| open[self.side_to_move().index()] > 0)
    }

    /// Without a capture, the evaluation from the open steps the capture test counted.
    fn noisy_moves_and_evaluation(&self, moves: &mut Vec<Move>) -> (bool, Option<i32>) {
        match self.captures_or_open_steps(moves) {
            Some(open) => (
                open[self.side_to_move().index()] > 0,
                Some(evaluate_with(self, Some(open))),
            ),
            None => (false, None),
        }
    }

    /// A step list is sorted (generation goes by direction, then cell, the order of the
    /// encoding), so a step is found by binary search. A capture list is not, but holds
    /// no step, and captures and steps never mix.
    fn find_move(&self, moves: &[Move], mv: Move) -> Option<usize> {
        match moves.first() {
            Some(first) if !first.is_capture() && !mv.is_capture() => moves.binary_search(&mv).ok(),
            _ => find_move(moves, mv),
        }
    }

    /// Longer capture chains first.
    fn order_hint(&self, mv: Move) -> i32 {
        mv.capture_count() as i32 * 100
    }

    fn history_index(&self, mv: Move) -> usize {
        ((mv.start() * 6 + mv.direction(0)) * 2 + usize::from(mv.is_capture())) & (HISTORY_SIZE - 1)
    }

    /// A man on the big boards (sides 7 to 9), where the armies start far apart and the
    /// engine must press to avoid the 80-ply draw, shrinking with the men left to a fifth
    /// of a man at 6 or fewer; a man and a half before the first capture
    /// (`UNTOUCHED_CONTEMPT`), when the game is still to be opened by an exchange. Kruzno
    /// keeps 30: its armies meet at once. The material guard keeps any of these from
    /// buying a fresh count with a man.
    fn contempt(&self) -> i32 {
        if untouched(self) {
            UNTOUCHED_CONTEMPT
        } else if self.geometry().side() >= 7 {
            let men = (self.men(Player::One).len() + self.men(Player::Two).len()) as i32;
            (men * 100 / 30).clamp(20, 100)
        } else {
            30
        }
    }
}

impl<const N: usize> StagedMoves for Checkers<N> {
    fn quiet_move_count(&self) -> Option<usize> {
        self.step_count().map(|count| count as usize)
    }

    fn is_legal_quiet(&self, mv: Move) -> bool {
        self.is_legal_step(mv)
    }

    fn move_code(&self, mv: Move) -> Option<u16> {
        mv.step_code()
    }

    fn decode_move(&self, code: u16) -> Option<Move> {
        Move::from_step_code(code)
    }
}

/// No fixed length: a game ends by captures, blocking or the 80-ply rule.
impl<const N: usize> FixedLength for Checkers<N> {}

impl<const N: usize> ProgressRule for Checkers<N> {
    /// Two men, unlimited in the last `UNTOUCHED_FULL_FADE_PLIES` (20) plies while both
    /// armies are whole on the big boards (a line without a capture by then is a draw,
    /// however far its runners have advanced), and `SIDE_7_FADE_LIMIT` on side 7 after
    /// the first capture.
    fn draw_fade_limit(&self) -> i32 {
        if untouched(self) {
            if self
                .plies_to_draw()
                .is_some_and(|left| left <= UNTOUCHED_FULL_FADE_PLIES)
            {
                i32::MAX
            } else {
                DRAW_FADE_LIMIT
            }
        } else if self.geometry().side() == 7 {
            SIDE_7_FADE_LIMIT
        } else {
            DRAW_FADE_LIMIT
        }
    }

    /// The whole 80 plies on the big boards: the armies start 11 rows apart (side 9), so
    /// a count of 40 left is too late to start closing in. Kruzno's armies meet at once
    /// and keep 40.
    fn draw_fade_plies(&self) -> u32 {
        if self.geometry().side() >= 7 { 80 } else { 40 }
    }

    /// Men.
    fn material_lead(&self, player: Player) -> Option<i32> {
        Some(self.men(player).len() as i32 - self.men(player.opponent()).len() as i32)
    }

    /// `GUARD_PENALTY` per man given, on every board; a lead above `SECURE_LEAD` may
    /// be spent only in the last `SPEND_PLIES` of the count.
    fn material_guard(&self) -> Option<MaterialGuard> {
        let spendable = self.plies_to_draw().is_some_and(|left| left <= SPEND_PLIES);
        Some(MaterialGuard {
            penalty: GUARD_PENALTY,
            secure_lead: if spendable { SECURE_LEAD } else { i32::MAX },
        })
    }

    fn plies_to_draw(&self) -> Option<u32> {
        Some(u32::from(DRAW_PLIES).saturating_sub(self.plies_since_capture() as u32))
    }

    /// Two plies per step the mover's `contact_men`th nearest man (before the first
    /// capture, `UNTOUCHED_CONTACT_MEN`) must walk before it touches an enemy man: one
    /// runner cannot force a capture against a closed army, a few men together can trade
    /// (the opponent may close in too, so this measures effort rather than bounding it).
    fn plies_to_contact(&self) -> u32 {
        let player = self.side_to_move();
        let men = self.men(player);
        let opponent = self.men(player.opponent());
        let wanted = if untouched(self) {
            UNTOUCHED_CONTACT_MEN
        } else {
            contact_men(self.geometry().side())
        };
        let distance = contact_distance(|set| self.grown(set), self.valid(), men, opponent, wanted);
        2 * distance.saturating_sub(1)
    }
}

impl<const N: usize> ExactTables for Checkers<N> {
    /// The engine's ending tables: the built-in ones and an `EndingsFile`.
    type Tables = EndingTables;

    /// Hex checkers (no border rule) with few men: the exact tables' value; a draw
    /// `TABLE_DRAW_PER_MAN` (10) per man ahead.
    #[inline]
    fn table_value(&self, tables: &EndingTables) -> Option<TableValue> {
        Some(match tables.value(self)? {
            Value::Win(plies) => TableValue::Win(u32::from(plies)),
            Value::Loss(plies) => TableValue::Loss(u32::from(plies)),
            Value::Draw => {
                let mover = self.side_to_move();
                let ahead = self.men(mover).len() as i32 - self.men(mover.opponent()).len() as i32;
                TableValue::Draw(TABLE_DRAW_PER_MAN * ahead)
            }
        })
    }
}

#[cfg(test)]
#[path = "checkers_tests.rs"]
mod tests;
