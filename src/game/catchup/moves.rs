//! The Catchup move: one turn of 1 to 3 cells.

/// Marks an unused slot of a [`Move`].
const NO_CELL: u16 = u16::MAX;

/// One Catchup turn: 1 to 3 distinct cells (padded-layout bits) in canonical order.
/// Compact and `Copy`; unused slots hold a fixed marker so equal turns compare equal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    cells: [u16; 3],
    len: u8,
}

impl Move {
    /// The turn placing `cells` (bits, any order): `None` unless there are 1 to 3 distinct
    /// cells. Whether they are empty is checked when the move is played or parsed.
    #[inline]
    pub fn from_cells(cells: &[usize]) -> Option<Move> {
        let in_range = |cell: usize| cell < NO_CELL as usize;
        let mut slots = [NO_CELL; 3];
        match *cells {
            [a] if in_range(a) => slots[0] = a as u16,
            [a, b] if in_range(a) && in_range(b) && a != b => {
                slots[0] = a.min(b) as u16;
                slots[1] = a.max(b) as u16;
            }
            [a, b, c] if in_range(a) && in_range(b) && in_range(c) => {
                // A three-element sorting network: cheap enough for every playout turn.
                let (a, b) = (a.min(b), a.max(b));
                let (b, c) = (b.min(c), b.max(c));
                let (a, b) = (a.min(b), a.max(b));
                if a == b || b == c {
                    return None;
                }
                slots = [a as u16, b as u16, c as u16];
            }
            _ => return None,
        }
        Some(Move {
            cells: slots,
            len: cells.len() as u8,
        })
    }

    /// A turn of one stone.
    #[inline]
    pub fn single(cell: usize) -> Move {
        Move {
            cells: [cell as u16, NO_CELL, NO_CELL],
            len: 1,
        }
    }

    /// From cells already sorted and distinct (move generation).
    #[inline]
    pub(super) fn from_sorted(cells: &[u16]) -> Move {
        debug_assert!(!cells.is_empty() && cells.len() <= 3);
        debug_assert!(cells.windows(2).all(|pair| pair[0] < pair[1]));
        let mut slots = [NO_CELL; 3];
        slots[..cells.len()].copy_from_slice(cells);
        Move {
            cells: slots,
            len: cells.len() as u8,
        }
    }

    /// The cells, in canonical order.
    #[inline]
    pub fn cells(&self) -> &[u16] {
        &self.cells[..self.len as usize]
    }

    /// Number of stones placed (1 to 3).
    #[inline]
    #[allow(clippy::len_without_is_empty)] // a move is never empty
    pub fn len(&self) -> usize {
        self.len as usize
    }
}
