//! `calibrate`: a bank's levels set, learned or brought back to the defaults.

use super::*;

/// Runs `calibrate`.
pub(super) fn run_calibrate(args: &CalibrateArgs) -> anyhow::Result<Outcome> {
    use pseudoku::levels::{self as calibrate, Corpus, LevelChange};
    let mut conn = bank::open_existing(&args.db)?;
    let _lock = bank::WriterLock::acquire(&args.db, "calibrate", args.wait)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    // Rating a corpus and recomputing every stored level take seconds on a large bank.
    let spin = progress_bar(0, "{spinner} calibrating {wide_msg} {elapsed}");
    if io::stderr().is_terminal() {
        spin.enable_steady_tick(std::time::Duration::from_millis(120));
    }
    let mut bad = 0;
    let mut reference = None;
    let mut layouts = Vec::new();
    let mut levels = args.levels.clone().map(LevelChange::Names);
    if args.from_play {
        let (rating, set) = pseudoku::levels::stored_levels(&conn)?;
        let names = args.levels.clone().unwrap_or_else(|| set.names().clone());
        let rating = args.rating.unwrap_or(rating);
        let fit = pseudoku::results::fit_from_play(
            &conn,
            args.history.as_deref(),
            args.min_results,
            &names,
            rating,
            &pool,
            &|stage| spin.set_message(stage),
        )?;
        let summary = pseudoku::levels::summary(&fit, rating);
        spin.suspend(|| io::stdout().write_all(summary.as_bytes()))?;
        levels = Some(fit.into_change());
    } else if let Some(path) = &args.from {
        anyhow::ensure!(path.is_file(), "{}: no such file", path.display());
        if let Some(name) = &args.named {
            spin.set_message(format!("rating and fitting {}", path.display()));
            let fit = pool.install(|| pseudoku::levels::fit_numbers_file(path))?;
            let summary = pseudoku::levels::numbers_summary(&fit, name);
            spin.suspend(|| io::stdout().write_all(summary.as_bytes()))?;
            spin.set_message("valuing the stored puzzles");
            let n = pool.install(|| {
                pseudoku::levels::store_named(&mut conn, name, &fit.regression, &|rows| {
                    spin.set_message(format!("valuing the stored puzzles: {rows}"))
                })
            })?;
            spin.finish_and_clear();
            say!(
                "stored the named rating {name} ({n} puzzles valued); draw by it with \
                 `pseudoku get --rating {name} --range A..B`"
            );
            return Ok(Outcome::Success);
        }
        if args.labelled {
            let (rating, _) = pseudoku::levels::stored_levels(&conn)?;
            let rating = args.rating.unwrap_or(rating);
            spin.set_message(format!("rating and fitting {}", path.display()));
            let fit =
                pool.install(|| pseudoku::levels::fit_file(path, args.levels.as_ref(), rating))?;
            let summary = pseudoku::levels::summary(&fit, rating);
            spin.suspend(|| io::stdout().write_all(summary.as_bytes()))?;
            // The publisher's layout, level by level, and the rules that reproduce it.
            spin.set_message("measuring the layout of each level");
            let profiles = pool.install(|| bank::profiles(&fit));
            let text = bank::profiles_text(&profiles);
            spin.suspend(|| io::stdout().write_all(text.as_bytes()))?;
            if args.layouts {
                layouts = profiles
                    .iter()
                    .map(|(n, p)| (n.clone(), p.rules().to_string()))
                    .collect();
            } else {
                spin.suspend(|| writeln!(io::stdout(), "(the rules are stored with --layouts)"))?;
            }
            levels = Some(fit.into_change());
        } else {
            spin.set_message(format!("rating {}", path.display()));
            let corpus = pool.install(|| Corpus::read(path))?;
            spin.suspend(|| {
                for line in &corpus.bad {
                    warn!("{line}");
                }
            });
            bad = corpus.bad.len();
            let (rows, description) = corpus.into_reference(args.force)?;
            if rows.len() < calibrate::MIN_REFERENCE {
                warn!(
                    "pseudoku: warning: {}: only {} puzzles to measure percentiles against; \
                     with fewer than {} each puzzle moves a percentile by {:.1} points and the \
                     levels' shares are rough (about +-{:.0} points): give {} or more",
                    path.display(),
                    rows.len(),
                    calibrate::MIN_REFERENCE,
                    100.0 / rows.len() as f64,
                    50.0 / (rows.len() as f64).sqrt(),
                    calibrate::MIN_REFERENCE
                );
            }
            reference = Some((rows, description));
        }
    } else if args.default_reference {
        reference = Some(calibrate::default_reference());
        // Without --levels, the default names too: the default levels, not the bank's
        // current names cut into equal shares.
        levels.get_or_insert(LevelChange::Names(pseudoku::levels::LevelNames::default()));
    }
    let change = calibrate::Calibration {
        reference,
        rating: args.rating,
        levels,
        layouts,
        force: args.force,
        names_given: args.levels.is_some(),
    };
    let before = pseudoku::levels::level_counts(&conn)?;
    spin.set_message("recomputing every stored level");
    let (levels, n) = pool.install(|| {
        calibrate::calibrate_with_progress(&mut conn, &change, &|rows| {
            spin.set_message(format!(
                "re-rating the stored puzzles for the model: {rows}"
            ))
        })
    })?;
    spin.finish_and_clear();
    let description = pseudoku::levels::reference_description(&conn)?.unwrap_or_default();
    let named = match &levels.model {
        Some(_) => format!(
            "{} (learned: the model's levels, not ranges of {})",
            levels.set.names(),
            levels.rating.name()
        ),
        None => levels.set.to_string(),
    };
    say!(
        "reference: {description}, {} puzzles; rating: {}; levels: {named}; {n} levels \
         recomputed (percentiles are measured when read)",
        levels.reference.len(),
        levels.rating.name(),
    );
    // What the bank's puzzles did: each level's count before and after, levels dropped.
    let after = pseudoku::levels::level_counts(&conn)?;
    if after != before {
        let mut moved: Vec<String> = after
            .iter()
            .map(|(name, n)| match before.iter().find(|(b, _)| b == name) {
                Some((_, was)) if was != n => format!("{name} {was} -> {n}"),
                Some(_) => format!("{name} {n}"),
                None => format!("{name} {n} (new)"),
            })
            .collect();
        moved.extend(
            before
                .iter()
                .filter(|(b, _)| !after.iter().any(|(a, _)| a == b))
                .map(|(name, was)| format!("{name} {was} -> dropped")),
        );
        say!("puzzles per level: {}", moved.join(", "));
    }
    Ok(lines_outcome(bad))
}
