//! Incremental group tracking: a union-find over dense cell ordinals. Stones are only ever
//! added, so groups only merge and each side's largest group only grows; placing a stone
//! costs a handful of finds over its at most six neighbours.

use std::cmp::Ordering;

use super::tables::Tables;
use crate::board::hex::MAX_CELLS;

/// `colour` value of an empty cell; stones are `1 + player index`.
const EMPTY: u8 = 0;

/// Union-find over the stones of both colours (fixed arrays, so cloning is a copy).
#[derive(Clone)]
pub(super) struct Groups {
    /// Parent ordinal; a root is its own parent. Meaningful for stones only.
    parent: [u8; MAX_CELLS],
    /// Group size, meaningful at roots only.
    size: [u8; MAX_CELLS],
    /// [`EMPTY`] or `1 + player index`.
    colour: [u8; MAX_CELLS],
    /// Largest group per player (0 while the player has no stone).
    largest: [u8; 2],
}

impl Groups {
    pub fn new() -> Self {
        Groups {
            parent: [0; MAX_CELLS],
            size: [0; MAX_CELLS],
            colour: [EMPTY; MAX_CELLS],
            largest: [0; 2],
        }
    }

    /// Largest group of player `index` (0 for none).
    #[inline]
    pub fn largest(&self, index: usize) -> usize {
        self.largest[index] as usize
    }

    /// The root of a stone's group, halving the path on the way.
    #[inline]
    fn find(&mut self, mut cell: usize) -> usize {
        while self.parent[cell] as usize != cell {
            let grandparent = self.parent[self.parent[cell] as usize];
            self.parent[cell] = grandparent;
            cell = grandparent as usize;
        }
        cell
    }

    /// The root without changing anything (for read-only queries).
    fn root(&self, mut cell: usize) -> usize {
        while self.parent[cell] as usize != cell {
            cell = self.parent[cell] as usize;
        }
        cell
    }

    /// Puts a stone of player `index` on the empty cell `cell`, merging it with its
    /// same-coloured neighbours.
    #[inline]
    pub fn place(&mut self, tables: &Tables, cell: usize, index: usize) {
        let colour = index as u8 + 1;
        self.colour[cell] = colour;
        self.parent[cell] = cell as u8;
        self.size[cell] = 1;
        let mut root = cell;
        for &next in tables.neighbours_of(cell) {
            let next = next as usize;
            if self.colour[next] != colour {
                continue;
            }
            let other = self.find(next);
            if other == root {
                continue;
            }
            let (big, small) = if self.size[root] >= self.size[other] {
                (root, other)
            } else {
                (other, root)
            };
            self.parent[small] = big as u8;
            self.size[big] += self.size[small];
            root = big;
        }
        self.largest[index] = self.largest[index].max(self.size[root]);
    }

    /// The size of every group of player `index`, largest first.
    pub fn sorted_sizes(&self, cell_count: usize, index: usize) -> Vec<usize> {
        let colour = index as u8 + 1;
        let mut sizes: Vec<usize> = (0..cell_count)
            .filter(|&cell| self.colour[cell] == colour && self.parent[cell] as usize == cell)
            .map(|cell| self.size[cell] as usize)
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// Compares player 1's sorted group sizes with player 2's (padded with zeros),
    /// lexicographically: `Greater` when player 1's list is larger.
    ///
    /// Comparing sorted lists is the same as comparing, from the largest size down, how
    /// many groups of each size the players have; the largest groups decide almost every
    /// game, so that case costs nothing.
    pub fn compare(&self, cell_count: usize) -> Ordering {
        let first = self.largest[0].cmp(&self.largest[1]);
        if first != Ordering::Equal {
            return first;
        }
        let mut counts = [[0u8; MAX_CELLS + 1]; 2];
        for cell in 0..cell_count {
            let colour = self.colour[cell];
            if colour != EMPTY && self.parent[cell] as usize == cell {
                counts[colour as usize - 1][self.size[cell] as usize] += 1;
            }
        }
        for size in (1..=self.largest[0] as usize).rev() {
            let order = counts[0][size].cmp(&counts[1][size]);
            if order != Ordering::Equal {
                return order;
            }
        }
        Ordering::Equal
    }

    /// True when `a` and `b` are stones of the same group.
    #[cfg(test)]
    pub fn same_group(&self, a: usize, b: usize) -> bool {
        self.colour[a] != EMPTY && self.colour[b] != EMPTY && self.root(a) == self.root(b)
    }

    /// The size of the group holding the stone on `cell` (0 for an empty cell).
    pub fn group_size(&self, cell: usize) -> usize {
        if self.colour[cell] == EMPTY {
            0
        } else {
            self.size[self.root(cell)] as usize
        }
    }
}
