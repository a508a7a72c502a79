//! Catchup's proven lines: with several lines (`MultiPV`), a line whose first step the
//! MCTS-solver proved carries `score mate N` and the marker `info string proven win` or
//! `proven loss`, and that result is the one an exhaustive negamax gives its first move
//! (side 3, seeded random games a few cells before the end); a line without a marker
//! is not a mate.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use tessera::engine::{Engine, SearchOptions};
use tessera::game::catchup::Catchup;
use tessera::game::{GameConfig, GameRecord, Outcome, Player, Rules, Variant};
use tessera::search::rng;
use tessera::search::{Score, SearchInfo, SearchLimits};

/// Whether the side to move wins `position` with best play by both (Catchup has no
/// draws), by plain negamax over whole moves, remembered by position text.
fn wins(position: &Catchup, known: &mut HashMap<String, bool>) -> bool {
    if let Some(outcome) = position.outcome() {
        return outcome == Outcome::Win(position.side_to_move());
    }
    let text = position.position_text();
    if let Some(&value) = known.get(&text) {
        return value;
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let value = moves.iter().any(|&mv| {
        let mut child = position.clone();
        child.play_unchecked(mv);
        !wins_for(&child, position.side_to_move(), known)
    });
    known.insert(text, value);
    value
}

/// Whether the side to move of `child` wins, `mover` having just moved (a move may leave
/// the same side to move only when the game is over).
fn wins_for(child: &Catchup, mover: Player, known: &mut HashMap<String, bool>) -> bool {
    let child_wins = wins(child, known);
    if child.side_to_move() == mover {
        !child_wins
    } else {
        child_wins
    }
}

/// A side-3 position `left` empty cells or so before the end, by seeded random play.
fn near_the_end(seed: u64, left: usize) -> Option<Catchup> {
    let mut config = GameConfig::new(Variant::Catchup);
    config.size = Some(3);
    let mut position = Catchup::start(&config).expect("side 3");
    let mut rng = rng::seeded(seed);
    let mut moves = Vec::new();
    loop {
        let empties: usize = position
            .position_text()
            .split(' ')
            .next()
            .expect("a board")
            .chars()
            .filter_map(|c| c.to_digit(10))
            .sum::<u32>() as usize;
        if empties <= left {
            return position.outcome().is_none().then_some(position);
        }
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        position.play_unchecked(moves[rng.below(moves.len())]);
    }
}

fn search(position: &Catchup) -> Vec<SearchInfo> {
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 8,
        lines: 256,
        ..SearchOptions::default()
    });
    let limits = SearchLimits {
        nodes: Some(200_000),
        ..SearchLimits::default()
    };
    let mut infos = Vec::new();
    engine.search_record(
        &GameRecord::new(position.clone()),
        &limits,
        &AtomicBool::new(false),
        &mut |info| infos.push(info),
    );
    infos
}

#[test]
fn each_proven_line_has_the_negamax_result() {
    let mut known = HashMap::new();
    let (mut proven_lines, mut wins_seen, mut losses_seen, mut all_proven) = (0, 0, 0, 0);
    let mut lost_roots = 0;
    for seed in 0..24 {
        let Some(position) = near_the_end(seed, 6) else {
            continue;
        };
        let infos = search(&position);
        // The last report: from its line 1 on.
        let start = infos
            .iter()
            .rposition(|info| info.multipv == Some(1))
            .expect("a last report");
        let report = &infos[start..];
        let mut lines = 0;
        let mut marked = 0;
        for (index, info) in report.iter().enumerate() {
            if info.multipv.is_none() {
                continue;
            }
            lines += 1;
            let marker = report
                .get(index + 1)
                .and_then(|next| next.string.as_deref());
            let Some(marker) = marker else {
                assert!(
                    !matches!(info.score, Some(Score::Mate(_))),
                    "seed {seed}: a mate without a marker: {info:?}"
                );
                continue;
            };
            marked += 1;
            let first = info.pv.first().expect("a line has a move");
            let mut child = position.clone();
            child.play_unchecked(child.parse_move(first).expect("a legal move"));
            let won = !wins_for(&child, position.side_to_move(), &mut known);
            let expected = if won { "proven win" } else { "proven loss" };
            assert_eq!(marker, expected, "seed {seed}: {first}");
            match info.score {
                Some(Score::Mate(moves)) => assert_eq!(moves > 0, won, "seed {seed}: {first}"),
                other => panic!("seed {seed}: a proven line scores {other:?}"),
            }
            proven_lines += 1;
            if won {
                wins_seen += 1;
            } else {
                losses_seen += 1;
            }
        }
        if lines > 1 && marked == lines {
            all_proven += 1;
        }
        // In a lost position the search plays the longest defence: line 1 loses no sooner
        // than any other line.
        let mates: Vec<i32> = report
            .iter()
            .filter(|info| info.multipv.is_some())
            .filter_map(|info| match info.score {
                Some(Score::Mate(moves)) => Some(moves),
                _ => None,
            })
            .collect();
        if let Some(&line_one) = mates.first()
            && line_one < 0
            && mates.len() == lines
        {
            lost_roots += 1;
            assert!(
                mates.iter().all(|&moves| moves >= line_one),
                "seed {seed}: line 1 is not the longest defence: {mates:?}"
            );
        }
        // After the search's own line: proven wins, then estimates, then proven losses;
        // among proven lines the quicker win and the longer defence first.
        let ranks: Vec<(i32, i32)> = report
            .iter()
            .filter(|info| info.multipv.is_some_and(|rank| rank > 1))
            .map(|info| match info.score {
                Some(Score::Mate(moves)) if moves > 0 => (2, -moves),
                Some(Score::Mate(moves)) => (0, -moves),
                _ => (1, 0),
            })
            .collect();
        assert!(
            ranks.windows(2).all(|pair| pair[0].0 > pair[1].0
                || (pair[0].0 == pair[1].0 && (pair[0].0 == 1 || pair[0].1 >= pair[1].1))),
            "seed {seed}: lines out of order: {ranks:?}"
        );
    }
    assert!(proven_lines >= 20, "{proven_lines} proven lines checked");
    assert!(
        wins_seen > 0 && losses_seen > 0,
        "{wins_seen} wins, {losses_seen} losses"
    );
    assert!(all_proven > 0, "some position has every line proven");
    assert!(lost_roots > 0, "some position is lost in every line");
}
