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

use std::path::Path;

use super::table::Entry;

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

/// FNV-1a, 64 bits: catches a cut or altered file (not meant against forgery).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn header_text(header: &Header, count: usize) -> String {
    format!(
        "{MAGIC} {FORMAT} {}\nvariant {}\nsize {}\nrule {}\nposition {}\nentries {count}\n",
        env!("CARGO_PKG_VERSION"),
        header.variant,
        header.size,
        header.rule,
        header.position
    )
}

/// Writes `entries` to `path` (through a temporary file renamed into place, so a kill
/// while writing leaves the previous checkpoint whole).
pub fn write(path: &Path, header: &Header, entries: &[Entry]) -> Result<(), CheckpointError> {
    let mut bytes = header_text(header, entries.len()).into_bytes();
    bytes.reserve(entries.len() * RECORD_BYTES + 32);
    for entry in entries {
        bytes.extend_from_slice(&entry.key[0].to_le_bytes());
        bytes.extend_from_slice(&entry.key[1].to_le_bytes());
        bytes.extend_from_slice(&entry.lower.to_le_bytes());
        bytes.extend_from_slice(&entry.upper.to_le_bytes());
        bytes.extend_from_slice(&entry.best.to_le_bytes());
        bytes.push(entry.work);
    }
    let sum = checksum(&bytes);
    bytes.extend_from_slice(format!("checksum {sum:016x}\n").as_bytes());
    let io = |source| CheckpointError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, &bytes).map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)
}

/// Reads a checkpoint written for `expected`; refuses anything else.
pub fn read(path: &Path, expected: &Header) -> Result<Vec<Entry>, CheckpointError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| CheckpointError::Io {
        path: name.clone(),
        source,
    })?;
    let damaged = |reason: &str| CheckpointError::Damaged {
        path: name.clone(),
        reason: reason.to_string(),
    };
    // The header: six lines of text.
    let mut offset = 0;
    let mut lines = Vec::new();
    for _ in 0..6 {
        let end = bytes[offset..]
            .iter()
            .position(|&byte| byte == b'\n')
            .ok_or_else(|| damaged("the header ends early"))?;
        lines.push(String::from_utf8_lossy(&bytes[offset..offset + end]).into_owned());
        offset += end + 1;
        if lines.len() == 1 && !lines[0].starts_with(MAGIC) {
            return Err(CheckpointError::NotACheckpoint {
                path: name,
                found: lines[0].chars().take(60).collect(),
            });
        }
    }
    let first: Vec<&str> = lines[0].split(' ').collect();
    let (found_format, found_version) = (
        first.get(1).copied().unwrap_or(""),
        first.get(2).copied().unwrap_or(""),
    );
    if found_format != FORMAT.to_string() || found_version != env!("CARGO_PKG_VERSION") {
        return Err(CheckpointError::Version {
            path: name,
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
                path: name,
                field,
                found: found.to_string(),
                expected: want,
            });
        }
    }
    let count: usize = lines[5]
        .strip_prefix("entries ")
        .and_then(|count| count.parse().ok())
        .ok_or_else(|| damaged("no entry count"))?;
    let end = count
        .checked_mul(RECORD_BYTES)
        .and_then(|size| size.checked_add(offset))
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| damaged("fewer entries than announced"))?;
    let trailer = std::str::from_utf8(&bytes[end..]).map_err(|_| damaged("no checksum line"))?;
    let stored = trailer
        .strip_prefix("checksum ")
        .and_then(|rest| rest.strip_suffix('\n'))
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or_else(|| damaged("no checksum line"))?;
    if stored != checksum(&bytes[..end]) {
        return Err(damaged("the checksum does not match"));
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let entries = bytes[offset..end]
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(index, record)| {
            let at = offset + index * RECORD_BYTES;
            Entry {
                key: [word(at), word(at + 8)],
                lower: i16::from_le_bytes([record[16], record[17]]),
                upper: i16::from_le_bytes([record[18], record[19]]),
                best: u32::from_le_bytes([record[20], record[21], record[22], record[23]]),
                work: record[24],
            }
        })
        .collect();
    Ok(entries)
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
        let entries = vec![Entry {
            key: [3, 4],
            lower: -1,
            upper: 1,
            best: 9,
            work: 2,
        }];
        write(&path, &header(), &entries).expect("written");
        assert_eq!(read(&path, &header()).expect("read back"), entries);
        let other = Header {
            position: "2/3/2 b 2".into(),
            ..header()
        };
        let error = read(&path, &other).expect_err("another position");
        assert!(error.to_string().contains("position"), "{error}");
        let bytes = std::fs::read(&path).expect("file");
        std::fs::write(&path, &bytes[..bytes.len() - 10]).expect("cut");
        let error = read(&path, &header()).expect_err("cut short");
        assert!(error.to_string().contains("cut short"), "{error}");
        let mut altered = bytes.clone();
        let last_record = altered.len() - 30;
        altered[last_record] ^= 1;
        std::fs::write(&path, &altered).expect("altered");
        assert!(read(&path, &header()).is_err());
        std::fs::remove_dir_all(&directory).ok();
    }
}
