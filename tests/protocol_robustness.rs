//! Thousands of random and adversarial lines (random bytes, huge lines, empty lines,
//! commands cut short, numbers out of range, invalid UTF-8, mutated valid commands),
//! from a seeded generator, in process and through the binary. The engine must never
//! panic, must answer `isready` afterwards and must still play a legal `bestmove`.

mod protocol_support;

use protocol_support::Engine;
use tessera::game::{GameConfig, Variant};
use tessera::protocol::{Command, ScriptRunner, parse::parse_line};
use tessera::registry::AnyGame;

/// splitmix64: a tiny deterministic generator, so a failure replays exactly.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const VALID: &[&str] = &[
    "ugi",
    "uci",
    "isready",
    "uginewgame",
    "ucinewgame",
    "position startpos",
    "position startpos moves Ke4 Qd5 Qe5",
    "position startpos moves b2-a1 j2-k1",
    "position startpos moves c1-d1 o1-n1",
    "position startpos moves e5 d4,f6",
    "position fen 8/8/8/8/4K3/8/8/8 b e4 moves Qd5",
    "position fen 5/6/7/8/9/8/7/6/5 w 1",
    "position fen 4/3B1/5B/7/5B/W4/4 b - 12 69",
    "go depth 2",
    "go wtime 100 btime 100 winc 0 binc 0",
    "go p1time 50 p2time 50 movestogo 3",
    "go movetime 5",
    "go nodes 100",
    "go infinite",
    "stop",
    "query gameover",
    "query p1turn",
    "query result",
    "query moves",
    "query score",
    "query fen",
    "query variant",
    "d",
    "show",
    "perft 1",
    "divide 1",
    "eval",
    "help",
    "setoption name UCI_Variant value cheversi",
    "setoption name UCI_Variant value kruzno",
    "setoption name UCI_Variant value hexcheckers",
    "setoption name UCI_Variant value catchup",
    "setoption name BoardSize value 4",
    "setoption name BoardSize value 0",
    "setoption name CatchupRule value original",
    "setoption name Hash value 2",
    "setoption name Threads value 1",
    "setoption name MoveOverhead value 10",
    "setoption name Seed value 99",
    "setoption name Strategy value random",
];

const NOISE: &[&str] = &[
    "",
    " ",
    "\t",
    "moves",
    "value",
    "name",
    "fen",
    "-",
    "-1",
    "0",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999999",
    "+7",
    "e5,e5",
    "a0",
    "x",
    "Kz9",
    "\u{0}",
    "\u{1b}[31m",
    "\u{202e}",
    "\u{1f600}",
    "infinite",
    "startpos",
];

/// One adversarial line, as bytes (never containing a line break).
fn adversarial_line(random: &mut Random) -> Vec<u8> {
    let base = random.pick(VALID);
    match random.below(12) {
        0 => (0..random.below(120))
            .map(|_| (random.next() % 256) as u8)
            .filter(|&byte| byte != b'\n')
            .collect(),
        1 => Vec::new(),
        2 => {
            let cut = random.below(base.len() + 1);
            base.as_bytes()[..cut].to_vec()
        }
        3 => {
            let mut bytes = base.as_bytes().to_vec();
            let at = random.below(bytes.len() + 1);
            let bad: &[u8] = [&b"\xff"[..], b"\xc3", b"\xe2\x82", b"\xed\xa0\x80"][random.below(4)];
            bytes.splice(at..at, bad.iter().copied());
            bytes
        }
        4 => {
            let mut words: Vec<&str> = base.split(' ').collect();
            let at = random.below(words.len());
            words[at] = random.pick(NOISE);
            words.join(" ").into_bytes()
        }
        5 => {
            let mut words: Vec<&str> = base.split(' ').collect();
            let at = random.below(words.len() + 1);
            words.insert(at, random.pick(NOISE));
            words.join(" ").into_bytes()
        }
        6 => {
            let keyword =
                random.pick(&["depth", "nodes", "movetime", "wtime", "movestogo", "p2inc"]);
            let number = random.pick(NOISE);
            format!("go {keyword} {number}").into_bytes()
        }
        7 => {
            let name = random.pick(&[
                "Hash",
                "Threads",
                "BoardSize",
                "Seed",
                "MoveOverhead",
                "UCI_Variant",
            ]);
            let value = random.pick(NOISE);
            format!("setoption name {name} value {value}").into_bytes()
        }
        8 => {
            let repeat = 1 + random.below(3000);
            format!("position startpos moves {}", "e5 ".repeat(repeat)).into_bytes()
        }
        9 => base.to_ascii_uppercase().into_bytes(),
        _ => base.as_bytes().to_vec(),
    }
}

/// Makes a generated line safe to run many of: no `quit`, no `bench`, no deep perft,
/// every search bounded (a later `depth` / `nodes` wins over an earlier one).
fn tame(bytes: Vec<u8>) -> Option<Vec<u8>> {
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Some(bytes);
    };
    match parse_line(text) {
        Command::Quit | Command::Bench => None,
        Command::Perft(depth) | Command::Divide(depth) if depth > 2 => None,
        Command::Go(_) => Some(format!("{text} depth 2 nodes 5000").into_bytes()),
        Command::SetOption { name, value } => {
            let big = value
                .as_deref()
                .and_then(|value| value.trim().parse::<u64>().ok())
                .is_some_and(|number| number > 64);
            let resource =
                name.eq_ignore_ascii_case("hash") || name.eq_ignore_ascii_case("threads");
            (!(big && resource)).then_some(bytes)
        }
        _ => Some(bytes),
    }
}

fn corpus(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut random = Random(seed);
    let mut lines = Vec::with_capacity(count + 2);
    // Two lines longer than the input limit, one of them a real command.
    lines.push(vec![b'a'; tessera::protocol::io::MAX_LINE_BYTES + 10]);
    let mut long = b"position fen ".to_vec();
    long.extend(std::iter::repeat_n(
        b'8',
        tessera::protocol::io::MAX_LINE_BYTES,
    ));
    lines.push(long);
    while lines.len() < count {
        if let Some(line) = tame(adversarial_line(&mut random)) {
            lines.push(line);
        }
    }
    lines
}

fn assert_well_formed(line: &str) {
    assert!(
        !line.chars().any(char::is_control),
        "control character in output {line:?}"
    );
    if line.starts_with("bestmove") {
        assert_eq!(
            line.split(' ').count(),
            2,
            "bestmove is two tokens: {line:?}"
        );
    }
    if let Some(rest) = line.strip_prefix("info ")
        && !rest.starts_with("string ")
    {
        protocol_support::check_info_line(line);
    }
}

/// The catchup start on side 7: a position string no generated line produces, so
/// its `response` marks the end of the flood's replies.
const MARKER_FEN: &str = "7/8/9/10/11/12/13/12/11/10/9/8/7 w 1";
const SETTLE: &[&str] = &[
    "stop",
    "setoption name UCI_Variant value catchup",
    "setoption name BoardSize value 7",
    "position startpos",
    "query fen",
];

fn marker_game() -> AnyGame {
    let config = GameConfig {
        size: Some(7),
        ..GameConfig::new(Variant::Catchup)
    };
    AnyGame::new(config).expect("catchup side 7 has a start position")
}

#[test]
fn random_lines_in_process() {
    let mut runner = ScriptRunner::new();
    let mut output = Vec::new();
    for line in corpus(0x5EED_0001, 4000) {
        output.extend(runner.send_bytes(&line));
    }
    for line in &output {
        assert_well_formed(line);
    }
    assert!(
        output
            .iter()
            .filter(|line| line.starts_with("info string error"))
            .count()
            > 500,
        "the adversarial lines should mostly be rejected"
    );
    assert_eq!(runner.send("isready"), vec!["readyok".to_string()]);
    for line in SETTLE {
        runner.send(line);
    }
    assert_eq!(runner.session().game().position_text(), MARKER_FEN);
    let replies = runner.send("go nodes 2000");
    let bestmove = replies
        .iter()
        .find_map(|line| line.strip_prefix("bestmove "))
        .expect("go answers with bestmove");
    assert_legal_in_marker_game(bestmove);
}

/// The flood left the marker position in place: the engine's move is legal there.
fn assert_legal_in_marker_game(bestmove: &str) {
    assert!(
        marker_game()
            .legal_move_texts()
            .iter()
            .any(|legal| legal == bestmove),
        "illegal bestmove {bestmove}"
    );
}

#[test]
fn random_lines_through_the_binary() {
    let mut engine = Engine::spawn();
    for line in corpus(0x5EED_0002, 3000) {
        let mut bytes = line;
        bytes.push(b'\n');
        engine.send_bytes(&bytes);
    }
    engine.send("isready");
    let flood = engine.read_until(|line| line == "readyok");
    for line in SETTLE {
        engine.send(line);
    }
    let settle = engine.read_until(|line| line == format!("response {MARKER_FEN}"));
    for line in flood.iter().chain(&settle) {
        assert_well_formed(line);
    }
    engine.send("go nodes 2000");
    let search = engine.read_until(|line| line.starts_with("bestmove "));
    let last = search.last().expect("at least the bestmove line");
    let bestmove = last.strip_prefix("bestmove ").expect("a bestmove line");
    assert_legal_in_marker_game(bestmove);
    engine.send("quit");
    let (_, status) = engine.wait();
    assert!(status.success(), "exit status {status}");
}
