//! `hint` and `explain`: one puzzle (from a file or a bank row) taken step by step.

use super::*;

/// Runs `hint`.
pub(super) fn run_hint(args: &HintArgs) -> anyhow::Result<Outcome> {
    let task = pseudoku::batch::Task::Hint { json: args.json };
    let Some(id) = args.id else {
        return batch(task, &args.input, args.threads);
    };
    let puzzle = bank_puzzle(&args.db, id)?;
    let entry = pseudoku::batch::Entry {
        line: 1,
        puzzle,
        rest: String::new(),
    };
    let mut line = String::new();
    task.write_line(&entry, &mut line, &Default::default())
        .map_err(|why| anyhow::anyhow!("puzzle {id}: {why}"))?;
    let mut out = io::stdout().lock();
    if let Some(h) = task.header() {
        writeln!(out, "{h}")?;
    }
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(Outcome::Success)
}

/// Runs `explain`.
pub(super) fn run_explain(args: &ExplainArgs) -> anyhow::Result<Outcome> {
    let puzzle = match (&args.puzzle, args.id) {
        (_, Some(id)) => bank_puzzle(&args.db, id)?,
        (Some(p), None) if p == "-" => {
            let mut reader = pseudoku::batch::PuzzleReader::open(std::path::Path::new("-"))?;
            match reader.next() {
                Some(entry) => entry?.puzzle,
                None => anyhow::bail!("standard input holds no puzzle"),
            }
        }
        (Some(p), None) => p.trim().parse().context("bad puzzle")?,
        (None, None) => anyhow::bail!("give a puzzle, `-` or --id"),
    };
    let text = if args.model {
        pseudoku::explain::model(&puzzle, args.rating)?
    } else if args.json {
        pseudoku::explain::steps_json(&puzzle, args.grid)?
    } else {
        pseudoku::explain::steps_text(&puzzle, args.grid)?
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(Outcome::Success)
}

/// The puzzle of row `id` of the bank `db`.
pub(super) fn bank_puzzle(db: &std::path::Path, id: i64) -> anyhow::Result<pseudoku::Puzzle> {
    let conn = bank::open_existing(db)?;
    match pseudoku::retrieve::puzzle(&conn, id)? {
        Some(puzzle) => Ok(puzzle),
        None => anyhow::bail!("{}: no puzzle with id {id}", db.display()),
    }
}
