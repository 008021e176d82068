//! `book`: a book of puzzles without dates.

use super::export::{output_format, per_puzzle, print_preflight, printed_pages, warn_lone};
use super::*;
use anyhow::Context as _;

/// Runs `book`.
pub(super) fn run_book(args: &BookArgs) -> anyhow::Result<Outcome> {
    let format = output_format(args.format, &args.print);
    let print = printed_pages(&args.print, format, &[])?;
    let blurb = match &args.blurb {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| {
                    format!("--blurb {}: cannot read it as UTF-8 text", path.display())
                })?
                .replace("\r\n", "\n");
            if text.trim().is_empty() {
                anyhow::bail!("--blurb {}: the file is empty", path.display());
            }
            Some(text)
        }
        None => None,
    };
    if (args.cover_only_options_given())
        && !args.print.cover
        && format == pseudoku::export::Format::Pdf
    {
        warn!("pseudoku: --blurb and --colours are the cover's: add --cover to write it");
    }
    let matter = pseudoku::export::Matter {
        subtitle: args.subtitle.clone(),
        author: args.author.clone(),
        imprint: args.imprint.clone(),
        isbn: args.isbn.clone(),
        year: args.year,
        blurb,
        without: args.without.clone(),
        palette: args.colours,
        typeface: args.font,
    };
    let mut conn = bank::open_existing(&args.db)?;
    let opts = pseudoku::export::BookOptions {
        name: args.name.clone(),
        mix: args.mix.clone(),
        format,
        per_puzzle: per_puzzle(format, &args.print),
        out: args.out.clone().unwrap_or_default(),
        replace: args.replace,
        reprint: args.reprint,
        print: pseudoku::export::PrintOptions { matter, ..print },
        rng_seed: args.rng_seed,
        check: args.check,
    };
    let report = pseudoku::export::book(&mut conn, &opts)?;
    if args.check && report.shortages.is_empty() {
        let failed = print_preflight(&report.preflight);
        if report.preflight.is_empty() {
            warn!("check: the book can be drawn; only a pdf book is preflighted");
        }
        warn!("check: nothing was recorded or written");
        return Ok(Outcome::Mismatch.when(failed));
    }
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
    warn_lone(&report.lone);
    if report.repeated_grids > 0 {
        warn!(
            "the book holds {} with a solution grid already in it (up to symmetry): their level \
             had no unserved puzzle of a new grid left (a larger bank has more grids)",
            plural(report.repeated_grids, "puzzle")
        );
    }
    warn!(
        "wrote the book {}: {} ({} new, {} as recorded before) in {} to {}",
        args.name,
        plural(report.puzzles, "puzzle"),
        report.new,
        report.puzzles - report.new,
        plural(report.files.len(), "file"),
        opts.out.display()
    );
    Ok(Outcome::Success)
}
