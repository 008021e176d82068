//! Reading puzzles from files and standard input, with the file name and line number of every
//! bad entry.
//!
//! A puzzle file holds one puzzle per line in the one-line form (81 characters; anything after
//! them, such as tab-separated columns, is ignored), or puzzles in the nine-line grid form, one
//! after another. Blank lines and lines starting with `#` are skipped.

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
    buf: String,
    done: bool,
}

/// A puzzle reader over a boxed buffered input.
pub type AnyReader = PuzzleReader<Box<dyn BufRead>>;

impl PuzzleReader<Box<dyn BufRead>> {
    /// Opens `path`, or standard input when `path` is `-`.
    pub fn open(path: &Path) -> Result<AnyReader, ReadError> {
        let name = path.display().to_string();
        let reader: Box<dyn BufRead> = if name == "-" {
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
            buf: String::new(),
            done: false,
        }
    }

    fn line_error(&self, line: usize, error: ParseError) -> ReadError {
        ReadError::Line(LineError {
            source_name: self.name.clone(),
            line,
            error,
        })
    }

    /// Reads the next line into `self.buf`; false at the end of input.
    fn next_line(&mut self) -> Result<bool, ReadError> {
        self.buf.clear();
        match self.reader.read_line(&mut self.buf) {
            Ok(0) => Ok(false),
            Ok(_) => {
                self.line_no += 1;
                Ok(true)
            }
            Err(source) => Err(ReadError::Io {
                name: self.name.clone(),
                source,
            }),
        }
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Entry, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // A grid-form block in progress: its first line and the rows so far.
        let mut block: Option<(usize, Vec<[u8; 9]>)> = None;
        loop {
            match self.next_line() {
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
                Ok(false) => {
                    self.done = true;
                    return block.map(|(start, rows)| {
                        Err(self.line_error(start, incomplete_grid(rows.len())))
                    });
                }
                Ok(true) => {}
            }
            let text = self.buf.trim();
            if text.is_empty() || text.starts_with('#') {
                if let Some((start, rows)) = block.take() {
                    return Some(Err(self.line_error(start, incomplete_grid(rows.len()))));
                }
                continue;
            }
            let first_field = text.split_whitespace().next().unwrap_or("");
            if block.is_none() && first_field.chars().count() >= 81 {
                let line = self.line_no;
                let rest = text[first_field.len()..].trim_start().to_string();
                return Some(
                    Puzzle::parse_line(text)
                        .map(|puzzle| Entry { line, puzzle, rest })
                        .map_err(|e| self.line_error(line, e)),
                );
            }
            match grid_row(text) {
                GridLine::Separator => continue,
                GridLine::Row(row) => {
                    let (start, rows) = block.get_or_insert_with(|| (self.line_no, Vec::new()));
                    rows.push(row);
                    if rows.len() == 9 {
                        let start = *start;
                        let mut cells = [0u8; 81];
                        for (i, r) in rows.iter().enumerate() {
                            cells[9 * i..9 * i + 9].copy_from_slice(r);
                        }
                        return Some(
                            Puzzle::from_bytes(cells)
                                .map(|puzzle| Entry {
                                    line: start,
                                    puzzle,
                                    rest: String::new(),
                                })
                                .map_err(|e| self.line_error(start, e)),
                        );
                    }
                }
                GridLine::Other(reason) => {
                    let line = self.line_no;
                    return Some(Err(match block {
                        // Inside a grid: the row is malformed.
                        Some((_, rows)) => self.line_error(
                            line,
                            ParseError::BadGrid {
                                reason: format!("row {}: {reason}", rows.len() + 1),
                            },
                        ),
                        // Otherwise it is a one-line puzzle that is too short or malformed.
                        None => self.line_error(
                            line,
                            Puzzle::parse_line(text)
                                .err()
                                .unwrap_or(ParseError::BadGrid { reason }),
                        ),
                    }));
                }
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
}
