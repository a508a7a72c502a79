//! Checkpoints: the table's proven bounds written to a file at intervals, so a killed
//! solve resumes where it was. Every entry is a fact about one exactly named position,
//! so whatever a run wrote stays true for any later run of the same game and position.
//!
//! Format: text header lines, the entries as fixed-size little-endian records, then a
//! checksum line over everything before it:
//!
//! ```text
//! tessera-solve-checkpoint <format> <engine version>
//! variant catchup
//! size 3
//! rule original
//! position 3/4/5/4/3 w 1
//! entries <count>
//! <count x 25 bytes: key (2 x u64), lower (i16), upper (i16), move (u32), work (u8)>
//! checksum <16 hex digits, FNV-1a 64 of all bytes above>
//! ```
//!
//! A file from another format or engine version, another game or position, or one cut
//! short or altered is refused with the reason; it is never half-trusted.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::table::{Entry, SolveTable};

const MAGIC: &str = "tessera-solve-checkpoint";
/// Bumped whenever a key or a value changes meaning.
const FORMAT: u32 = 1;
const RECORD_BYTES: usize = 25;

/// What a checkpoint must match: the game and the root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: String,
    pub size: usize,
    pub rule: String,
    pub position: String,
}

/// Why a checkpoint was refused or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("checkpoint {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("checkpoint {path}: not a Tessera solve checkpoint (first line {found:?})")]
    NotACheckpoint { path: String, found: String },
    #[error(
        "checkpoint {path}: written by format {found_format} of engine {found_version}, this is format {FORMAT} of engine {}",
        env!("CARGO_PKG_VERSION")
    )]
    Version {
        path: String,
        found_format: String,
        found_version: String,
    },
    #[error("checkpoint {path}: cut short or damaged ({reason})")]
    Damaged { path: String, reason: String },
    #[error("checkpoint {path}: it is for {field} {found:?}, this solve is for {expected:?}")]
    Mismatch {
        path: String,
        field: &'static str,
        found: String,
        expected: String,
    },
}

/// FNV-1a, 64 bits, fed in pieces: catches a cut or altered file (not meant against
/// forgery).
#[derive(Clone, Copy)]
struct Checksum(u64);

impl Checksum {
    fn new() -> Self {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    }
}

/// The header lines; the count has a fixed width, so the header written before the
/// entries are counted is overwritten in place once they are.
fn header_text(header: &Header, count: usize) -> String {
    format!(
        "{MAGIC} {FORMAT} {}\nvariant {}\nsize {}\nrule {}\nposition {}\nentries {count:020}\n",
        env!("CARGO_PKG_VERSION"),
        header.variant,
        header.size,
        header.rule,
        header.position
    )
}

/// One entry as its 25-byte record.
fn record(entry: &Entry) -> [u8; RECORD_BYTES] {
    let mut bytes = [0; RECORD_BYTES];
    bytes[..8].copy_from_slice(&entry.key[0].to_le_bytes());
    bytes[8..16].copy_from_slice(&entry.key[1].to_le_bytes());
    bytes[16..18].copy_from_slice(&entry.lower.to_le_bytes());
    bytes[18..20].copy_from_slice(&entry.upper.to_le_bytes());
    bytes[20..24].copy_from_slice(&entry.best.to_le_bytes());
    bytes[24] = entry.work;
    bytes
}

/// The entry of a 25-byte record.
fn entry_of(record: &[u8; RECORD_BYTES]) -> Entry {
    let word = |at: usize| u64::from_le_bytes(std::array::from_fn(|index| record[at + index]));
    Entry {
        key: [word(0), word(8)],
        lower: i16::from_le_bytes([record[16], record[17]]),
        upper: i16::from_le_bytes([record[18], record[19]]),
        best: u32::from_le_bytes([record[20], record[21], record[22], record[23]]),
        work: record[24],
    }
}

/// Writes the entries of `table` to `path` and returns how many: through a temporary
/// file renamed into place, so a kill while writing leaves the previous checkpoint
/// whole. The entries are streamed a stripe of the table at a time, so writing takes
/// little memory beside the table (a copy of every entry would double what a long solve
/// needs); searches may go on meanwhile, and whatever is read is a proven fact.
pub fn write(path: &Path, header: &Header, table: &SolveTable) -> Result<usize, CheckpointError> {
    let io = |source| CheckpointError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    // Read as well as written: the checksum is read back from it.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temporary)
        .map_err(io)?;
    let mut out = BufWriter::new(file);
    out.write_all(header_text(header, 0).as_bytes())
        .map_err(io)?;
    let mut count = 0;
    let mut failure = None;
    table.for_each_entry(|entry| {
        if failure.is_none() {
            match out.write_all(&record(entry)) {
                Ok(()) => count += 1,
                Err(error) => failure = Some(error),
            }
        }
    });
    if let Some(error) = failure {
        return Err(io(error));
    }
    let mut file = out.into_inner().map_err(|error| io(error.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.write_all(header_text(header, count).as_bytes())
        .map_err(io)?;
    // The checksum over everything written, read back from the file.
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut sum = Checksum::new();
    let mut reader = BufReader::with_capacity(1 << 20, &file);
    loop {
        let chunk = reader.fill_buf().map_err(io)?;
        if chunk.is_empty() {
            break;
        }
        sum.add(chunk);
        let length = chunk.len();
        reader.consume(length);
    }
    drop(reader);
    file.seek(SeekFrom::End(0)).map_err(io)?;
    file.write_all(format!("checksum {:016x}\n", sum.0).as_bytes())
        .map_err(io)?;
    drop(file);
    std::fs::rename(&temporary, path).map_err(io)?;
    Ok(count)
}

/// Longest header line read (a file without line ends is refused after this many bytes).
const MAX_HEADER_LINE: u64 = 4096;

/// Reads a checkpoint written for `expected` into `table` and returns how many entries
/// it held; refuses anything else. The whole file is checked first (its checksum, read
/// as a stream) and only then are its entries stored, streamed too: a damaged file adds
/// nothing to the table, and reading takes little memory beside the table.
pub fn read(path: &Path, expected: &Header, table: &SolveTable) -> Result<usize, CheckpointError> {
    let name = path.display().to_string();
    let io = |source| CheckpointError::Io {
        path: name.clone(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let length = file.metadata().map_err(io)?.len();
    let reader = BufReader::with_capacity(1 << 20, file);
    read_from(reader, length, &name, expected, table)
}

/// [`read`] from any reader of `length` bytes; `name` names the source in errors.
pub fn read_from(
    mut reader: impl BufRead + Seek,
    length: u64,
    name: &str,
    expected: &Header,
    table: &SolveTable,
) -> Result<usize, CheckpointError> {
    let name = name.to_string();
    let io = |source| CheckpointError::Io {
        path: name.clone(),
        source,
    };
    let damaged = |reason: &str| CheckpointError::Damaged {
        path: name.clone(),
        reason: reason.to_string(),
    };
    // The header: six lines of text.
    let mut sum = Checksum::new();
    let mut offset = 0u64;
    let mut lines = Vec::new();
    for _ in 0..6 {
        let mut line = Vec::new();
        (&mut reader)
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)
            .map_err(io)?;
        sum.add(&line);
        offset += line.len() as u64;
        let text = String::from_utf8_lossy(&line).into_owned();
        if lines.is_empty() && !text.starts_with(MAGIC) {
            return Err(CheckpointError::NotACheckpoint {
                path: name.clone(),
                found: text.trim_end().chars().take(60).collect(),
            });
        }
        let Some(text) = text.strip_suffix('\n') else {
            return Err(damaged("the header ends early"));
        };
        lines.push(text.to_string());
    }
    let first: Vec<&str> = lines[0].split(' ').collect();
    let (found_format, found_version) = (
        first.get(1).copied().unwrap_or(""),
        first.get(2).copied().unwrap_or(""),
    );
    if found_format != FORMAT.to_string() || found_version != env!("CARGO_PKG_VERSION") {
        return Err(CheckpointError::Version {
            path: name.clone(),
            found_format: found_format.to_string(),
            found_version: found_version.to_string(),
        });
    }
    let fields = [
        ("variant", expected.variant.clone()),
        ("size", expected.size.to_string()),
        ("rule", expected.rule.clone()),
        ("position", expected.position.clone()),
    ];
    for (line, (field, want)) in lines[1..5].iter().zip(fields) {
        let found = line
            .strip_prefix(field)
            .and_then(|rest| rest.strip_prefix(' '))
            .ok_or_else(|| damaged(&format!("no {field} line")))?;
        if found != want {
            return Err(CheckpointError::Mismatch {
                path: name.clone(),
                field,
                found: found.to_string(),
                expected: want,
            });
        }
    }
    let count: u64 = lines[5]
        .strip_prefix("entries ")
        .and_then(|count| count.parse().ok())
        .ok_or_else(|| damaged("no entry count"))?;
    // The length the count announces, checked before any record is read.
    count
        .checked_mul(RECORD_BYTES as u64)
        .and_then(|size| size.checked_add(offset))
        .filter(|&end| end <= length)
        .ok_or_else(|| damaged("fewer entries than announced"))?;
    // First pass: the checksum over the records, each checked (bounds that cross are
    // damage too, whatever the checksum says), then the trailer.
    let mut record = [0u8; RECORD_BYTES];
    for _ in 0..count {
        reader
            .read_exact(&mut record)
            .map_err(|error| match error.kind() {
                std::io::ErrorKind::UnexpectedEof => damaged("fewer entries than announced"),
                _ => io(error),
            })?;
        sum.add(&record);
        let entry = entry_of(&record);
        if entry.lower > entry.upper {
            return Err(damaged("an entry's lower bound is above its upper bound"));
        }
    }
    let mut trailer = Vec::new();
    (&mut reader)
        .take(MAX_HEADER_LINE)
        .read_to_end(&mut trailer)
        .map_err(io)?;
    let stored = std::str::from_utf8(&trailer)
        .ok()
        .and_then(|trailer| trailer.strip_prefix("checksum "))
        .and_then(|rest| rest.strip_suffix('\n'))
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or_else(|| damaged("no checksum line"))?;
    if stored != sum.0 {
        return Err(damaged("the checksum does not match"));
    }
    // Second pass: the entries into the table.
    reader.seek(SeekFrom::Start(offset)).map_err(io)?;
    for _ in 0..count {
        reader.read_exact(&mut record).map_err(io)?;
        let entry = entry_of(&record);
        table.store(
            entry.key,
            entry.lower.into(),
            entry.upper.into(),
            entry.best,
            entry.work,
        );
    }
    usize::try_from(count).map_err(|_| damaged("too many entries for this machine"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            variant: "catchup".into(),
            size: 2,
            rule: "original".into(),
            position: "2/3/2 w 1".into(),
        }
    }

    #[test]
    fn a_checkpoint_reads_back_and_refuses_another_position_or_a_cut_file() {
        let directory = std::env::temp_dir().join(format!("tessera-cp-{}", std::process::id()));
        std::fs::create_dir_all(&directory).expect("temporary directory");
        let path = directory.join("unit.checkpoint");
        let table = SolveTable::new(1);
        let entries = vec![
            Entry {
                key: [3, 4],
                lower: -1,
                upper: 1,
                best: 9,
                work: 2,
            },
            Entry {
                key: [10, 0x0a0a],
                lower: -127,
                upper: 5,
                best: 0,
                work: 30,
            },
        ];
        for entry in &entries {
            let (lower, upper) = (entry.lower.into(), entry.upper.into());
            table.store(entry.key, lower, upper, entry.best, entry.work);
        }
        assert_eq!(write(&path, &header(), &table).expect("written"), 2);
        let read_back = SolveTable::new(1);
        assert_eq!(read(&path, &header(), &read_back).expect("read back"), 2);
        let mut found = read_back.entries();
        found.sort_by_key(|entry| entry.key);
        assert_eq!(found, entries);
        let other = Header {
            position: "2/3/2 b 2".into(),
            ..header()
        };
        let untouched = SolveTable::new(1);
        let error = read(&path, &other, &untouched).expect_err("another position");
        assert!(error.to_string().contains("position"), "{error}");
        let bytes = std::fs::read(&path).expect("file");
        std::fs::write(&path, &bytes[..bytes.len() - 10]).expect("cut");
        let error = read(&path, &header(), &untouched).expect_err("cut short");
        assert!(error.to_string().contains("cut short"), "{error}");
        let mut altered = bytes.clone();
        let last_record = altered.len() - 30;
        altered[last_record] ^= 1;
        std::fs::write(&path, &altered).expect("altered");
        let error = read(&path, &header(), &untouched).expect_err("altered");
        assert!(error.to_string().contains("checksum"), "{error}");
        assert_eq!(untouched.stored(), 0, "a refused file adds nothing");
        std::fs::remove_dir_all(&directory).ok();
    }

    /// Found by fuzzing: bounds that cross (lower above upper) in a file whose checksum
    /// matches made the solver cut without a move. Such a file is damaged.
    #[test]
    fn an_entry_whose_bounds_cross_is_damage() {
        let mut bytes = header_text(&header(), 2).into_bytes();
        let offset = bytes.len();
        for (lower, upper) in [(-1i16, 1i16), (5, -5)] {
            let mut record = [0u8; RECORD_BYTES];
            record[0] = 7;
            record[16..18].copy_from_slice(&lower.to_le_bytes());
            record[18..20].copy_from_slice(&upper.to_le_bytes());
            bytes.extend_from_slice(&record);
        }
        let mut sum = Checksum::new();
        sum.add(&bytes);
        bytes.extend_from_slice(format!("checksum {:016x}\n", sum.0).as_bytes());
        let table = SolveTable::new(1);
        let length = bytes.len() as u64;
        let error = read_from(
            std::io::Cursor::new(bytes.clone()),
            length,
            "x",
            &header(),
            &table,
        )
        .expect_err("crossing bounds");
        assert!(
            error.to_string().contains("lower bound is above"),
            "{error}"
        );
        assert_eq!(table.stored(), 0, "a refused file adds nothing");
        // The same file with sound bounds reads.
        bytes[offset + RECORD_BYTES + 16..offset + RECORD_BYTES + 20]
            .copy_from_slice(&[0, 0, 0, 0]);
        let trailer = bytes.len() - 26;
        bytes.truncate(trailer);
        let mut sum = Checksum::new();
        sum.add(&bytes);
        bytes.extend_from_slice(format!("checksum {:016x}\n", sum.0).as_bytes());
        let length = bytes.len() as u64;
        let count = read_from(std::io::Cursor::new(bytes), length, "x", &header(), &table);
        assert_eq!(count.expect("sound bounds"), 2);
    }
}
