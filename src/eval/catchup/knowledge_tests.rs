//! The knowledge playout and priors on hand-built positions: what each term reads, that
//! both playout boards read it the same way, and that a seed fixes every draw.

use super::*;
use crate::eval::catchup_knowledge::{Features, TurnScores};
use crate::game::catchup::Contacts;
use crate::game::{CatchupRule, GameConfig, Variant};
use crate::search::rng::seeded;

/// Side 5, White to move with 2 stones: row e is `W . W . B B . . .` (e1 and e3 White,
/// e5 and e6 a Black group of 2); every other row is empty.
const ROW_E: &str = "5/6/7/8/W1W1BB3/8/7/6/5 w 2";

fn position(text: &str, rule: CatchupRule) -> Catchup {
    let config = rule.chosen_in(GameConfig {
        size: Some(5),
        ..GameConfig::new(Variant::Catchup)
    });
    Catchup::from_position_text(text, &config).unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn ordinal(position: &Catchup, name: &str) -> u8 {
    let bit = position
        .geometry()
        .parse_cell(name)
        .expect("a cell of side 5");
    position.ordinal(bit)
}

/// A stone's contacts read on both playout boards, which must agree.
fn read(position: &Catchup, name: &str, player: Player) -> Contacts {
    let cell = ordinal(position, name);
    let word = WordBoard::new(position).contacts(cell, player.index());
    let general = position.playout_board().contacts(cell, player.index());
    assert_eq!(word, general, "{name}");
    word
}

#[test]
fn contacts_count_distinct_groups_and_their_sizes() {
    let at = position(ROW_E, CatchupRule::Revised);
    // e2 joins White's two single stones into a group of 3.
    assert_eq!(read(&at, "e2", Player::One), Contacts::new(2, 3, 0, 0));
    // e4 joins e3 and touches Black's group of 2 (one group, though two stones).
    assert_eq!(read(&at, "e4", Player::One), Contacts::new(1, 2, 1, 2));
    assert_eq!(read(&at, "e4", Player::Two), Contacts::new(1, 3, 1, 1));
    // e8 stands alone.
    assert_eq!(read(&at, "e8", Player::One), Contacts::new(0, 1, 0, 0));
}

#[test]
fn features_of_a_hand_built_position_under_each_rule() {
    for rule in [CatchupRule::Revised, CatchupRule::Original] {
        let at = position(ROW_E, rule);
        let board = at.playout_board();
        let scores: TurnScores = turn_scores(&board, rule);
        assert_eq!((scores.mover, scores.opponent), (1, 2));
        let features = |name| Features::of(read(&at, name, Player::One), &scores);
        let merge = features("e2");
        assert_eq!(
            (merge.own_groups, merge.opponent, merge.raises),
            (2, 0, true)
        );
        // Reaching 3 passes Black's 2: both rules hand Black 3 stones.
        assert!(merge.grants);
        let press = features("e4");
        assert_eq!(
            (press.own_groups, press.opponent, press.raises),
            (1, 2, true)
        );
        // Reaching 2 ties Black: only the revised rule grants.
        assert_eq!(press.grants, rule == CatchupRule::Revised);
        let alone = features("e8");
        assert_eq!(
            alone,
            Features {
                own_groups: 0,
                opponent: 0,
                raises: false,
                grants: false
            }
        );
    }
}

#[test]
fn knowledge_playouts_are_fixed_by_the_seed_and_agree_on_both_boards() {
    for state in random_tree_states(PlayoutPolicy::Knowledge, 160, 23) {
        for seed in 0..4 {
            let (mut first, mut second) = (seeded(seed), seeded(seed));
            let outcome = state.clone().playout(&mut first);
            assert_eq!(outcome, state.clone().playout(&mut second), "{state:?}");
            assert_eq!(first.next_u64(), second.next_u64(), "same number of draws");
            if state.position.fits_word_board() {
                let (mut word, mut general) = (seeded(seed), seeded(seed));
                let on_word =
                    state.play_out_knowledge(&mut WordBoard::new(&state.position), &mut word);
                let on_general =
                    state.play_out_knowledge(&mut state.position.playout_board(), &mut general);
                assert_eq!(on_word, on_general, "{state:?}");
                assert_eq!(word.next_u64(), general.next_u64(), "same number of draws");
            }
        }
    }
}

#[test]
fn knowledge_playouts_fill_the_board_with_legal_turns() {
    for state in random_tree_states(PlayoutPolicy::Knowledge, 160, 23) {
        let mut board = state.position.playout_board();
        let mut rng = seeded(5);
        let outcome = state.play_out_knowledge(&mut board, &mut rng);
        assert_eq!(board.empty_count(), 0, "{state:?}");
        assert_eq!(outcome, board.leader());
    }
}

#[test]
fn knowledge_priors_read_the_stones_already_placed_this_turn() {
    let at = position(ROW_E, CatchupRule::Revised);
    let knowledge = Knowledge::of(CatchupRule::Revised);
    let bit = |name: &str| at.geometry().parse_cell(name).expect("a cell of side 5") as u16;
    let mut state = CatchupTree::for_search(at.clone(), PlayoutPolicy::Knowledge);
    // Before any stone, e4 joins e3 (a group of 2, which ties Black's 2: a grant).
    let fresh = Features {
        own_groups: 1,
        opponent: 2,
        raises: true,
        grants: true,
    };
    assert_eq!(state.prior(bit("e4")), Some(knowledge.priors[fresh.code()]));
    // With e2 placed, e4 joins the group e1-e2-e3; the turn has granted already.
    state.apply(bit("e2"));
    let after = Features {
        own_groups: 1,
        opponent: 2,
        raises: true,
        grants: false,
    };
    let mut priors = Vec::new();
    state.priors(&[bit("e4"), END_TURN], &mut priors);
    assert_eq!(
        priors,
        vec![Some(knowledge.priors[after.code()]), Some(END_TURN_PRIOR)]
    );
    // The uniform policy keeps its neighbour-count prior.
    let uniform = CatchupTree::for_search(at.clone(), PlayoutPolicy::Uniform);
    assert_eq!(uniform.prior(bit("e2")), Some(0.45 + 0.05 * 2.0));
}

#[test]
fn the_first_stone_is_drawn_in_proportion_to_its_weight() {
    use crate::eval::catchup_knowledge::EmptyCells;
    let at = position(ROW_E, CatchupRule::Revised);
    let draw = Knowledge::draw_weights(CatchupRule::Revised);
    let start = WordBoard::new(&at);
    let scores = turn_scores(&start, CatchupRule::Revised);
    let mut expected = [0.0f64; 64];
    let mut all: crate::game::catchup::CellBuffer = [0; 256];
    let length = start.empty_cells(&[], &mut all);
    for &cell in &all[..length] {
        let code = crate::eval::catchup_knowledge::feature_code(start.contacts(cell, 0), &scores);
        expected[usize::from(cell)] = f64::from(draw.weights[code]);
    }
    let total: f64 = expected.iter().sum();
    let draws = 40_000;
    let mut counts = [0u32; 64];
    let mut rng = seeded(9);
    for _ in 0..draws {
        let mut board = start.clone();
        let mut empty = EmptyCells::of(&board);
        let mut turn = scores;
        Knowledge::place_stone(draw, &mut board, &mut empty, &mut turn, &mut rng);
        let mut listed = [false; 64];
        for &cell in &empty.cells[..empty.length] {
            listed[usize::from(cell)] = true;
        }
        let missing: Vec<u8> = all[..length]
            .iter()
            .copied()
            .filter(|&c| !listed[usize::from(c)])
            .collect();
        assert_eq!(missing.len(), 1);
        counts[usize::from(missing[0])] += 1;
    }
    for &cell in &all[..length] {
        let share = expected[usize::from(cell)] / total;
        let seen = f64::from(counts[usize::from(cell)]) / f64::from(draws);
        let margin = 4.0 * (share * (1.0 - share) / f64::from(draws)).sqrt() + 1e-4;
        assert!(
            (seen - share).abs() < margin,
            "cell {cell}: seen {seen} expected {share}"
        );
    }
}

#[test]
fn the_empty_list_keeps_frontier_and_lone_cells_apart_to_the_end() {
    use crate::eval::catchup_knowledge::EmptyCells;
    let mut rng = seeded(31);
    for state in random_tree_states(PlayoutPolicy::Knowledge, 80, 29) {
        let draw = Knowledge::draw_weights(state.position.rule());
        let mut board = state.board_with_pending(state.position.playout_board());
        let mut empty = EmptyCells::of(&board);
        empty.check(&board);
        while empty.length > 0 {
            let mut scores = turn_scores(&board, state.position.rule());
            Knowledge::place_stone(draw, &mut board, &mut empty, &mut scores, &mut rng);
            empty.check(&board);
            board.finish_turn(scores.before, 1);
        }
        let mut cells: crate::game::catchup::CellBuffer = [0; 256];
        assert_eq!(board.empty_cells(&[], &mut cells), 0, "{state:?}");
    }
}
