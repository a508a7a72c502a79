//! A game's replay for the page: every position of the game as a [`Frame`], with the
//! moves and their times, as compact JSON, gzip-compressed and base64-encoded. The page
//! unpacks one game only when it is opened, so a page of 10,000 games loads quickly.

use std::io::Write as _;

use serde_json::{Value, json};

use crate::arena::record::MatchRecord;
use crate::game::Variant;
use crate::picture::{Frame, frame, picture_side};
use crate::registry::{AnyGame, Registry};

/// Every position of a game, from its opening position on, as frames.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Layout key, `variant/side`.
    pub layout: (Variant, usize),
    pub frames: Vec<Frame>,
    /// Who made each move (`w` or `b`), in the order of the moves.
    pub movers: Vec<char>,
    /// Why the replay stops early, if it does (a record the rules cannot replay).
    pub problem: Option<String>,
}

/// Replays a record with the rules library.
pub fn replay(record: &MatchRecord) -> Result<Replay, String> {
    let config = record.config_in(&Registry::builtin())?;
    let mut game = AnyGame::from_position_text(config, &record.opening.position)
        .map_err(|error| format!("opening position: {error}"))?;
    let layout = (config.variant, picture_side(&game));
    let mut frames = vec![frame(&game, None).map_err(|error| error.to_string())?];
    let mut problem = None;
    let mut movers = Vec::new();
    for text in record.opening.moves.iter().chain(&record.moves) {
        let mover = game.side_to_move().letter();
        match game.play_text(text) {
            Ok(canonical) => match frame(&game, Some(&canonical)) {
                Ok(next) => {
                    frames.push(next);
                    movers.push(mover);
                }
                Err(error) => {
                    problem = Some(error.to_string());
                    break;
                }
            },
            Err(error) => {
                problem = Some(format!("move {text}: {error}"));
                break;
            }
        }
    }
    Ok(Replay {
        layout,
        frames,
        movers,
        problem,
    })
}

/// The JSON the page's `page.js` reads for one game.
pub fn game_json(record: &MatchRecord, replay: &Replay) -> Value {
    let mut previous: Option<&str> = None;
    let frames: Vec<Value> = replay
        .frames
        .iter()
        .map(|frame| {
            let marks: Vec<Value> = frame
                .marks
                .iter()
                .map(|mark| json!([mark.kind as u8, mark.cells, mark.labels]))
                .collect();
            // The first frame lists every cell; later ones only the cells that changed,
            // as [cell, letter, cell, letter, ...].
            let contents = match previous {
                None => json!(frame.contents),
                Some(before) => Value::Array(
                    before
                        .chars()
                        .zip(frame.contents.chars())
                        .enumerate()
                        .filter(|(_, (old, new))| old != new)
                        .flat_map(|(cell, (_, new))| [json!(cell), json!(new.to_string())])
                        .collect(),
                ),
            };
            previous = Some(&frame.contents);
            json!([contents, marks, frame.caption])
        })
        .collect();
    json!({
        "frames": frames,
        "moves": record.opening.moves.iter().chain(&record.moves).collect::<Vec<_>>(),
        "opening": record.opening.moves.len(),
        "movers": replay.movers.iter().collect::<String>(),
        "times": record.times_ms,
        "white": record.white,
        "black": record.black,
        "problem": replay.problem,
    })
}

/// gzip, then base64: the form the page stores each game in. The default level: `best`
/// saves 3% of the size for twice the time.
pub fn pack(text: &str) -> String {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing into a Vec cannot fail.
    let bytes = encoder
        .write_all(text.as_bytes())
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    base64(&bytes)
}

/// Standard base64 with padding (RFC 4648), which the page decodes with `atob`.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let value = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for index in 0..4 {
            if index <= chunk.len() {
                out.push(char::from(
                    ALPHABET[(value >> (18 - 6 * index)) as usize & 63],
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_matches_rfc_4648_examples() {
        // RFC 4648 section 10.
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foob"), "Zm9vYg==");
        assert_eq!(base64(b"fooba"), "Zm9vYmE=");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
