//! The puzzle model: digits, cells, houses, puzzles and solved grids, with parsing and formatting.
//!
//! A [`Puzzle`] is 81 cells in row-major order, each empty or holding a [`Digit`]. It is parsed
//! from the one-line form (81 characters, `1`-`9`, `.` or `0` for empty) or from the nine-line
//! grid form (optional `|`, `-`, `+` separators), and is always *consistent*: no digit repeats in a
//! row, column or box. A [`Grid`] is a puzzle with every cell filled (a solution grid).
//!
//! Cell numbering (row-major, `cell = 9 * row + col`), bands are rows 0-2, 3-5, 6-8 and stacks are
//! the same for columns; box `b` covers band `b / 3` and stack `b % 3`:
//!
//! ```text
//!   col  0  1  2   3  4  5   6  7  8
//! row 0  0  1  2 | 3  4  5 | 6  7  8     box 0 | box 1 | box 2
//! row 1  9 10 11 |12 13 14 |15 16 17
//! row 2 18 19 20 |21 22 23 |24 25 26
//!       ---------+---------+---------
//! row 3 27 ...                           box 3 | box 4 | box 5
//! ```

use std::fmt;
use std::str::FromStr;

/// A Sudoku digit, 1 to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// The digit `n`, or `None` unless `1 <= n <= 9`.
    pub const fn new(n: u8) -> Option<Digit> {
        if n >= 1 && n <= 9 {
            Some(Digit(n))
        } else {
            None
        }
    }

    /// The digit's value, 1 to 9.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The digit's zero-based index, 0 to 8.
    pub const fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// The digit with zero-based index `i` (0-8); callers guarantee the range.
    #[inline]
    pub(crate) const fn from_index(i: usize) -> Digit {
        debug_assert!(i < 9);
        Digit(i as u8 + 1)
    }

    /// All nine digits in order.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9).map(Digit)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One of the 81 cells, numbered row-major (`9 * row + col`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `i`, or `None` unless `i < 81`.
    pub const fn new(i: u8) -> Option<Cell> {
        if i < 81 {
            Some(Cell(i))
        } else {
            None
        }
    }

    /// The cell at zero-based `row` and `col`, or `None` if either is 9 or more.
    pub const fn at(row: u8, col: u8) -> Option<Cell> {
        if row < 9 && col < 9 {
            Some(Cell(9 * row + col))
        } else {
            None
        }
    }

    /// The cell's index, 0 to 80.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based row.
    pub const fn row(self) -> u8 {
        self.0 / 9
    }

    /// Zero-based column.
    pub const fn col(self) -> u8 {
        self.0 % 9
    }

    /// Zero-based box (0 top-left, 8 bottom-right).
    pub const fn box_index(self) -> u8 {
        (self.0 / 27) * 3 + (self.0 % 9) / 3
    }

    /// The cell with index `i` (0-80); callers guarantee the range.
    #[inline]
    pub(crate) const fn from_index(i: usize) -> Cell {
        debug_assert!(i < 81);
        Cell(i as u8)
    }

    /// All 81 cells in order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81).map(Cell)
    }
}

impl fmt::Display for Cell {
    /// Written as `r<row>c<col>`, one-based, as solvers usually name cells.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// A row, column or box, with its zero-based index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum House {
    /// Row 0-8.
    Row(u8),
    /// Column 0-8.
    Col(u8),
    /// Box 0-8.
    Box(u8),
}

impl House {
    /// The nine cells of the house.
    pub fn cells(self) -> [Cell; 9] {
        let mut out = [Cell(0); 9];
        for (i, slot) in out.iter_mut().enumerate() {
            let i = i as u8;
            *slot = match self {
                House::Row(r) => Cell(9 * r + i),
                House::Col(c) => Cell(9 * i + c),
                House::Box(b) => Cell(27 * (b / 3) + 3 * (b % 3) + 9 * (i / 3) + i % 3),
            };
        }
        out
    }

    /// The house's number among all 27: rows 0-8, columns 9-17, boxes 18-26.
    pub const fn index(self) -> usize {
        match self {
            House::Row(i) => i as usize,
            House::Col(i) => 9 + i as usize,
            House::Box(i) => 18 + i as usize,
        }
    }

    /// The house with number `h` (see [`House::index`]), or `None` unless `h < 27`.
    pub const fn from_index(h: usize) -> Option<House> {
        match h {
            0..=8 => Some(House::Row(h as u8)),
            9..=17 => Some(House::Col(h as u8 - 9)),
            18..=26 => Some(House::Box(h as u8 - 18)),
            _ => None,
        }
    }

    /// All 27 houses: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = House> {
        (0..9)
            .map(House::Row)
            .chain((0..9).map(House::Col))
            .chain((0..9).map(House::Box))
    }
}

impl fmt::Display for House {
    /// One-based, e.g. `row 3`, `column 5`, `box 9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            House::Row(i) => write!(f, "row {}", i + 1),
            House::Col(i) => write!(f, "column {}", i + 1),
            House::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// Why a puzzle could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The one-line form is shorter than 81 characters.
    #[error("wrong length: expected 81 cells, found {found}")]
    WrongLength {
        /// Number of characters found.
        found: usize,
    },
    /// A character that is not `1`-`9`, `.` or `0` (position is one-based).
    #[error("bad character {ch:?} at position {position}")]
    BadChar {
        /// One-based position of the character in the puzzle text.
        position: usize,
        /// The offending character.
        ch: char,
    },
    /// The grid form does not have nine rows of nine cells.
    #[error("bad grid: {reason}")]
    BadGrid {
        /// What is wrong with the grid layout.
        reason: String,
    },
    /// A digit appears twice in one house.
    #[error("digit {digit} repeated in {house}")]
    Repeated {
        /// The repeated digit.
        digit: Digit,
        /// The house holding it twice.
        house: House,
    },
    /// A grid was expected to be full but has empty cells.
    #[error("not a full grid: {empty} empty cells")]
    NotFull {
        /// How many cells are empty.
        empty: usize,
    },
    /// The line is not valid UTF-8 text.
    #[error("not valid UTF-8 text")]
    NotUtf8,
    /// The line is longer than any puzzle's line: skipped unread.
    #[error("a line longer than {limit} bytes (skipped)")]
    TooLong {
        /// The most bytes a line may have.
        limit: usize,
    },
}

/// A consistent Sudoku position: 81 cells, each empty or holding a digit, no digit repeated in a
/// house.
///
/// Stored as 81 bytes, `0` for empty and `1`-`9` for a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Puzzle {
    cells: [u8; 81],
}

impl Puzzle {
    /// The puzzle with no clues.
    pub const EMPTY: Puzzle = Puzzle { cells: [0; 81] };

    /// Builds a puzzle from 81 bytes (`0` empty, `1`-`9` digits), checking values and consistency.
    pub fn from_bytes(cells: [u8; 81]) -> Result<Puzzle, ParseError> {
        for (i, &v) in cells.iter().enumerate() {
            if v > 9 {
                return Err(ParseError::BadChar {
                    position: i + 1,
                    ch: char::from_digit(u32::from(v) % 36, 36).unwrap_or('?'),
                });
            }
        }
        let p = Puzzle { cells };
        p.check_consistent()?;
        Ok(p)
    }

    /// Builds a puzzle from bytes already known to be in range and consistent.
    ///
    /// Used by code that produces puzzles by construction (transforms, solvers); a debug build
    /// still checks.
    pub(crate) fn from_bytes_unchecked(cells: [u8; 81]) -> Puzzle {
        debug_assert!(Puzzle::from_bytes(cells).is_ok());
        Puzzle { cells }
    }

    /// Parses the one-line form: surrounding whitespace is ignored, then the first 81 characters
    /// are the cells (`1`-`9`, `.` or `0` for empty); anything after them (a tab and more
    /// columns, say) is ignored. A first field shorter than 81 characters is a length error.
    pub fn parse_line(text: &str) -> Result<Puzzle, ParseError> {
        let text = text.trim();
        let bytes = text.as_bytes();
        let mut cells = [0u8; 81];
        if bytes.len() >= 81 {
            // Fast path: the first 81 bytes are all cell characters. Branch-free, as the cells
            // of a sparse puzzle alternate unpredictably between empty and digit.
            let mut bad = 0u8;
            for (cell, &ch) in cells.iter_mut().zip(bytes) {
                let d = ch.wrapping_sub(b'0');
                let digit = d <= 9;
                bad |= u8::from(!digit & (ch != b'.'));
                *cell = d & 0u8.wrapping_sub(u8::from(digit));
            }
            if bad == 0 {
                let p = Puzzle { cells };
                if has_clash(&p.cells) {
                    // Name the house.
                    p.check_consistent()?;
                }
                return Ok(p);
            }
        }
        let field_len = text
            .char_indices()
            .find(|&(_, c)| c.is_whitespace())
            .map_or(text.len(), |(i, _)| i);
        let field = &text[..field_len];
        let count = field.chars().count();
        if count < 81 {
            return Err(ParseError::WrongLength { found: count });
        }
        for (i, ch) in field.chars().take(81).enumerate() {
            cells[i] = cell_value(ch).ok_or(ParseError::BadChar {
                position: i + 1,
                ch,
            })?;
        }
        let p = Puzzle { cells };
        p.check_consistent()?;
        Ok(p)
    }

    /// Parses the nine-line grid form. Each row holds nine cells (`1`-`9`, `.` or `0`); spaces and
    /// the separators `|`, `-`, `+` are ignored, lines holding only separators are skipped.
    pub fn parse_grid(text: &str) -> Result<Puzzle, ParseError> {
        let mut cells = [0u8; 81];
        let mut rows = 0usize;
        for line in text.lines() {
            match grid_row(line) {
                GridLine::Separator => continue,
                GridLine::Row(row) => {
                    if rows == 9 {
                        return Err(ParseError::BadGrid {
                            reason: "more than 9 rows".into(),
                        });
                    }
                    cells[9 * rows..9 * rows + 9].copy_from_slice(&row);
                    rows += 1;
                }
                GridLine::Other(reason) => {
                    return Err(ParseError::BadGrid {
                        reason: format!("row {}: {reason}", rows + 1),
                    })
                }
            }
        }
        if rows != 9 {
            return Err(ParseError::BadGrid {
                reason: format!("expected 9 rows, found {rows}"),
            });
        }
        let p = Puzzle { cells };
        p.check_consistent()?;
        Ok(p)
    }

    /// Checks that no digit repeats in a row, column or box.
    fn check_consistent(&self) -> Result<(), ParseError> {
        // One pass with a bitmask of seen digits per house; on a clash, find the first house in
        // the documented order (rows, columns, boxes) that repeats the digit.
        if !has_clash(&self.cells) {
            return Ok(());
        }
        for house in House::all() {
            let mut seen = 0u16;
            for cell in house.cells() {
                let v = self.cells[cell.index()];
                if v != 0 {
                    if seen & (1 << v) != 0 {
                        return Err(ParseError::Repeated {
                            digit: Digit(v),
                            house,
                        });
                    }
                    seen |= 1 << v;
                }
            }
        }
        unreachable!("a clash is found in some house")
    }

    /// The digit in `cell`, if any.
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        Digit::new(self.cells[cell.index()])
    }

    /// The 81 cells as bytes, `0` for empty.
    pub fn as_bytes(&self) -> &[u8; 81] {
        &self.cells
    }

    /// Number of clues (filled cells).
    pub fn clues(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The one-line form: 81 characters, `.` for empty.
    pub fn to_line(&self) -> String {
        self.line_str(&mut [0; 81]).to_owned()
    }

    /// The one-line form written into `buf` (no allocation), as a string.
    pub fn line_str<'b>(&self, buf: &'b mut [u8; 81]) -> &'b str {
        for (b, &v) in buf.iter_mut().zip(&self.cells) {
            *b = if v == 0 { b'.' } else { b'0' + v };
        }
        std::str::from_utf8(buf).expect("ASCII")
    }

    /// A readable nine-line grid with box separators, `.` for empty.
    pub fn to_grid_string(&self) -> String {
        let mut out = String::with_capacity(11 * 22);
        for r in 0..9 {
            if r == 3 || r == 6 {
                out.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    out.push_str("| ");
                }
                let v = self.cells[9 * r + c];
                out.push(if v == 0 { '.' } else { (b'0' + v) as char });
                if c != 8 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out
    }
}

impl FromStr for Puzzle {
    type Err = ParseError;

    /// Parses either form: text with a line break is read as a grid, otherwise as one line.
    fn from_str(s: &str) -> Result<Puzzle, ParseError> {
        if s.trim().contains('\n') {
            Puzzle::parse_grid(s)
        } else {
            Puzzle::parse_line(s)
        }
    }
}

impl fmt::Display for Puzzle {
    /// The one-line form; `{:#}` gives the grid form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str(&self.to_grid_string())
        } else {
            f.write_str(self.line_str(&mut [0; 81]))
        }
    }
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({})", self.to_line())
    }
}

/// A solved grid: a consistent puzzle with all 81 cells filled.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid(Puzzle);

impl Grid {
    /// The grid of a full, consistent puzzle.
    pub fn from_puzzle(p: Puzzle) -> Result<Grid, ParseError> {
        let empty = 81 - p.clues();
        if empty != 0 {
            return Err(ParseError::NotFull { empty });
        }
        Ok(Grid(p))
    }

    /// The grid as a puzzle with 81 clues.
    pub fn as_puzzle(&self) -> &Puzzle {
        &self.0
    }

    /// The digit in `cell`.
    pub fn get(&self, cell: Cell) -> Digit {
        Digit(self.0.cells[cell.index()])
    }

    /// The 81 digits as bytes `1`-`9`.
    pub fn as_bytes(&self) -> &[u8; 81] {
        self.0.as_bytes()
    }

    /// The one-line form.
    pub fn to_line(&self) -> String {
        self.0.to_line()
    }
}

impl FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Grid, ParseError> {
        Grid::from_puzzle(s.parse()?)
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A puzzle serializes as its one-line form (81 characters, `.` for empty): how every
/// output format of the program writes it.
impl serde::Serialize for Puzzle {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.line_str(&mut [0; 81]))
    }
}

/// A grid serializes as its 81 digits.
impl serde::Serialize for Grid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.0.to_line())
    }
}

/// The six permutations of three things (bands or stacks, the lines inside one, the stacks a
/// band's rows go to).
pub(crate) const PERMS3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// True when a row, column or box holds some digit twice. Each clue counts once in each of its
/// three houses, so the houses' distinct digits add up to three times the clues exactly when no
/// house repeats one (no branch per cell: the sums vectorize).
fn has_clash(cells: &[u8; 81]) -> bool {
    let bit: [u16; 81] = std::array::from_fn(|i| (1u16 << cells[i]) & !1);
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for r in 0..9 {
        for c in 0..9 {
            let b = bit[9 * r + c];
            rows[r] |= b;
            cols[c] |= b;
            boxes[r / 3 * 3 + c / 3] |= b;
        }
    }
    let distinct: u32 = rows
        .iter()
        .chain(&cols)
        .chain(&boxes)
        .map(|m| m.count_ones())
        .sum();
    let clues = cells.iter().filter(|&&v| v != 0).count() as u32;
    distinct != 3 * clues
}

/// The value of a cell character: `1`-`9`, or 0 for `.` and `0`.
fn cell_value(ch: char) -> Option<u8> {
    match ch {
        '1'..='9' => Some(ch as u8 - b'0'),
        '.' | '0' => Some(0),
        _ => None,
    }
}

/// How one line of the grid form reads.
pub(crate) enum GridLine {
    /// Nine cell values.
    Row([u8; 9]),
    /// Blank, or only separators (`-`, `+`, `|`, `=`, spaces).
    Separator,
    /// Anything else, with the reason.
    Other(String),
}

/// Reads one line of the grid form.
pub(crate) fn grid_row(line: &str) -> GridLine {
    let mut row = [0u8; 9];
    let mut n = 0usize;
    for ch in line.chars() {
        if ch.is_whitespace() || matches!(ch, '|' | '+' | '-' | '=') {
            continue;
        }
        match cell_value(ch) {
            Some(v) if n < 9 => {
                row[n] = v;
                n += 1;
            }
            Some(_) => return GridLine::Other("more than 9 cells".into()),
            None => return GridLine::Other(format!("bad character {ch:?}")),
        }
    }
    match n {
        0 => GridLine::Separator,
        9 => GridLine::Row(row),
        _ => GridLine::Other(format!("expected 9 cells, found {n}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether some house repeats a digit, the slow way: every pair of cells.
    fn repeats(cells: &[u8; 81]) -> bool {
        (0..81).any(|i| {
            (i + 1..81).any(|j| {
                let (ri, ci, rj, cj) = (i / 9, i % 9, j / 9, j % 9);
                let peers = ri == rj || ci == cj || (ri / 3 == rj / 3 && ci / 3 == cj / 3);
                cells[i] != 0 && cells[i] == cells[j] && peers
            })
        })
    }

    proptest::proptest! {
        /// The branch-free clash test agrees with every pair of cells, and a line with a clash
        /// is refused while one without is read back exactly.
        #[test]
        fn clash_test_agrees_with_every_pair(
            picks in proptest::collection::vec((0usize..81, 1u8..=9), 0..30)
        ) {
            let mut cells = [0u8; 81];
            for (i, v) in picks {
                cells[i] = v;
            }
            proptest::prop_assert_eq!(has_clash(&cells), repeats(&cells));
            let line: String = cells.iter().map(|&v| char::from(b'0' + v)).collect();
            match Puzzle::parse_line(&line) {
                Ok(p) => proptest::prop_assert_eq!(p.cells, cells),
                Err(e) => {
                    proptest::prop_assert!(repeats(&cells));
                    let is_repeat = matches!(e, ParseError::Repeated { .. });
                    proptest::prop_assert!(is_repeat);
                }
            }
        }
    }
}
