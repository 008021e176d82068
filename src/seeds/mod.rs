//! The seed library: hard puzzles the pseudo-generator turns into many puzzles, with what it
//! needs to know about each (solution, hardest tier, rating, reserved cells), their text
//! format, the library file (load, save, import), its summary, the seeds imported into a bank
//! (`imports`), and the miner that finds them (`mine`).
//!
//! # Format
//!
//! One seed per line, tab-separated; `#` starts a comment line:
//!
//! ```text
//! puzzle  solution  tier  hsolve  reserved  provenance
//! ```
//!
//! `puzzle` is 81 characters (`.` empty), `solution` 81 digits, `tier` the hardest hsolve tier
//! the puzzle needs (0-6), `hsolve` its rating (mean of 20 runs), `reserved` the number of cells
//! still empty after solving with tiers 0 to `tier - 1` (the pseudo-generator's reserved cells),
//! `provenance` how the seed was made (free text without tabs).

internal! {
    imports;
    mine;
}

pub use imports::{import, with_imports};
pub use mine::{mine, MineOptions};

use crate::canon::{self, Key};
use crate::grid::{Grid, ParseError, Puzzle};
use crate::rate::hsolve::{self, RateError};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// One seed of the library.
#[derive(Clone, Debug, PartialEq)]
pub struct Seed {
    /// The seed puzzle.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// The hardest tier it needs (0-6).
    pub tier: u8,
    /// Its hsolve rating (mean of 20 runs).
    pub hsolve: f64,
    /// The cells left empty by tiers 0 to `tier - 1`.
    pub reserved: u32,
    /// How it was made.
    pub provenance: String,
}

/// Why a seed line was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SeedError {
    /// The puzzle field is not a puzzle.
    #[error(transparent)]
    Puzzle(#[from] ParseError),
    /// The puzzle cannot be a seed.
    #[error(transparent)]
    Rating(#[from] RateError),
    /// A field of the full format is malformed.
    #[error("bad {field} field: {reason}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

impl Seed {
    /// Computes everything about `puzzle` (which must have exactly one solution).
    pub fn analyze(puzzle: &Puzzle, provenance: &str) -> Result<Seed, SeedError> {
        let solution = crate::solve::solve(puzzle)
            .unique()
            .ok_or(RateError::NotUnique)?;
        let tier = hsolve::hardest_tier(puzzle)?;
        let reserved = if tier == 0 {
            puzzle.as_bytes().iter().filter(|&&v| v == 0).count() as u32
        } else {
            hsolve::solve_to_tier(puzzle, tier - 1)?.reserved.len()
        };
        let hsolve = hsolve::rate(puzzle, hsolve::DEFAULT_RUNS)?.mean;
        Ok(Seed {
            puzzle: *puzzle,
            solution,
            tier,
            hsolve: (hsolve * 100.0).round() / 100.0,
            reserved,
            provenance: provenance.replace(['\t', '\n'], " "),
        })
    }

    /// The class key of the seed.
    pub fn key(&self) -> Key {
        canon::key(&self.puzzle)
    }

    /// Reads a line: 81 characters (everything else is computed), or the full format (its
    /// fields are checked, then recomputed: only the provenance is kept).
    pub fn parse_line(line: &str, default_provenance: &str) -> Result<Seed, SeedError> {
        let fields: Vec<&str> = line.trim_end().split('\t').collect();
        let puzzle = Puzzle::parse_line(fields[0])?;
        let provenance = if fields.len() >= 6 {
            let solution = fields[1];
            if solution.len() != 81 || !solution.bytes().all(|b| (b'1'..=b'9').contains(&b)) {
                return Err(SeedError::Field {
                    field: "solution",
                    reason: "expected 81 digits 1-9".into(),
                });
            }
            for (name, value) in [("tier", fields[2]), ("reserved", fields[4])] {
                value.parse::<u32>().map_err(|e| SeedError::Field {
                    field: name,
                    reason: e.to_string(),
                })?;
            }
            fields[3].parse::<f64>().map_err(|e| SeedError::Field {
                field: "hsolve",
                reason: e.to_string(),
            })?;
            fields[5]
        } else {
            default_provenance
        };
        let seed = Seed::analyze(&puzzle, provenance)?;
        if fields.len() >= 6 && fields[1] != seed.solution.to_line() {
            return Err(SeedError::Field {
                field: "solution",
                reason: "not the puzzle's solution".into(),
            });
        }
        Ok(seed)
    }
}

impl Seed {
    /// Reads a line of the format without re-analysing the puzzle (for the shipped library,
    /// which the tests check field by field). `None` if a field does not parse.
    pub fn parse_trusted(line: &str) -> Option<Seed> {
        let f: Vec<&str> = line.trim_end().split('\t').collect();
        if f.len() < 6 {
            return None;
        }
        Some(Seed {
            puzzle: Puzzle::parse_line(f[0]).ok()?,
            solution: f[1].parse().ok()?,
            tier: f[2].parse().ok()?,
            hsolve: f[3].parse().ok()?,
            reserved: f[4].parse().ok()?,
            provenance: f[5].to_string(),
        })
    }
}

/// The library shipped in `seeds/library.tsv`, built into the program.
pub const SHIPPED: &str = include_str!("../../seeds/library.tsv");

/// The half-turn symmetric seeds shipped in `seeds/symmetric.tsv`, built into the program:
/// expert puzzles of a half-turn symmetric build (24-30 clues, no assumption), whose clues
/// are symmetric, so that a half-turn layout can keep their core empty with one solution. A build
/// with a half-turn layout on the shipped library uses them beside it, one for every 32
/// puzzles of its half-turn quotas (see the build guide for how they were made).
pub const SHIPPED_SYMMETRIC: &str = include_str!("../../seeds/symmetric.tsv");

impl Library {
    /// The shipped library.
    pub fn shipped() -> Library {
        Library::built_in(Library::lines_of(SHIPPED))
    }

    /// The shipped half-turn symmetric seeds (`seeds/symmetric.tsv`).
    pub fn shipped_symmetric() -> Library {
        Library::shipped_symmetric_sample(usize::MAX)
    }

    /// `n` (at least one) of the shipped half-turn symmetric seeds, evenly spaced in the file
    /// (all of them when `n` is as many or more); only those are parsed.
    pub fn shipped_symmetric_sample(n: usize) -> Library {
        let lines: Vec<&str> = Library::lines_of(SHIPPED_SYMMETRIC).collect();
        let n = n.clamp(1, lines.len());
        Library::built_in((0..n).map(|i| lines[i * lines.len() / n]))
    }

    /// The seed lines of a library file's text: no comment, no blank line.
    fn lines_of(text: &str) -> impl Iterator<Item = &str> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    }

    /// A library of seed lines built into the program (trusted: they parse).
    fn built_in<'a>(lines: impl Iterator<Item = &'a str>) -> Library {
        let mut lib = Library::default();
        for line in lines {
            lib.add(Seed::parse_trusted(line).expect("a built-in library parses"));
        }
        lib
    }
}

impl fmt::Display for Seed {
    /// The seed as one line of the format (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{:.2}\t{}\t{}",
            self.puzzle.to_line(),
            self.solution.to_line(),
            self.tier,
            self.hsolve,
            self.reserved,
            self.provenance
        )
    }
}

/// The header written at the top of a library file.
pub const HEADER: &str =
    "# pseudoku seed library: puzzle\tsolution\ttier\thsolve\treserved\tprovenance";

/// A library: seeds in order, distinct classes.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// The seeds.
    pub seeds: Vec<Seed>,
    keys: HashSet<Key>,
}

impl Library {
    /// Adds `seed` unless its class is already there; returns whether it was added.
    pub fn add(&mut self, seed: Seed) -> bool {
        if self.keys.insert(seed.key()) {
            self.seeds.push(seed);
            true
        } else {
            false
        }
    }

    /// True when the class of `puzzle` is in the library.
    pub fn contains(&self, key: &Key) -> bool {
        self.keys.contains(key)
    }

    /// Number of seeds of each tier (0-6).
    pub fn per_tier(&self) -> [usize; 7] {
        let mut n = [0; 7];
        for s in &self.seeds {
            n[s.tier as usize] += 1;
        }
        n
    }

    /// The library as file text (header, then one seed per line, sorted by tier then rating).
    pub fn to_text(&self) -> String {
        let mut seeds: Vec<&Seed> = self.seeds.iter().collect();
        seeds.sort_by(|a, b| {
            (a.tier, a.hsolve, a.puzzle.to_line())
                .partial_cmp(&(b.tier, b.hsolve, b.puzzle.to_line()))
                .expect("ratings are finite")
        });
        let mut out = String::from(HEADER);
        out.push('\n');
        for s in seeds {
            out.push_str(&s.to_string());
            out.push('\n');
        }
        out
    }

    /// One summary line per tier: count, rating range, reserved-cell range.
    pub fn summary(&self) -> String {
        let mut out = String::from("tier\tseeds\thsolve min-max\treserved min-max\n");
        for t in 0..=hsolve::HARDEST_TIER {
            let ss: Vec<&Seed> = self.seeds.iter().filter(|s| s.tier == t).collect();
            if ss.is_empty() {
                continue;
            }
            let (lo, hi) = ss.iter().fold((f64::MAX, f64::MIN), |(a, b), s| {
                (a.min(s.hsolve), b.max(s.hsolve))
            });
            let (rlo, rhi) = ss.iter().fold((u32::MAX, 0), |(a, b), s| {
                (a.min(s.reserved), b.max(s.reserved))
            });
            out.push_str(&format!(
                "{t}\t{}\t{lo:.0}-{hi:.0}\t{rlo}-{rhi}\n",
                ss.len()
            ));
        }
        out.push_str(&format!("all\t{}\n", self.seeds.len()));
        out
    }
}

/// What can go wrong with a library file.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// The file could not be read or written.
    #[error("{}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line of a library file is not a seed.
    #[error("{}:{line}", .path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// One-based line number.
        line: usize,
        /// Why.
        source: SeedError,
    },
    /// A mined seed could not be analysed.
    #[error(transparent)]
    Seed(#[from] SeedError),
    /// The worker threads could not be started.
    #[error("starting the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The bank failed.
    #[error(transparent)]
    Store(crate::store::StoreError),
}

impl LibraryError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LibraryError + '_ {
        move |source| LibraryError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Seeds added.
    pub added: usize,
    /// Seeds whose class was already in the library.
    pub duplicates: usize,
    /// The bad lines, `FILE:LINE: reason`, in input order.
    pub bad: Vec<String>,
}

/// True for the lines a library or import file skips: blank lines and `#` comments.
fn skipped(line: &str) -> bool {
    line.trim().is_empty() || line.starts_with('#')
}

impl Library {
    /// Reads a library file (an absent file is an empty library); a bad line is an error naming
    /// it.
    pub fn load(path: &Path) -> Result<Library, LibraryError> {
        let mut lib = Library::default();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(lib),
            Err(e) => return Err(LibraryError::io(path)(e)),
        };
        for (i, line) in text.lines().enumerate() {
            if skipped(line) {
                continue;
            }
            let seed = Seed::parse_line(line, "library").map_err(|source| LibraryError::Line {
                path: path.to_path_buf(),
                line: i + 1,
                source,
            })?;
            lib.add(seed);
        }
        Ok(lib)
    }

    /// Writes the library file (creating its folder), through a temporary file renamed into
    /// place.
    pub fn save(&self, path: &Path) -> Result<(), LibraryError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(LibraryError::io(dir))?;
        }
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_text()).map_err(LibraryError::io(&tmp))?;
        std::fs::rename(&tmp, path).map_err(LibraryError::io(path))
    }

    /// Imports the seeds of `input` (`-`: standard input): plain puzzles or lines of the seed
    /// format; each is checked and analysed, bad lines are kept as messages.
    pub fn import(&mut self, input: &Path) -> Result<Imported, LibraryError> {
        let name = input.display().to_string();
        let reader: Box<dyn std::io::BufRead> = if name == "-" {
            Box::new(std::io::BufReader::new(std::io::stdin()))
        } else {
            Box::new(std::io::BufReader::new(
                std::fs::File::open(input).map_err(LibraryError::io(input))?,
            ))
        };
        let mut done = Imported::default();
        let mut lines = crate::input::Lines::new(reader);
        let mut bytes = Vec::new();
        let mut i = 0;
        while let Some(read) = lines
            .next_into(&mut bytes)
            .map_err(LibraryError::io(input))?
        {
            i += 1;
            if read == crate::input::Line::Long {
                let why = ParseError::TooLong {
                    limit: crate::input::MAX_LINE,
                };
                done.bad.push(format!("{name}:{i}: {why}"));
                continue;
            }
            let Ok(line) = std::str::from_utf8(&bytes) else {
                done.bad.push(format!("{name}:{i}: not valid UTF-8 text"));
                continue;
            };
            if skipped(line) {
                continue;
            }
            match Seed::parse_line(line, &format!("import:{name}:{i}")) {
                Ok(seed) => {
                    if self.add(seed) {
                        done.added += 1;
                    } else {
                        done.duplicates += 1;
                    }
                }
                Err(e) => done.bad.push(format!("{name}:{i}: {e}")),
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn a_seed_round_trips_through_its_line() {
        let p: Puzzle = HARD.parse().unwrap();
        let s = Seed::analyze(&p, "test").unwrap();
        assert!(s.tier >= 5);
        assert!(s.reserved > 0);
        let line = s.to_string();
        assert_eq!(line.split('\t').count(), 6);
        let back = Seed::parse_line(&line, "other").unwrap();
        assert_eq!(back, s);
        // The plain form computes the same fields with the default provenance.
        let plain = Seed::parse_line(HARD, "plain").unwrap();
        assert_eq!(plain.tier, s.tier);
        assert_eq!(plain.provenance, "plain");
    }

    /// The shipped symmetric seeds: 3,000 half-turn symmetric puzzles of 24-30 clues, none of
    /// a class of the main library, their fields those an analysis gives (every 100th).
    #[test]
    fn the_shipped_symmetric_seeds_are_half_turn_symmetric() {
        let main = Library::shipped();
        let lib = Library::shipped_symmetric();
        assert_eq!(lib.seeds.len(), 3000);
        for (i, s) in lib.seeds.iter().enumerate() {
            assert!(
                crate::generate::Symmetry::Rotate180.holds_for(&s.puzzle),
                "{}",
                s.puzzle
            );
            assert!((24..=30).contains(&s.puzzle.clues()), "{}", s.puzzle);
            assert!(!main.contains(&s.key()), "{}", s.puzzle);
            if i % 100 == 0 {
                let again = Seed::analyze(&s.puzzle, &s.provenance).unwrap();
                assert_eq!((again.tier, again.reserved), (s.tier, s.reserved));
                assert_eq!(again.solution, s.solution);
            }
        }
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(matches!(
            Seed::parse_line("123", "x"),
            Err(SeedError::Puzzle(ParseError::WrongLength { .. }))
        ));
        let multi = format!(".{}", &HARD[1..]);
        assert_eq!(
            Seed::parse_line(&multi, "x").unwrap_err().to_string(),
            "the puzzle has more than one solution"
        );
        let s = Seed::analyze(&HARD.parse().unwrap(), "t").unwrap();
        let bad = s.to_string().replace(&format!("\t{}\t", s.tier), "\tx\t");
        assert!(matches!(
            Seed::parse_line(&bad, "x"),
            Err(SeedError::Field { field: "tier", .. })
        ));
    }

    #[test]
    fn the_library_keeps_one_seed_per_class() {
        let p: Puzzle = HARD.parse().unwrap();
        let t = crate::transform::Transform::random(&mut crate::rng::Rng::new(1));
        let mut lib = Library::default();
        assert!(lib.add(Seed::analyze(&p, "a").unwrap()));
        assert!(!lib.add(Seed::analyze(&t.apply(&p), "b").unwrap()));
        assert_eq!(lib.seeds.len(), 1);
        assert!(lib.summary().contains("all\t1"));
    }
}
