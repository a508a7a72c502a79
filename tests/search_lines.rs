//! Several lines (`MultiPV`): with the value-preserving alpha-beta, the K lines of an
//! iteration are the K best root moves by plain negamax, each with its own exact score,
//! ranked, and line 1 is the single-line search; MCTS reports its most visited first moves,
//! line 1 being the single line's report.

mod game_support;

use std::sync::atomic::AtomicBool;

use tessera::engine::{Engine, EngineGame, SearchOptions};
use tessera::game::{GameConfig, GameKind, GameRecord, Rules, Variant};
use tessera::search::alphabeta::{AlphaBetaConfig, to_score};
use tessera::search::game::AlphaBetaGame;
use tessera::search::{GameSearchResult, Score, SearchInfo, SearchLimits};

use game_support::{negamax, random_position};

/// Lines asked for in these tests.
const LINES: usize = 4;

fn engine(lines: usize) -> Engine {
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 4,
        lines,
        ..SearchOptions::default()
    });
    engine.set_alpha_beta_config(AlphaBetaConfig::value_preserving());
    engine
}

/// The search's result and every `info` it reported.
fn search<G: EngineGame>(
    engine: &mut Engine,
    position: &G,
    limits: &SearchLimits,
) -> (GameSearchResult<G::Move>, Vec<SearchInfo>) {
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let result = engine.search_record(
        &GameRecord::new(position.clone()),
        limits,
        &stop,
        &mut |info| infos.push(info),
    );
    (result, infos)
}

fn depth(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    }
}

/// The lines of the last report: the trailing run of `info` lines numbered 1, 2, ...
fn last_lines(infos: &[SearchInfo]) -> Vec<SearchInfo> {
    let start = infos
        .iter()
        .rposition(|info| info.multipv == Some(1))
        .expect("a report with multipv 1");
    let lines = infos[start..].to_vec();
    for (index, line) in lines.iter().enumerate() {
        assert_eq!(line.multipv, Some(index as u32 + 1), "{lines:?}");
    }
    lines
}

/// The root move a line starts with.
fn first_move<G: Rules>(position: &G, line: &SearchInfo) -> G::Move {
    let text = line.pv.first().expect("a line has moves");
    position
        .parse_move(text)
        .expect("a line starts with a legal move")
}

fn check_lines<G: AlphaBetaGame + EngineGame>(start: &G, max_depth: u32, positions: usize) {
    let mut rng = tessera::search::rng::seeded(43);
    let mut several = engine(LINES);
    let mut single = engine(1);
    let (mut checked, mut searches, mut ties) = (0, 0, 0);
    while checked < positions {
        let plies = rng.below(24);
        let Some(position) = random_position(start, plies, &mut rng) else {
            continue;
        };
        let text = position.position_text();
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        for limit in 1..=max_depth {
            let mut values: Vec<Score> = moves
                .iter()
                .map(|&mv| {
                    let mut child = position.clone();
                    child.play_unchecked(mv);
                    to_score(-negamax(&child, limit as i32 - 1, 1))
                })
                .collect();
            values.sort_by_key(|score| std::cmp::Reverse(order(*score)));
            several.new_game();
            let (result, infos) = search(&mut several, &position, &depth(limit));
            let lines = last_lines(&infos);
            assert_eq!(lines.len(), LINES.min(moves.len()), "{text} depth {limit}");
            let mut seen = Vec::new();
            for (rank, line) in lines.iter().enumerate() {
                assert_eq!(line.depth, Some(limit), "{text}");
                let mv = first_move(&position, line);
                assert!(!seen.contains(&mv), "{text} depth {limit}: a move twice");
                seen.push(mv);
                let mut child = position.clone();
                child.play_unchecked(mv);
                let exact = to_score(-negamax(&child, limit as i32 - 1, 1));
                assert_eq!(line.score, Some(exact), "{text} depth {limit} line {rank}");
                assert_eq!(
                    line.score,
                    Some(values[rank]),
                    "{text} depth {limit}: not the best"
                );
            }
            assert_eq!(
                result.best_move,
                Some(seen[0]),
                "{text}: bestmove is line 1"
            );
            single.new_game();
            let (alone, _) = search(&mut single, &position, &depth(limit));
            assert_eq!(alone.score, lines[0].score, "{text} depth {limit}");
            // The move too, but for a tie: the table, filled by the other lines as well,
            // may order two moves of equal value the other way.
            let alone_move = alone.best_move.expect("running");
            if alone_move != seen[0] {
                let mut child = position.clone();
                child.play_unchecked(alone_move);
                let value = to_score(-negamax(&child, limit as i32 - 1, 1));
                assert_eq!(Some(value), lines[0].score, "{text} depth {limit}: no tie");
                ties += 1;
            }
            searches += 1;
        }
        checked += 1;
    }
    // Ties are the exception: line 1 is mostly the very same move.
    assert!(
        ties * 5 <= searches,
        "{ties} of {searches} searches chose another move"
    );
}

/// Scores in the order of their worth (a mate in fewer moves is worth more).
fn order(score: Score) -> i64 {
    match score {
        Score::Centipawns(value) => i64::from(value),
        Score::Mate(moves) if moves > 0 => i64::MAX / 2 - i64::from(moves),
        Score::Mate(moves) => i64::MIN / 2 - i64::from(moves),
    }
}

#[test]
fn the_lines_are_the_best_moves_by_negamax_and_line_one_is_the_single_search() {
    for (variant, max_depth, positions) in [
        (Variant::Cheversi, 3, 8),
        (Variant::Kruzno, 4, 12),
        (Variant::HexCheckers, 3, 6),
    ] {
        let game = GameKind::new(&GameConfig::new(variant)).expect("start position");
        with_alpha_beta_record!(&game, record => {
            check_lines(record.position(), max_depth, positions)
        });
    }
}

#[test]
fn mcts_lines_are_distinct_first_moves_and_line_one_is_the_single_report() {
    let game = GameKind::new(&GameConfig::new(Variant::Catchup)).expect("start position");
    let GameKind::Catchup(record) = &game else {
        panic!("a Catchup game");
    };
    let position = record.position();
    let limits = SearchLimits {
        nodes: Some(4_000),
        ..SearchLimits::default()
    };
    let (result, infos) = search(&mut engine(3), position, &limits);
    let lines = last_lines(&infos);
    assert_eq!(lines.len(), 3);
    let moves: Vec<_> = lines
        .iter()
        .map(|line| first_move(position, line))
        .collect();
    assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
    assert_eq!(result.best_move, Some(moves[0]));
    let (alone, infos) = search(&mut engine(1), position, &limits);
    let last = infos.last().expect("a report").clone();
    assert_eq!(last.multipv, None);
    assert_eq!(alone.best_move, result.best_move);
    assert_eq!(
        SearchInfo {
            multipv: Some(1),
            nps: 0,
            time_ms: 0,
            ..last
        },
        SearchInfo {
            nps: 0,
            time_ms: 0,
            ..lines[0].clone()
        }
    );
}
