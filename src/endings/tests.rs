//! The solver against the engine: its moves equal the engine's, its values equal a plain
//! exhaustive search over the engine's positions on side 4, and the values are equal
//! under the twelve symmetries and the exchange of colours.

use std::collections::{BTreeSet, HashMap};

use super::board::position_text;
use super::board::{MAX_MEN, Occupancy, SolverBoard};
use super::report::{class_report, won_positions};
use super::solve::{Tables, Value};
use super::{PLY_LIMIT, engine_tables, probe};
use crate::board::strided::StridedSet;
use crate::game::checkers::{Checkers, SmallCheckers};
use crate::game::{GameConfig, Player, PositionError, Rules, Variant};
use crate::random::SplitMix64;

/// A random placement of `white` and `black` men (sorted cell lists, no shared cell).
fn random_men(
    board: &SolverBoard,
    rng: &mut SplitMix64,
    white: usize,
    black: usize,
) -> [Vec<u8>; 2] {
    let mut taken = Occupancy::default();
    [white, black].map(|count| {
        let mut men = Vec::new();
        while men.len() < count {
            let cell = rng.below(board.cells()) as u8;
            if !taken.contains(cell) {
                taken.insert(cell);
                men.push(cell);
            }
        }
        men.sort_unstable();
        men
    })
}

/// A position from its text through the rules' own parser: hex checkers, or Kruzno if
/// `border_rule`.
pub(super) fn parse_position<const N: usize>(
    text: &str,
    border_rule: bool,
) -> Result<Checkers<N>, PositionError> {
    let variant = if border_rule {
        Variant::Kruzno
    } else {
        Variant::HexCheckers
    };
    Checkers::from_position_text(text, &GameConfig::new(variant))
}

fn engine_position(board: &SolverBoard, men: &[Vec<u8>; 2], white_moves: bool) -> SmallCheckers {
    let text = position_text(board, &men[0], &men[1], white_moves);
    parse_position(&text, false).expect("the solver writes valid position strings")
}

/// The men of a position as sorted ordinal lists, side to move first.
fn solver_men(board: &SolverBoard, position: &SmallCheckers) -> [Vec<u8>; 2] {
    let geometry = position.geometry();
    let side = position.side_to_move();
    [side, side.opponent()].map(|player| {
        let men: Vec<u8> = position
            .men(player)
            .iter()
            .map(|bit| geometry.ordinal(bit).expect("men stand on cells") as u8)
            .collect();
        assert!(men.iter().all(|&cell| usize::from(cell) < board.cells()));
        men
    })
}

/// The positions the solver's moves lead to, as (mover's men, opponent's men) after
/// the move, each sorted.
fn solver_children(board: &SolverBoard, mover: &[u8], opponent: &[u8]) -> BTreeSet<[Vec<u8>; 2]> {
    let mut children = BTreeSet::new();
    let mut results = Vec::new();
    board.captures(mover, opponent, &mut results);
    for result in &results {
        let mut own = mover.to_vec();
        own[result.man] = result.end;
        own.sort_unstable();
        let other = (0..opponent.len())
            .filter(|&man| result.captured >> man & 1 == 0)
            .map(|man| opponent[man])
            .collect();
        children.insert([own, other]);
    }
    if results.is_empty() {
        let mut occupied = Occupancy::of(mover);
        opponent.iter().for_each(|&cell| occupied.insert(cell));
        board.for_each_step(mover, occupied, |man, to| {
            let mut own = mover.to_vec();
            own[man] = to;
            own.sort_unstable();
            children.insert([own, opponent.to_vec()]);
        });
    }
    children
}

#[test]
fn solver_moves_equal_the_engines() {
    let board = SolverBoard::new(4).expect("side 4 exists");
    let mut rng = SplitMix64::new(7);
    let mut captures = 0;
    for trial in 0..3000 {
        let white = 1 + rng.below(MAX_MEN);
        let black = 1 + rng.below(MAX_MEN);
        let men = random_men(&board, &mut rng, white, black);
        let position = engine_position(&board, &men, trial % 2 == 0);
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let engine: BTreeSet<[Vec<u8>; 2]> = moves
            .iter()
            .map(|&mv| {
                let mut child = position.clone();
                child.play_unchecked(mv);
                let [next, previous] = solver_men(&board, &child);
                [previous, next]
            })
            .collect();
        let [mover, opponent] = solver_men(&board, &position);
        captures += usize::from(moves.iter().any(|mv| mv.is_capture()));
        assert_eq!(
            solver_children(&board, &mover, &opponent),
            engine,
            "{}",
            position.position_text()
        );
    }
    assert!(captures > 300, "only {captures} positions with captures");
}

/// The symmetries are twelve distinct permutations of the cells that keep neighbours
/// neighbours, and the engine counts as many moves in every image of a position.
#[test]
fn the_rules_keep_the_twelve_symmetries() {
    let board = SolverBoard::new(5).expect("side 5 exists");
    let symmetries = board.symmetries();
    let distinct: BTreeSet<&Vec<u8>> = symmetries.iter().collect();
    assert_eq!(distinct.len(), 12);
    for image in symmetries {
        let cells: BTreeSet<u8> = image.iter().copied().collect();
        assert_eq!(cells.len(), board.cells());
        for cell in 0..board.cells() as u8 {
            for direction in 0..6 {
                if let Some(next) = board.neighbour(cell, direction) {
                    let (from, to) = (image[usize::from(cell)], image[usize::from(next)]);
                    assert!((0..6).any(|d| board.neighbour(from, d) == Some(to)));
                }
            }
        }
    }
    let mut rng = SplitMix64::new(11);
    for trial in 0..300 {
        let (white, black) = (1 + rng.below(8), 1 + rng.below(8));
        let men = random_men(&board, &mut rng, white, black);
        let count = engine_position(&board, &men, trial % 2 == 0).count_moves();
        for image in symmetries {
            let mapped = men.clone().map(|side| {
                let mut side: Vec<u8> = side.iter().map(|&c| image[usize::from(c)]).collect();
                side.sort_unstable();
                side
            });
            assert_eq!(
                engine_position(&board, &mapped, trial % 2 == 0).count_moves(),
                count
            );
            // Exchanging the colours (and the side to move) changes nothing either.
            let swapped = [mapped[1].clone(), mapped[0].clone()];
            assert_eq!(
                engine_position(&board, &swapped, trial % 2 == 1).count_moves(),
                count
            );
        }
    }
}

/// A plain search over the engine's positions: the value for the side to move with
/// `counter` plies since the last capture and a draw at `limit`.
struct PlainSearch {
    limit: usize,
    memo: HashMap<(StridedSet<2>, StridedSet<2>, Player, usize), Value>,
}

impl PlainSearch {
    fn value(&mut self, position: &SmallCheckers, counter: usize) -> Value {
        let key = (
            position.men(Player::One),
            position.men(Player::Two),
            position.side_to_move(),
            counter,
        );
        if let Some(&value) = self.memo.get(&key) {
            return value;
        }
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let value = if moves.is_empty() {
            Value::Loss(0)
        } else if counter >= self.limit {
            Value::Draw
        } else {
            // Plies to the next capture or the end: the tables' distance.
            let mut best = Value::Loss(0);
            let mut best_score = i32::MIN;
            for mv in moves {
                let mut child = position.clone();
                child.play_unchecked(mv);
                let capture = mv.is_capture();
                let next = self.value(&child, if capture { 0 } else { counter + 1 });
                let ours = match (next, capture) {
                    (Value::Loss(_), true) => Value::Win(1),
                    (Value::Win(_), true) => Value::Loss(1),
                    (Value::Draw, _) => Value::Draw,
                    (Value::Loss(plies), false) => Value::Win(plies + 1),
                    (Value::Win(plies), false) => Value::Loss(plies + 1),
                };
                // Quickest win, then draw, then slowest loss.
                let score = match ours {
                    Value::Win(plies) => 1000 - i32::from(plies),
                    Value::Draw => 0,
                    Value::Loss(plies) => -1000 + i32::from(plies),
                };
                if score > best_score {
                    (best, best_score) = (ours, score);
                }
            }
            best
        };
        self.memo.insert(key, value);
        value
    }
}

/// Every position of 1 against 1 and 2 against 1 (either side to move), and samples of
/// 2 against 2, 3 against 1 and 1 against 3, with every counter from 0 to the limit: the tables'
/// value cut at the plies left equals the plain search's.
#[test]
fn tables_equal_a_plain_search_on_side_4() {
    let limit = 6;
    let mut tables = Tables::new(SolverBoard::new(4).expect("side 4 exists"), limit);
    tables.solve_up_to(3, 1);
    tables.solve_up_to(2, 2);
    let mut search = PlainSearch {
        limit: usize::from(limit),
        memo: HashMap::new(),
    };
    let board = tables.board();
    let mut decided = 0;
    let mut check = |men: [Vec<u8>; 2], white_moves: bool, search: &mut PlainSearch| {
        let position = engine_position(board, &men, white_moves);
        let [mover, opponent] = solver_men(board, &position);
        let value = tables.value(&mover, &opponent).expect("material is solved");
        for counter in 0..=usize::from(limit) {
            let expected = search.value(&position, counter);
            assert_eq!(
                value.within(usize::from(limit) - counter),
                expected,
                "{} counter {counter}",
                position.position_text()
            );
            decided += usize::from(expected != Value::Draw);
        }
    };
    for (strong, weak) in [(1, 1), (2, 1)] {
        let table = tables.table(strong, weak).expect("solved");
        let mut placements = Vec::new();
        table.for_each(board, |mover, opponent, _| {
            placements.push([mover.to_vec(), opponent.to_vec()]);
        });
        for men in placements {
            check(men.clone(), true, &mut search);
            check([men[1].clone(), men[0].clone()], false, &mut search);
        }
    }
    let mut rng = SplitMix64::new(3);
    for trial in 0..30 {
        let (white, black) = [(2, 2), (3, 1), (1, 3)][trial % 3];
        let men = random_men(board, &mut rng, white, black);
        check(men, trial % 6 < 3, &mut search);
    }
    assert!(decided > 10_000, "only {decided} decided checks");
}

/// The cells of `men` under the symmetry `image` (a cell map), sorted as tables want them.
pub(super) fn image_of(image: &[u8], men: &[u8]) -> Vec<u8> {
    let mut men: Vec<u8> = men.iter().map(|&cell| image[usize::from(cell)]).collect();
    men.sort_unstable();
    men
}

/// Each of the twelve symmetries keeps every value.
#[test]
fn values_keep_the_symmetries() {
    let mut tables = Tables::new(SolverBoard::new(4).expect("side 4 exists"), PLY_LIMIT);
    tables.solve_up_to(2, 2);
    let board = tables.board();
    for (mover, opponent) in [(2, 1), (1, 2), (2, 2)] {
        let table = tables.table(mover, opponent).expect("solved");
        table.for_each(board, |own, other, value| {
            for image in board.symmetries() {
                let map = |men: &[u8]| image_of(image, men);
                assert_eq!(tables.value(&map(own), &map(other)), Some(value));
            }
        });
    }
}

#[test]
fn probe_counts_the_plies_already_played() {
    let tables = engine_tables(4).expect("side 4 is supported");
    let board = tables.board();
    let samples = won_positions(tables, 2, 1, 20, 4, 5);
    assert_eq!(
        samples.len(),
        20,
        "2 against 1 has wins of 4 plies or more on side 4"
    );
    for (text, plies) in samples {
        let position: SmallCheckers = parse_position(&text, false).expect("valid");
        assert_eq!(probe(tables, &position), Some(Value::Win(plies)), "{text}");
        let [mover, opponent] = solver_men(board, &position);
        assert_eq!(tables.value(&mover, &opponent), Some(Value::Win(plies)));
        // With fewer plies left than the win needs, the rule draws it.
        let late = usize::from(PLY_LIMIT - plies + 1);
        let text = text.replace(" - 0 40", &format!(" - {late} 40"));
        let position: SmallCheckers = parse_position(&text, false).expect("valid");
        assert_eq!(probe(tables, &position), Some(Value::Draw), "{text}");
        // Kruzno's border rule is another game: no answer.
        let kruzno: SmallCheckers = parse_position(&text, true).expect("valid");
        assert_eq!(probe(tables, &kruzno), None);
    }
    let report = class_report(tables, 2, 1).expect("solved");
    assert_eq!(report.tables.len(), 2);
    let positions = 37 * 36 / 2 * 35;
    assert!(
        report
            .tables
            .iter()
            .all(|table| table.positions == positions)
    );
}

/// The suite of won endings: each position string follows a comment
/// `# <a>v<b> win in <d> plies`; other comment lines are free text.
const SUITE: &str = include_str!("../../tests/data/hexcheckers_won_endings.txt");

/// The won endings taken from real games (same form, counters as played).
const GAMES_SUITE: &str = include_str!("../../tests/data/hexcheckers_won_endings_from_games.txt");

/// Each suite position (side 9) with its claimed material and distance.
fn suite() -> Vec<(Checkers<5>, (usize, usize), u8)> {
    parse_suite(SUITE)
}

/// The positions of a suite text, each with its claimed material and distance.
fn parse_suite(text: &str) -> Vec<(Checkers<5>, (usize, usize), u8)> {
    let mut claim = None;
    let mut positions = Vec::new();
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if let Some(comment) = line.strip_prefix('#').map(str::trim) {
            let words: Vec<&str> = comment.split(' ').collect();
            if let [material, "win", "in", plies, "plies"] = words[..] {
                let (strong, weak) = material.split_once('v').expect("material");
                let material = (strong.parse().expect("count"), weak.parse().expect("count"));
                claim = Some((material, plies.parse().expect("plies")));
            }
            continue;
        }
        let (material, plies) = claim.take().expect("a claim before every position");
        let position: Checkers<5> = parse_position(line, false).expect(line);
        positions.push((position, material, plies));
    }
    positions
}

/// The suite holds at least 60 side-9 positions whose side to move has the men the
/// comment says, more than the other side, a fresh counter and a win that needs some
/// plies (no capture at once); the ones the engine's tables cover probe as claimed.
#[test]
fn suite_positions_are_as_described() {
    let suite = suite();
    assert!(suite.len() >= 60, "{} positions", suite.len());
    let tables = engine_tables(9).expect("side 9 is supported");
    for (position, (strong, weak), plies) in suite {
        let text = position.position_text();
        assert_eq!(position.geometry().side(), 9, "{text}");
        let side = position.side_to_move();
        let men = [side, side.opponent()].map(|player| position.men(player).len() as usize);
        assert_eq!(men, [strong, weak], "{text}");
        assert!(
            strong > weak && position.plies_since_capture() == 0,
            "{text}"
        );
        assert!((2..=PLY_LIMIT).contains(&plies), "{text}");
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        assert!(moves.iter().all(|mv| !mv.is_capture()), "{text}");
        if let Some(value) = probe(tables, &position) {
            assert_eq!(value, Value::Win(plies), "{text}");
        }
    }
}

/// The suite from games: side-9 positions of at most 3 men against 1 (the material of
/// `tessera endings --men 3v1 --write`), the side to move's win within the plies its
/// counter leaves; those the built-in 2 v 1 covers probe as claimed.
#[test]
fn suite_from_games_positions_are_as_described() {
    let suite = parse_suite(GAMES_SUITE);
    assert!(suite.len() >= 30, "{} positions", suite.len());
    let tables = engine_tables(9).expect("side 9 is supported");
    let mut distinct = BTreeSet::new();
    for (position, (mover, other), plies) in suite {
        let text = position.position_text();
        assert_eq!(position.geometry().side(), 9, "{text}");
        assert!(distinct.insert(text.clone()), "{text} twice");
        let side = position.side_to_move();
        let men = [side, side.opponent()].map(|player| position.men(player).len() as usize);
        assert_eq!(men, [mover, other], "{text}");
        assert!(mover.max(other) <= 3 && mover.min(other) == 1, "{text}");
        let left = usize::from(PLY_LIMIT) - position.plies_since_capture();
        assert!((1..=left).contains(&usize::from(plies)), "{text}");
        if let Some(value) = probe(tables, &position) {
            assert_eq!(value, Value::Win(plies), "{text}");
        }
    }
}

/// Every suite position is won in the plies its comment gives, by freshly solved side-9
/// tables (minutes and about 1.3 GB: `cargo test --release -- --ignored suite`).
#[test]
#[ignore = "solves 3 against 1 and 2 against 2 on side 9"]
fn suite_positions_are_won_as_claimed() {
    let mut tables = Tables::new(SolverBoard::new(9).expect("side 9 exists"), PLY_LIMIT);
    let mut suite = suite();
    suite.extend(parse_suite(GAMES_SUITE));
    for (strong, weak) in [(3, 1), (2, 2)] {
        if suite
            .iter()
            .any(|&(_, material, _)| material == (strong, weak))
        {
            tables.solve_up_to(strong, weak);
        }
    }
    for (position, _, plies) in suite {
        assert_eq!(
            probe(&tables, &position),
            Some(Value::Win(plies)),
            "{}",
            position.position_text()
        );
    }
}

/// The positions of an openings book from real games, each with the material its
/// comment claims (`# <strong> v <weak>, ...`, the larger count first), checked against
/// the board, which must be side 9 with a fresh counter (just after a capture).
fn book_from_games(book: &str) -> Vec<(Checkers<5>, u32, u32)> {
    let mut claim = None;
    let mut positions = Vec::new();
    for line in book.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if let Some(comment) = line.strip_prefix("# ") {
            if let [strong, "v", weak, ..] = comment.split(' ').collect::<Vec<_>>()[..]
                && let (Ok(strong), Ok(weak)) = (
                    strong.parse::<u32>(),
                    weak.trim_end_matches(',').parse::<u32>(),
                )
            {
                claim = Some((strong, weak));
            }
            continue;
        }
        let (strong, weak) = claim
            .take()
            .expect("a material comment before every position");
        let position: Checkers<5> = parse_position(line, false).expect(line);
        assert_eq!(position.geometry().side(), 9, "{line}");
        assert_eq!(position.plies_since_capture(), 0, "{line}");
        let mut men = [Player::One, Player::Two].map(|player| position.men(player).len());
        men.sort_unstable();
        assert_eq!(men, [weak, strong], "{line}");
        positions.push((position, strong, weak));
    }
    positions
}

/// The endings from real games (an openings book for conversion matches): 60 side-9
/// positions, each just after a capture (fresh counter), the side ahead 3 or more men up
/// with at most 12 men and the other side at most 4, as the file's header and the comment
/// before each position say.
#[test]
fn endings_from_games_are_as_described() {
    const BOOK: &str = include_str!("../../tests/data/hexcheckers_endings_from_games.txt");
    let positions = book_from_games(BOOK);
    for (position, strong, weak) in &positions {
        assert!(
            *strong >= weak + 3 && *strong <= 12 && (1..=4).contains(weak),
            "{}",
            position.position_text()
        );
    }
    assert_eq!(positions.len(), 60);
}

/// The leads from real games (an openings book for conversion from the middle game): 113
/// side-9 positions, each just after a capture, one side two or more men up and the other
/// with 3 to 12 men, as the file's header and the comment before each position say.
#[test]
fn leads_from_games_are_as_described() {
    const BOOK: &str = include_str!("../../tests/data/hexcheckers_leads_from_games.txt");
    let positions = book_from_games(BOOK);
    for (position, strong, weak) in &positions {
        assert!(
            *strong >= weak + 2 && (3..=12).contains(weak),
            "{}",
            position.position_text()
        );
    }
    assert_eq!(positions.len(), 113);
}
