//! The library against a tiny, deliberately naive Cheversi written only for this test:
//! an array board, every rule of protocol.md's Appendix A checked square by square, its own
//! scoring by walking rays. The two are compared on perft from the start, on perft and
//! move lists from random positions, on the perft data file, and on the final scores and
//! results of many seeded random games.

use std::collections::BTreeSet;

use tessera::game::cheversi::Cheversi;
use tessera::game::{GameConfig, Outcome, Player, Rules, Variant};
use tessera::random::SplitMix64;

const LETTERS: [char; 5] = ['K', 'Q', 'R', 'B', 'N'];
const START_COUNT: [usize; 5] = [1, 1, 2, 2, 2];

/// A piece: colour (0 White, 1 Black) and letter.
type Piece = (usize, char);

#[derive(Clone, Debug)]
struct Naive {
    /// `board[rank][file]`, both 0-based.
    board: [[Option<Piece>; 8]; 8],
    placed: usize,
    /// (file, rank) of the most recent placement.
    last: Option<(usize, usize)>,
}

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl Naive {
    fn new() -> Self {
        Naive {
            board: [[None; 8]; 8],
            placed: 0,
            last: None,
        }
    }

    fn mover(&self) -> usize {
        self.placed % 2
    }

    /// The mover's placement number for the move about to be made (1..=8).
    fn own_number(&self) -> usize {
        self.placed / 2 + 1
    }

    fn on_board_count(&self, colour: usize, letter: char) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|cell| **cell == Some((colour, letter)))
            .count()
    }

    fn in_hand(&self, colour: usize, letter: char) -> usize {
        let index = LETTERS
            .iter()
            .position(|&known| known == letter)
            .expect("known letter");
        START_COUNT[index] - self.on_board_count(colour, letter)
    }

    fn occupied(&self, file: i32, rank: i32) -> bool {
        self.board[rank as usize][file as usize].is_some()
    }

    /// True when some neighbour of (file, rank) satisfies `test`.
    fn any_neighbour(file: usize, rank: usize, test: impl Fn(i32, i32) -> bool) -> bool {
        for step_file in -1..=1 {
            for step_rank in -1..=1 {
                let (to_file, to_rank) = (file as i32 + step_file, rank as i32 + step_rank);
                if (step_file, step_rank) != (0, 0)
                    && on_board(to_file, to_rank)
                    && test(to_file, to_rank)
                {
                    return true;
                }
            }
        }
        false
    }

    /// `hand(colour, letter)` is the number in hand (computed once per position).
    fn allowed(
        &self,
        hand: &dyn Fn(usize, char) -> usize,
        letter: char,
        file: usize,
        rank: usize,
        rule_two: bool,
    ) -> bool {
        let mover = self.mover();
        let number = self.own_number();
        if self.board[rank][file].is_some() || hand(mover, letter) == 0 {
            return false;
        }
        // Rule 1.
        if self.placed == 0 && letter != 'K' {
            return false;
        }
        // Rule 2.
        if rule_two
            && self.placed > 0
            && !Naive::any_neighbour(file, rank, |f, r| self.occupied(f, r))
        {
            return false;
        }
        // Rule 3.
        if mover == 1 && letter == 'K' && number != 8 {
            return false;
        }
        // Rule 4.
        if letter == 'B' {
            for (other_rank, row) in self.board.iter().enumerate() {
                for (other_file, cell) in row.iter().enumerate() {
                    if *cell == Some((mover, 'B'))
                        && (other_file + other_rank) % 2 == (file + rank) % 2
                    {
                        return false;
                    }
                }
            }
        }
        // Rule 5.
        if let Some((last_file, last_rank)) = self.last {
            let last_is_queen = matches!(self.board[last_rank][last_file], Some((_, 'Q')));
            if last_is_queen && hand(mover, 'Q') > 0 && letter != 'Q' {
                return false;
            }
        }
        // Rule 6.
        if mover == 1 && number == 7 && hand(1, 'Q') > 0 && letter != 'Q' {
            return false;
        }
        // Rule 7.
        if mover == 0
            && number == 8
            && !Naive::any_neighbour(file, rank, |f, r| !self.occupied(f, r))
        {
            return false;
        }
        // Rule 8.
        if mover == 1 && number == 8 {
            let Some((last_file, last_rank)) = self.last else {
                return false;
            };
            if file.abs_diff(last_file) > 1 || rank.abs_diff(last_rank) > 1 {
                return false;
            }
        }
        true
    }

    /// Every legal move as (letter, file, rank), with the fallback.
    fn moves(&self) -> Vec<(char, usize, usize)> {
        if self.placed == 16 {
            return Vec::new();
        }
        let mut counts = [[0; 5]; 2];
        for (colour, row) in counts.iter_mut().enumerate() {
            for (count, letter) in row.iter_mut().zip(LETTERS) {
                *count = self.in_hand(colour, letter);
            }
        }
        let hand = |colour: usize, letter: char| {
            counts[colour][LETTERS
                .iter()
                .position(|&known| known == letter)
                .unwrap_or(0)]
        };
        for rule_two in [true, false] {
            let mut moves = Vec::new();
            for letter in LETTERS {
                for rank in 0..8 {
                    for file in 0..8 {
                        if self.allowed(&hand, letter, file, rank, rule_two) {
                            moves.push((letter, file, rank));
                        }
                    }
                }
            }
            if !moves.is_empty() {
                return moves;
            }
        }
        Vec::new()
    }

    fn play(&mut self, (letter, file, rank): (char, usize, usize)) {
        self.board[rank][file] = Some((self.mover(), letter));
        self.placed += 1;
        self.last = Some((file, rank));
    }

    fn texts(&self) -> BTreeSet<String> {
        self.moves()
            .into_iter()
            .map(|(letter, file, rank)| format!("{letter}{}", square_name(file, rank)))
            .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    fn points(&self, colour: usize) -> i32 {
        let mut points = 0;
        let steps_king = [
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ];
        let steps_knight = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        let rook = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        for rank in 0..8 {
            for file in 0..8 {
                let Some((owner, letter)) = self.board[rank][file] else {
                    continue;
                };
                if owner != colour {
                    continue;
                }
                let (f, r) = (file as i32, rank as i32);
                let jumps: &[(i32, i32)] = match letter {
                    'K' => &steps_king,
                    'N' => &steps_knight,
                    _ => &[],
                };
                for &(df, dr) in jumps {
                    if on_board(f + df, r + dr) && !self.occupied(f + df, r + dr) {
                        points += 1;
                    }
                }
                let rays: Vec<(i32, i32)> = match letter {
                    'R' => rook.to_vec(),
                    'B' => bishop.to_vec(),
                    'Q' => rook.iter().chain(bishop.iter()).copied().collect(),
                    _ => Vec::new(),
                };
                for (df, dr) in rays {
                    let (mut tf, mut tr) = (f + df, r + dr);
                    while on_board(tf, tr) && !self.occupied(tf, tr) {
                        points += 1;
                        tf += df;
                        tr += dr;
                    }
                }
            }
        }
        points
    }

    /// Builds the naive board from the library's position string (board and last field).
    fn from_text(text: &str) -> Naive {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut naive = Naive::new();
        for (row, rank_text) in fields[0].split('/').enumerate() {
            let rank = 7 - row;
            let mut file = 0;
            for letter in rank_text.chars() {
                if let Some(run) = letter.to_digit(10) {
                    file += run as usize;
                } else {
                    let colour = usize::from(letter.is_ascii_lowercase());
                    naive.board[rank][file] = Some((colour, letter.to_ascii_uppercase()));
                    naive.placed += 1;
                    file += 1;
                }
            }
        }
        if fields[2] != "-" {
            let bytes = fields[2].as_bytes();
            naive.last = Some(((bytes[0] - b'a') as usize, (bytes[1] - b'1') as usize));
        }
        naive
    }
}

fn library_texts(position: &Cheversi) -> BTreeSet<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let texts: BTreeSet<String> = moves.iter().map(|&mv| position.move_text(mv)).collect();
    assert_eq!(texts.len(), moves.len(), "duplicate moves");
    texts
}

fn start() -> Cheversi {
    Cheversi::start(&GameConfig::new(Variant::Cheversi)).expect("start position")
}

#[test]
fn perft_from_the_start_matches() {
    let naive = Naive::new();
    let library = start();
    for depth in 1..=4 {
        assert_eq!(
            tessera::perft::perft(&library, depth, true),
            naive.perft(depth),
            "depth {depth}"
        );
    }
}

/// Plays one seeded random game on both implementations, checking the move lists at every
/// ply and perft to depth `perft_depth` at the plies `perft_every` picks; returns the
/// library's final position.
fn random_game(rng: &mut SplitMix64, check_perft: impl Fn(usize) -> u32) -> Cheversi {
    let mut library = start();
    let mut naive = Naive::new();
    for ply in 0..16 {
        let texts = library_texts(&library);
        assert_eq!(
            texts,
            naive.texts(),
            "ply {ply} of {}",
            library.position_text()
        );
        assert_eq!(library.count_moves(), texts.len() as u64);
        assert_eq!(library.score(), [naive.points(0), naive.points(1)]);
        let depth = check_perft(ply);
        if depth > 0 {
            assert_eq!(
                tessera::perft::perft(&library, depth, true),
                naive.perft(depth),
                "perft {depth} at {}",
                library.position_text()
            );
        }
        let moves: Vec<String> = texts.into_iter().collect();
        let text = &moves[rng.below(moves.len())];
        let mv = library.parse_move(text).expect("listed moves parse");
        library.play(mv).expect("listed moves are legal");
        let naive_move = naive
            .moves()
            .into_iter()
            .find(|&(letter, file, rank)| format!("{letter}{}", square_name(file, rank)) == *text)
            .expect("naive has the same move");
        naive.play(naive_move);
    }
    assert!(naive.moves().is_empty());
    assert_eq!(library.count_moves(), 0);
    assert_eq!(library.score(), [naive.points(0), naive.points(1)]);
    library
}

#[test]
fn random_games_agree_on_moves_scores_and_results() {
    let mut rng = SplitMix64::new(0xC4E5);
    let mut results = [0usize; 3];
    for _ in 0..300 {
        let end = random_game(&mut rng, |_| 0);
        let [white, black] = end.score();
        let expected = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::One),
            std::cmp::Ordering::Less => Outcome::Win(Player::Two),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        assert_eq!(end.outcome(), Some(expected));
        results[match expected {
            Outcome::Win(Player::One) => 0,
            Outcome::Win(Player::Two) => 1,
            Outcome::Draw => 2,
        }] += 1;
    }
    // Both sides win some random games: the scores are not one-sided by construction.
    assert!(results[0] > 0 && results[1] > 0, "{results:?}");
}

#[test]
fn perft_from_random_positions_matches() {
    let mut rng = SplitMix64::new(0x5EED);
    for game in 0..12 {
        // Depth 2 at every ply of some games, depth 3 near the end of others.
        random_game(&mut rng, |ply| match (game % 2, ply) {
            (0, _) => 2,
            (_, 10..=13) => 3,
            _ => 0,
        });
    }
}

#[test]
fn perft_data_file_matches_at_small_depths() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/cheversi.txt");
    let text = std::fs::read_to_string(path).expect("perft data file");
    let config = GameConfig::new(Variant::Cheversi);
    let mut checked = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let library = if fields[1] == "startpos" {
            start()
        } else {
            Cheversi::from_position_text(fields[1], &config).expect("data positions parse")
        };
        let naive = Naive::from_text(&library.position_text());
        assert_eq!(library_texts(&library), naive.texts(), "{line}");
        for pair in fields[2].split_whitespace() {
            let (depth, count) = pair.split_once(':').expect("depth:count");
            let depth: u32 = depth.parse().expect("depth");
            let count: u64 = count.parse().expect("count");
            if count <= 300_000 {
                assert_eq!(naive.perft(depth), count, "naive, {line} depth {depth}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} counts checked");
}
