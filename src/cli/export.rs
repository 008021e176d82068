//! `export`: dated batches written as files, the print options read from the flags.

use super::*;

/// Runs `export`.
pub(super) fn run_export(args: &ExportArgs) -> anyhow::Result<Outcome> {
    let start: pseudoku::export::Date = args.start.parse()?;
    let print = print_options(args)?;
    let mut conn = bank::open_existing(&args.db)?;
    let opts = pseudoku::export::ExportOptions {
        start,
        days: args.days,
        mix: args.mix.clone(),
        format: output_format(args.format, &args.print),
        out: args.out.clone().unwrap_or_default(),
        single_file: args.single_file,
        replace: args.replace,
        allow_partial: args.allow_partial,
        print,
        per_puzzle: per_puzzle(args.format, &args.print),
        rng_seed: args.rng_seed,
        variety_days: args.variety_days,
        check: args.check,
    };
    let bar = LateBar::new("{msg} [{bar:40}] {pos}/{len}, {eta} left");
    let report =
        pseudoku::export::export_with_progress(&mut conn, &opts, &|stage, done, total| {
            if let Some(b) = bar.shown() {
                b.set_message(stage);
                b.set_length(total);
                b.set_position(done);
            }
        })?;
    bar.finish();
    for s in &report.shortages {
        warn!(
            "pseudoku: level {}: {} puzzles missing, from {}",
            s.level, s.missing, s.from
        );
        if s.by_variety() {
            warn!(
                "pseudoku:   the variety rule runs it short, not the bank: its {} unserved \
                 puzzles come from {}, and no seed or solution grid may appear twice within {} \
                 ({} a day of it needs {} seeds); choose a shorter window (--variety-days N), \
                 fewer of it a day, or more seeds (`seeds mine`, `seeds import`) and build",
                s.unserved,
                plural(s.seeds as usize, "seed"),
                plural(args.variety_days as usize, "day"),
                s.per_day,
                u64::from(s.per_day) * u64::from(args.variety_days),
            );
        }
    }
    if args.check {
        let failed = print_preflight(&report.preflight);
        let verdict = if report.shortages.is_empty() {
            "can be met"
        } else {
            "cannot be met"
        };
        let missing: u64 = report.shortages.iter().map(|s| s.missing).sum();
        warn!(
            "check: the mix {} over {} {verdict}: {} of {} ({} new, {} as exported before, {} \
             missing); nothing was recorded or written",
            args.mix,
            plural(args.days as usize, "day"),
            report.asked as u64 - missing,
            plural(report.asked, "puzzle"),
            report.new,
            report.asked as u64 - missing - report.new as u64,
            missing
        );
        if !report.shortages.is_empty() {
            return Ok(Outcome::Short);
        }
        return Ok(Outcome::Mismatch.when(failed));
    }
    if !report.shortages.is_empty() && !args.allow_partial {
        let advice = if report.shortages.iter().all(|s| s.by_variety()) {
            "ask less of those levels a day or a shorter window, as above"
        } else {
            "build more puzzles of those levels"
        };
        warn!("pseudoku: nothing exported; {advice}, or export what there is with --allow-partial");
        return Ok(Outcome::Short);
    }
    for (mix, dates) in replaced_by_mix(&report.replaced) {
        let retired: usize = dates.iter().map(|r| r.puzzles).sum();
        let span = match (dates.first(), dates.last()) {
            (Some(a), Some(b)) if a.edition != b.edition => {
                format!("{} to {}", a.edition, b.edition)
            }
            (Some(a), _) => a.edition.to_string(),
            _ => continue,
        };
        warn!(
            "replaced {} recorded with the mix {mix} ({span}): {} retired, never used again",
            plural(dates.len(), "date"),
            plural(retired, "puzzle")
        );
    }
    if !report.removed.is_empty() {
        warn!(
            "removed {} the replaced dates' earlier export had written in another form",
            plural(report.removed.len(), "file")
        );
    }
    warn_lone(&report.lone);
    warn!(
        "exported {} ({} new, {} as exported before) in {} to {}",
        plural(report.puzzles, "puzzle"),
        report.new,
        report.puzzles - report.new,
        plural(report.files.len(), "file"),
        opts.out.display()
    );
    Ok(Outcome::Short.when(!report.shortages.is_empty()))
}

/// Prints each file's preflight (stdout) and a verdict (stderr); whether a rule failed.
pub(super) fn print_preflight(preflight: &[pseudoku::export::preflight::Preflight]) -> bool {
    use pseudoku::export::preflight::Outcome as Rule;
    for p in preflight {
        println!("{p}");
    }
    let rules = |o: Rule| -> usize {
        preflight
            .iter()
            .map(|p| p.rules.iter().filter(|r| r.outcome == o).count())
            .sum()
    };
    let (pass, fail) = (rules(Rule::Pass), rules(Rule::Fail));
    if !preflight.is_empty() {
        if fail == 0 {
            warn!(
                "preflight: {} checked, every rule passes ({pass})",
                plural(preflight.len(), "file")
            );
        } else {
            warn!("preflight: {fail} rule(s) fail, {pass} pass: the printer would refuse or misprint it");
        }
    }
    fail > 0
}

/// Warns of the printed pages holding a lone grid.
pub(super) fn warn_lone(lone: &[pseudoku::export::Lone]) {
    for pseudoku::export::Lone { file, pages } in lone {
        let list: Vec<String> = pages.iter().map(usize::to_string).collect();
        warn!(
            "{file}: {} a lone grid on a page meant for more (a run of puzzles of odd count): \
             give each level or day a count the page layout divides, or --per-page",
            if pages.len() == 1 {
                format!("page {} holds", list[0])
            } else {
                format!("pages {} hold", list.join(", "))
            },
        );
    }
}

/// The dates an export replaced, grouped by the mix they had been recorded with (in the order
/// of their first date).
pub(super) fn replaced_by_mix(
    replaced: &[pseudoku::export::Replaced],
) -> Vec<(&str, Vec<&pseudoku::export::Replaced>)> {
    let mut out: Vec<(&str, Vec<&pseudoku::export::Replaced>)> = Vec::new();
    for r in replaced {
        match out.iter_mut().find(|(m, _)| *m == r.mix) {
            Some((_, v)) => v.push(r),
            None => out.push((&r.mix, vec![r])),
        }
    }
    out
}

/// The printed pages' options of `export`; an error when one is given for a format that is
/// not printed.
pub(super) fn print_options(args: &ExportArgs) -> anyhow::Result<pseudoku::export::PrintOptions> {
    let only = [("--page-per-day", args.page_per_day), ("--book", args.book)];
    if args.print.cover && !(args.single_file || args.book) {
        anyhow::bail!(
            "--cover is the cover of one file: add --single-file or --book (a book's cover)"
        );
    }
    let printed = printed_pages(&args.print, output_format(args.format, &args.print), &only)?;
    // A file a day prints its solutions under its puzzles: a day's few small grids would
    // leave a page nearly empty.
    let a_file_a_day = !args.single_file && !args.book;
    let solutions = match args.print.solutions {
        Some(s) => s,
        None if a_file_a_day => pseudoku::export::SolutionLayout::Strip,
        None => printed.solutions,
    };
    Ok(pseudoku::export::PrintOptions {
        page_per_day: args.page_per_day,
        book: args.book,
        solutions,
        ..printed
    })
}

/// The format files are written in: `--per-puzzle`'s, else `--format`'s.
pub(super) fn output_format(
    format: pseudoku::export::Format,
    print: &PrintArgs,
) -> pseudoku::export::Format {
    print.per_puzzle.unwrap_or(format)
}

/// Whether each grid goes in a file of its own.
pub(super) fn per_puzzle(format: pseudoku::export::Format, print: &PrintArgs) -> bool {
    print.per_puzzle.is_some() || format.single_grid()
}

/// The printed pages' options shared by `export` and `book`, with `more` (flags of the
/// command, and whether each was given): an error when one is given for a format that is not
/// printed.
pub(super) fn printed_pages(
    args: &PrintArgs,
    format: pseudoku::export::Format,
    more: &[(&str, bool)],
) -> anyhow::Result<pseudoku::export::PrintOptions> {
    use pseudoku::export::{Format, PrintOptions};
    let given = [
        ("--per-page", args.per_page.is_some()),
        ("--page", args.page.is_some()),
        ("--margin", args.margin.is_some()),
        ("--gutter", args.gutter.is_some()),
        ("--bleed", args.bleed),
        ("--large-print", args.large_print),
        ("--title", args.title.is_some()),
        ("--solutions", args.solutions.is_some()),
        ("--cover", args.cover),
        ("--stock", args.stock.is_some()),
        ("--show-ids", args.show_ids),
    ];
    let single = per_puzzle(format, args);
    if !format.printed() || single {
        if let Some((flag, _)) = given.iter().chain(more).find(|g| g.1) {
            let what = if single {
                "one grid per file".to_string()
            } else {
                format!("the format {}", format.extension())
            };
            anyhow::bail!(
                "{flag} is for printed pages: add --format pdf or --format html (this is {what})"
            );
        }
    }
    if args.grid_width.is_some() && !(single && format != Format::Sdk) {
        anyhow::bail!("--grid-width is for one grid per file: add --per-puzzle pdf, svg or eps");
    }
    if args.cover && format != Format::Pdf {
        anyhow::bail!("--cover writes a PDF cover: add --format pdf");
    }
    if args.stock.is_some() && !args.cover {
        anyhow::bail!("--stock sets the cover's spine: add --cover");
    }
    if args.title.as_deref().is_some_and(|t| t.trim().is_empty()) {
        anyhow::bail!("--title is empty");
    }
    let d = PrintOptions::default();
    Ok(PrintOptions {
        page: args.page.unwrap_or(d.page),
        margin: args.margin.map(|l| l.points()),
        gutter: args.gutter.map(|l| l.points()),
        bleed: args.bleed,
        title: args.title.clone(),
        per_page: args.per_page,
        page_per_day: false,
        solutions: args.solutions.unwrap_or(d.solutions),
        cover: args.cover,
        stock: args.stock.unwrap_or(d.stock),
        book: false,
        large_print: args.large_print,
        show_ids: args.show_ids,
        grid_width: args.grid_width.map_or(d.grid_width, |l| l.points()),
        matter: d.matter,
    })
}
