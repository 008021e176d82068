//! `dataset`: a bank written as train, validation and test files.

use super::*;

/// Runs `dataset`.
pub(super) fn run_dataset(args: &DatasetArgs) -> anyhow::Result<Outcome> {
    let command: Vec<String> = std::iter::once("pseudoku".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let opts = pseudoku::dataset::DatasetOptions {
        db: args.db.clone(),
        out: args.out.clone(),
        levels: args.levels.clone(),
        per_level: args.per_level,
        split: args.split,
        group: args.group,
        formats: args.formats.clone(),
        seed: args.seed,
        command,
    };
    let written = pseudoku::dataset::write(&opts)?;
    let [train, validation, test] = written.rows;
    say!(
        "wrote {} puzzles of {} to {}: {train} train, {validation} validation, {test} test ({} \
         files and manifest.json)",
        train + validation + test,
        args.db.display(),
        args.out.display(),
        written.files.len() - 1,
    );
    Ok(Outcome::Success)
}
