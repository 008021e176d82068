//! Reading puzzles from files and standard input, with the file name and line number of every
//! bad entry.
//!
//! A puzzle file holds one puzzle per line in the one-line form (81 characters; anything after
//! them, such as tab-separated columns, is ignored), or puzzles in the nine-line grid form, one
//! after another. Blank lines and lines starting with `#` are skipped.
//!
//! Every bad entry is reported with its line and the reading goes on: a line that is not valid
//! UTF-8 is a bad line like any other. A line with the shape of a grid row (nine cells once
//! spaces and `| + - =` are removed) counts as a row even when a cell is bad, so a grid with a
//! bad row is reported once, at that row, and the next grid is read in step; a one-line puzzle,
//! a blank line or a comment ends a grid in progress.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use crate::grid::{grid_row, GridLine, ParseError, Puzzle};

/// A puzzle read from an input, with where it came from.
#[derive(Clone, Debug)]
pub struct Entry {
    /// One-based line number (the first line, for the grid form).
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The columns after the puzzle on its line, without the separating whitespace (empty for
    /// the grid form).
    pub rest: String,
}

/// A bad entry: the input's name, the line and the reason. Displays as `FILE:LINE: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}: {error}")]
pub struct LineError {
    /// The input's name: its path, or `-` for standard input.
    pub source_name: String,
    /// One-based line number.
    pub line: usize,
    /// What is wrong.
    pub error: ParseError,
}

/// What reading an input can yield besides a puzzle.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A bad entry: report it and go on.
    #[error(transparent)]
    Line(#[from] LineError),
    /// The input itself failed: stop.
    #[error("{name}")]
    Io {
        /// The input's name.
        name: String,
        /// The I/O error.
        source: io::Error,
    },
}

/// Iterates over the puzzles of a text input. See the module docs for the format.
pub struct PuzzleReader<R> {
    name: String,
    reader: R,
    line_no: usize,
    bytes: Vec<u8>,
    buf: String,
    done: bool,
    /// The line in `buf` is to be read again (it ended a grid in progress).
    replay: bool,
}

/// A puzzle reader over a boxed buffered input.
pub type AnyReader = PuzzleReader<Box<dyn BufRead + Send>>;

impl PuzzleReader<Box<dyn BufRead + Send>> {
    /// Opens `path`, or standard input when `path` is `-`.
    pub fn open(path: &Path) -> Result<AnyReader, ReadError> {
        let name = path.display().to_string();
        let reader: Box<dyn BufRead + Send> = if name == "-" {
            Box::new(BufReader::new(io::stdin()))
        } else {
            let f = File::open(path).map_err(|source| ReadError::Io {
                name: name.clone(),
                source,
            })?;
            Box::new(BufReader::with_capacity(1 << 16, f))
        };
        Ok(PuzzleReader::new(name, reader))
    }
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader over `reader`, naming it `name` in errors.
    pub fn new(name: impl Into<String>, reader: R) -> PuzzleReader<R> {
        PuzzleReader {
            name: name.into(),
            reader,
            line_no: 0,
            bytes: Vec::new(),
            buf: String::new(),
            done: false,
            replay: false,
        }
    }

    fn line_error(&self, line: usize, error: ParseError) -> ReadError {
        ReadError::Line(LineError {
            source_name: self.name.clone(),
            line,
            error,
        })
    }

    /// Reads the next line into `self.buf`: `Some(true)`, or `Some(false)` for a line that is
    /// not valid UTF-8 (then `self.buf` is empty and the line is in `self.bytes`); `None` at
    /// the end of input. A valid line is moved into `self.buf`, not copied.
    fn next_line(&mut self) -> Result<Option<bool>, ReadError> {
        let mut bytes = std::mem::take(&mut self.buf).into_bytes();
        if bytes.capacity() < self.bytes.capacity() {
            bytes = std::mem::take(&mut self.bytes);
        }
        bytes.clear();
        match self.reader.read_until(b'\n', &mut bytes) {
            Ok(0) => Ok(None),
            Ok(_) => {
                self.line_no += 1;
                match String::from_utf8(bytes) {
                    Ok(s) => {
                        self.buf = s;
                        Ok(Some(true))
                    }
                    Err(e) => {
                        self.bytes = e.into_bytes();
                        Ok(Some(false))
                    }
                }
            }
            Err(source) => Err(ReadError::Io {
                name: self.name.clone(),
                source,
            }),
        }
    }
}

/// A grid-form block being read: its first line, its rows, and the first bad row if any.
struct Block {
    start: usize,
    rows: Vec<[u8; 9]>,
    bad: Option<(usize, ParseError)>,
}

/// True when `text` has the shape of a grid row: nine cells once whitespace and the separators
/// `| + - =` are removed (whatever the cells hold).
fn row_shaped(text: &str) -> bool {
    text.chars()
        .filter(|&c| !c.is_whitespace() && !matches!(c, '|' | '+' | '-' | '='))
        .count()
        == 9
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Entry, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut block: Option<Block> = None;
        // Ends the block in progress (short of nine rows): its report.
        let cut = |reader: &Self, b: Block| -> ReadError {
            match b.bad {
                Some((line, e)) => reader.line_error(line, e),
                None => reader.line_error(b.start, incomplete_grid(b.rows.len())),
            }
        };
        loop {
            if self.replay {
                self.replay = false;
            } else {
                match self.next_line() {
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                    Ok(None) => {
                        self.done = true;
                        return block.map(|b| Err(cut(self, b)));
                    }
                    Ok(Some(false)) => {
                        // Not UTF-8: a bad line, or a bad row when it has a row's shape.
                        let line = self.line_no;
                        let shaped = row_shaped(String::from_utf8_lossy(&self.bytes).trim());
                        if !shaped {
                            return Some(Err(match block.take() {
                                Some(b) => cut(self, b),
                                None => self.line_error(line, ParseError::NotUtf8),
                            }));
                        }
                        let b = block.get_or_insert_with(|| Block {
                            start: line,
                            rows: Vec::new(),
                            bad: None,
                        });
                        b.rows.push([0; 9]);
                        b.bad.get_or_insert((line, ParseError::NotUtf8));
                        if b.rows.len() == 9 {
                            return Some(Err(cut(self, block.take()?)));
                        }
                        continue;
                    }
                    Ok(Some(true)) => {}
                }
            }
            let text = self.buf.trim();
            if text.is_empty() || text.starts_with('#') {
                if let Some(b) = block.take() {
                    return Some(Err(cut(self, b)));
                }
                continue;
            }
            let first_field = text.split_whitespace().next().unwrap_or("");
            let long = first_field.len() >= 81
                && (first_field.is_ascii() || first_field.chars().count() >= 81);
            if long {
                // A one-line puzzle; it ends a grid in progress, and is read next.
                if let Some(b) = block.take() {
                    self.replay = true;
                    return Some(Err(cut(self, b)));
                }
                let line = self.line_no;
                let rest = text[first_field.len()..].trim_start().to_string();
                return Some(
                    Puzzle::parse_line(text)
                        .map(|puzzle| Entry { line, puzzle, rest })
                        .map_err(|e| self.line_error(line, e)),
                );
            }
            let row = match grid_row(text) {
                GridLine::Separator => continue,
                GridLine::Row(row) => Ok(row),
                GridLine::Other(reason) if row_shaped(text) => Err(reason),
                GridLine::Other(reason) => {
                    // Not a row: a bad line on its own, or one that breaks the grid in
                    // progress (reported once).
                    let line = self.line_no;
                    return Some(Err(match block.take() {
                        Some(b) => {
                            let n = b.rows.len();
                            match b.bad {
                                Some((l, e)) => self.line_error(l, e),
                                None => self.line_error(
                                    line,
                                    ParseError::BadGrid {
                                        reason: format!("row {}: {reason}", n + 1),
                                    },
                                ),
                            }
                        }
                        None => self.line_error(
                            line,
                            Puzzle::parse_line(text)
                                .err()
                                .unwrap_or(ParseError::BadGrid { reason }),
                        ),
                    }));
                }
            };
            let line = self.line_no;
            let b = block.get_or_insert_with(|| Block {
                start: line,
                rows: Vec::new(),
                bad: None,
            });
            match row {
                Ok(r) => b.rows.push(r),
                Err(reason) => {
                    let n = b.rows.len();
                    b.rows.push([0; 9]);
                    b.bad.get_or_insert((
                        line,
                        ParseError::BadGrid {
                            reason: format!("row {}: {reason}", n + 1),
                        },
                    ));
                }
            }
            if b.rows.len() == 9 {
                let b = block.take()?;
                if let Some((l, e)) = b.bad {
                    return Some(Err(self.line_error(l, e)));
                }
                let mut cells = [0u8; 81];
                for (i, r) in b.rows.iter().enumerate() {
                    cells[9 * i..9 * i + 9].copy_from_slice(r);
                }
                return Some(
                    Puzzle::from_bytes(cells)
                        .map(|puzzle| Entry {
                            line: b.start,
                            puzzle,
                            rest: String::new(),
                        })
                        .map_err(|e| self.line_error(b.start, e)),
                );
            }
        }
    }
}

fn incomplete_grid(rows: usize) -> ParseError {
    ParseError::BadGrid {
        reason: format!("incomplete grid: {rows} of 9 rows"),
    }
}

/// Reads every puzzle line of a tab-separated data file (first column an 81-character puzzle).
/// Used by tests and benchmarks; stops at the first bad line.
pub fn read_puzzle_file(path: &Path) -> Result<Vec<Puzzle>, ReadError> {
    PuzzleReader::open(path)?
        .map(|r| r.map(|e| e.puzzle))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Result<Entry, String>> {
        PuzzleReader::new("t.txt", text.as_bytes())
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn lines_comments_and_extra_columns() {
        let text = format!("# header\n\n{P}\tSE 9.1\n  {P}  \n");
        let got = read(&text);
        assert_eq!(got.len(), 2);
        let e = got[0].as_ref().unwrap();
        assert_eq!((e.line, e.rest.as_str()), (3, "SE 9.1"));
        assert_eq!(e.puzzle.to_line(), P);
        assert_eq!(got[1].as_ref().unwrap().line, 4);
    }

    #[test]
    fn grid_blocks() {
        let p: Puzzle = P.parse().unwrap();
        let text = format!("{}\n{}", p.to_grid_string(), P);
        let got = read(&text);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].as_ref().unwrap().puzzle, p);
        assert_eq!(got[0].as_ref().unwrap().line, 1);
        // 11 grid lines, the grid's closing newline, then the one-line puzzle.
        assert_eq!(got[1].as_ref().unwrap().line, 13);
    }

    #[test]
    fn errors_name_file_and_line() {
        let text = format!("{P}\n123\n{}x\n{P}\n", &P[..80]);
        let got = read(&text);
        assert_eq!(got.len(), 4);
        assert_eq!(
            got[1].as_ref().unwrap_err(),
            "t.txt:2: wrong length: expected 81 cells, found 3"
        );
        assert_eq!(
            got[2].as_ref().unwrap_err(),
            "t.txt:3: bad character 'x' at position 81"
        );
        assert!(got[3].is_ok());
    }

    #[test]
    fn incomplete_grid_is_reported() {
        let got = read("1........\n.2.......\n");
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].as_ref().unwrap_err(),
            "t.txt:1: bad grid: incomplete grid: 2 of 9 rows"
        );
    }

    /// One item of a fuzzed input: a good puzzle (one-line or grid form), or something bad.
    #[derive(Clone, Debug)]
    enum Item {
        Line(usize),
        Grid(usize),
        Garbage(Vec<u8>),
        BrokenGrid(usize, usize, u8),
    }

    /// Good puzzles the items draw from.
    fn good() -> Vec<Puzzle> {
        let mut rng = crate::Rng::new(16);
        (0..8)
            .map(|_| crate::generate::random_minimal(&mut rng, crate::generate::Symmetry::None))
            .collect()
    }

    fn item() -> impl proptest::strategy::Strategy<Value = Item> {
        use proptest::prelude::*;
        prop_oneof![
            (0usize..8).prop_map(Item::Line),
            (0usize..8).prop_map(Item::Grid),
            // A bad line: random bytes without a newline that are not row-shaped (nine cells,
            // which any reader must take for a grid row).
            proptest::collection::vec(any::<u8>(), 1..120)
                .prop_map(|v| Item::Garbage(v.into_iter().filter(|&b| b != b'\n').collect()))
                .prop_filter("not row-shaped, not blank", |i| match i {
                    Item::Garbage(v) => {
                        let t = String::from_utf8_lossy(v);
                        let t = t.trim();
                        !t.is_empty() && !t.starts_with('#') && !super::row_shaped(t)
                    }
                    _ => true,
                }),
            (
                0usize..8,
                0usize..81,
                prop_oneof![Just(b'x'), Just(0xffu8), Just(b'@')]
            )
                .prop_map(|(i, at, b)| Item::BrokenGrid(i, at, b)),
        ]
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000)) {
            let n = PuzzleReader::new("f", &bytes[..]).count();
            proptest::prop_assert!(n <= bytes.len() + 1);
        }

        #[test]
        fn every_good_puzzle_after_a_bad_one_is_read(items in proptest::collection::vec(item(), 1..30)) {
            let good = good();
            let mut bytes = Vec::new();
            let mut want = Vec::new();
            for it in &items {
                match it {
                    Item::Line(i) => {
                        bytes.extend_from_slice(good[*i].to_line().as_bytes());
                        bytes.push(b'\n');
                        want.push(good[*i]);
                    }
                    Item::Grid(i) => {
                        bytes.extend_from_slice(good[*i].to_grid_string().as_bytes());
                        bytes.push(b'\n');
                        want.push(good[*i]);
                    }
                    Item::Garbage(v) => {
                        bytes.extend_from_slice(v);
                        bytes.push(b'\n');
                    }
                    Item::BrokenGrid(i, at, b) => {
                        let line = good[*i].to_line();
                        let mut rows = Vec::new();
                        for r in 0..9 {
                            let mut row: Vec<u8> = line.as_bytes()[9 * r..9 * r + 9].to_vec();
                            if r == at / 9 {
                                row[at % 9] = *b;
                            }
                            rows.push(row);
                        }
                        for row in rows {
                            bytes.extend_from_slice(&row);
                            bytes.push(b'\n');
                        }
                    }
                }
            }
            let got: Vec<Puzzle> = PuzzleReader::new("f", &bytes[..])
                .filter_map(|r| r.ok().map(|e| e.puzzle))
                .collect();
            proptest::prop_assert_eq!(got, want);
        }
    }
}
