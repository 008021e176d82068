//! Makes the default reference distribution of `pseudoku::levels::reference`: 2,500
//! standard-generator and 7,500 random minimal puzzles, seeded, each rated with both ratings.
//!
//! `cargo run --release --example default_reference -- OUT.tsv` writes the file. The shipped
//! files in `references/` are never edited: when the raters change, write a new file
//! (`references/000N_default.tsv`) and point `levels::reference::SHIPPED` at it, so banks
//! record which reference they measured against.

use pseudoku::levels::reference::{self, REFERENCE_MINIMAL, REFERENCE_STANDARD};

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| panic!("usage: default_reference OUT.tsv"));
    let t = std::time::Instant::now();
    let n = (REFERENCE_STANDARD + REFERENCE_MINIMAL) as u64;
    let rows = reference::make_default(0..n);
    std::fs::write(&out, reference::to_text(&rows)).unwrap_or_else(|e| panic!("{out}: {e}"));
    eprintln!("wrote {} rows to {out} in {:.1?}", rows.len(), t.elapsed());
}
