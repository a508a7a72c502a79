//! Proofs: strategies that a simple checker replays against the rules.
//!
//! A claim "player P gets at least T" (Catchup: T = 1 is a win; Cheversi: T points of
//! final margin) is proven by a strategy: for every position P can reach while the
//! opponent plays anything, the move P makes. An exact value V for the side to move is
//! two claims: the mover gets at least V, the opponent at least -V. The file:
//!
//! ```text
//! tessera-proof 1
//! variant catchup
//! size 3
//! rule original
//! position 3/4/5/4/3 w 1
//! claim w at-least 1
//! c3 3/4/5/4/3 w 1
//! ...                       (one line per position: the move, a space, the position)
//! end
//! ```
//!
//! The checker ([`check`]) knows nothing of the solver: it plays the moves with the
//! engine's rules (a [`GameRecord`], by move text), tries every opponent move, and at
//! every finished game compares the result with the claim.

use std::collections::{HashMap, HashSet};

use crate::game::{CatchupRule, GameConfig, GameKind, GameRecord, Player, Rules, Variant};
use crate::with_record;

use super::search::{Shared, Solvable, Worker};

const MAGIC: &str = "tessera-proof 1";

/// Writes the strategies proving each claim `(player, at least)` from `root` (the
/// solver's position) and `game` (the same position under the engine's rules), as the
/// body of a proof file (after its header).
pub fn strategies<G: Solvable, R: Rules>(
    root: &G,
    game: &R,
    claims: &[(Player, i32)],
    shared: &Shared,
) -> String {
    let mut text = String::new();
    let mut worker = Worker::new(shared, 0);
    for &(player, at_least) in claims {
        text.push_str(&format!("claim {} at-least {at_least}\n", player.letter()));
        let mut lines = HashMap::new();
        let mut seen = HashSet::new();
        strategy(
            &mut worker,
            root,
            game,
            (player, at_least),
            &mut lines,
            &mut seen,
        );
        let mut lines: Vec<(String, String)> = lines.into_iter().collect();
        lines.sort();
        for (position, mv) in lines {
            text.push_str(&format!("{mv} {position}\n"));
        }
    }
    worker.flush();
    text.push_str("end\n");
    text
}

/// The strategy of `player` from `position` (a node where it still gets `at_least`),
/// into `lines` (position text to move text); `seen` holds the positions done.
fn strategy<G: Solvable, R: Rules>(
    worker: &mut Worker<'_, G>,
    position: &G,
    game: &R,
    claim: (Player, i32),
    lines: &mut HashMap<String, String>,
    seen: &mut HashSet<String>,
) {
    let (player, at_least) = claim;
    if game.outcome().is_some() {
        return;
    }
    let text = game.position_text();
    if !seen.insert(text.clone()) {
        return;
    }
    let mut children = Vec::new();
    position.children(&mut children);
    if game.side_to_move() == player {
        let Some(child) = children
            .iter()
            .find(|child| -worker.search(&child.position, -at_least, -at_least + 1, 1) >= at_least)
        else {
            // The claim was proven, so a move reaching it exists.
            unreachable!("no move keeps a proven claim at {text}");
        };
        let mv = child.position.clone();
        let move_text = position.move_text(child.mv);
        lines.insert(text, move_text.clone());
        let next = after(game, &move_text);
        strategy(worker, &mv, &next, claim, lines, seen);
    } else {
        for child in &children {
            let next = after(game, &position.move_text(child.mv));
            strategy(worker, &child.position, &next, claim, lines, seen);
        }
    }
}

/// The engine's position after the move the solver names.
fn after<R: Rules>(game: &R, move_text: &str) -> R {
    let mut next = game.clone();
    let mv = game
        .parse_move(move_text)
        .expect("the solver's moves are legal under the engine's rules");
    next.play_unchecked(mv);
    next
}

/// The header of a proof file.
pub fn header(config: &GameConfig, position: &str) -> String {
    format!(
        "{MAGIC}\nvariant {}\nsize {}\nrule {}\nposition {position}\n",
        config.variant.name(),
        config.board_size(),
        CatchupRule::of(config).name()
    )
}

/// Why a proof failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CheckError {
    #[error("not a proof file: {0}")]
    Format(String),
    #[error("the strategy has no move for {0}")]
    NoMove(String),
    #[error("illegal move {mv} at {position}: {reason}")]
    Illegal {
        mv: String,
        position: String,
        reason: String,
    },
    #[error("the game ends with {value} for {player} (claimed at least {claimed}) at {position}")]
    Short {
        player: char,
        value: i32,
        claimed: i32,
        position: String,
    },
}

/// One checked claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedClaim {
    pub player: Player,
    pub at_least: i32,
    /// Positions the checker visited.
    pub positions: usize,
}

/// Checks a proof file's text against the rules; the checked claims, or the first fault.
pub fn check(text: &str) -> Result<(GameConfig, Vec<CheckedClaim>), CheckError> {
    let format = |reason: &str| CheckError::Format(reason.to_string());
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        return Err(format("the first line is not `tessera-proof 1`"));
    }
    let mut field = |name: &str| {
        lines
            .next()
            .and_then(|line| line.strip_prefix(name))
            .and_then(|rest| rest.strip_prefix(' '))
            .map(str::to_string)
            .ok_or_else(|| format(&format!("no `{name}` line")))
    };
    let variant: Variant = field("variant")?
        .parse()
        .map_err(|error: crate::game::UnknownVariant| format(&error.to_string()))?;
    let size: usize = field("size")?
        .parse()
        .map_err(|_| format("the size is not a number"))?;
    let rule: CatchupRule = field("rule")?
        .parse()
        .map_err(|error: String| format(&error))?;
    let position = field("position")?;
    let config = rule.chosen_in(GameConfig {
        size: Some(size),
        ..GameConfig::new(variant)
    });
    let root = GameKind::from_position_text(&config, &position)
        .map_err(|error| format(&format!("position: {error}")))?;
    let mut claims = Vec::new();
    let mut current: Option<(Player, i32, HashMap<String, String>)> = None;
    let mut ended = false;
    for line in lines {
        if ended {
            return Err(format("text after `end`"));
        }
        if let Some(rest) = line.strip_prefix("claim ") {
            claims.extend(current.take());
            let mut words = rest.split(' ');
            let player = match words.next() {
                Some("w") => Player::One,
                Some("b") => Player::Two,
                _ => return Err(format(&format!("claim without a player: {line}"))),
            };
            let at_least = match (words.next(), words.next().map(str::parse::<i32>)) {
                (Some("at-least"), Some(Ok(value))) => value,
                _ => return Err(format(&format!("claim without a bound: {line}"))),
            };
            current = Some((player, at_least, HashMap::new()));
        } else if line == "end" {
            ended = true;
        } else {
            let (mv, position) = line
                .split_once(' ')
                .ok_or_else(|| format(&format!("not `<move> <position>`: {line}")))?;
            let (_, _, moves) = current
                .as_mut()
                .ok_or_else(|| format("a move before any claim"))?;
            moves.insert(position.to_string(), mv.to_string());
        }
    }
    if !ended {
        return Err(format("no `end` line: the file is cut short"));
    }
    claims.extend(current);
    if claims.is_empty() {
        return Err(format("no claim"));
    }
    let mut checked = Vec::new();
    for (player, at_least, moves) in claims {
        let mut verified = HashSet::new();
        let claim = Claim {
            variant,
            player,
            at_least,
            moves: &moves,
        };
        with_record!(&root, record => replay(record, &claim, &mut verified))?;
        checked.push(CheckedClaim {
            player,
            at_least,
            positions: verified.len(),
        });
    }
    Ok((config, checked))
}

/// One claim of a proof file and its strategy (position text to move text).
struct Claim<'a> {
    variant: Variant,
    player: Player,
    at_least: i32,
    moves: &'a HashMap<String, String>,
}

/// Replays the strategy from `game`: every opponent move, the strategy's move for the
/// claim's player, and at the end the claim.
fn replay<R: Rules>(
    game: &GameRecord<R>,
    claim: &Claim<'_>,
    verified: &mut HashSet<String>,
) -> Result<(), CheckError> {
    let Claim {
        variant,
        player,
        at_least,
        moves,
    } = *claim;
    let position = game.position().position_text();
    if verified.contains(&position) {
        return Ok(());
    }
    if let Some(outcome) = game.outcome() {
        let value = match variant {
            Variant::Cheversi => {
                let score = game.position().score();
                score[player.index()] - score[player.opponent().index()]
            }
            _ => outcome.value_for(player),
        };
        if value < at_least {
            return Err(CheckError::Short {
                player: player.letter(),
                value,
                claimed: at_least,
                position,
            });
        }
    } else if game.side_to_move() == player {
        let mv = moves
            .get(&position)
            .ok_or_else(|| CheckError::NoMove(position.clone()))?;
        let mut next = game.clone();
        next.play_text(mv).map_err(|error| CheckError::Illegal {
            mv: mv.clone(),
            position: position.clone(),
            reason: error.to_string(),
        })?;
        replay(&next, claim, verified)?;
    } else {
        for mv in game.legal_move_texts() {
            let mut next = game.clone();
            next.play_text(&mv).map_err(|error| CheckError::Illegal {
                mv: mv.clone(),
                position: position.clone(),
                reason: error.to_string(),
            })?;
            replay(&next, claim, verified)?;
        }
    }
    verified.insert(position);
    Ok(())
}
