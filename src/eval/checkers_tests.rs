//! Tests of the hex checkers evaluation (`checkers.rs`): each term on a hand-built position.
use std::sync::atomic::AtomicBool;

use crate::endings::EndingTables;
use crate::game::checkers::{LargeCheckers, Move};
use crate::game::{GameConfig, GameRecord, Outcome, Player, Rules, Variant};
use crate::random::SplitMix64;
use crate::search::alphabeta::{AlphaBetaConfig, MATE, Worker, to_score};
use crate::search::game::{AlphaBetaGame, Evaluate, ProgressRule};
use crate::search::shared::Shared;
use crate::search::time::TimeBudget;
use crate::search::tt::TranspositionTable;
use crate::search::{GameSearchResult, Score, SearchInfo, SearchLimits};

fn position(text: &str) -> LargeCheckers {
    LargeCheckers::from_position_text(text, &GameConfig::new(Variant::HexCheckers))
        .expect("a valid test position")
}

/// The start position of `variant` on a board of side `size` (its default when `None`).
fn start(variant: Variant, size: Option<usize>) -> LargeCheckers {
    LargeCheckers::start(&GameConfig {
        size,
        ..GameConfig::new(variant)
    })
    .expect("a start position")
}

fn term(position: &LargeCheckers, name: &str) -> i32 {
    position
        .evaluation_terms()
        .into_iter()
        .find(|(term, _)| term == name)
        .map(|(_, value)| value)
        .expect("the term exists")
}

/// The alpha-beta search as the engine runs a fixed-depth `go` in these games: one
/// thread, the built-in ending tables, a table kept between searches.
struct Searcher {
    table: TranspositionTable,
    config: AlphaBetaConfig,
    tables: EndingTables,
}

impl Searcher {
    fn alpha_beta_config(&self) -> AlphaBetaConfig {
        self.config
    }

    fn set_alpha_beta_config(&mut self, config: AlphaBetaConfig) {
        self.config = config;
    }

    /// The search of `record` to `limits.depth`.
    fn search_record(
        &mut self,
        record: &GameRecord<LargeCheckers>,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> GameSearchResult<Move> {
        self.table.new_search();
        let shared = Shared::new(&self.table, stop, None, TimeBudget::UNLIMITED, false);
        let position = record.position();
        let history = record.hashes();
        let mut worker = Worker::new(
            &shared,
            &self.tables,
            self.config,
            0,
            position,
            history,
            Some(report),
        );
        let result = worker.iterate(limits.depth);
        GameSearchResult {
            best_move: result.best_move,
            ponder: None,
            score: Some(to_score(result.value)),
            nodes: worker.nodes,
            depth: result.depth,
        }
    }
}

/// A depth-`depth` search of `position`, from a fresh game record.
fn searched(
    searcher: &mut Searcher,
    position: &LargeCheckers,
    depth: u32,
) -> GameSearchResult<Move> {
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    searcher.search_record(
        &GameRecord::new(position.clone()),
        &limits,
        &stop,
        &mut |_| {},
    )
}

fn search(searcher: &mut Searcher, position: &LargeCheckers, depth: u32) -> Option<Score> {
    searched(searcher, position, depth).score
}

fn searcher() -> Searcher {
    Searcher {
        table: TranspositionTable::new(4),
        config: AlphaBetaConfig::default(),
        tables: EndingTables::default(),
    }
}

/// Side 5: Black's last man on corner a1; White's men on a2, a3, b1 and c1 back each
/// other, so only b2 is free. `FREE` leaves b2 open; `BLOCKED` has c2 moved to b2
/// (backed by c3), which leaves Black without a move.
const FREE: &str = "5/6/7/8/9/8/WWW4/W5/BWW2 w - 0 1";
const BLOCKED: &str = "5/6/7/8/9/8/W1W4/WW4/BWW2 w - 0 1";

/// Side 5 (rows a..i of 5, 6, 7, 8, 9, 8, 7, 6, 5 cells): a White man on the centre
/// e5, a Black man on its own corner i1.
const CENTRE_AGAINST_CORNER: &str = "B4/6/7/8/4W4/8/7/6/5 w - 0 1";

#[test]
fn material_counts_100_per_man() {
    let level = position(CENTRE_AGAINST_CORNER);
    assert_eq!(term(&level, "material"), 0);
    // A second White man on a1.
    let ahead = position("B4/6/7/8/4W4/8/7/6/W4 w - 0 1");
    assert_eq!(term(&ahead, "material"), 100);
}

#[test]
fn centre_counts_3_per_ring_inside_the_border() {
    // e5 is 4 rings inside the border, the corner none.
    assert_eq!(term(&position(CENTRE_AGAINST_CORNER), "centre"), 3 * 4);
    // White on d4, one ring out: 3 rings inside.
    let off_centre = position("B4/6/7/8/9/3W4/7/6/5 w - 0 1");
    assert_eq!(term(&off_centre, "centre"), 3 * 3);
}

#[test]
fn mobility_counts_2_per_open_step() {
    // The centre man has 6 open steps, the corner man 3.
    assert_eq!(
        term(&position(CENTRE_AGAINST_CORNER), "mobility"),
        2 * (6 - 3)
    );
    // A White man on e4 beside the centre man closes one step of each.
    let pair = position("B4/6/7/8/3WW4/8/7/6/5 w - 0 1");
    assert_eq!(term(&pair, "mobility"), 2 * (5 + 5 - 3));
}

#[test]
fn advancement_is_linear_on_small_boards_and_squared_on_big_ones_until_converting() {
    // Side 5: 3 per row; the White man is 4 rows up, the Black man on its own edge.
    assert_eq!(term(&position(CENTRE_AGAINST_CORNER), "advancement"), 3 * 4);
    // Side 9: 3/4 x rows^2; a White man on row i (8 rows up), a Black man on its
    // own edge (row q).
    let big = position("B8/10/11/12/13/14/15/16/8W8/16/15/14/13/12/11/10/9 w - 0 1");
    assert_eq!(term(&big, "advancement"), 3 * 8 * 8 / 4);
    // Three more White men on a1..a3: White, four men against one, earns conversion
    // terms and no longer advancement on a big board ...
    let converting = position("B8/10/11/12/13/14/15/16/8W8/16/15/14/13/12/11/10/WWW6 w - 0 1");
    assert_eq!(term(&converting, "advancement"), 0);
    assert!(term(&converting, "gather") > 0);
    // ... but still does on a small one.
    let small = position("B4/6/7/8/4W4/8/7/6/W4 w - 0 1");
    assert_eq!(term(&small, "advancement"), 3 * 4);
    assert_eq!(term(&small, "gather"), 0);
}

#[test]
fn border_costs_12_per_kruzno_man_on_the_restricted_ring() {
    let kruzno = |text: &str| {
        LargeCheckers::from_position_text(text, &GameConfig::new(Variant::Kruzno))
            .expect("a valid Kruzno position")
    };
    // A White man on corner a1, a Black man on the centre f6.
    let on_border = kruzno("6/7/8/9/10/5B5/10/9/8/7/W5 w - 0 1");
    assert_eq!(term(&on_border, "border"), -12);
    // The same men in hexcheckers: no border rule, no term.
    let hexcheckers = position("6/7/8/9/10/5B5/10/9/8/7/W5 w - 0 1");
    assert_eq!(term(&hexcheckers, "border"), 0);
}

#[test]
fn a_blocked_enemy_man_scores_higher_than_a_free_one() {
    let free = position(FREE);
    let blocked = position(BLOCKED);
    assert!(term(&blocked, "restrict") > term(&free, "restrict"));
    assert!(blocked.evaluate() > free.evaluate());
    // The same men but level material: no conversion terms at all.
    let level = position("5/6/7/8/9/8/7/6/BW3 w - 0 1");
    assert_eq!(term(&level, "restrict"), 0);
    assert_eq!(term(&level, "hunt"), 0);
    assert_eq!(term(&level, "space"), 0);
}

#[test]
fn no_conversion_terms_for_three_men_or_fewer_on_sides_8_and_9() {
    let conversion = |text: &str| {
        let position = position(text);
        ["hunt", "restrict", "space", "gather"].map(|name| term(&position, name))
    };
    // Side 9: three White men against one Black man earn nothing, four do.
    let three = "B8/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/WWW6 w - 0 1";
    let four = "B8/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/WWWW5 w - 0 1";
    assert_eq!(conversion(three), [0; 4]);
    assert!(conversion(four).iter().all(|&value| value > 0), "{four}");
    // Side 7: three men do (3 against 1 is mostly won there).
    let seven = "B6/8/9/10/11/12/13/12/11/10/9/8/WWW4 w - 0 1";
    assert!(conversion(seven).iter().all(|&value| value > 0), "{seven}");
}

#[test]
fn the_search_blocks_the_last_enemy_man() {
    let free = position(FREE);
    let result = searched(&mut searcher(), &free, 2);
    assert_eq!(result.score, Some(Score::Mate(1)));
    let mut after = free.clone();
    after.play_unchecked(result.best_move.expect("White has moves"));
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    assert!(replies.is_empty(), "{}", after.position_text());
    let mut moves = Vec::new();
    free.legal_moves(&mut moves);
    assert!(moves.len() > 5, "most moves do not block");
}

#[test]
fn a_won_position_is_worth_less_as_the_80_ply_draw_nears_but_never_two_men_less() {
    // White is 21 men up with the armies far apart: no capture within reach.
    let board = "BBBBBBBBB/10/11/12/13/14/15/16/17/16/15/14/13/12/\
                 WWWWWWWWWWW/WWWWWWWWWW/WWWWWWWWW w -";
    let centipawns =
        |count: u32| match search(&mut searcher(), &position(&format!("{board} {count} 1")), 3) {
            Some(Score::Centipawns(value)) => value,
            other => panic!("{other:?}"),
        };
    let fresh = centipawns(0);
    let middle = centipawns(30);
    let late = centipawns(70);
    assert!(late < fresh - 100, "{late} {fresh}");
    assert!(late >= fresh - 200 - 100, "{late} {fresh}");
    // On side 9 the slide spans all 80 plies: the value falls all the way.
    assert!(late < middle && middle < fresh, "{late} {middle} {fresh}");
}

#[test]
fn a_man_counts_40_and_the_rest_a_quarter_in_the_endings_the_tables_show_drawn() {
    let terms_sum = |position: &LargeCheckers| -> i32 {
        position
            .evaluation_terms()
            .into_iter()
            .filter(|(name, _)| name != "drawn")
            .map(|(_, value)| value)
            .sum()
    };
    let side_nine = |first: &str, middle: &str, last: &str| {
        position(&format!(
            "{first}/10/11/12/13/14/15/16/{middle}/16/15/14/13/12/11/10/{last} w - 0 1"
        ))
    };
    let three_two = side_nine("BB7", "17", "WWW6");
    let three_one_side_nine = side_nine("B8", "17", "WWW6");
    let two_one = side_nine("B8", "17", "WW7");
    let four_two = side_nine("BB7", "17", "WWWW5");
    let three_three = side_nine("BBB6", "17", "WWW6");
    let three_one_side_seven = LargeCheckers::from_position_text(
        "B6/8/9/10/11/12/13/12/11/10/9/8/WWW4 w - 0 1",
        &GameConfig {
            size: Some(7),
            ..GameConfig::new(Variant::HexCheckers)
        },
    )
    .expect("a side-7 position");
    for drawn in [&three_two, &three_one_side_nine, &two_one] {
        let sum = terms_sum(drawn);
        let material = term(drawn, "material");
        assert!(material == 100 || material == 200, "{material}");
        let expected = ((sum - material) / 4).clamp(-15, 15) + material / 100 * 40;
        assert_eq!(drawn.evaluate(), expected);
        assert_eq!(term(drawn, "drawn"), expected - sum);
    }
    for open in [&four_two, &three_three, &three_one_side_seven] {
        assert_eq!(term(open, "drawn"), 0);
        assert_eq!(open.evaluate(), terms_sum(open));
    }
    // A man down there costs more than the smallest contempt, so no man is given to
    // dodge the draw, even with the positional terms for the side behind.
    let behind = side_nine("BBB6", "7WW8", "9");
    assert!(
        terms_sum(&behind) > -100,
        "the men in the middle make up for some"
    );
    assert!(
        behind.evaluate() < -behind.contempt(),
        "{}",
        behind.evaluate()
    );
    // Kruzno's border rule is not in the tables: nothing is scaled there.
    let kruzno = LargeCheckers::from_position_text(
        "B5/7/8/9/10/11/10/9/8/7/WW4 w - 0 1",
        &GameConfig::new(Variant::Kruzno),
    )
    .expect("a Kruzno position");
    assert_eq!(term(&kruzno, "drawn"), 0);
}

#[test]
fn contempt_shrinks_with_the_men_left_on_the_big_boards() {
    for size in 4..=9 {
        let army = start(Variant::HexCheckers, Some(size))
            .men(Player::Two)
            .len();
        assert_eq!(army as i32, super::opening_men(size), "side {size}");
    }
    // Untouched armies: a man and a half, so a man is given rather than a 30 v 30 draw.
    let side_9 = start(Variant::HexCheckers, Some(9));
    assert_eq!(side_9.contempt(), 150);
    assert_eq!(start(Variant::HexCheckers, Some(8)).contempt(), 150);
    assert_eq!(start(Variant::HexCheckers, Some(7)).contempt(), 150);
    assert_eq!(start(Variant::Kruzno, None).contempt(), 30);
    // One man taken: the usual scale, a whole man at 59 men on side 9.
    let text = side_9.position_text();
    let one_taken = position(&text.replacen('W', "1", 1));
    assert_eq!(
        one_taken.men(Player::One).len() + one_taken.men(Player::Two).len(),
        59
    );
    assert_eq!(one_taken.contempt(), 100);
    let twelve = position("WWWWWW3/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/BBBBBB3 w - 0 1");
    assert_eq!(twelve.contempt(), 40);
    let six = position("B8/10/11/12/13/14/15/16/6BBW8/16/15/14/13/12/11/10/WW7 w - 0 1");
    assert_eq!(six.contempt(), 20);
}

#[test]
fn an_even_ending_keeps_its_men_rather_than_restart_the_80_ply_count() {
    // 3 v 3 with 78 plies gone: White's man on the middle row stands in front of two
    // black men with nothing behind it. Left there it is taken and the count restarts
    // at 2 v 3; moved away, the game is drawn in two plies. The draw must be worth more
    // than the man, or the engine gives men away at every limit into a lost ending.
    let limit = position("B8/10/11/12/13/14/15/16/6BBW8/16/15/14/13/12/11/10/WW7 w - 78 40");
    let contempt = limit.contempt();
    let result = searched(&mut searcher(), &limit, 4);
    assert_eq!(result.score, Some(Score::Centipawns(-contempt)));
    // Well above a man down (with a whole man of contempt both came to -100).
    assert!(-contempt > -100 + 50, "{contempt}");
    let mut after = limit.clone();
    after.play_unchecked(result.best_move.expect("White has moves"));
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    assert!(!replies[0].is_capture(), "{}", after.position_text());
}

/// Plain negamax with the 80-ply rule and quiescence as the engine plays them (a
/// draw scores 0: the test engine has no contempt).
fn negamax(position: &LargeCheckers, depth: i32, ply: i32) -> i32 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        // No moves: lost, unless the 80-ply draw holds (the rules then list none).
        return match position.outcome() {
            Some(Outcome::Draw) => 0,
            _ => -MATE + ply,
        };
    }
    let captures = moves[0].is_capture();
    if depth <= 0 && !captures {
        return position.evaluate();
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -negamax(&child, depth - 1, ply + 1)
        })
        .max()
        .expect("moves is not empty")
}

#[test]
fn values_near_the_80_ply_rule_match_negamax_with_a_table_filled_far_from_it() {
    let start = start(Variant::HexCheckers, Some(5));
    let mut rng = SplitMix64::new(3);
    let mut searcher = searcher();
    searcher.set_alpha_beta_config(AlphaBetaConfig::value_preserving());
    let mut checked = 0;
    while checked < 200 {
        let mut position = start.clone();
        let mut moves = Vec::new();
        for _ in 0..4 + rng.below(20) {
            position.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            position.play_unchecked(moves[rng.below(moves.len())]);
        }
        if position.outcome().is_some() {
            continue;
        }
        let text = position.position_text();
        let fields: Vec<&str> = text.split(' ').collect();
        // The same position with another count of plies since the last capture.
        let at_count = |count: usize| {
            let text = format!(
                "{} {} {} {count} {}",
                fields[0], fields[1], fields[2], fields[4]
            );
            let config = GameConfig::new(Variant::HexCheckers);
            (
                LargeCheckers::from_position_text(&text, &config).expect("valid"),
                text,
            )
        };
        let depth = 2 + rng.below(3) as u32;
        let (late, late_text) = at_count(80 - 1 - rng.below(depth as usize));
        let (far, _) = at_count(0);
        // The table holds values found far from the limit for the same boards, at the
        // same depths and deeper.
        search(&mut searcher, &far, depth + (checked % 3) as u32);
        // (Without the count in the table key this fails: a value stored far from the
        // limit cuts a node whose search would reach the draw.)
        let expected = to_score(negamax(&late, depth as i32, 0));
        assert_eq!(
            search(&mut searcher, &late, depth),
            Some(expected),
            "{late_text} depth {depth}"
        );
        checked += 1;
    }
}

#[test]
fn every_line_ends_in_the_80_ply_draw_near_the_limit() {
    // The armies are far apart: no capture within reach, so with 77 plies gone every
    // line ends in the 80-ply draw three plies ahead.
    let start = "BBBBBBBBB/10/11/12/13/14/15/16/17/16/15/14/13/12/\
                 WWWWWWWWWWW/WWWWWWWWWW/WWWWWWWWW";
    let fresh = position(&format!("{start} w - 0 1"));
    let late = position(&format!("{start} w - 77 1"));
    assert_eq!(late.plies_to_draw(), Some(3));
    let mut searcher = searcher();
    let contempt = late.contempt();
    assert_eq!(searcher.alpha_beta_config().contempt, None);
    // Fill the table with values found far from the limit, then search the same
    // boards close to it with the same table.
    search(&mut searcher, &fresh, 5);
    let reused = search(&mut searcher, &late, 5);
    assert_eq!(reused, Some(Score::Centipawns(-contempt)));
    assert_eq!(search(&mut self::searcher(), &late, 5), reused);
    assert_eq!(late.side_to_move(), Player::One);
}

#[test]
fn untouched_armies_count_three_men_to_contact() {
    // Side 9, both armies whole (30 men each): the start's nearest men stand 12 rows
    // apart, so 11 steps to touch, two plies each.
    let opening = start(Variant::HexCheckers, Some(9));
    assert_eq!(super::UNTOUCHED_CONTACT_MEN, 3);
    assert_eq!(opening.plies_to_contact(), 2 * 11);
    let text = opening.position_text();
    let rows: Vec<&str> = text.split(' ').next().expect("rows").split('/').collect();
    let fields: Vec<&str> = text.split(' ').skip(1).collect();
    let with = |changes: &[(usize, &str)]| {
        let mut board = rows.clone();
        for &(row, cells) in changes {
            board[row] = cells;
        }
        position(&format!("{} {}", board.join("/"), fields.join(" ")))
    };
    // One white man walked up to row m, two steps from the black men on row o: a lone
    // runner cannot trade, so the third man still counts from row c.
    let runner = with(&[(4, "W12"), (16, "1WWWWWWWW")]);
    assert!(super::untouched(&runner));
    assert_eq!(runner.plies_to_contact(), 2 * 11);
    // Three men there: one step each from touching.
    let three = with(&[(4, "WWW10"), (16, "3WWWWWW")]);
    assert!(super::untouched(&three));
    assert_eq!(three.plies_to_contact(), 2);
    // One man taken: six men must be near (the three on row m, then row c's).
    let taken = with(&[(4, "WWW10"), (16, "3WWWWWW"), (0, "1BBBBBBBB")]);
    assert!(!super::untouched(&taken));
    assert_eq!(taken.plies_to_contact(), 2 * 11);
    // Kruzno's armies meet at once: never untouched in this sense.
    let kruzno = start(Variant::Kruzno, None);
    assert!(!super::untouched(&kruzno));
}

#[test]
fn untouched_armies_fade_all_the_way_to_the_draw_in_the_last_plies() {
    // Side 9: Black whole on its three rows, White's 30 men advanced to rows g and f
    // and one on row e, eight rows from Black's front (row o): no capture within a few plies,
    // and White's advancement alone is worth more than the two men the fade usually
    // moves a value.
    let rows = |white_front: &str| {
        format!(
            "BBBBBBBBB/BBBBBBBBBB/BBBBBBBBBBB/12/13/14/15/16/17/16/{white_front}/\
             WWWWWWWWWWWWWW/W12/12/11/10/9"
        )
    };
    let whole = rows("WWWWWWWWWWWWWWW");
    let at = |board: &str, count: usize| position(&format!("{board} w - {count} 1"));
    assert!(super::untouched(&at(&whole, 0)));
    let evaluation = at(&whole, 0).evaluate();
    let contempt = at(&whole, 0).contempt();
    assert!(
        evaluation - super::DRAW_FADE_LIMIT > -contempt,
        "evaluation {evaluation}"
    );
    // 21 plies before the draw the fade still stops two men short; from 20 it does not.
    assert_eq!(at(&whole, 59).draw_fade_limit(), super::DRAW_FADE_LIMIT);
    assert_eq!(at(&whole, 60).draw_fade_limit(), i32::MAX);
    // 10 plies before the draw, every line of a short search ends quiet and scores the
    // draw itself, not the advancement less two men.
    let late = search(&mut searcher(), &at(&whole, 70), 2);
    assert_eq!(late, Some(Score::Centipawns(-contempt)));
    // One White man fewer: not untouched, the usual limit, and the same search keeps
    // White's lead above the draw.
    let short = rows("1WWWWWWWWWWWWWW");
    let taken = at(&short, 70);
    assert!(!super::untouched(&taken));
    assert_eq!(taken.draw_fade_limit(), super::DRAW_FADE_LIMIT);
    let kept = search(&mut searcher(), &taken, 2);
    assert!(
        matches!(kept, Some(Score::Centipawns(value)) if value > -taken.contempt()),
        "{kept:?}"
    );
}

#[test]
fn on_side_7_a_man_given_to_restart_the_count_costs_more_than_the_fade() {
    // Side 7, White 12 men on its first rows against 9 Black men on the last: no capture
    // within reach, so 10 plies before the 80-ply draw the fade weighs in fully.
    let at = |white_first_row: &str, count: usize| {
        position(&format!(
            "BBBBBBB/BB6/9/10/11/12/13/12/11/10/9/WWWWW3/{white_first_row} w - {count} 1"
        ))
    };
    let late = at("WWWWWWW", 70);
    assert!(!super::untouched(&late));
    assert_eq!(late.draw_fade_limit(), super::SIDE_7_FADE_LIMIT);
    // Keeping the 12 men with the count run down scores above giving one away for a
    // fresh count (with a limit of two men the gift scored higher).
    let kept = search(&mut searcher(), &late, 2);
    let given = search(&mut searcher(), &at("1WWWWWW", 0), 2);
    match (kept, given) {
        (Some(Score::Centipawns(kept)), Some(Score::Centipawns(given))) => {
            assert!(kept > given, "kept {kept}, given {given}")
        }
        other => panic!("{other:?}"),
    }
}

/// Side 7, Black to move with 77 plies gone and 23 men each: Black's men stand deep in
/// White's half (the evaluation says about five men for Black), White's are packed at
/// home. `e6-d5` gives a man (White must take, the count restarts); any other move
/// keeps the men and the game is drawn at the limit.
const GIFT_OR_DRAW: &str = "B1BB1BB/2B1BB2/1B2B2B1/6B3/4B3B2/6B5/6B6/3BB2BBB2/2B2B5/10/\
                            WWWWWWW1W/WWWWWWWW/WWWWWWW b - 77 73";

/// True when White has a capture after `black`'s move in `position`.
fn leaves_a_capture(position: &LargeCheckers, black: crate::game::checkers::Move) -> bool {
    let mut after = position.clone();
    after.play_unchecked(black);
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    replies.iter().any(|reply| reply.is_capture())
}

#[test]
fn a_man_given_for_a_fresh_count_loses_to_keeping_it_when_not_ahead() {
    let position = position(GIFT_OR_DRAW);
    assert_eq!(position.material_lead(Player::Two), Some(0));
    assert!(position.evaluate() > 300, "{}", position.evaluate());
    // With the guard the engine keeps its men and takes the draw.
    let guarded = searched(&mut searcher(), &position, 6);
    let kept = guarded.best_move.expect("Black has moves");
    assert!(
        !leaves_a_capture(&position, kept),
        "{}",
        position.move_text(kept)
    );
    assert_eq!(guarded.score, Some(Score::Centipawns(-position.contempt())));
    // Without it the same search gives the man: the position tests the guard.
    let mut unguarded = searcher();
    unguarded.set_alpha_beta_config(AlphaBetaConfig {
        material_guard: false,
        ..AlphaBetaConfig::default()
    });
    let given = searched(&mut unguarded, &position, 6)
        .best_move
        .expect("Black has moves");
    assert!(
        leaves_a_capture(&position, given),
        "{}",
        position.move_text(given)
    );
}

/// Side 9, Black to move, 14 v 8, with `count` plies of the count gone: `n3-m4` gives a man
/// (`l4xn4`) and `p3-o3` a second, of which one is taken back (`n4xp2 q1xo3`). `gather`
/// likes the hunters brought closer by more than the man costs, and a game from the
/// book of leads went this way at count 7.
fn two_for_one(count: u32) -> LargeCheckers {
    position(&format!(
        "B4B1BB/2B1B2B2/9B1/2B3B5/13/3W10/15/16/11W5/11W4/6B8/4W7W1/1W1WW8/10B1/1B9/10/\
         4B4 b - {count} 363"
    ))
}

/// The move a depth-`depth` search of `position` plays.
fn best_move(position: &LargeCheckers, depth: u32) -> Move {
    searched(&mut searcher(), position, depth)
        .best_move
        .expect("the side to move has moves")
}

#[test]
fn a_lead_is_spent_only_in_the_last_plies_of_the_count() {
    let early = two_for_one(7);
    assert_eq!(early.material_lead(Player::Two), Some(6));
    let kept = best_move(&early, 6);
    assert!(!leaves_a_capture(&early, kept), "{}", early.move_text(kept));
    // With 8 plies left the same lead may be spent: the position tests the guard.
    let late = two_for_one(72);
    let given = best_move(&late, 6);
    assert!(leaves_a_capture(&late, given), "{}", late.move_text(given));
}

#[test]
fn a_man_offered_to_take_more_is_still_played() {
    // Side 9, Black to move: `f6-f7` offers a man; White must take it with `d6xf6`,
    // and `f7xf5xd3xb1` takes three back. The guard charges only material still missing
    // at the leaves, so the shot is played.
    let position = position(
        "BBBBBBBBB/BBB1BB1BBB/BB1BB1BB2B/2B3B2B2/13/14/15/16/17/16/15/5B1B6/\
         1W1W1B2W4/W4W2W3/1WW1WWW1WWW/1WW1WWWWWW/WWWWWWWW1 b - 69 35",
    );
    let result = searched(&mut searcher(), &position, 5);
    let shot = result.best_move.expect("Black has moves");
    assert_eq!(position.move_text(shot), "f6-f7");
    assert!(leaves_a_capture(&position, shot));
    assert!(matches!(result.score, Some(Score::Centipawns(value)) if value > 0));
}

/// `start` after `moves`, each legal in turn.
fn played(start: &LargeCheckers, moves: &[&str]) -> LargeCheckers {
    let mut position = start.clone();
    for text in moves {
        let mv = position.parse_move(text).expect("a legal move");
        position.play(mv).expect("a legal move");
    }
    position
}

#[test]
fn the_spearhead_counts_the_four_most_advanced_men_and_the_front_man_s_support() {
    use super::{SPEARHEAD_ROW, SUPPORT_ROWS};
    let start = start(Variant::HexCheckers, None);
    assert_eq!(term(&start, "spearhead"), 0, "both fronts stand 2 rows out");
    // A White man walks four rows out, alone; Black's man goes out, back and out again
    // to n4, where the men behind it support it. White's four most advanced men stand
    // 6 + 3 x 2 rows out with no supporter; Black's, 3 + 3 x 2 with two.
    let runner = played(
        &start,
        &[
            "c3-d4", "o4-n4", "d4-e5", "n4-o4", "e5-f6", "o4-n4", "f6-g7",
        ],
    );
    let lone: i32 = 6 + 3 * 2;
    let supported = 3 + 3 * 2 + 2 * SUPPORT_ROWS as i32;
    assert_eq!(
        term(&runner, "spearhead"),
        SPEARHEAD_ROW * (lone - supported)
    );
    // Three White men abreast on m5, m6 and m7 (12 rows out): the middle one has two
    // supporters, the fourth man stands on row c; Black's army is whole.
    let abreast = position(
        "BBBBBBBBB/BBBBBBBBBB/BBBBBBBBBBB/12/4WWW6/14/15/16/17/16/15/14/13/12/\
         WWWW3WWWW/WWWWWWWWWW/WWWWWWWWW w - 40 21",
    );
    let white = 3 * 12 + 2 + 2 * SUPPORT_ROWS as i32;
    let black = 4 * 2 + 2 * SUPPORT_ROWS as i32;
    assert_eq!(term(&abreast, "spearhead"), SPEARHEAD_ROW * (white - black));
    // After the first capture the term is gone.
    let traded = position(
        "BBBBBBBBB/BBBBBBBBBB/BBBBBBBBBBB/12/13/14/15/16/17/16/15/14/13/12/WWWWWWWWWW1/WWWWWWWWWW/WWWWWWWWW w - 0 1",
    );
    assert_eq!(term(&traded, "spearhead"), 0);
}

#[test]
fn a_backed_offer_needs_a_man_behind_the_backer() {
    // Side 9, Black's three rows whole; White's k6, l6 and m6 stand in one line towards
    // o6. White has one backed offer: m6-n6, o6 must take it landing on m6, l6 takes back,
    // and k6 stops the chain from going on over l6. Black has two against m6: a man
    // stepping to n5 or n6, backed from p and anchored on q.
    let column = position(
        "BBBBBBBBB/BBBBBBBBBB/BBBBBBBBBBB/12/5W7/5W8/5W9/16/17/16/15/14/13/12/\
         WWWWWWWW3/WWWWWWWWWW/WWWWWWWWW w - 40 21",
    );
    assert_eq!(column.backed_offers(), [1, 2]);
    assert_eq!(term(&column, "offers"), super::BACKED_OFFER * (1 - 2));
    // Without k6 the taker would go on over l6 as well: no offer for White.
    let unanchored = position(
        "BBBBBBBBB/BBBBBBBBBB/BBBBBBBBBBB/12/5W7/5W8/15/16/17/16/15/14/13/12/\
         WWWWWWWWW2/WWWWWWWWWW/WWWWWWWWW w - 40 21",
    );
    assert_eq!(unanchored.backed_offers(), [0, 2]);
    assert_eq!(term(&unanchored, "offers"), super::BACKED_OFFER * (0 - 2));
    // On the smaller boards the term is not used, even where the sides' offers differ.
    let mut rng = SplitMix64::new(6);
    let mut small = start(Variant::HexCheckers, Some(6));
    let mut moves = Vec::new();
    while small.backed_offers()[0] == small.backed_offers()[1] {
        small.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "a random game with uneven offers");
        small.play_unchecked(moves[rng.below(moves.len())]);
    }
    assert_eq!(term(&small, "offers"), 0);
}

#[test]
fn three_men_abreast_two_rows_from_a_whole_army_force_an_even_exchange() {
    // Side 9, 40 plies into the count: Black's three rows whole, three White men abreast
    // on m5, m6 and m7. `m7-n6` (or its mirror) offers a man: Black must take it,
    // landing beside m6, which takes it back, and the men stay even. An army that stays
    // home can be traded with three men, so the count can always be restarted without
    // giving a man.
    let position = position(
        "BBBBBBBBB/BBBBBBBBBB/BBBBBBBBBBB/12/4WWW6/14/15/16/17/16/15/14/13/12/\
         WWWW3WWWW/WWWWWWWWWW/WWWWWWWWW w - 40 21",
    );
    let result = searched(&mut searcher(), &position, 7);
    let offer = result.best_move.expect("White has moves");
    let mut black_to_move = position.clone();
    black_to_move.play(offer).expect("a legal move");
    let mut replies = Vec::new();
    black_to_move.legal_moves(&mut replies);
    assert!(
        replies.iter().all(|reply| reply.is_capture()),
        "{} offers no man",
        position.move_text(offer)
    );
    // Every capture Black may choose is taken back: the men are even two plies later.
    for reply in replies {
        let mut taken = black_to_move.clone();
        taken.play_unchecked(reply);
        let mut answers = Vec::new();
        taken.legal_moves(&mut answers);
        assert!(answers.iter().any(|answer| {
            let mut back = taken.clone();
            back.play_unchecked(*answer);
            back.material_lead(Player::One) == Some(0)
        }));
    }
    // And the search prefers the exchange to drifting towards the 80-ply draw.
    assert!(
        matches!(result.score, Some(Score::Centipawns(value)) if value > -position.contempt()),
        "{:?}",
        result.score
    );
}
