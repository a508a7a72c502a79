//! The tables the engine's search reads: a file loaded by the `EndingsFile` option (for
//! example 3 v 1 and smaller on side 9), else the built-in 2 v 1 of
//! [`engine_tables_if_ready`](super::engine_tables_if_ready).

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use super::file::EndingsFile;
use super::solve::Value;
use super::{ENGINE_MEN, EndingValues, PLY_LIMIT, engine_tables, engine_tables_if_ready, probe};
use crate::game::Player;
use crate::game::checkers::Checkers;

/// The engine's ending tables: an optional loaded file, shared by every search thread.
#[derive(Clone, Default)]
pub struct EndingTables {
    file: Option<Arc<EndingsFile>>,
    /// Wait for the built-in tables where a search needs them instead of going on
    /// without them while they are solved: set for searches bounded by depth or nodes
    /// alone, whose result must not depend on how fast the machine solved the tables.
    wait_for_built_in: bool,
}

impl fmt::Debug for EndingTables {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(formatter, "EndingTables({})", file.describe()),
            None => write!(formatter, "EndingTables(built-in)"),
        }
    }
}

/// The built-in tables only (no file loaded).
pub static BUILT_IN: EndingTables = EndingTables {
    file: None,
    wait_for_built_in: false,
};

impl EndingTables {
    /// The built-in tables and the file at `path`; an error names what is wrong with it
    /// (unreadable, not an endings file, another format, damaged, another ply limit).
    pub fn load(path: &Path) -> Result<Self, String> {
        let file = EndingsFile::load(path).map_err(|error| error.to_string())?;
        if file.limit() != PLY_LIMIT {
            return Err(format!(
                "built for a {}-ply rule, the game's is {PLY_LIMIT}",
                file.limit()
            ));
        }
        Ok(EndingTables {
            file: Some(Arc::new(file)),
            wait_for_built_in: false,
        })
    }

    /// Whether a search waits for the built-in tables where it needs them (searches
    /// bounded by depth or nodes alone: their result is then the same on every run)
    /// rather than going on without them while they are solved (timed searches: no move
    /// waits seconds for a table).
    pub fn set_wait_for_built_in(&mut self, wait: bool) {
        self.wait_for_built_in = wait;
    }

    /// The loaded file, if any.
    pub fn file(&self) -> Option<&EndingsFile> {
        self.file.as_deref()
    }

    /// The value of `position` for its side to move with its counter counted, when the
    /// file or the built-in tables cover it. Cheap when they do not: the men are counted
    /// first. The built-in tables of a side are solved in the background from their first
    /// use (side 9: 1 to 3 s, once per process) and read once ready, unless the file
    /// covers that material.
    #[inline]
    pub fn value<const N: usize>(&self, position: &Checkers<N>) -> Option<Value> {
        let (white, black) = (
            position.men(Player::One).len(),
            position.men(Player::Two).len(),
        );
        let men = (white + black) as usize;
        let built_in = ENGINE_MEN.0 + ENGINE_MEN.1;
        let file_men = self.file.as_ref().map_or(0, |file| file.most_men());
        // A side without men has lost: the game is over, no table is asked (nor built).
        if men > built_in.max(file_men) || white == 0 || black == 0 || position.border_rule() {
            return None;
        }
        self.value_of_few(position, men)
    }

    /// [`Self::value`] once the men are few enough for some table. A file of this side
    /// holds the smaller classes too, so the built-in tables are not asked (nor built)
    /// where it is loaded.
    #[inline(never)]
    fn value_of_few<const N: usize>(&self, position: &Checkers<N>, men: usize) -> Option<Value> {
        let side = position.geometry().side();
        if let Some(file) = &self.file
            && file.board().side() == side
        {
            return probe(file.as_ref(), position);
        }
        if men <= ENGINE_MEN.0 + ENGINE_MEN.1 {
            let tables = if self.wait_for_built_in {
                engine_tables(side)
            } else {
                engine_tables_if_ready(side)
            };
            return probe(tables?, position);
        }
        None
    }
}
