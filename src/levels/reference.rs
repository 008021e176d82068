//! The default reference distribution, shipped as data.
//!
//! It is the same for every bank: 2,500 puzzles of the paper's standard generator (section
//! 4.1: random cells filled with random candidates, each followed by singles, until singles
//! finish: the easy puzzles a casual source prints) and 7,500 random minimal puzzles (clues
//! removed in random order while the solution stays unique: the unbiased population of puzzles
//! nobody tuned, from singles-only to trial and error), job i drawing from
//! `Rng::for_job(REFERENCE_SEED, i)`, each rated with both ratings. With this mix the four
//! default levels are roughly: easy, the standard generator's puzzles; medium, minimal puzzles
//! that singles solve; hard, minimal puzzles needing subsets, fish or wings; expert, chains,
//! backtracking and trial and error. (A 50 / 50 mix put everything from an XY-wing to the
//! hardest known puzzles in the top quarter.)
//!
//! Generating and rating it takes seconds, so it is made once, by
//! `cargo run --release --example default_reference`, into a file of `references/` that is
//! never edited: like a migration, a new file is added when the raters change, and the header
//! records the rater that made it. A test regenerates a sample and compares.

#[cfg(feature = "dev")]
use crate::generate::{self, Symmetry};
use crate::grid::Puzzle;
use crate::rate::hsolve::RateError;
#[cfg(feature = "dev")]
use crate::rng::Rng;
use crate::store::ReferenceRow;
use rayon::prelude::*;

#[cfg(feature = "dev")]
/// The seed of the default reference distribution.
pub const REFERENCE_SEED: u64 = 2008;

#[cfg(feature = "dev")]
/// Standard-generator puzzles in the default reference.
pub const REFERENCE_STANDARD: usize = 2_500;

#[cfg(feature = "dev")]
/// Random minimal puzzles in the default reference.
pub const REFERENCE_MINIMAL: usize = 7_500;

/// How the default reference is described in a bank's settings.
pub const DESCRIPTION: &str =
    "default: 2,500 standard-generator and 7,500 random minimal puzzles, seed 2008";

#[cfg(feature = "dev")]
/// The file of `references/` the program ships (the newest).
pub const SHIPPED_NAME: &str = "0003_default.tsv";

/// The shipped default reference: header lines (`#`), then `puzzle difficulty hsolve source`
/// per line, tab-separated.
pub const SHIPPED: &str = include_str!("../../references/0003_default.tsv");

#[cfg(feature = "dev")]
/// The rater named in a reference file's header (`# rater: ...`).
pub fn rater_of(text: &str) -> Option<&str> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix("# rater: "))
}

/// The rows of a reference file (header lines skipped). The shipped file is checked by the
/// tests, so a line that does not parse is a bug.
pub fn parse(text: &str) -> Vec<ReferenceRow> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "a reference line has 4 fields: {l}");
            ReferenceRow {
                puzzle: f[0].to_string(),
                difficulty: f[1].parse().expect("a difficulty"),
                hsolve: f[2].parse().expect("an hsolve rating"),
                source: f[3].to_string(),
            }
        })
        .collect()
}

/// The shipped default reference, rated.
pub fn default_rows() -> Vec<ReferenceRow> {
    parse(SHIPPED)
}

#[cfg(feature = "dev")]
/// Default reference job `j`: the puzzle and its source.
pub fn default_puzzle(j: u64) -> (Puzzle, &'static str) {
    let mut rng = Rng::for_job(REFERENCE_SEED, j);
    if j < REFERENCE_STANDARD as u64 {
        (generate::standard(&mut rng), "standard")
    } else {
        (
            generate::random_minimal(&mut rng, Symmetry::None),
            "minimal",
        )
    }
}

/// Rates puzzles (in parallel on the current rayon pool) into reference rows; a puzzle that
/// cannot be rated (no single solution) comes back as an error with its index.
pub fn rate(puzzles: &[(Puzzle, String)]) -> Vec<Result<ReferenceRow, (usize, RateError)>> {
    puzzles
        .par_iter()
        .enumerate()
        .map(|(i, (p, source))| {
            let r = crate::rate::rate(p, None).map_err(|e| (i, e))?;
            Ok(ReferenceRow {
                puzzle: p.to_line(),
                difficulty: r.difficulty,
                hsolve: r.hsolve,
                source: source.clone(),
            })
        })
        .collect()
}

#[cfg(feature = "dev")]
/// Generates and rates the default reference jobs `jobs` (on the current rayon pool).
pub fn make_default(jobs: impl IntoIterator<Item = u64>) -> Vec<ReferenceRow> {
    let puzzles: Vec<(Puzzle, String)> = jobs
        .into_iter()
        .collect::<Vec<u64>>()
        .into_par_iter()
        .map(|j| {
            let (p, s) = default_puzzle(j);
            (p, s.to_string())
        })
        .collect();
    rate(&puzzles)
        .into_iter()
        .map(|r| r.expect("generated puzzles have one solution"))
        .collect()
}

#[cfg(feature = "dev")]
/// A reference file: the header (description, rater, how it was made), then the rows.
pub fn to_text(rows: &[ReferenceRow]) -> String {
    let mut s = format!(
        "# pseudoku reference distribution: {DESCRIPTION}\n# rater: {}\n\
         # made by: cargo run --release --example default_reference (never edit; add a new file)\n\
         # puzzle\tdifficulty\thsolve\tsource\n",
        crate::rate::RATER
    );
    for r in rows {
        s.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            r.puzzle, r.difficulty, r.hsolve, r.source
        ));
    }
    s
}
