//! A game as it is played: the start position, the moves, and the history of hashes that
//! threefold repetition needs.

use super::{MoveError, Outcome, Player, Rules};

/// A position with its history since it was set up (a position string starts a new
/// history, as the draw rule in protocol.md fixes).
#[derive(Clone, Debug)]
pub struct GameRecord<R: Rules> {
    start: R,
    current: R,
    moves: Vec<R::Move>,
    /// Hash of every position of the game, the start included; `hashes.last()` is the
    /// current one.
    hashes: Vec<u64>,
}

impl<R: Rules> GameRecord<R> {
    pub fn new(start: R) -> Self {
        let hash = start.hash();
        GameRecord {
            current: start.clone(),
            start,
            moves: Vec::new(),
            hashes: vec![hash],
        }
    }

    pub fn start(&self) -> &R {
        &self.start
    }

    pub fn position(&self) -> &R {
        &self.current
    }

    pub fn moves(&self) -> &[R::Move] {
        &self.moves
    }

    /// Hashes of every position so far, oldest first, the current one last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    pub fn side_to_move(&self) -> Player {
        self.current.side_to_move()
    }

    /// True when the current position occurs for the third time.
    pub fn is_threefold_repetition(&self) -> bool {
        repetition_count(&self.hashes, self.current.repetition_window()) >= 3
    }

    /// The result: by the rules first (a side with no move loses even if a draw rule
    /// holds at the same moment), then by repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.current.outcome() {
            Some(outcome) => Some(outcome),
            None if self.is_threefold_repetition() => Some(Outcome::Draw),
            None => None,
        }
    }

    /// Legal moves, none once the game is over (repetition included).
    pub fn legal_moves(&self, moves: &mut Vec<R::Move>) {
        if self.is_threefold_repetition() {
            moves.clear();
        } else {
            self.current.legal_moves(moves);
        }
    }

    /// Parses, checks and plays one move; on error nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<R::Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver {
                token: text.to_string(),
            });
        }
        let mv = self.current.parse_move(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Parses, checks and plays one move; returns its canonical text. On error nothing
    /// changes.
    pub fn play_move_text(&mut self, text: &str) -> Result<String, MoveError> {
        let before = self.current.clone();
        let mv = self.play_text(text)?;
        Ok(before.move_text(mv))
    }

    /// Every legal move's canonical text, sorted by text.
    pub fn legal_move_texts(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves
            .into_iter()
            .map(|mv| self.current.move_text(mv))
            .collect();
        texts.sort();
        texts
    }

    /// The canonical texts of the moves played so far.
    pub fn played_move_texts(&self) -> Vec<String> {
        let mut position = self.start.clone();
        self.moves
            .iter()
            .map(|&mv| {
                let text = position.move_text(mv);
                position.play_unchecked(mv);
                text
            })
            .collect()
    }

    /// Plays a move known to be legal.
    pub fn play_unchecked(&mut self, mv: R::Move) {
        self.current.play_unchecked(mv);
        self.moves.push(mv);
        self.hashes.push(self.current.hash());
    }
}

/// How often the last hash occurs among the last `window + 1` entries, stepping back two
/// plies at a time (the side to move is part of the position).
pub fn repetition_count(hashes: &[u64], window: usize) -> usize {
    let Some((&current, earlier)) = hashes.split_last() else {
        return 0;
    };
    let reach = window.min(earlier.len());
    1 + earlier[earlier.len() - reach..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&hash| hash == current)
        .count()
}

#[cfg(test)]
mod tests {
    use super::repetition_count;

    #[test]
    fn repetition_counts_same_side_positions_inside_the_window() {
        // Positions A B A B A: the last A is the third occurrence.
        let hashes = [1, 2, 1, 2, 1];
        assert_eq!(repetition_count(&hashes, 4), 3);
        // A window of 2 plies sees only one earlier A.
        assert_eq!(repetition_count(&hashes, 2), 2);
        assert_eq!(repetition_count(&hashes, 0), 1);
        // Odd distances never count: the side to move differs.
        assert_eq!(repetition_count(&[1, 1, 1], 2), 2);
        assert_eq!(repetition_count(&[], 5), 0);
    }
}
