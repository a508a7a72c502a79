//! The tables file against the solver: every folded value equals the unfolded table's in
//! every image under the twelve symmetries, the engine's own moves agree with the file's
//! values, and a damaged, foreign or missing file is refused with a reason.

use std::collections::BTreeSet;

use super::board::position_text;
use super::board::{MAX_MEN, SolverBoard};
use super::file::{EndingsFile, EndingsFileError};
use super::solve::{MAX_DISTANCE, Tables, Value};
use super::tests::parse_position;
use super::{EndingTables, EndingValues, PLY_LIMIT, probe, probe_lists};
use crate::game::Rules;
use crate::game::checkers::SmallCheckers;
use crate::random::SplitMix64;

/// The bytes of a file written from `tables`.
fn file_bytes(tables: &Tables) -> Vec<u8> {
    let mut bytes = Vec::new();
    EndingsFile::from_tables(tables)
        .write(&mut bytes)
        .expect("writing to memory works");
    bytes
}

fn solved(side: usize, strong: usize, weak: usize) -> Tables {
    let mut tables = Tables::new(SolverBoard::new(side).expect("side exists"), PLY_LIMIT);
    tables.solve_up_to(strong, weak);
    tables
}

/// The domain holds one cell per orbit, and each cell's fold takes it there.
#[test]
fn every_cell_folds_into_one_domain_cell_per_orbit() {
    for side in 4..=9 {
        let board = SolverBoard::new(side).expect("side exists");
        let mut orbits = BTreeSet::new();
        for cell in 0..board.cells() as u8 {
            let orbit: BTreeSet<u8> = board
                .symmetries()
                .iter()
                .map(|image| image[usize::from(cell)])
                .collect();
            let fold = board.fold(cell);
            let image = board.symmetries()[fold.symmetry][usize::from(cell)];
            assert_eq!(board.domain()[fold.domain], image);
            assert_eq!(
                orbit.iter().filter(|c| board.domain().contains(c)).count(),
                1
            );
            orbits.insert(orbit);
        }
        assert_eq!(orbits.len(), board.domain().len(), "side {side}");
    }
    assert_eq!(SolverBoard::new(9).expect("side 9").domain().len(), 25);
}

/// Every position of every table (both sides to move), and its twelve images, reads the
/// same value from the file as from the unfolded solver: side 4 up to 3 v 1 whole.
#[test]
fn the_folded_file_equals_the_solver_on_side_4() {
    let tables = solved(4, 3, 1);
    let file = EndingsFile::parse(file_bytes(&tables)).expect("a written file reads back");
    assert_eq!(file.men(), (3, 1));
    let board = tables.board();
    let mut checked = 0;
    for (mover, opponent) in [(1, 1), (2, 1), (1, 2), (3, 1), (1, 3)] {
        let table = tables.table(mover, opponent).expect("solved");
        table.for_each(board, |own, other, value| {
            for image in board.symmetries() {
                let map = |men: &[u8]| super::tests::image_of(image, men);
                assert_eq!(
                    EndingValues::value(&file, &map(own), &map(other)),
                    Some(value)
                );
                checked += 1;
            }
        });
    }
    assert!(checked > 12 * 2 * 37 * 36 * 35 * 34 / 6, "{checked}");
    // 2 v 2 has no single man: not in the file.
    assert_eq!(EndingValues::value(&file, &[1, 2], &[3, 4]), None);
}

/// Side 5: sampled positions of 3 v 1 and 1 v 3 agree with the solver, and the value of
/// each is the best of what the engine's legal moves lead to, read from the file.
#[test]
fn the_file_agrees_with_the_engines_moves_on_side_5() {
    let tables = solved(5, 3, 1);
    let file = EndingsFile::parse(file_bytes(&tables)).expect("a written file reads back");
    let board = tables.board();
    let mut rng = SplitMix64::new(17);
    let mut decided = 0;
    for trial in 0..600 {
        let (mover, opponent) = [(3, 1), (1, 3), (2, 1), (1, 2)][trial % 4];
        let mut own = [0u8; MAX_MEN];
        let mut other = [0u8; MAX_MEN];
        let (own, other) = (&mut own[..mover], &mut other[..opponent]);
        board.unrank(rng.below_exact(board.combinations(mover)), own);
        board.unrank(rng.below_exact(board.combinations(opponent)), other);
        if own.iter().any(|cell| other.contains(cell)) {
            continue;
        }
        let stored = EndingValues::value(&file, own, other).expect("covered");
        assert_eq!(Some(stored), tables.value(own, other));
        let text = position_text(board, own, other, trial % 8 < 4);
        let text = if trial % 8 < 4 {
            text
        } else {
            // Black to move: the same men with the colours exchanged.
            position_text(board, other, own, false)
        };
        let position: SmallCheckers = parse_position(&text, false).expect("valid");
        assert_eq!(probe(&file, &position), Some(stored), "{text}");
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&mv| {
                let mut child = position.clone();
                child.play_unchecked(mv);
                let (cells, counts) = probe_lists(&child).expect("few men");
                let next =
                    EndingValues::value(&file, &cells[0][..counts[0]], &cells[1][..counts[1]])
                        .expect("the child is covered");
                match (next, mv.is_capture()) {
                    (next, true) => match next.within(usize::from(PLY_LIMIT)) {
                        Value::Loss(_) => Value::Win(1),
                        Value::Win(_) => Value::Loss(1),
                        Value::Draw => Value::Draw,
                    },
                    (Value::Loss(plies), false) if plies < MAX_DISTANCE => Value::Win(plies + 1),
                    (Value::Win(plies), false) if plies < MAX_DISTANCE => Value::Loss(plies + 1),
                    _ => Value::Draw,
                }
            })
            .max_by_key(|value| match *value {
                Value::Win(plies) => 1000 - i32::from(plies),
                Value::Draw => 0,
                Value::Loss(plies) => -1000 + i32::from(plies),
            })
            .unwrap_or(Value::Loss(0));
        assert_eq!(best, stored, "{text}");
        decided += usize::from(stored != Value::Draw);
    }
    assert!(decided > 100, "only {decided} decided positions");
}

/// A damaged, cut, foreign or unknown-format file is refused with its reason.
#[test]
fn bad_files_are_refused_with_a_reason() {
    let tables = solved(4, 2, 1);
    let good = file_bytes(&tables);
    assert!(EndingsFile::parse(good.clone()).is_ok());
    let header_end = good
        .iter()
        .position(|&b| b == b'\n')
        .expect("a header line");
    let mut damaged = good.clone();
    damaged[header_end + 100] ^= 1;
    assert!(matches!(
        EndingsFile::parse(damaged),
        Err(EndingsFileError::Checksum { .. })
    ));
    let mut cut = good.clone();
    cut.pop();
    assert!(matches!(
        EndingsFile::parse(cut),
        Err(EndingsFileError::Size { .. })
    ));
    assert!(matches!(
        EndingsFile::parse(b"\x89PNG\r\n".to_vec()),
        Err(EndingsFileError::NotEndings)
    ));
    assert!(matches!(
        EndingsFile::parse(Vec::new()),
        Err(EndingsFileError::NotEndings)
    ));
    let header = String::from_utf8(good[..header_end].to_vec()).expect("ASCII");
    let with_header = |text: String| {
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(&good[header_end..]);
        EndingsFile::parse(bytes)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        with_header(header.replace("format 1", "format 2")),
        Err("format 2: this engine reads format 1 only".to_string())
    );
    assert_eq!(
        with_header(header.replace("engine ", "engine \u{10}")),
        Err("the header line has a control character".to_string()),
        "header values reach protocol lines (found by fuzzing)"
    );
    assert_eq!(
        with_header(header.replace("side 4", "side 12")),
        Err("header field side: boards have sides 4 to 9 (12)".to_string())
    );
    assert_eq!(
        with_header(header.replace("side 4", "side 5")).map_err(|e| e.contains("bytes")),
        Err(true),
        "the tables of side 5 need more bytes"
    );
    assert_eq!(
        with_header(header.replace("tables 1v1,2v1,1v2", "tables 1v1,2v2,1v2")),
        Err(
            "header field tables: each table is <men>v<men>, one side with 1 man \
             (1v1,2v2,1v2)"
                .to_string()
        )
    );
}

/// The engine's loader: a missing file, another ply limit; a good file covers the
/// positions of its side and material, and the built-in tables stay in use elsewhere.
#[test]
fn the_engine_loads_a_good_file_and_refuses_others() {
    let directory = std::env::temp_dir().join(format!("tessera-endings-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a temporary directory");
    let missing = directory.join("missing.tce");
    let error = EndingTables::load(&missing).expect_err("no such file");
    assert!(error.starts_with("cannot read"), "{error}");
    let mut short = Tables::new(SolverBoard::new(4).expect("side 4"), 6);
    short.solve_up_to(2, 1);
    let path = directory.join("short.tce");
    std::fs::write(&path, file_bytes(&short)).expect("written");
    assert_eq!(
        EndingTables::load(&path).map(|_| ()),
        Err("built for a 6-ply rule, the game's is 80".to_string())
    );
    let tables = solved(4, 3, 1);
    let path = directory.join("side4.tce");
    std::fs::write(&path, file_bytes(&tables)).expect("written");
    let loaded = EndingTables::load(&path).expect("a good file");
    let _ = std::fs::remove_dir_all(&directory);
    let board = tables.board();
    let text = position_text(board, &[0, 5, 20], &[30], true);
    let position: SmallCheckers = parse_position(&text, false).expect("valid");
    let [own, other] = [[0u8, 5, 20].to_vec(), vec![30]];
    assert_eq!(loaded.value(&position), tables.value(&own, &other));
    assert_eq!(
        EndingTables::default().value(&position),
        None,
        "3 v 1 is not built in"
    );
    // Side 5 is not in the file: the built-in 2 v 1 answers there once solved (the
    // search never waits for it), nothing else.
    super::engine_tables(5).expect("side 5 is supported");
    let side5 = SolverBoard::new(5).expect("side 5");
    let text = position_text(&side5, &[0, 5], &[30], true);
    let position: SmallCheckers = parse_position(&text, false).expect("valid");
    assert!(loaded.value(&position).is_some());
    let text = position_text(&side5, &[0, 5, 20], &[30], true);
    let position: SmallCheckers = parse_position(&text, false).expect("valid");
    assert_eq!(loaded.value(&position), None);
}

/// Positions of recorded games: the first won one of each game, with the counter as
/// played (a win the counter no longer allows is not taken), each position once; a move
/// that does not read is an error naming the game.
#[test]
fn won_positions_are_taken_from_recorded_games() {
    use super::harvest::{RecordedGame, won_positions_in_games};
    let tables = solved(5, 3, 1);
    let directory = std::env::temp_dir().join(format!("tessera-harvest-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a temporary directory");
    let path = directory.join("side5.tce");
    std::fs::write(&path, file_bytes(&tables)).expect("written");
    let loaded = EndingTables::load(&path).expect("a good file");
    let _ = std::fs::remove_dir_all(&directory);
    let won = super::won_positions(&tables, 3, 1, 2, 8, 21);
    let (text, plies) = &won[0];
    let start: SmallCheckers = parse_position(text, false).expect("valid");
    // Two plies of the game: any legal step each (a won position may stay won or not).
    let mut position = start.clone();
    let mut moves = Vec::new();
    for _ in 0..2 {
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let mv = legal[0];
        moves.push(position.move_text(mv));
        position.play_unchecked(mv);
    }
    let late = text.replace(" - 0 40", &format!(" - {} 40", 81 - plies));
    let games = [
        RecordedGame {
            name: "first".to_string(),
            start: text,
            moves: moves.clone(),
        },
        RecordedGame {
            name: "again".to_string(),
            start: text,
            moves,
        },
        RecordedGame {
            name: "late".to_string(),
            start: &late,
            moves: Vec::new(),
        },
    ];
    let found = won_positions_in_games(&loaded, 5, &games, 1).expect("the games read");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].position, start.position_text());
    assert_eq!((found[0].material, found[0].plies), ((3, 1), *plies));
    assert_eq!((found[0].game.as_str(), found[0].ply), ("first", 0));
    let bad = [RecordedGame {
        name: "bad".to_string(),
        start: text,
        moves: vec!["z9-z10".to_string()],
    }];
    let error = won_positions_in_games(&loaded, 5, &bad, 1).expect_err("a bad move");
    assert!(error.starts_with("bad: move 1 z9-z10"), "{error}");
}

/// The search's access to the built-in tables never solves them on its own thread: it
/// starts them in the background and reads them once they are there.
#[test]
fn built_in_tables_are_solved_in_the_background() {
    let mut ready = None;
    for _ in 0..60_000 {
        ready = super::engine_tables_if_ready(6);
        if ready.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let ready = ready.expect("the background solve finishes");
    let waited = super::engine_tables(6).expect("side 6 is supported");
    assert!(std::ptr::eq(ready, waited), "one set of tables per side");
}
