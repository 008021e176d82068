//! `verify`: a bank's rows (or a sample of them) rated again and compared with what they hold.

use super::*;

/// Runs `verify`.
pub(super) fn run_verify(args: &VerifyArgs) -> anyhow::Result<Outcome> {
    let bar = progress_bar(
        0,
        "{msg} [{bar:40}] {pos}/{len} rows, {per_sec}, {eta} left",
    );
    bar.set_message("verifying");
    let v = bank::verify_with_progress(&args.db, args.sample, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    for problem in &v.bank {
        say!("bank: {problem}");
    }
    for m in &v.mismatches {
        say!("{m}");
    }
    say!(
        "checked {} rows of {}: {} mismatches{}",
        v.checked,
        args.db.display(),
        v.mismatches.len(),
        match v.bank.len() {
            0 => String::new(),
            n => format!(", {} with the bank as a whole", plural(n, "problem")),
        }
    );
    Ok(Outcome::Mismatch.when(!v.is_clean()))
}
