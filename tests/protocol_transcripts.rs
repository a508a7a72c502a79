//! Golden protocol transcripts, one per variant plus the handshake and the search
//! interplay. Each script runs twice, in process through the session state machine and
//! through the real binary over pipes; both runs must match the same snapshot (in
//! `tests/snapshots/`), with version, times and searched moves filtered.

mod protocol_support;

use protocol_support::{Progress, binary, binary_keeping, in_process, in_process_keeping};

const HANDSHAKE: &[&str] = &[
    "ugi",
    "isready",
    "uci",
    "help",
    "setoption name Hash value 16",
    "setoption name hash value 0",
    "setoption name Threads value two",
    "setoption name Colour value white",
    "setoption name MoveOverhead",
    "setoption name Seed value 42",
    "setoption name Strategy value GREEDY",
    "setoption name Strategy value clever",
    "setoption name BoardSize value 6",
    "ucinewgame",
    "uginewgame",
    "query variant",
    "foo bar",
    "query",
    "query colour",
    "go depth 0",
    "go nodes -5",
    "perft x",
    "quit",
];

const CHEVERSI: &[&str] = &[
    "ugi",
    "setoption name UCI_Variant value cheversi",
    "uginewgame",
    "position startpos",
    "d",
    "query gameover",
    "query p1turn",
    "query result",
    "query score",
    "query fen",
    "query variant",
    "position startpos moves Ke4 Qd5",
    "query p1turn",
    "query score",
    "query fen",
    "position startpos moves Ke4 Qd5 Nf6",
    "query fen",
    "position startpos moves Ke4 Kd5",
    "position startpos moves Kz9",
    "position fen 8/8/8/8/4K3/8/8/8 w e4",
    "position fen 8/8/8/8/4K3/8/8 b e4",
    "position fen 8/8/8/8/4K3/8/8/8 b e4 moves Qd5",
    "d",
    "perft 2",
    "divide 1",
    "go depth 2",
    "go infinite",
    "isready",
    "query p1turn",
    "stop",
    "position fen 8/8/2b5/2R5/2R5/2r3k1/Nn1r1n1B/KqQBN1b1 w g3",
    "query gameover",
    "query result",
    "query score",
    "query moves",
    "go depth 1",
    "position startpos moves Ka1 Qb1 Qc1 Nb2 Na2 Rd2 Ne1 Nf2 Bd1 Rc3 Rc4 Bg1 Rc5 Bc6 Bh2 Kg3",
    "query fen",
    "query result",
    "position startpos",
    "eval",
    "go depth 1",
    "quit",
];

const KRUZNO: &[&str] = &[
    "ugi",
    "setoption name UCI_Variant value kruzno",
    "query variant",
    "position startpos",
    "d",
    "query moves",
    "query score",
    "position startpos moves b2-a1 j2-k1",
    "query fen",
    "query p1turn",
    "position startpos moves b2-a1 b2-b3",
    "position startpos moves b2-a1 j2-k1 a1xc3",
    "position startpos moves b2-b9",
    "query fen",
    "position fen 6/1BBBBB1/2BBBB2/3BBB3/10/11/10/9/8/7 w - 0 1",
    "position fen 6/1BBBBB1/2BBBB2/3BBB3/10/11/10/9/8/7/6 x - 0 1",
    "position fen 6/1BBBBB1/2BBBB2/3BBB3/10/11/10/9/8/7/6 w - 0 1",
    "query gameover",
    "query result",
    "query moves",
    "go depth 1",
    "setoption name BoardSize value 4",
    "setoption name BoardSize value 6",
    "position startpos moves b2-a1",
    "perft 2",
    "divide 1",
    "divide 0",
    "go depth 2",
    "go infinite",
    "isready",
    "stop",
    "setoption name BoardSize value 0",
    "query fen",
    "quit",
];

const HEXCHECKERS: &[&str] = &[
    "ugi",
    "setoption name UCI_Variant value hexcheckers",
    "query variant",
    "d",
    "query moves",
    "query score",
    "position startpos moves c1-d1 o1-n1",
    "query fen",
    "position startpos moves c1-d1 c2-d2",
    "position startpos moves c1xe1",
    "position startpos moves q9-q10",
    "setoption name BoardSize value 4",
    "d",
    "query moves",
    "perft 2",
    "divide 1",
    "position fen 4/3B1/5B/7/5B/W4/4 b - 80 69",
    "d",
    "query gameover",
    "query result",
    "go depth 1",
    "position fen 4/3B1/5B/7/5B/W4/4 b - 81 69",
    "position fen 4/3B1/5B/7/5B/W4/4 b - 12 69",
    "query gameover",
    "go depth 2",
    "go infinite",
    "isready",
    "stop",
    "quit",
];

const CATCHUP: &[&str] = &[
    "ugi",
    "setoption name UCI_Variant value catchup",
    "d",
    "query score",
    "position startpos moves e5 d4,f6",
    "query fen",
    "query p1turn",
    "query score",
    "position startpos moves e5 a1,a2,a3",
    "position startpos moves e5 a1,a1",
    "position startpos moves e5,e6",
    "position startpos moves e5 d4 e5",
    "position startpos moves z1",
    "query fen",
    "setoption name BoardSize value 10",
    "setoption name BoardSize value 3",
    "d",
    "query moves",
    "perft 2",
    "divide 1",
    "position fen WWB/BBWW/WBWWW/WBBW/WBW b 3",
    "d",
    "query gameover",
    "query result",
    "query score",
    "go depth 1",
    "position fen WWB/BBWW/WBWWW/WBBW/WB1 b 2",
    "query moves",
    "go nodes 1000",
    "setoption name CatchupRule value original",
    "query fen",
    "go infinite",
    "isready",
    "stop",
    "quit",
];

/// Catchup is searched by MCTS, which takes `nodes` as its bound (`go depth` alone
/// does not bound it), so its scripts use `go nodes`.
///
/// Search interplay (in process only: with a real search running, these replies race
/// by design). Commands that change the game stop a running search first; a second
/// `go` is refused; `go infinite` keeps its bestmove until `stop`; `quit` reports a
/// stopped search.
const SEARCH_INTERPLAY: &[&str] = &[
    "setoption name UCI_Variant value catchup",
    "setoption name BoardSize value 3",
    "go infinite",
    "go nodes 300",
    "query p1turn",
    "position startpos moves e1",
    "query fen",
    "go infinite",
    "setoption name Hash value 8",
    "go infinite",
    "uginewgame",
    "go infinite",
    "stop",
    "stop",
    "go nodes 300",
    "go infinite",
    "quit",
    "isready",
];

/// Several lines (`MultiPV`), one script per variant: the lines of a search's last report
/// are kept (time and nps filtered), ranked from 1, each with its proven marker if it has
/// one (a hex checkers ending the built-in tables cover, Catchup positions the solver
/// proves lost and won); more lines than legal moves give one line per move; at 1 the
/// lines carry no `multipv`; bad values are refused.
const MULTIPV_CHEVERSI: &[&str] = &[
    "setoption name MultiPV value 3",
    "position startpos moves Ke4 Qd5",
    "go depth 3",
    "setoption name MultiPV value 0",
    "setoption name MultiPV value -3",
    "setoption name MultiPV value abc",
    "setoption name MultiPV value 257",
    "setoption name MultiPV",
    "position startpos moves Ka1 Qb1 Qc1 Nb2 Na2 Rd2 Ne1 Nf2 Bd1 Rc3 Rc4 Bg1 Rc5 Bc6",
    "setoption name MultiPV value 256",
    "go depth 2",
    "setoption name multipv value 1",
    "go depth 2",
    "quit",
];

const MULTIPV_KRUZNO: &[&str] = &[
    "setoption name UCI_Variant value kruzno",
    "setoption name MultiPV value 4",
    "position startpos moves d5-e6 h5-g5",
    "go depth 4",
    "setoption name MultiPV value 2",
    "go depth 3",
    "quit",
];

const MULTIPV_HEXCHECKERS: &[&str] = &[
    "setoption name UCI_Variant value hexcheckers",
    "setoption name BoardSize value 4",
    "setoption name MultiPV value 5",
    "position fen 4/3B1/5B/7/5B/W4/4 b - 12 69",
    "go depth 3",
    "setoption name MultiPV value 20",
    "go depth 2",
    "setoption name MultiPV value 3",
    "position fen 4/5/6/7/2B1W1/4W/4 w - 0 40",
    "go depth 3",
    "quit",
];

const MULTIPV_CATCHUP: &[&str] = &[
    "setoption name UCI_Variant value catchup",
    "setoption name BoardSize value 3",
    "setoption name MultiPV value 3",
    "position startpos moves c3",
    "go nodes 2000",
    "position fen WWB/BBWW/WBWWW/WBBW/WB1 b 2",
    "go nodes 500",
    "position fen WWB/BBW1/WB1W1/1BBW/WB1 w 2",
    "go nodes 5000",
    "position fen WW1/BBW1/WB1W1/1BBW/WB1 w 2",
    "go nodes 5000",
    "quit",
];

/// Pondering: `go ponder` then `ponderhit` (the search goes on as a timed one; with
/// `Ponder` on, `bestmove` names the expected reply), `stop` while pondering, a ponder
/// miss (`stop`, then the real position and `go`), and the errors. With `Ponder` off for
/// the stopped searches: the synchronous driver runs a stopped search from its start,
/// whose principal variation has no reply yet, while the binary's has pondered a while.
const PONDER: &[&str] = &[
    "setoption name Ponder value maybe",
    "setoption name Ponder value true",
    "ponderhit",
    "position startpos moves Ke4 Qd5",
    "go ponder depth 3",
    "isready",
    "query p1turn",
    "ponderhit",
    "ponderhit",
    "setoption name Ponder value false",
    "go ponder p1time 60000 p2time 60000 p1inc 100 p2inc 100",
    "stop",
    "position startpos moves Ke4 Qd5 Qc6 Rb7",
    "go ponder wtime 60000 btime 60000",
    "stop",
    "position startpos moves Ke4 Qd5 Qc6 Rc7",
    "go depth 2",
    "go ponder nodes 5000",
    "position startpos moves Ke4",
    "query fen",
    "go ponder depth 2",
    "go depth 2",
    "ponderhit",
    "position fen 8/8/2b5/2R5/2R5/2r3k1/Nn1r1n1B/KqQBN1b1 w g3",
    "go ponder",
    "isready",
    "stop",
    "quit",
];

/// The strength options: errors name the value and the reason; a limited engine still
/// answers every `go` with a legal `bestmove`, in any variant.
const STRENGTH: &[&str] = &[
    "ugi",
    "setoption name UCI_LimitStrength value maybe",
    "setoption name UCI_Elo value 99999",
    "setoption name UCI_Elo value -3",
    "setoption name UCI_Elo value strong",
    "setoption name UCI_Elo",
    "setoption name StrengthLevel value 9",
    "setoption name UCI_LimitStrength value true",
    "setoption name UCI_Elo value 700",
    "position startpos",
    "go nodes 100000",
    "isready",
    "setoption name StrengthLevel value 1",
    "setoption name UCI_Variant value catchup",
    "position startpos moves e5",
    "go depth 3",
    "isready",
    "setoption name UCI_Variant value kruzno",
    "position startpos",
    "go movetime 50",
    "isready",
    "setoption name UCI_LimitStrength value false",
    "go depth 2",
    "quit",
];

macro_rules! transcript_tests {
    ($name:literal, $script:expr, $in_process:ident, $binary:ident) => {
        #[test]
        fn $in_process() {
            assert_transcript!($name, in_process($script));
        }

        #[test]
        fn $binary() {
            assert_transcript!($name, binary($script));
        }
    };
}

transcript_tests!(
    "handshake",
    HANDSHAKE,
    handshake_in_process,
    handshake_binary
);
transcript_tests!("cheversi", CHEVERSI, cheversi_in_process, cheversi_binary);
transcript_tests!("kruzno", KRUZNO, kruzno_in_process, kruzno_binary);
transcript_tests!(
    "hexcheckers",
    HEXCHECKERS,
    hexcheckers_in_process,
    hexcheckers_binary
);
transcript_tests!("catchup", CATCHUP, catchup_in_process, catchup_binary);
transcript_tests!("ponder", PONDER, ponder_in_process, ponder_binary);
transcript_tests!("strength", STRENGTH, strength_in_process, strength_binary);

macro_rules! line_transcript_tests {
    ($name:literal, $script:expr, $in_process:ident, $binary:ident) => {
        #[test]
        fn $in_process() {
            assert_transcript!($name, in_process_keeping($script, Progress::LastLines));
        }

        #[test]
        fn $binary() {
            assert_transcript!($name, binary_keeping($script, Progress::LastLines));
        }
    };
}

line_transcript_tests!(
    "multipv_cheversi",
    MULTIPV_CHEVERSI,
    multipv_cheversi_in_process,
    multipv_cheversi_binary
);
line_transcript_tests!(
    "multipv_kruzno",
    MULTIPV_KRUZNO,
    multipv_kruzno_in_process,
    multipv_kruzno_binary
);
line_transcript_tests!(
    "multipv_hexcheckers",
    MULTIPV_HEXCHECKERS,
    multipv_hexcheckers_in_process,
    multipv_hexcheckers_binary
);
line_transcript_tests!(
    "multipv_catchup",
    MULTIPV_CATCHUP,
    multipv_catchup_in_process,
    multipv_catchup_binary
);

#[test]
fn search_interplay_in_process() {
    assert_transcript!("search_interplay", in_process(SEARCH_INTERPLAY));
}
