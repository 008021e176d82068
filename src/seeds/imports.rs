//! Seeds imported into a bank: `seeds import` checks and analyses each puzzle and stores it in
//! the bank (`seed_imports`); every `build` on the bank then uses them beside its seed library
//! (the shipped one, or `--seeds FILE`), and `seeds list` shows exactly that set.

use super::{Imported, Library, LibraryError, Seed};
use crate::store::{self, seeds::ImportRow, StoreError};
use std::path::Path;

impl From<&Seed> for ImportRow {
    fn from(s: &Seed) -> ImportRow {
        ImportRow {
            puzzle: s.puzzle.to_line(),
            solution: s.solution.to_line(),
            canon_key: s.key().to_hex(),
            tier: s.tier,
            hsolve: s.hsolve,
            reserved: s.reserved,
            provenance: s.provenance.clone(),
        }
    }
}

/// The seed of an import row (stored by [`import`], so its fields were computed here); `None`
/// if the row was damaged.
fn seed_of(r: &ImportRow) -> Option<Seed> {
    Some(Seed {
        puzzle: crate::grid::Puzzle::parse_line(&r.puzzle).ok()?,
        solution: r.solution.parse().ok()?,
        tier: r.tier,
        hsolve: r.hsolve,
        reserved: r.reserved,
        provenance: r.provenance.clone(),
    })
}

/// What a build on a bank uses: `base` (the seed library) and then the seeds imported into
/// the bank, one per class. Returns the library and how many of its seeds are imports.
pub fn with_imports(
    conn: &store::Bank,
    mut base: Library,
) -> Result<(Library, usize), StoreError> {
    let mut imported = 0;
    for r in store::seeds::imports(conn)? {
        if let Some(seed) = seed_of(&r) {
            imported += usize::from(base.add(seed));
        }
    }
    Ok((base, imported))
}

/// Imports the seeds of `input` (`-`: standard input) into the bank: each puzzle is checked
/// and analysed; a class already in `base` (the library builds use) or already imported is
/// counted as a duplicate; bad lines are kept as messages. Returns what the import did and how
/// many of the bank's imports are now beyond `base` (what a build adds to it).
pub fn import(
    conn: &store::Bank,
    input: &Path,
    base: Library,
) -> Result<(Imported, usize), LibraryError> {
    let (mut known, imported) = with_imports(conn, base).map_err(LibraryError::Store)?;
    let before = known.seeds.len();
    let mut done = known.import(input)?;
    let rows: Vec<ImportRow> = known.seeds[before..].iter().map(ImportRow::from).collect();
    done.added = store::seeds::import(conn, &rows).map_err(LibraryError::Store)?;
    let total = imported + done.added;
    Ok((done, total))
}
