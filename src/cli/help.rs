//! `help`, `completions` and `man`: the command line described from its own definition.

use super::*;

/// The command line's definition (for completions and the manual page).
pub(super) fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Runs `help`.
pub(super) fn run_help(args: &HelpArgs) -> anyhow::Result<Outcome> {
    let mut cmd = command();
    let mut at = &mut cmd;
    for name in &args.command {
        at = match at.find_subcommand_mut(name) {
            Some(sub) => sub,
            None => anyhow::bail!("no command {name:?}: `pseudoku --help` lists the commands"),
        };
    }
    at.print_long_help()?;
    Ok(Outcome::Success)
}

/// Runs `completions`.
pub(super) fn run_completions(args: &CompletionsArgs) -> anyhow::Result<Outcome> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command(), "pseudoku", &mut out);
    io::stdout().write_all(&out)?;
    Ok(Outcome::Success)
}

/// Runs `man`.
pub(super) fn run_man(args: &ManArgs) -> anyhow::Result<Outcome> {
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(command(), dir))
            .with_context(|| format!("cannot write the manual pages to {}", dir.display()))?;
        return Ok(Outcome::Success);
    }
    // As `generate_to` does: no page for `help`, so the main page lists only pages that exist.
    let mut out = Vec::new();
    clap_mangen::Man::new(command().disable_help_subcommand(true)).render(&mut out)?;
    io::stdout().write_all(&out)?;
    Ok(Outcome::Success)
}
