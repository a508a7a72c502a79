//! Catchup against a tiny, deliberately naive implementation written only for this test:
//! cells as an axial coordinate list, groups by flood fill, moves as every combination of
//! empty cells. It shares nothing with the library but the rules of protocol.md. Compared on move lists,
//! perft, scores after every turn, position strings and final results of seeded random
//! games, under both 3-stone rules.

use std::collections::BTreeSet;

use tessera::game::catchup::{Catchup, Move, PlayoutPosition};
use tessera::game::{CatchupRule, GameConfig, Outcome, Player, Rules, Variant};
use tessera::random::SplitMix64;

/// The naive game: a board as a list of colours (0 empty, 1 White, 2 Black).
#[derive(Clone)]
struct Naive {
    side: i32,
    /// Axial `(x, y)` of every cell, row by row from row `a`, left to right.
    coordinates: Vec<(i32, i32)>,
    board: Vec<u8>,
    /// 1 White, 2 Black.
    to_move: u8,
    limit: usize,
    original: bool,
}

impl Naive {
    fn new(side: i32, original: bool) -> Self {
        let mut coordinates = Vec::new();
        for y in 0..2 * side - 1 {
            let low = (y - (side - 1)).max(0);
            let high = (y + side - 1).min(2 * side - 2);
            for x in low..=high {
                coordinates.push((x, y));
            }
        }
        let board = vec![0; coordinates.len()];
        Naive {
            side,
            coordinates,
            board,
            to_move: 1,
            limit: 1,
            original,
        }
    }

    /// Reads a position string the simple way: rows last to first, runs expanded.
    fn parse(text: &str, original: bool) -> Naive {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let rows: Vec<&str> = fields[0].split('/').collect();
        let mut naive = Naive::new(rows.len().div_ceil(2) as i32, original);
        let mut colours = Vec::new();
        for row in rows.iter().rev() {
            let mut run = String::new();
            for letter in row.chars().chain(std::iter::once('.')) {
                if letter.is_ascii_digit() {
                    run.push(letter);
                    continue;
                }
                if !run.is_empty() {
                    let count: usize = run.parse().expect("run");
                    colours.extend(std::iter::repeat_n(0, count));
                    run.clear();
                }
                match letter {
                    'W' => colours.push(1),
                    'B' => colours.push(2),
                    _ => {}
                }
            }
        }
        assert_eq!(colours.len(), naive.board.len(), "{text}");
        naive.board = colours;
        naive.to_move = if fields[1] == "w" { 1 } else { 2 };
        naive.limit = fields[2].parse().expect("limit");
        naive
    }

    fn name(&self, cell: usize) -> String {
        let (x, y) = self.coordinates[cell];
        let low = (y - (self.side - 1)).max(0);
        format!("{}{}", (b'a' + y as u8) as char, x - low + 1)
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        let (ax, ay) = self.coordinates[a];
        let (bx, by) = self.coordinates[b];
        let (dx, dy) = (bx - ax, by - ay);
        matches!(
            (dx, dy),
            (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, 1) | (-1, -1)
        )
    }

    /// Group sizes of `colour`, largest first, by flood fill.
    #[allow(clippy::needless_range_loop)] // cells are indices into several lists
    fn groups(&self, colour: u8) -> Vec<usize> {
        let mut seen = vec![false; self.board.len()];
        let mut sizes = Vec::new();
        for start in 0..self.board.len() {
            if self.board[start] != colour || seen[start] {
                continue;
            }
            seen[start] = true;
            let mut stack = vec![start];
            let mut size = 0;
            while let Some(cell) = stack.pop() {
                size += 1;
                for other in 0..self.board.len() {
                    if !seen[other] && self.board[other] == colour && self.adjacent(cell, other) {
                        seen[other] = true;
                        stack.push(other);
                    }
                }
            }
            sizes.push(size);
        }
        sizes.sort_by(|a, b| b.cmp(a));
        sizes
    }

    fn score(&self, colour: u8) -> usize {
        self.groups(colour).first().copied().unwrap_or(0).max(1)
    }

    fn empty(&self) -> Vec<usize> {
        (0..self.board.len())
            .filter(|&cell| self.board[cell] == 0)
            .collect()
    }

    /// Every legal turn as a list of cells in canonical order.
    fn moves(&self) -> Vec<Vec<usize>> {
        let empty = self.empty();
        let most = self.limit.min(empty.len());
        let mut moves = Vec::new();
        for (i, &a) in empty.iter().enumerate() {
            moves.push(vec![a]);
            for (j, &b) in empty.iter().enumerate().skip(i + 1) {
                if most >= 2 {
                    moves.push(vec![a, b]);
                }
                for &c in empty.iter().skip(j + 1) {
                    if most >= 3 {
                        moves.push(vec![a, b, c]);
                    }
                }
            }
        }
        moves
    }

    fn text(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&cell| self.name(cell))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn play(&mut self, cells: &[usize]) {
        let mover = self.to_move;
        let other = 3 - mover;
        let mover_before = self.score(mover);
        let board_before = mover_before.max(self.score(other));
        for &cell in cells {
            assert_eq!(self.board[cell], 0);
            self.board[cell] = mover;
        }
        let mover_after = self.score(mover);
        let other_now = self.score(other);
        let granted = if self.original {
            mover_after.max(other_now) > board_before
        } else {
            mover_after > mover_before && mover_after >= other_now
        };
        self.limit = if granted { 3 } else { 2 };
        self.to_move = other;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.board.contains(&0) {
            return None;
        }
        let white = self.groups(1);
        let black = self.groups(2);
        let length = white.len().max(black.len());
        for index in 0..length {
            let w = white.get(index).copied().unwrap_or(0);
            let b = black.get(index).copied().unwrap_or(0);
            if w != b {
                return Some(Outcome::Win(if w > b { Player::One } else { Player::Two }));
            }
        }
        Some(Outcome::Draw)
    }

    fn position_text(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..2 * self.side - 1).rev() {
            let mut row = String::new();
            let mut run = 0;
            for cell in 0..self.board.len() {
                if self.coordinates[cell].1 != y {
                    continue;
                }
                match self.board[cell] {
                    0 => run += 1,
                    colour => {
                        if run > 0 {
                            row += &run.to_string();
                            run = 0;
                        }
                        row.push(if colour == 1 { 'W' } else { 'B' });
                    }
                }
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        format!(
            "{} {} {}",
            rows.join("/"),
            if self.to_move == 1 { 'w' } else { 'b' },
            self.limit
        )
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome().is_some() {
            return 0;
        }
        self.moves()
            .iter()
            .map(|cells| {
                let mut child = self.clone();
                child.play(cells);
                child.perft(depth - 1)
            })
            .sum()
    }
}

fn library(side: usize, rule: CatchupRule) -> Catchup {
    let config = rule.chosen_in(GameConfig {
        size: Some(side),
        ..GameConfig::new(Variant::Catchup)
    });
    Catchup::start(&config).expect("supported side")
}

fn rule_of(original: bool) -> CatchupRule {
    if original {
        CatchupRule::Original
    } else {
        CatchupRule::Revised
    }
}

fn library_move_texts(position: &Catchup) -> BTreeSet<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let texts: BTreeSet<String> = moves.iter().map(|&mv| position.move_text(mv)).collect();
    assert_eq!(texts.len(), moves.len(), "duplicate moves");
    texts
}

/// Plays a random turn (random stone count, random cells, random order) in both; returns
/// the library's move.
fn random_turn(random: &mut SplitMix64, naive: &mut Naive, position: &mut Catchup) -> Move {
    let empty = naive.empty();
    let most = naive.limit.min(empty.len());
    let count = 1 + random.below(most);
    let mut chosen: Vec<usize> = Vec::new();
    while chosen.len() < count {
        let cell = empty[random.below(empty.len())];
        if !chosen.contains(&cell) {
            chosen.push(cell);
        }
    }
    // Any order on input; the library must canonicalise it.
    let text = naive.text(&chosen);
    let mv = position
        .parse_move(&text)
        .unwrap_or_else(|error| panic!("{text} in {}: {error}", naive.position_text()));
    chosen.sort_unstable();
    assert_eq!(position.move_text(mv), naive.text(&chosen));
    naive.play(&chosen);
    position.play_unchecked(mv);
    mv
}

fn assert_same(naive: &Naive, position: &Catchup, context: &str) {
    assert_eq!(position.position_text(), naive.position_text(), "{context}");
    assert_eq!(
        position.score(),
        [naive.score(1) as i32, naive.score(2) as i32],
        "{context}"
    );
    assert_eq!(position.outcome(), naive.outcome(), "{context}");
    if naive.empty().len() <= 30 {
        // Listing every turn on a big empty board is too slow for the naive side.
        assert_eq!(
            position.count_moves(),
            naive.moves().len() as u64,
            "{context}"
        );
    }
}

#[test]
fn random_games_agree_on_scores_positions_and_results() {
    let mut random = SplitMix64::new(0x5EED_CA7C);
    let mut results = [0usize; 2];
    for game in 0..600 {
        let side = 2 + game % 5;
        let original = game % 2 == 1;
        let mut naive = Naive::new(side as i32, original);
        let mut position = library(side, rule_of(original));
        let mut turns = 0;
        while naive.outcome().is_none() {
            let context = format!("game {game} side {side} turn {turns}");
            assert_same(&naive, &position, &context);
            random_turn(&mut random, &mut naive, &mut position);
            turns += 1;
        }
        assert_same(&naive, &position, &format!("game {game} end"));
        let [white, black] = position.score();
        let sizes = (
            position.sorted_group_sizes(Player::One),
            position.sorted_group_sizes(Player::Two),
        );
        assert_eq!(sizes, (naive.groups(1), naive.groups(2)));
        assert_eq!(white as usize, sizes.0[0]);
        assert_eq!(black as usize, sizes.1[0]);
        match position.outcome() {
            Some(Outcome::Win(player)) => results[player.index()] += 1,
            other => panic!("game {game}: {other:?} (an odd cell count cannot draw)"),
        }
    }
    // Both sides win some: the comparison is not one-sided.
    assert!(results[0] > 100 && results[1] > 100, "{results:?}");
}

fn assert_same_playout_board<B: PlayoutPosition>(naive: &Naive, board: &B, context: &str) {
    let empty = naive.empty();
    let to_move = if naive.to_move == 1 {
        Player::One
    } else {
        Player::Two
    };
    assert_eq!(board.side_to_move(), to_move, "{context}");
    assert_eq!(board.empty_count(), empty.len(), "{context}");
    assert_eq!(
        board.stones_allowed(),
        naive.limit.min(empty.len()),
        "{context}"
    );
    for (player, colour) in [(Player::One, 1), (Player::Two, 2)] {
        assert_eq!(board.player_score(player), naive.score(colour), "{context}");
    }
    // Ordinals are the canonical order, which is the naive board's cell order.
    let mut buffer = [0u8; 256];
    let count = board.empty_cells(&[], &mut buffer);
    let listed: Vec<usize> = buffer[..count]
        .iter()
        .map(|&cell| usize::from(cell))
        .collect();
    assert_eq!(listed, empty, "{context}");
    if let Some((&first, rest)) = empty.split_first() {
        let count = board.empty_cells(&[first as u8], &mut buffer);
        let listed: Vec<usize> = buffer[..count]
            .iter()
            .map(|&cell| usize::from(cell))
            .collect();
        assert_eq!(listed, rest, "{context}");
    }
    if empty.is_empty() {
        assert_eq!(Some(board.leader()), naive.outcome(), "{context}");
    }
}

/// Seeded random games on boards of `sides` (in turn) under both rules: after every turn
/// a playout board played along from the start and one made afresh from the position
/// must agree with the flood-fill reference. Returns how many finished boards had equal
/// largest groups (decided by the smaller groups).
fn check_playout_boards<B: PlayoutPosition>(
    seed: u64,
    games: usize,
    sides: &[usize],
    board_of: impl Fn(&Catchup) -> B,
) -> usize {
    let mut random = SplitMix64::new(seed);
    let mut ties = 0;
    for game in 0..games {
        let side = sides[game % sides.len()];
        let original = game / sides.len() % 2 == 1;
        let mut naive = Naive::new(side as i32, original);
        let mut position = library(side, rule_of(original));
        let mut board = board_of(&position);
        let mut turns = 0;
        while naive.outcome().is_none() {
            let context = format!("game {game} side {side} turn {turns}");
            assert_same_playout_board(&naive, &board, &context);
            assert_same_playout_board(&naive, &board_of(&position), &context);
            let mv = random_turn(&mut random, &mut naive, &mut position);
            let cells: Vec<u8> = mv
                .cells()
                .iter()
                .map(|&bit| position.ordinal(usize::from(bit)))
                .collect();
            board.play_turn(&cells);
            turns += 1;
        }
        let context = format!("game {game} end");
        assert_same_playout_board(&naive, &board, &context);
        assert_same_playout_board(&naive, &board_of(&position), &context);
        ties += usize::from(naive.score(1) == naive.score(2));
    }
    ties
}

/// The playout board (groups only, turns as ordinals) on every side.
#[test]
fn playout_boards_agree_through_random_games() {
    let sides: Vec<usize> = (2..=9).collect();
    check_playout_boards(0x0B0A_2D00, 400, &sides, Catchup::playout_board);
}

/// The one-word board on the sides it serves, with enough games that equal largest
/// groups (the comparison of the smaller groups) come up often; larger sides have none.
#[test]
fn word_boards_agree_through_random_games() {
    let board_of = |position: &Catchup| position.word_board().expect("side 5 or less");
    let ties = check_playout_boards(0x0D0B_0A2D, 2000, &[2, 3, 4, 5], board_of);
    assert!(ties > 100, "only {ties} ties of the largest groups");
    for side in 6..=9 {
        assert!(library(side, CatchupRule::Revised).word_board().is_none());
    }
}

#[test]
fn move_lists_agree_through_random_games() {
    let mut random = SplitMix64::new(0x00B0_A2D5);
    for game in 0..24 {
        let side = 2 + game % 3;
        let original = game % 2 == 0;
        let mut naive = Naive::new(side as i32, original);
        let mut position = library(side, rule_of(original));
        while naive.outcome().is_none() {
            let expected: BTreeSet<String> = naive
                .moves()
                .iter()
                .map(|cells| naive.text(cells))
                .collect();
            assert_eq!(
                library_move_texts(&position),
                expected,
                "{}",
                naive.position_text()
            );
            random_turn(&mut random, &mut naive, &mut position);
        }
        assert!(library_move_texts(&position).is_empty());
    }
}

#[test]
fn perft_agrees_from_the_start_on_small_boards() {
    for original in [false, true] {
        let rule = rule_of(original);
        for (side, depth) in [(2, 5), (3, 2)] {
            let naive = Naive::new(side, original);
            let position = library(side as usize, rule);
            for d in 1..=depth {
                assert_eq!(
                    tessera::perft::perft(&position, d, true),
                    naive.perft(d),
                    "side {side} depth {d} {rule:?}"
                );
            }
        }
    }
}

#[test]
fn perft_agrees_from_random_positions() {
    let mut random = SplitMix64::new(0x9E27);
    for round in 0..16 {
        let side = 2 + round % 3;
        let original = round % 4 >= 2;
        let mut naive = Naive::new(side as i32, original);
        let mut position = library(side, rule_of(original));
        // Stop a few turns before the end, where the cap and the 3-stone grants bite.
        let keep = if side == 4 { 7 } else { 4 + round % 3 };
        while naive.empty().len() > keep {
            random_turn(&mut random, &mut naive, &mut position);
        }
        let text = naive.position_text();
        let parsed = Catchup::from_position_text(
            &text,
            &rule_of(original).chosen_in(GameConfig {
                size: None,
                ..GameConfig::new(Variant::Catchup)
            }),
        )
        .unwrap_or_else(|error| panic!("{text}: {error}"));
        assert_eq!(parsed.hash(), position.hash(), "{text}");
        for depth in 1..=3 {
            assert_eq!(
                tessera::perft::perft(&parsed, depth, depth % 2 == 1),
                naive.perft(depth),
                "{text} depth {depth} {original}"
            );
        }
    }
}

#[test]
fn perft_data_file_agrees_where_the_naive_side_is_fast_enough() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft/catchup.txt");
    let text = std::fs::read_to_string(&path).expect("perft data file");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let original = fields[0].contains("rule=original");
        let side = fields[0]
            .split_whitespace()
            .find_map(|option| option.strip_prefix("size="))
            .map_or(5, |value| value.parse().expect("size"));
        let naive = if fields[1] == "startpos" {
            Naive::new(side, original)
        } else {
            Naive::parse(fields[1], original)
        };
        for pair in fields[2].split_whitespace() {
            let (depth, count) = pair.split_once(':').expect("depth:count");
            let count: u64 = count.parse().expect("count");
            if count <= 12_000 && (naive.board.len() <= 19 || naive.empty().len() <= 12) {
                assert_eq!(naive.perft(depth.parse().expect("depth")), count, "{line}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} counts checked");
}

/// A fixed amount of random playouts from the side-5 start for profiling by instruction
/// count (`valgrind --tool=callgrind <test binary> --ignored --exact playout_workload`);
/// the printed win count also shows that a change kept every random draw.
#[test]
#[ignore]
fn playout_workload() {
    use tessera::search::game::TreeGame;
    let playouts: u32 = std::env::var("PLAYOUTS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(20_000);
    let root = tessera::eval::catchup::CatchupTree::for_search(
        library(5, CatchupRule::Revised),
        tessera::eval::catchup_knowledge::PlayoutPolicy::Uniform,
    );
    let mut rng = tessera::search::rng::seeded(1);
    let mut white_wins = 0;
    for _ in 0..playouts {
        if root.clone().playout(&mut rng) == Outcome::Win(Player::One) {
            white_wins += 1;
        }
    }
    println!("{playouts} playouts, White won {white_wins}");
}
