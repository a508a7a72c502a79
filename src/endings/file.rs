//! Ending tables as a file the engine loads, like Syzygy tables for chess: written once by
//! `tessera endings --write FILE`, loaded by `setoption name EndingsFile value FILE`.
//!
//! Layout: one header line of ASCII, then the values, one byte per folded position.
//!
//! ```text
//! tessera-endings format 1 engine 0.1.0 side 9 limit 80 men 3v1 tables 1v1,2v1,1v2,3v1,1v3 bytes 85156225 fnv1a64 ba74ea468019eb1c
//! ```
//!
//! `format` is this layout's version (a reader takes only its own), `engine` the version of
//! the program that wrote it (for the record: the values depend on the rules only), `men`
//! the largest class, `tables` every table in the order its bytes follow (mover's men `v`
//! the other side's), `bytes` their total and `fnv1a64` the FNV-1a hash of them.
//!
//! Folding: every table in a file has a side with a single man (1 v 1, 2 v 1, 3 v 1 and
//! the other side to move). A symmetry of the hexagon takes that man into the fundamental
//! domain (one cell per orbit of the twelve symmetries, [`SolverBoard::fold`]) and the other
//! men with it, so a table holds `domain cells x C(cells, other men)` bytes instead of
//! `cells x C(cells, other men)`: about a twelfth (side 9: 25 of 217 cells).

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::Path;

use thiserror::Error;

use super::EndingValues;
use super::board::{MAX_MEN, Occupancy, SolverBoard};
use super::solve::{Tables, Value, each_set};

/// The layout version this program reads and writes.
pub const FORMAT: u32 = 1;
/// The first word of every endings file.
const MAGIC: &str = "tessera-endings";
/// The longest header line a reader accepts.
const MAX_HEADER: usize = 1024;

/// Why a file is not a usable endings file.
#[derive(Debug, Error)]
pub enum EndingsFileError {
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("not a Tessera endings file (no '{MAGIC}' header line)")]
    NotEndings,
    #[error("header field {name}: {reason} ({value})")]
    Field {
        name: &'static str,
        value: String,
        reason: String,
    },
    #[error("the header line has a control character")]
    ControlCharacter,
    #[error("format {found}: this engine reads format {FORMAT} only")]
    Format { found: String },
    #[error("{found} bytes of values, the header and its tables need {expected}")]
    Size { expected: u64, found: u64 },
    #[error(
        "checksum {found:016x} does not match the header's {expected:016x}: the file is damaged"
    )]
    Checksum { expected: u64, found: u64 },
}

/// One folded table: where its bytes start, and its shape.
#[derive(Clone, Debug)]
struct FoldedTable {
    mover: usize,
    opponent: usize,
    /// The single man is the side to move's (else the other side's).
    key_is_mover: bool,
    /// C(cells, men of the side that is not the key).
    other_sets: u64,
    start: usize,
}

impl FoldedTable {
    fn new(board: &SolverBoard, mover: usize, opponent: usize, start: usize) -> Self {
        let key_is_mover = opponent != 1;
        let others = if key_is_mover { opponent } else { mover };
        FoldedTable {
            mover,
            opponent,
            key_is_mover,
            other_sets: board.combinations(others),
            start,
        }
    }

    fn bytes(&self, board: &SolverBoard) -> usize {
        board.domain().len() * self.other_sets as usize
    }

    fn name(&self) -> String {
        format!("{}v{}", self.mover, self.opponent)
    }
}

/// Folded ending tables of one board side, as written to and read from a file.
pub struct EndingsFile {
    board: SolverBoard,
    limit: u8,
    /// The largest class: its strong side's men, its weak side's.
    men: (usize, usize),
    engine: String,
    tables: Vec<FoldedTable>,
    values: Vec<u8>,
}

impl EndingsFile {
    /// Folds every solved table of `tables` that has a side with a single man.
    pub fn from_tables(tables: &Tables) -> Self {
        let board = SolverBoard::new(tables.board().side()).expect("a solved board has a side");
        let mut folded = Vec::new();
        let mut start = 0;
        let mut classes: Vec<(usize, usize)> = (1..=MAX_MEN)
            .flat_map(|mover| (1..=MAX_MEN).map(move |opponent| (mover, opponent)))
            .filter(|&(mover, opponent)| mover == 1 || opponent == 1)
            .filter(|&(mover, opponent)| tables.table(mover, opponent).is_some())
            .collect();
        classes.sort_by_key(|&(mover, opponent)| (mover + opponent, opponent));
        for (mover, opponent) in classes {
            let table = FoldedTable::new(&board, mover, opponent, start);
            start += table.bytes(&board);
            folded.push(table);
        }
        let mut values = vec![0u8; start];
        for table in &folded {
            fill(tables, &board, table, &mut values[table.start..]);
        }
        let men = folded
            .iter()
            .map(|table| {
                (
                    table.mover.max(table.opponent),
                    table.mover.min(table.opponent),
                )
            })
            .max()
            .unwrap_or((0, 0));
        EndingsFile {
            board,
            limit: tables.limit(),
            men,
            engine: env!("CARGO_PKG_VERSION").to_string(),
            tables: folded,
            values,
        }
    }

    /// The header line, without its newline.
    fn header(&self) -> String {
        let names: Vec<String> = self.tables.iter().map(FoldedTable::name).collect();
        let mut line = format!(
            "{MAGIC} format {FORMAT} engine {} side {} limit {} men {}v{} tables {} bytes {} fnv1a64 {:016x}",
            self.engine,
            self.board.side(),
            self.limit,
            self.men.0,
            self.men.1,
            names.join(","),
            self.values.len(),
            fnv1a(&self.values)
        );
        line.truncate(MAX_HEADER - 1);
        line
    }

    /// Writes the header line and the values.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.header())?;
        out.write_all(&self.values)?;
        out.flush()
    }

    /// Reads a whole file. Only a regular file is opened (a pipe or a device could make
    /// the read wait forever or never end), and only one that starts with the header's
    /// first word is read past its first line.
    pub fn load(path: &Path) -> Result<Self, EndingsFileError> {
        let failed = |reason: String| EndingsFileError::Read {
            path: path.display().to_string(),
            reason,
        };
        let metadata = std::fs::metadata(path).map_err(|error| failed(error.to_string()))?;
        if !metadata.is_file() {
            return Err(failed("not a regular file".to_string()));
        }
        let file = std::fs::File::open(path).map_err(|error| failed(error.to_string()))?;
        let mut reader = std::io::BufReader::new(file.take(metadata.len()));
        let mut bytes = Vec::new();
        reader
            .by_ref()
            .take(MAGIC.len() as u64)
            .read_to_end(&mut bytes)
            .map_err(|error| failed(error.to_string()))?;
        if bytes != MAGIC.as_bytes() {
            return Err(EndingsFileError::NotEndings);
        }
        reader
            .read_to_end(&mut bytes)
            .map_err(|error| failed(error.to_string()))?;
        Self::parse(bytes)
    }

    /// The file from its bytes: the header checked field by field, then the size and the
    /// checksum of the values.
    pub fn parse(mut bytes: Vec<u8>) -> Result<Self, EndingsFileError> {
        let end = bytes
            .iter()
            .take(MAX_HEADER)
            .position(|&byte| byte == b'\n')
            .ok_or(EndingsFileError::NotEndings)?;
        let header =
            std::str::from_utf8(&bytes[..end]).map_err(|_| EndingsFileError::NotEndings)?;
        // Printable text only: header values reach `info string` lines and messages.
        if header.chars().any(char::is_control) {
            return Err(EndingsFileError::ControlCharacter);
        }
        let mut words = header.split(' ');
        if words.next() != Some(MAGIC) {
            return Err(EndingsFileError::NotEndings);
        }
        let mut fields = Vec::new();
        while let Some(name) = words.next() {
            fields.push((name, words.next().unwrap_or("")));
        }
        let field = |name: &'static str| {
            fields
                .iter()
                .find(|(key, _)| *key == name)
                .map(|&(_, value)| value)
                .ok_or(EndingsFileError::Field {
                    name,
                    value: String::new(),
                    reason: "missing".to_string(),
                })
        };
        let number = |name: &'static str| -> Result<u64, EndingsFileError> {
            let value = field(name)?;
            value.parse().map_err(|_| EndingsFileError::Field {
                name,
                value: value.to_string(),
                reason: "not a number".to_string(),
            })
        };
        let format = field("format")?;
        if format != FORMAT.to_string() {
            return Err(EndingsFileError::Format {
                found: format.to_string(),
            });
        }
        let bad = |name: &'static str, reason: &str| EndingsFileError::Field {
            name,
            value: field(name).unwrap_or("").to_string(),
            reason: reason.to_string(),
        };
        let side = number("side")?;
        let board = usize::try_from(side)
            .ok()
            .filter(|side| (4..=9).contains(side))
            .and_then(SolverBoard::new)
            .ok_or_else(|| bad("side", "boards have sides 4 to 9"))?;
        let limit = u8::try_from(number("limit")?)
            .ok()
            .filter(|&limit| limit <= super::MAX_DISTANCE)
            .ok_or_else(|| bad("limit", "above the solver's horizon"))?;
        let mut tables = Vec::new();
        let mut start = 0;
        for name in field("tables")?.split(',') {
            let (mover, opponent) = name
                .split_once('v')
                .and_then(|(mover, opponent)| Some((mover.parse().ok()?, opponent.parse().ok()?)))
                .filter(|&(mover, opponent): &(usize, usize)| {
                    (1..=MAX_MEN).contains(&mover)
                        && (1..=MAX_MEN).contains(&opponent)
                        && (mover == 1 || opponent == 1)
                })
                .ok_or_else(|| bad("tables", "each table is <men>v<men>, one side with 1 man"))?;
            if tables
                .iter()
                .any(|table: &FoldedTable| (table.mover, table.opponent) == (mover, opponent))
            {
                return Err(bad("tables", "a table listed twice"));
            }
            let table = FoldedTable::new(&board, mover, opponent, start);
            start += table.bytes(&board);
            tables.push(table);
        }
        let declared = number("bytes")?;
        let checksum = u64::from_str_radix(field("fnv1a64")?, 16)
            .map_err(|_| bad("fnv1a64", "not a hexadecimal number"))?;
        let men = field("men")?;
        let men = men
            .split_once('v')
            .and_then(|(strong, weak)| Some((strong.parse().ok()?, weak.parse().ok()?)))
            .ok_or_else(|| bad("men", "expected <men>v<men>"))?;
        let engine = field("engine")?.to_string();
        let found = (bytes.len() - end - 1) as u64;
        if declared != start as u64 || found != declared {
            return Err(EndingsFileError::Size {
                expected: start as u64,
                found,
            });
        }
        bytes.drain(..=end);
        let actual = fnv1a(&bytes);
        if actual != checksum {
            return Err(EndingsFileError::Checksum {
                expected: checksum,
                found: actual,
            });
        }
        Ok(EndingsFile {
            board,
            limit,
            men,
            engine,
            tables,
            values: bytes,
        })
    }

    /// The largest class (strong side's men, weak side's).
    pub fn men(&self) -> (usize, usize) {
        self.men
    }

    /// The most men on the board a position of these tables has.
    pub fn most_men(&self) -> usize {
        self.tables
            .iter()
            .map(|table| table.mover + table.opponent)
            .max()
            .unwrap_or(0)
    }

    /// One line for the engine's `info string`: side, tables, size, writer.
    pub fn describe(&self) -> String {
        let mut line = format!("side {} tables", self.board.side());
        for table in &self.tables {
            let _ = write!(line, " {}", table.name());
        }
        let _ = write!(
            line,
            ", limit {}, {:.1} MB, written by Tessera {}",
            self.limit,
            self.values.len() as f64 / 1e6,
            self.engine
        );
        line
    }
}

impl EndingValues for EndingsFile {
    fn board(&self) -> &SolverBoard {
        &self.board
    }

    fn limit(&self) -> u8 {
        self.limit
    }

    fn value(&self, mover: &[u8], opponent: &[u8]) -> Option<Value> {
        if mover.is_empty() {
            return Some(Value::Loss(0));
        }
        let table = self
            .tables
            .iter()
            .find(|table| (table.mover, table.opponent) == (mover.len(), opponent.len()))?;
        let (key, others) = if table.key_is_mover {
            (mover[0], opponent)
        } else {
            (opponent[0], mover)
        };
        let fold = self.board.fold(key);
        let image = &self.board.symmetries()[fold.symmetry];
        let mut mapped = [0u8; MAX_MEN];
        let mapped = &mut mapped[..others.len()];
        for (slot, &cell) in mapped.iter_mut().zip(others) {
            *slot = image[usize::from(cell)];
        }
        mapped.sort_unstable();
        let index = fold.domain * table.other_sets as usize + self.board.rank(mapped) as usize;
        Some(Value::decode(self.values[table.start + index]))
    }
}

/// Writes `table`'s folded bytes (into the front of `out`) from the solved `tables`.
fn fill(tables: &Tables, board: &SolverBoard, table: &FoldedTable, out: &mut [u8]) {
    let others = if table.key_is_mover {
        table.opponent
    } else {
        table.mover
    };
    let mut set = [0u8; MAX_MEN];
    let set = &mut set[..others];
    for (domain_index, &key) in board.domain().iter().enumerate() {
        let mut index = domain_index * table.other_sets as usize;
        each_set(board.cells(), set, |others| {
            if !Occupancy::of(others).contains(key) {
                let value = if table.key_is_mover {
                    tables.value(&[key], others)
                } else {
                    tables.value(others, &[key])
                };
                out[index] = value.expect("the table is solved").encode();
            }
            index += 1;
        });
    }
}

/// The 64-bit FNV-1a hash: a checksum against damage, not against forgery.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
