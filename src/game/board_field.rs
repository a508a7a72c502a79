//! The board field every game's position string shares: rows separated by `/`, the last
//! row first, each row a run of pieces (letters) and empty cells (a decimal count). What
//! reads a position string without knowing its game (the text board of `d`, pictures)
//! expands rows here.

/// Expands one row of runs (`W`, `B`, letters for pieces, decimal numbers of empty cells)
/// into one glyph per cell; `.` for an empty cell. `None` for any other character or a
/// run longer than a board row can be.
pub fn expand_row(row: &str) -> Option<Vec<char>> {
    let mut cells = Vec::new();
    let mut run = 0usize;
    for c in row.chars() {
        if let Some(digit) = c.to_digit(10) {
            run = run.checked_mul(10)?.checked_add(digit as usize)?;
            if run > 64 {
                return None;
            }
        } else {
            cells.extend(std::iter::repeat_n('.', run));
            run = 0;
            if !c.is_ascii_alphabetic() {
                return None;
            }
            cells.push(c);
        }
    }
    cells.extend(std::iter::repeat_n('.', run));
    Some(cells)
}

#[cfg(test)]
mod tests {
    use super::expand_row;

    #[test]
    fn rows_expand_runs_of_one_and_two_digits() {
        assert_eq!(expand_row("2W1B"), Some(vec!['.', '.', 'W', '.', 'B']));
        assert_eq!(expand_row("12").map(|cells| cells.len()), Some(12));
        assert_eq!(expand_row("W?"), None);
    }
}
