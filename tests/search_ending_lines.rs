//! Hex checkers' exact lines: with several lines (`MultiPV`) in an ending the tables
//! cover, every line carries its move's exact value, checked against the tables probed
//! directly on the position the move leads to (side 5: the built-in 2 v 1 tables, and a
//! 3 v 1 file loaded as `EndingsFile` is); a won or lost line's `pv` reaches its
//! converting capture at the stated ply. With one line the search is the usual one.

use std::sync::atomic::AtomicBool;

mod endings_support;

use endings_support::side5_file;

use tessera::endings::{PLY_LIMIT, SolverBoard, Tables, Value, probe, won_positions};
use tessera::engine::{Engine, SearchOptions};
use tessera::game::checkers::SmallCheckers;
use tessera::game::{GameConfig, GameRecord, Outcome, Rules, Variant};
use tessera::search::alphabeta::TABLE_WIN;
use tessera::search::rng;
use tessera::search::{Score, SearchInfo, SearchLimits};

fn position(text: &str) -> SmallCheckers {
    let mut config = GameConfig::new(Variant::HexCheckers);
    config.size = Some(5);
    SmallCheckers::from_position_text(text, &config).expect("a valid position")
}

/// Side-5 tables up to `mover` v `opponent` (both ways round), solved here.
fn side5_tables(mover: usize, opponent: usize) -> Tables {
    let mut tables = Tables::new(SolverBoard::new(5).expect("side 5"), PLY_LIMIT);
    tables.solve_up_to(mover, opponent);
    tables
}

/// Every report of a search of `position` by `engine` at a fixed depth (untimed: the
/// built-in tables are waited for), with the result's best move and score.
fn search(
    engine: &mut Engine,
    position: &SmallCheckers,
) -> (Vec<SearchInfo>, String, Option<Score>) {
    let limits = SearchLimits {
        depth: Some(4),
        ..SearchLimits::default()
    };
    let mut infos = Vec::new();
    let result = engine.search_record(
        &GameRecord::new(position.clone()),
        &limits,
        &AtomicBool::new(false),
        &mut |info| infos.push(info),
    );
    let best = position.move_text(result.best_move.expect("a move"));
    (infos, best, result.score)
}

/// The exact value of playing `text` in `position` by the tables (probed on the result),
/// as the line's score and marker should give it.
fn expected_line(tables: &Tables, position: &SmallCheckers, text: &str) -> (Score, String) {
    let mut child = position.clone();
    child.play_unchecked(child.parse_move(text).expect("a legal move"));
    let mover = position.side_to_move();
    match child.outcome() {
        Some(Outcome::Win(winner)) => {
            assert_eq!(winner, mover, "a move never loses on the spot");
            return (Score::Mate(1), "proven win 1".to_string());
        }
        Some(Outcome::Draw) => return (Score::Centipawns(0), "proven draw".to_string()),
        None => {}
    }
    match probe(tables, &child).expect("the tables cover every move's result") {
        Value::Loss(0) => (Score::Mate(1), "proven win 1".to_string()),
        Value::Loss(plies) => {
            let plies = i32::from(plies) + 1;
            (
                Score::Centipawns(TABLE_WIN - plies),
                format!("proven win {plies}"),
            )
        }
        Value::Win(plies) => {
            let plies = i32::from(plies) + 1;
            (
                Score::Centipawns(-(TABLE_WIN - plies)),
                format!("proven loss {plies}"),
            )
        }
        Value::Draw => (Score::Centipawns(0), "proven draw".to_string()),
    }
}

/// A rank for the order of lines: wins (quickest first), draws, losses (longest first).
fn rank(score: &Score) -> i32 {
    match *score {
        Score::Mate(moves) => 1_000_000 * moves.signum(),
        Score::Centipawns(value) => value,
    }
}

/// Checks one multi-line search of `position` against the tables: every legal move is
/// a line (with enough lines), each with the tables' value and its marker right after
/// it, best first, the `bestmove` line 1's; a won or lost line's `pv` is as long as its
/// distance (up to 24) and ends with a capture there. Returns the lines checked.
fn check_lines(engine: &mut Engine, tables: &Tables, text: &str) -> usize {
    let root = position(text);
    let (infos, best, score) = search(engine, &root);
    let mut legal = Vec::new();
    root.legal_moves(&mut legal);
    let mut seen = Vec::new();
    for (index, info) in infos.iter().enumerate() {
        let Some(rank_number) = info.multipv else {
            continue;
        };
        assert_eq!(rank_number as usize, seen.len() + 1, "{text}: {infos:?}");
        let first = info.pv.first().expect("a line has a move");
        let (expected_score, marker) = expected_line(tables, &root, first);
        assert_eq!(info.score, Some(expected_score), "{text}: {first}");
        let next = infos.get(index + 1).and_then(|next| next.string.clone());
        assert_eq!(next.as_deref(), Some(marker.as_str()), "{text}: {first}");
        let plies = marker
            .rsplit(' ')
            .next()
            .and_then(|word| word.parse::<usize>().ok());
        if let Some(plies) = plies.filter(|_| !marker.ends_with("win 1")) {
            assert_eq!(
                info.pv.len(),
                plies.min(24),
                "{text}: {first} {:?}",
                info.pv
            );
            let mut current = root.clone();
            let mut last_captures = false;
            for mv in &info.pv {
                let parsed = current.parse_move(mv).expect("the pv is legal");
                last_captures = !current.captured_cells(parsed).is_empty();
                current.play_unchecked(parsed);
            }
            if plies <= 24 {
                assert!(last_captures, "{text}: the pv converts: {:?}", info.pv);
            }
        }
        seen.push((first.clone(), expected_score));
    }
    assert_eq!(seen.len(), legal.len(), "{text}: every move a line");
    let mut sorted = seen.clone();
    sorted.sort_by_key(|(_, score)| std::cmp::Reverse(rank(score)));
    let ranks: Vec<i32> = seen.iter().map(|(_, score)| rank(score)).collect();
    let sorted_ranks: Vec<i32> = sorted.iter().map(|(_, score)| rank(score)).collect();
    assert_eq!(ranks, sorted_ranks, "{text}: best first");
    assert_eq!(best, seen[0].0, "{text}");
    assert_eq!(score, Some(seen[0].1), "{text}");
    seen.len()
}

/// Positions of the given material: won ones from the tables, and a random move on from
/// each (the loser to move; a capture now and then into a smaller class).
fn positions(tables: &Tables, mover: usize, opponent: usize, seed: u64) -> Vec<String> {
    let mut rng = rng::seeded(seed);
    let mut texts = Vec::new();
    for (text, _) in won_positions(tables, mover, opponent, 6, 2, seed) {
        let root = position(&text);
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let mut child = root.clone();
        child.play_unchecked(moves[rng.below(moves.len())]);
        texts.push(text);
        if child.outcome().is_none() {
            texts.push(child.position_text());
        }
    }
    texts
}

#[test]
fn every_line_carries_the_tables_value_with_the_built_in_tables() {
    let tables = side5_tables(2, 1);
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 4,
        lines: 256,
        ..SearchOptions::default()
    });
    let mut lines = 0;
    for text in positions(&tables, 2, 1, 7) {
        lines += check_lines(&mut engine, &tables, &text);
    }
    assert!(lines >= 60, "{lines} lines checked");
}

#[test]
fn every_line_carries_the_tables_value_with_an_endings_file() {
    let (tables, path) = side5_file("lines");
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 4,
        lines: 256,
        ..SearchOptions::default()
    });
    let note = engine.load_endings(&path.display().to_string());
    assert!(note.starts_with("EndingsFile: loaded"), "{note}");
    let mut lines = 0;
    for text in positions(&tables, 3, 1, 11) {
        lines += check_lines(&mut engine, &tables, &text);
    }
    assert!(lines >= 60, "{lines} lines checked");
    // Beyond the file's material, the usual search: no marker.
    let mut config = GameConfig::new(Variant::HexCheckers);
    config.size = Some(5);
    let start = SmallCheckers::start(&config).expect("side 5");
    let (infos, _, _) = search(&mut engine, &start);
    assert!(infos.iter().all(|info| info.string.is_none()), "{infos:?}");
    let _ = std::fs::remove_dir_all(path.parent().expect("a directory"));
}

/// With one line the search is the usual one: no marker, and its own score.
#[test]
fn one_line_searches_as_before() {
    let tables = side5_tables(2, 1);
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    });
    for text in positions(&tables, 2, 1, 3).into_iter().take(4) {
        let (infos, _, _) = search(&mut engine, &position(&text));
        assert!(infos.iter().all(|info| info.string.is_none()), "{text}");
        assert!(infos.iter().all(|info| info.multipv.is_none()), "{text}");
        assert!(infos.iter().any(|info| info.depth == Some(4)), "{text}");
    }
}
