//! `book`: a book of puzzles without dates.

use super::export::{output_format, per_puzzle, printed_pages};
use super::*;

/// Runs `book`.
pub(super) fn run_book(args: &BookArgs) -> anyhow::Result<Outcome> {
    let format = output_format(args.format, &args.print);
    let print = printed_pages(&args.print, format, &[])?;
    let mut conn = bank::open_existing(&args.db)?;
    let opts = pseudoku::export::BookOptions {
        name: args.name.clone(),
        mix: args.mix.clone(),
        format,
        per_puzzle: per_puzzle(format, &args.print),
        out: args.out.clone(),
        replace: args.replace,
        reprint: args.reprint,
        print: pseudoku::export::PrintOptions {
            title: args.print.title.clone().or_else(|| Some(args.name.clone())),
            ..print
        },
        rng_seed: args.rng_seed,
    };
    let report = pseudoku::export::book(&mut conn, &opts)?;
    for s in &report.shortages {
        warn!("pseudoku: level {}: {} puzzles missing", s.level, s.missing);
    }
    if !report.shortages.is_empty() {
        warn!("pseudoku: nothing written; build more puzzles of those levels");
        return Ok(Outcome::Short);
    }
    for r in &report.replaced {
        warn!(
            "replaced the book {} recorded with the mix {}: {} retired, never used again",
            args.name,
            r.mix,
            plural(r.puzzles, "puzzle")
        );
    }
    if !report.removed.is_empty() {
        warn!(
            "removed {} the book's earlier version had written in another form",
            plural(report.removed.len(), "file")
        );
    }
    warn!(
        "wrote the book {}: {} ({} new, {} as recorded before) in {} to {}",
        args.name,
        plural(report.puzzles, "puzzle"),
        report.new,
        report.puzzles - report.new,
        plural(report.files.len(), "file"),
        args.out.display()
    );
    Ok(Outcome::Success)
}
