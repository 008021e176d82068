//! `stats`: what a bank holds.

use super::*;

/// Runs `stats`.
pub(super) fn run_stats(args: &StatsArgs) -> anyhow::Result<Outcome> {
    let conn = bank::open_existing(&args.db)?;
    let inv = pseudoku::inventory::read(&conn)?;
    if let Some(path) = &args.plot {
        pseudoku::inventory::plot::draw(&inv, path)?;
    }
    if args.json {
        say!("{}", serde_json::to_string(&inv)?);
    } else if let Some(path) = &args.plot {
        // The drawing is what was asked for: the table is not printed beside it.
        say!(
            "drew what {} holds into {}",
            args.db.display(),
            path.display()
        );
    } else {
        io::stdout().write_all(inv.to_text().as_bytes())?;
    }
    Ok(Outcome::Success)
}
