//! The checkers rules checked against a deliberately naive generator written only for
//! this test: axial coordinates in a plain array, its own position-string reader and
//! writer, its own recursive chain search. Move lists (as sorted text), position strings
//! after every move, results and small perfts must agree from the starts and from many
//! positions reached by seeded random play.

use tessera::game::{GameConfig, Outcome, Player, Variant};
use tessera::registry::AnyGame;

const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// A cell as axial `(x, y)`.
type Cell = (i32, i32);

#[derive(Clone)]
struct Naive {
    side: i32,
    /// `board[y][x]`: 0 empty, 1 White, 2 Black (off-board entries stay 0 and unused).
    board: Vec<Vec<u8>>,
    /// 1 or 2.
    mover: u8,
    /// Obligated cell per colour (index 0 White, 1 Black).
    obligations: [Option<Cell>; 2],
    plies: u32,
    move_number: u32,
    border_rule: bool,
}

/// A move: its cells (start first) and whether it captures.
#[derive(Clone, Debug)]
struct NaiveMove {
    cells: Vec<Cell>,
    capture: bool,
}

impl Naive {
    fn width(&self) -> i32 {
        2 * self.side - 1
    }

    fn row_low(&self, y: i32) -> i32 {
        (y - (self.side - 1)).max(0)
    }

    fn row_high(&self, y: i32) -> i32 {
        (y + self.side - 1).min(2 * self.side - 2)
    }

    fn is_cell(&self, (x, y): Cell) -> bool {
        y >= 0 && y < self.width() && x >= self.row_low(y) && x <= self.row_high(y)
    }

    fn is_border(&self, (x, y): Cell) -> bool {
        let (dx, dy) = (x - (self.side - 1), y - (self.side - 1));
        let distance = if (dx >= 0) == (dy >= 0) {
            dx.abs().max(dy.abs())
        } else {
            dx.abs() + dy.abs()
        };
        distance == self.side - 1
    }

    fn at(&self, (x, y): Cell) -> u8 {
        self.board[y as usize][x as usize]
    }

    fn set(&mut self, (x, y): Cell, value: u8) {
        self.board[y as usize][x as usize] = value;
    }

    fn name(&self, (x, y): Cell) -> String {
        format!("{}{}", (b'a' + y as u8) as char, x - self.row_low(y) + 1)
    }

    fn parse(text: &str, border_rule: bool) -> Naive {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let rows: Vec<&str> = fields[0].split('/').collect();
        let side = (rows.len() as i32 + 1) / 2;
        let width = 2 * side - 1;
        let mut naive = Naive {
            side,
            board: vec![vec![0; width as usize]; width as usize],
            mover: if fields[1] == "w" { 1 } else { 2 },
            obligations: [None, None],
            plies: fields[3].parse().expect("plies"),
            move_number: fields[4].parse().expect("move number"),
            border_rule,
        };
        for (index, row) in rows.iter().enumerate() {
            let y = width - 1 - index as i32;
            let mut x = naive.row_low(y);
            let mut digits = String::new();
            for letter in row.chars().chain(std::iter::once('.')) {
                if letter.is_ascii_digit() {
                    digits.push(letter);
                    continue;
                }
                if !digits.is_empty() {
                    x += digits.parse::<i32>().expect("run");
                    digits.clear();
                }
                match letter {
                    'W' => naive.set((x, y), 1),
                    'B' => naive.set((x, y), 2),
                    _ => continue,
                }
                x += 1;
            }
        }
        if fields[2] != "-" {
            for name in fields[2].split(',') {
                let cell = naive.cell_named(name);
                let colour = naive.at(cell) as usize - 1;
                naive.obligations[colour] = Some(cell);
            }
        }
        naive
    }

    fn cell_named(&self, name: &str) -> Cell {
        let y = (name.as_bytes()[0] - b'a') as i32;
        let number: i32 = name[1..].parse().expect("number");
        (self.row_low(y) + number - 1, y)
    }

    fn text(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..self.width()).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in self.row_low(y)..=self.row_high(y) {
                match self.at((x, y)) {
                    0 => empty += 1,
                    colour => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(if colour == 1 { 'W' } else { 'B' });
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let mut obligations: Vec<Cell> = self.obligations.iter().flatten().copied().collect();
        obligations.sort_by_key(|&(x, y)| (y, x));
        let obligations = if obligations.is_empty() {
            "-".to_string()
        } else {
            obligations
                .iter()
                .map(|&cell| self.name(cell))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{} {} {} {} {}",
            rows.join("/"),
            if self.mover == 1 { "w" } else { "b" },
            obligations,
            self.plies,
            self.move_number
        )
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        for y in 0..self.width() {
            for x in self.row_low(y)..=self.row_high(y) {
                cells.push((x, y));
            }
        }
        cells
    }

    /// Extends `path` (captured men in `jumped`) with every complete chain.
    fn chains(&self, path: &mut Vec<Cell>, jumped: &mut Vec<Cell>, out: &mut Vec<NaiveMove>) {
        let start = path[0];
        let here = *path.last().expect("path has a start");
        let mut extended = false;
        for (dx, dy) in DIRECTIONS {
            let middle = (here.0 + dx, here.1 + dy);
            let landing = (here.0 + 2 * dx, here.1 + 2 * dy);
            if !self.is_cell(middle) || !self.is_cell(landing) {
                continue;
            }
            let enemy = self.at(middle) == 3 - self.mover && !jumped.contains(&middle);
            let free = self.at(landing) == 0 || landing == start;
            if enemy && free {
                extended = true;
                path.push(landing);
                jumped.push(middle);
                self.chains(path, jumped, out);
                path.pop();
                jumped.pop();
            }
        }
        if !extended && path.len() > 1 {
            out.push(NaiveMove {
                cells: path.clone(),
                capture: true,
            });
        }
    }

    fn moves(&self) -> Vec<NaiveMove> {
        if self.plies >= 80 {
            return Vec::new();
        }
        let own: Vec<Cell> = self
            .cells()
            .into_iter()
            .filter(|&cell| self.at(cell) == self.mover)
            .collect();
        let mut captures = Vec::new();
        for &cell in &own {
            self.chains(&mut vec![cell], &mut Vec::new(), &mut captures);
        }
        if !captures.is_empty() {
            return captures;
        }
        let steps_from = |cell: Cell, inner_only: bool| -> Vec<NaiveMove> {
            DIRECTIONS
                .iter()
                .map(|&(dx, dy)| (cell.0 + dx, cell.1 + dy))
                .filter(|&to| self.is_cell(to) && self.at(to) == 0)
                .filter(|&to| !inner_only || !self.is_border(to))
                .map(|to| NaiveMove {
                    cells: vec![cell, to],
                    capture: false,
                })
                .collect()
        };
        if let Some(cell) = self.obligations[self.mover as usize - 1] {
            let exits = steps_from(cell, true);
            if !exits.is_empty() {
                return exits;
            }
        }
        own.iter()
            .flat_map(|&cell| steps_from(cell, false))
            .collect()
    }

    fn move_text(&self, mv: &NaiveMove) -> String {
        let names: Vec<String> = mv.cells.iter().map(|&cell| self.name(cell)).collect();
        names.join(if mv.capture { "x" } else { "-" })
    }

    fn play(&mut self, mv: &NaiveMove) {
        let mover = self.mover;
        let start = mv.cells[0];
        let end = *mv.cells.last().expect("a move has cells");
        let opponent = 2 - mover as usize;
        if mv.capture {
            for pair in mv.cells.windows(2) {
                let middle = ((pair[0].0 + pair[1].0) / 2, (pair[0].1 + pair[1].1) / 2);
                self.set(middle, 0);
                if self.obligations[opponent] == Some(middle) {
                    self.obligations[opponent] = None;
                }
            }
            self.plies = 0;
        } else {
            self.plies += 1;
        }
        self.set(start, 0);
        self.set(end, mover);
        self.obligations[mover as usize - 1] =
            (self.border_rule && self.is_border(end)).then_some(end);
        if mover == 2 {
            self.move_number += 1;
        }
        self.mover = 3 - mover;
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut blocked = self.clone();
        blocked.plies = 0;
        if blocked.moves().is_empty() {
            let winner = if self.mover == 1 {
                Player::Two
            } else {
                Player::One
            };
            Some(Outcome::Win(winner))
        } else if self.plies >= 80 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    fn sorted_move_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self.moves().iter().map(|mv| self.move_text(mv)).collect();
        texts.sort();
        texts
    }
}

/// xorshift64*: a tiny seeded generator, enough to pick moves.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % bound
    }
}

fn config(variant: Variant, size: Option<usize>) -> GameConfig {
    GameConfig {
        size,
        ..GameConfig::new(variant)
    }
}

/// Checks one position of the library against the naive generator; `repeated` says the
/// position occurs for the third time (the naive side keeps its own history).
fn compare(game: &AnyGame, naive: &Naive, repeated: bool, context: &str) {
    assert_eq!(game.position_text(), naive.text(), "{context}");
    let (expected_moves, expected_outcome) = match naive.outcome() {
        Some(outcome) => (Vec::new(), Some(outcome)),
        None if repeated => (Vec::new(), Some(Outcome::Draw)),
        None => (naive.sorted_move_texts(), None),
    };
    assert_eq!(
        game.legal_move_texts(),
        expected_moves,
        "{context}: {}",
        naive.text()
    );
    assert_eq!(
        game.outcome(),
        expected_outcome,
        "{context}: {}",
        naive.text()
    );
}

/// The part of a position string that repetition compares: board, side, obligations.
fn repetition_key(text: &str) -> String {
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The start position. Kruzno is set up on side 6 only; on other sides it starts from the
/// hex checkers opening given as a Kruzno position string (which may give any side).
fn start_game(variant: Variant, size: Option<usize>) -> AnyGame {
    if variant == Variant::Kruzno && size.is_some_and(|side| side != 6) {
        let opening = AnyGame::new(config(Variant::HexCheckers, size)).expect("opening");
        AnyGame::from_position_text(config(variant, None), &opening.position_text())
            .expect("Kruzno accepts any side in a position string")
    } else {
        AnyGame::new(config(variant, size)).expect("start position")
    }
}

/// Random games from the start; every position compared, a perft every few plies.
fn random_games(variant: Variant, size: Option<usize>, games: usize, seed: u64, perft_depth: u32) {
    let border_rule = variant == Variant::Kruzno;
    let mut random = Random(seed);
    let mut positions = 0;
    for game_index in 0..games {
        let mut game = start_game(variant, size);
        let mut naive = Naive::parse(&game.position_text(), border_rule);
        let mut history = vec![repetition_key(&naive.text())];
        for ply in 0..300 {
            let context = format!("{variant} size {size:?} game {game_index} ply {ply}");
            let key = repetition_key(&naive.text());
            let repeated = history.iter().filter(|&earlier| *earlier == key).count() >= 3;
            compare(&game, &naive, repeated, &context);
            positions += 1;
            if ply % 7 == 3 {
                let reread =
                    AnyGame::from_position_text(config(variant, size), &game.position_text())
                        .expect("own position text parses");
                assert_eq!(
                    reread.perft(perft_depth, true),
                    naive.perft(perft_depth),
                    "{context}"
                );
            }
            let moves = naive.moves();
            if moves.is_empty() || repeated {
                break;
            }
            let mv = &moves[random.below(moves.len())];
            let text = naive.move_text(mv);
            let played = game.play_text(&text).expect("naive move is legal");
            assert_eq!(played, text, "{context}");
            naive.play(mv);
            history.push(repetition_key(&naive.text()));
        }
    }
    assert!(positions > games * 10, "games too short to test anything");
}

#[test]
fn start_positions_match_the_naive_generator() {
    let cases: [(Variant, Option<usize>, u32); 5] = [
        (Variant::Kruzno, None, 4),
        (Variant::HexCheckers, None, 3),
        (Variant::HexCheckers, Some(4), 4),
        (Variant::HexCheckers, Some(5), 4),
        (Variant::HexCheckers, Some(7), 3),
    ];
    for (variant, size, depth) in cases {
        let game = AnyGame::new(config(variant, size)).expect("start");
        let naive = Naive::parse(&game.position_text(), variant == Variant::Kruzno);
        compare(&game, &naive, false, "start");
        for depth in 1..=depth {
            assert_eq!(
                game.perft(depth, true),
                naive.perft(depth),
                "{variant} {size:?} {depth}"
            );
        }
    }
}

#[test]
fn kruzno_random_games_match_the_naive_generator() {
    random_games(Variant::Kruzno, None, 40, 0x5EED_0001, 2);
}

#[test]
fn hexcheckers_random_games_match_the_naive_generator() {
    random_games(Variant::HexCheckers, None, 6, 0x5EED_0002, 2);
    for size in [4, 5, 6, 8] {
        random_games(
            Variant::HexCheckers,
            Some(size),
            12,
            0x5EED_0010 + size as u64,
            2,
        );
    }
}

#[test]
fn kruzno_on_other_sides_matches_the_naive_generator() {
    for size in [4, 5, 7, 9] {
        random_games(Variant::Kruzno, Some(size), 8, 0x5EED_0100 + size as u64, 2);
    }
}

/// Counts up to this are recomputed by the naive generator (keeps the test fast).
const NAIVE_PERFT_LIMIT: u64 = 60_000;

/// Every position of the perft data files, at the depths the naive generator can afford.
#[test]
fn perft_data_files_match_the_naive_generator() {
    for variant in [Variant::Kruzno, Variant::HexCheckers] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/perft")
            .join(format!("{}.txt", variant.name()));
        let text = std::fs::read_to_string(&path).expect("perft data file");
        let mut checked = 0;
        for line in text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let size = fields[0]
                .strip_prefix("size=")
                .map(|size| size.parse::<usize>().expect("size"));
            let game = if fields[1] == "startpos" {
                AnyGame::new(config(variant, size))
            } else {
                AnyGame::from_position_text(config(variant, size), fields[1])
            }
            .expect("data file position");
            let naive = Naive::parse(&game.position_text(), variant == Variant::Kruzno);
            if game.perft(1, true) <= NAIVE_PERFT_LIMIT {
                compare(&game, &naive, false, line);
            }
            for pair in fields[2].split_whitespace() {
                let (depth, count) = pair.split_once(':').expect("depth:count");
                let (depth, count): (u32, u64) =
                    (depth.parse().expect("depth"), count.parse().expect("count"));
                if count <= NAIVE_PERFT_LIMIT {
                    assert_eq!(naive.perft(depth), count, "{line} depth {depth}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "{variant}: too few counts checked");
    }
}
