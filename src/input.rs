//! Reading puzzles from files and standard input, with the file name and line number of every
//! bad entry.
//!
//! A puzzle file holds one puzzle per line in the one-line form (81 characters; anything after
//! them, such as tab-separated columns, is ignored), or puzzles in the nine-line grid form, one
//! after another. Blank lines and lines starting with `#` are skipped.
//!
//! Lines end with `\n`, `\r\n` or a lone `\r` (a file from an old Mac), and a UTF-8 byte-order
//! mark before the first is dropped ([`Lines`]). Every bad entry is reported with its line and
//! the reading goes on: a line that is not valid UTF-8 is a bad line like any other, and so is
//! one longer than [`MAX_LINE`] bytes, of which no more than that is ever held. A line with the shape of a grid row (nine cells once
//! spaces and `| + - =` are removed) counts as a row even when a cell is bad, so a grid with a
//! bad row is reported once, at that row, and the next grid is read in step; a one-line puzzle,
//! a blank line or a comment ends a grid in progress.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use crate::grid::{grid_row, GridLine, ParseError, Puzzle};

/// The most bytes of a line that are read into memory: a longer line is a bad line, its rest
/// skipped unread (no puzzle or result line comes near it).
pub const MAX_LINE: usize = 64 * 1024;

/// What [`Lines::next_into`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line.
    Whole,
    /// A line longer than [`MAX_LINE`]: only its first [`MAX_LINE`] bytes were kept.
    Long,
}

/// The lines of a byte stream: each ended by `\n`, `\r\n` or a lone `\r`, a UTF-8 byte-order
/// mark before the first dropped, at most [`MAX_LINE`] bytes of each held.
pub struct Lines<R> {
    reader: R,
    /// The last line ended with `\r`: a `\n` right after it ends nothing.
    after_cr: bool,
    /// Lines read so far.
    read: u64,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`.
    pub fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            after_cr: false,
            read: 0,
        }
    }

    /// Reads the next line into `buf` (cleared first; its line end left out): `None` at the
    /// end of the input.
    pub fn next_into(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<Line>> {
        buf.clear();
        let (mut long, mut any) = (false, false);
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            let start = usize::from(std::mem::take(&mut self.after_cr) && chunk[0] == b'\n');
            let rest = &chunk[start..];
            let end = memchr::memchr2(b'\n', b'\r', rest);
            let text = &rest[..end.unwrap_or(rest.len())];
            let room = MAX_LINE.saturating_sub(buf.len());
            long |= text.len() > room;
            buf.extend_from_slice(&text[..text.len().min(room)]);
            any |= !text.is_empty() || end.is_some();
            let used = start + text.len() + usize::from(end.is_some());
            if let Some(at) = end {
                self.after_cr = rest[at] == b'\r';
            }
            self.reader.consume(used);
            if end.is_some() {
                break;
            }
        }
        self.read += 1;
        if self.read == 1 && buf.starts_with(b"\xEF\xBB\xBF") {
            buf.drain(..3);
        }
        Ok(Some(if long { Line::Long } else { Line::Whole }))
    }
}

/// The number of lines of `bytes` read in pieces, as [`Lines`] counts them (a last line
/// without its end counted too).
#[derive(Clone, Copy, Debug, Default)]
pub struct LineCount {
    lines: u64,
    /// The last byte seen was `\r`.
    after_cr: bool,
    /// Bytes seen since the last line end.
    open: bool,
}

impl LineCount {
    /// Counts the line ends of the next piece.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' => {
                    self.lines += 1;
                    self.open = false;
                }
                b'\r' => {
                    self.lines += 1;
                    self.after_cr = true;
                    self.open = false;
                }
                _ => {
                    self.after_cr = false;
                    self.open = true;
                }
            }
        }
    }

    /// The lines counted, a last one without its end included.
    pub fn lines(&self) -> u64 {
        self.lines + u64::from(self.open)
    }
}

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
    reader: Lines<R>,
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
            reader: Lines::new(reader),
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

    /// Reads the next line into `self.buf`: `Some(Ok(()))`, or `Some(Err(why))` for a line
    /// that is not valid UTF-8 or is too long (then `self.buf` is empty and the line, or its
    /// first [`MAX_LINE`] bytes, is in `self.bytes`); `None` at the end of input. A valid line
    /// is moved into `self.buf`, not copied.
    fn next_line(&mut self) -> Result<Option<Result<(), ParseError>>, ReadError> {
        let mut bytes = std::mem::take(&mut self.buf).into_bytes();
        if bytes.capacity() < self.bytes.capacity() {
            bytes = std::mem::take(&mut self.bytes);
        }
        match self.reader.next_into(&mut bytes) {
            Ok(None) => Ok(None),
            Ok(Some(read)) => {
                self.line_no += 1;
                if read == Line::Long {
                    self.bytes = bytes;
                    return Ok(Some(Err(ParseError::TooLong { limit: MAX_LINE })));
                }
                match String::from_utf8(bytes) {
                    Ok(s) => {
                        self.buf = s;
                        Ok(Some(Ok(())))
                    }
                    Err(e) => {
                        self.bytes = e.into_bytes();
                        Ok(Some(Err(ParseError::NotUtf8)))
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
                    Ok(Some(Err(why))) => {
                        // Not UTF-8: a bad line, or a bad row when it has a row's shape; too
                        // long: a bad line.
                        let line = self.line_no;
                        let shaped = why == ParseError::NotUtf8
                            && row_shaped(String::from_utf8_lossy(&self.bytes).trim());
                        if !shaped {
                            return Some(Err(match block.take() {
                                Some(b) => cut(self, b),
                                None => self.line_error(line, why),
                            }));
                        }
                        let b = block.get_or_insert_with(|| Block {
                            start: line,
                            rows: Vec::new(),
                            bad: None,
                        });
                        b.rows.push([0; 9]);
                        b.bad.get_or_insert((line, why));
                        if b.rows.len() == 9 {
                            return Some(Err(cut(self, block.take()?)));
                        }
                        continue;
                    }
                    Ok(Some(Ok(()))) => {}
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

    /// Every line `Lines` reads from `bytes` handed over in pieces of `piece` bytes.
    fn lines_of(bytes: &[u8], piece: usize) -> Vec<(Line, Vec<u8>)> {
        let reader = io::BufReader::with_capacity(piece, bytes);
        let mut lines = Lines::new(reader);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(read) = lines.next_into(&mut buf).unwrap() {
            out.push((read, buf.clone()));
        }
        out
    }

    #[test]
    fn any_line_end_ends_a_line_and_a_long_line_is_cut() {
        let whole = |texts: &[&str]| -> Vec<(Line, Vec<u8>)> {
            texts
                .iter()
                .map(|t| (Line::Whole, t.as_bytes().to_vec()))
                .collect()
        };
        for piece in [1, 2, 3, 7, 64] {
            assert_eq!(lines_of(b"a\nb\r\nc\rd", piece), whole(&["a", "b", "c", "d"]));
            assert_eq!(lines_of(b"a\r\r\nb\n\n", piece), whole(&["a", "", "b", ""]));
            assert_eq!(
                lines_of(b"\xEF\xBB\xBFa\r\nb\xEF\xBB\xBF", piece),
                whole(&["a", "b\u{feff}"])
            );
            assert_eq!(lines_of(b"", piece), whole(&[]));
            assert_eq!(lines_of(b"\r", piece), whole(&[""]));
        }
        let mut long = vec![b'7'; MAX_LINE + 10];
        long.extend_from_slice(b"\r\nx\n");
        let got = lines_of(&long, 1 << 12);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].0, got[0].1.len()), (Line::Long, MAX_LINE));
        assert_eq!(got[1], (Line::Whole, b"x".to_vec()));
        // The line count agrees, whatever the pieces.
        for text in [&b"a\nb\r\nc\rd"[..], b"a\r\r\nb\n\n", b"", b"\r", b"x"] {
            for piece in [1, 2, 5] {
                let mut count = LineCount::default();
                for chunk in text.chunks(piece) {
                    count.update(chunk);
                }
                assert_eq!(count.lines() as usize, lines_of(text, 64).len(), "{text:?}");
            }
        }
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
        let mut rng = crate::rng::Rng::new(16);
        (0..8)
            .map(|_| crate::generate::random_minimal(&mut rng, crate::generate::Symmetry::None))
            .collect()
    }

    fn item() -> impl proptest::strategy::Strategy<Value = Item> {
        use proptest::prelude::*;
        prop_oneof![
            (0usize..8).prop_map(Item::Line),
            (0usize..8).prop_map(Item::Grid),
            // A bad line: random bytes without a line end (a newline or a carriage return)
            // that are not row-shaped (nine cells, which any reader must take for a grid row).
            proptest::collection::vec(any::<u8>(), 1..120)
                .prop_map(|v| {
                    Item::Garbage(v.into_iter().filter(|&b| b != b'\n' && b != b'\r').collect())
                })
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
