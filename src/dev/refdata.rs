//! Locating the external reference data (`../shared/data/`) used by tests, benchmarks and the
//! validation reports. The product never needs it at run time.

use std::path::PathBuf;

/// The reference data folder: `$PSEUDOKU_DATA` if set, else `../shared/data` beside the crate.
/// `None` (with the reason) when it does not exist, so callers can skip with a message.
pub fn dir() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("PSEUDOKU_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "reference data not found at {} (set PSEUDOKU_DATA)",
            dir.display()
        ))
    }
}

/// The puzzles of one reference file (its first column), if the folder exists.
pub fn puzzles(rel: &str) -> Result<Vec<crate::grid::Puzzle>, String> {
    crate::input::read_puzzle_file(&file(rel)?).map_err(|e| e.to_string())
}

/// The path of one reference file, e.g. `file("hard/top1465.tsv")`, if the folder exists.
pub fn file(rel: &str) -> Result<PathBuf, String> {
    let path = dir()?.join(rel);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!("reference file {} is missing", path.display()))
    }
}
