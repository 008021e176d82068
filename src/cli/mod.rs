//! The command-line interface: raw flags ([`args`]) turned into the library's options, one
//! library call per command, and its result printed. No puzzle is handled here.
//!
//! Exit codes ([`Outcome::code`]): 0 success; 1 some input lines were bad (each reported on
//! stderr as `FILE:LINE: reason`, the rest processed), a bank came up short (`get` or `export`
//! ran out of puzzles), or `verify` found a wrong row; 2 a usage or fatal error (bad arguments,
//! unreadable file, output that cannot be written); 130 a build stopped by Ctrl-C (what it
//! committed is kept; the same command resumes it). A closed output pipe is success.

pub mod args;

/// Writes a line to standard error; one that cannot be written is dropped (there is nowhere
/// left to say so), never a panic.
macro_rules! warn {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// Writes a line to standard output, returning from the command with the error when it cannot
/// be written (a closed pipe is then success, see [`run`]).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($t)*)?;
    }};
}

pub use args::*;

use anyhow::Context as _;
use pseudoku::bank;
use std::io::{self, BufWriter, IsTerminal as _, Write};

/// How a command ended, mapped to the process exit code by `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything went well (exit 0).
    Success,
    /// Some input lines were bad and were reported; the rest was processed (exit 1).
    BadLines,
    /// The bank had fewer puzzles than asked (`get`, `export`; exit 1).
    Short,
    /// `verify` found a wrong row (exit 1).
    Mismatch,
    /// A build was stopped by Ctrl-C (SIGINT) and kept what it committed (exit 130, the
    /// shell's code for a command ended by SIGINT).
    Interrupted,
}

impl Outcome {
    /// `self` when `failed`, else success.
    pub fn when(self, failed: bool) -> Outcome {
        if failed {
            self
        } else {
            Outcome::Success
        }
    }

    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Success => 0,
            Outcome::BadLines | Outcome::Short | Outcome::Mismatch => 1,
            Outcome::Interrupted => 130,
        }
    }
}

/// The exit code of a fatal error (bad arguments, unreadable file, a failed bank).
pub const FATAL: u8 = 2;

/// The command line's definition (for completions and the manual page).
fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    let result = match cli.command {
        Command::Solve(a) => batch(
            pseudoku::batch::Task::Solve { count: a.count },
            &a.input,
            a.threads,
        ),
        Command::Rate(a) => run_rate(&a),
        Command::Canon(a) => batch(
            pseudoku::batch::Task::Canon {
                grid: a.grid,
                json: a.json,
            },
            &a.input,
            a.threads,
        ),
        Command::Explain(a) => run_explain(&a),
        Command::Hint(a) => run_hint(&a),
        Command::Serve(a) => run_serve(&a),
        Command::Build(a) => run_build(&a),
        Command::Merge(a) => run_merge(&a),
        Command::Verify(a) => run_verify(&a),
        Command::Get(a) => run_get(&a),
        Command::Calibrate(a) => run_calibrate(&a),
        Command::Stats(a) => run_stats(&a),
        Command::Export(a) => run_export(&a),
        Command::Book(a) => run_book(&a),
        Command::History(HistoryCommand::Export(a)) => run_history(&a, true),
        Command::History(HistoryCommand::Import(a)) => run_history(&a, false),
        Command::Seeds(SeedsCommand::Mine(a)) => run_mine(&a),
        Command::Seeds(SeedsCommand::Import(a)) => run_import(&a),
        Command::Seeds(SeedsCommand::List(a)) => run_list(&a),
        Command::Unserve(a) => run_unserve(&a),
        Command::Help(a) => run_help(&a),
        Command::Completions(a) => run_completions(&a),
        Command::Man(a) => run_man(&a),
    };
    match result {
        // The reader of our output went away (`| head`): not an error.
        Err(e) if is_broken_pipe(&e) => Ok(Outcome::Success),
        other => other,
    }
}

fn run_help(args: &HelpArgs) -> anyhow::Result<Outcome> {
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

fn run_completions(args: &CompletionsArgs) -> anyhow::Result<Outcome> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command(), "pseudoku", &mut out);
    io::stdout().write_all(&out)?;
    Ok(Outcome::Success)
}

fn run_man(args: &ManArgs) -> anyhow::Result<Outcome> {
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

/// True when `e` is (or wraps) a broken-pipe I/O error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `1 file`, `2 files`.
fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `BadLines` when any line was bad.
fn lines_outcome(bad: usize) -> Outcome {
    Outcome::BadLines.when(bad > 0)
}

fn batch(
    task: pseudoku::batch::Task,
    input: &std::path::Path,
    threads: usize,
) -> anyhow::Result<Outcome> {
    use std::io::IsTerminal as _;
    if input.as_os_str() == "-" && io::stdin().is_terminal() {
        // Not a silent wait: say what is expected.
        warn!(
            "pseudoku: reading puzzles from standard input, one per line or as nine-line grids; \
             end with Ctrl-D (or give a FILE: pseudoku {} FILE)",
            task.name()
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    // A spinner with the count once the work has taken a second (quick runs show nothing).
    let bar = LateBar::new("{spinner} {msg}: {pos} puzzles, {per_sec}, {elapsed}");
    let summary = pseudoku::batch::run_with_progress(
        &task,
        input,
        &pool,
        &mut out,
        &mut io::stderr().lock(),
        &|n| {
            if let Some(b) = bar.shown() {
                b.set_message(task.name());
                b.set_position(n);
            }
        },
    )?;
    bar.finish();
    out.flush()?;
    Ok(lines_outcome(summary.bad as usize))
}

fn run_rate(args: &RateArgs) -> anyhow::Result<Outcome> {
    let levels = match &args.db {
        Some(db) => Some(Box::new(bank::levels::Levels::read(&bank::open_existing(
            db,
        )?)?)),
        None => None,
    };
    batch(
        pseudoku::batch::Task::Rate {
            runs: args.runs,
            json: args.json,
            levels,
        },
        &args.input,
        args.threads,
    )
}

/// The token a file holds (surrounding whitespace trimmed; an empty file is refused).
fn read_token(f: &std::path::Path) -> anyhow::Result<String> {
    let t = std::fs::read_to_string(f)
        .with_context(|| format!("reading the token file {}", f.display()))?;
    let t = t.trim().to_string();
    anyhow::ensure!(!t.is_empty(), "{}: the token file is empty", f.display());
    Ok(t)
}

fn run_serve(args: &ServeArgs) -> anyhow::Result<Outcome> {
    let token = args.token_file.as_deref().map(read_token).transpose()?;
    let page_token = args
        .page_token_file
        .as_deref()
        .map(read_token)
        .transpose()?;
    if let Some(t) = &page_token {
        anyhow::ensure!(
            t.bytes().all(|b| b.is_ascii_graphic() && !b"\"'<>&".contains(&b)),
            "the page token: printable characters without quotes, <, > or & (it is written into the page)"
        );
        anyhow::ensure!(
            Some(t) != token.as_ref(),
            "the page token must differ from the token (the page's is public to its players)"
        );
    }
    let secs = std::time::Duration::from_secs;
    let opts = bank::serve::ServeOptions {
        db: args.db.clone(),
        listen: args.listen,
        token,
        page_token,
        readers: args.readers as usize,
        rng_seed: args.rng_seed,
        limits: bank::serve::Limits {
            connections: args.max_connections as usize,
            per_client: args.max_per_client as usize,
            header_time: secs(args.header_timeout),
            drain: secs(args.drain),
            ..bank::serve::Limits::default()
        },
        request_time: secs(args.request_timeout),
        read_only: args.read_only,
        history: args.history.clone(),
        history_rebind: args.history_rebind,
        cors: args.cors.clone(),
    };
    bank::serve::run(
        &opts,
        |addr| {
            warn!(
                "pseudoku: serving {} on http://{addr}{}",
                args.db.display(),
                if args.read_only {
                    " (read-only: no deliveries)"
                } else if args.history.is_some() {
                    " (deliveries recorded in the fleet's history)"
                } else {
                    ""
                }
            );
        },
        |notice| warn!("{notice}"),
    )
    .with_context(|| format!("serving {}", args.db.display()))?;
    warn!("pseudoku: stopped");
    Ok(Outcome::Success)
}

fn run_history(args: &HistoryArgs, export: bool) -> anyhow::Result<Outcome> {
    let moved = if export {
        bank::history::export(&args.db, &args.url, args.rebind)
    } else {
        bank::history::import(&args.db, &args.url, args.rebind)
    }
    .with_context(|| format!("history {}", if export { "export" } else { "import" }))?;
    let (from, to) = if export {
        (args.db.display().to_string(), "the history".to_string())
    } else {
        ("the history".to_string(), args.db.display().to_string())
    };
    say!(
        "{from} -> {to}: {} deliveries ({} new{}), {} daily puzzles ({} new){}",
        moved.deliveries,
        moved.deliveries_added,
        match moved.lacking {
            0 => String::new(),
            n => format!(", {n} of classes this bank does not have left out"),
        },
        moved.daily,
        moved.daily_added,
        match moved.binding {
            bank::history::Binding::New => "; the history now records this bank",
            bank::history::Binding::Rebound => "; the history now records this bank (rebound)",
            bank::history::Binding::Same => "",
        }
    );
    Ok(Outcome::Success)
}

fn run_hint(args: &HintArgs) -> anyhow::Result<Outcome> {
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
    task.write_line(&entry, &mut line)
        .map_err(|why| anyhow::anyhow!("puzzle {id}: {why}"))?;
    let mut out = io::stdout().lock();
    if let Some(h) = task.header() {
        writeln!(out, "{h}")?;
    }
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(Outcome::Success)
}

fn run_explain(args: &ExplainArgs) -> anyhow::Result<Outcome> {
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
fn bank_puzzle(db: &std::path::Path, id: i64) -> anyhow::Result<pseudoku::Puzzle> {
    let conn = bank::open_existing(db)?;
    match bank::retrieve::puzzle(&conn, id)? {
        Some(puzzle) => Ok(puzzle),
        None => anyhow::bail!("{}: no puzzle with id {id}", db.display()),
    }
}

/// Set by Ctrl-C: a build stops after its current batch.
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A progress bar on standard error when it is a terminal (hidden otherwise).
fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    if io::stderr().is_terminal() {
        bar.set_style(
            indicatif::ProgressStyle::with_template(template)
                .expect("a valid template")
                .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

/// A progress bar that appears once the work has taken a second: quick runs show nothing.
struct LateBar {
    start: std::time::Instant,
    template: &'static str,
    bar: std::cell::OnceCell<indicatif::ProgressBar>,
}

impl LateBar {
    fn new(template: &'static str) -> LateBar {
        LateBar {
            start: std::time::Instant::now(),
            template,
            bar: std::cell::OnceCell::new(),
        }
    }

    /// The bar, once a second has passed.
    fn shown(&self) -> Option<&indicatif::ProgressBar> {
        if self.bar.get().is_none() && self.start.elapsed().as_secs() < 1 {
            return None;
        }
        Some(self.bar.get_or_init(|| progress_bar(0, self.template)))
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

/// The seed library a build uses: `path`, or the shipped one.
fn seed_library(path: Option<&std::path::Path>) -> anyhow::Result<bank::seeds::Library> {
    Ok(match path {
        Some(path) if !path.is_file() => {
            anyhow::bail!("{}: no such seed library file", path.display())
        }
        Some(path) => bank::seeds::Library::load(path)?,
        None => bank::seeds::Library::shipped(),
    })
}

fn run_build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    let lib = seed_library(args.seed_library.as_deref())?;
    // A second Ctrl-C while stopping is left to the default handler; ignore "already set".
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let opts = bank::BuildOptions {
        db: args.db.clone(),
        count: args.count,
        targets: args.targets().map_err(anyhow::Error::msg)?,
        per_level: args.per_level,
        layout: args.layout(),
        wait: args.wait,
        rating: args.rating,
        threads: args.threads,
        rng_seed: args.rng_seed,
        seed_library: args.seed_library.clone(),
        batch: args.batch.max(1),
        shard: args.shard.map(|s| bank::Shard {
            margin: args.margin,
            ..s
        }),
        spread: args.spread,
    };
    let start = std::time::Instant::now();
    let tty = io::stderr().is_terminal();
    let bar = progress_bar(
        args.count,
        "{elapsed_precise} [{bar:30}] {pos}/{len} stored, {msg} ETA {eta}",
    );
    let mut last_line = std::time::Instant::now();
    let prog = bank::build(&opts, &lib, &STOP, |p| {
        // This run's rate: a resumed build's earlier rows are not counted.
        let rate = (p.stored - p.at_start) as f64 / start.elapsed().as_secs_f64().max(1e-9);
        if tty {
            bar.set_position(p.stored);
            bar.set_message(format!("{} duplicates, {rate:.0}/s", p.duplicates));
        } else if last_line.elapsed().as_secs() >= 5 {
            warn!(
                "stored {}/{}, {} duplicates, {rate:.0}/s",
                p.stored, p.count, p.duplicates
            );
            last_line = std::time::Instant::now();
        }
    })?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let stopped = prog.stopped();
    if let Some(shard) = opts.shard {
        say!(
            "shard {shard}: {} {} puzzles in {}, {:.1} s; its share filled {} of {} places \
             of the quotas{}",
            if stopped { "stopped with" } else { "stored" },
            prog.rows,
            args.db.display(),
            secs,
            prog.stored,
            prog.count,
            if stopped {
                "; run the same command to continue"
            } else {
                "; merge the shards with `pseudoku merge OUT SHARD...`"
            }
        );
    } else {
        say!(
            "{} {} of {} puzzles in {}, {:.1} s ({} duplicates skipped, {} rejected){}",
            if stopped { "stopped:" } else { "stored" },
            prog.stored,
            prog.count,
            args.db.display(),
            secs,
            prog.duplicates,
            prog.rejected,
            if stopped {
                "; run the same command to continue"
            } else {
                ""
            }
        );
    }
    for t in bank::merged_targets(&prog.targets) {
        say!("{t}");
    }
    // Rules bind the builds of levels: say so when a build of a count or of bands ran past
    // levels that have them.
    if opts.per_level.is_none()
        && !opts
            .targets
            .iter()
            .any(|(a, _)| matches!(a, bank::Aim::Level(_)))
    {
        let ruled = bank::level_layouts(&bank::open_existing(&args.db)?)?;
        if !ruled.is_empty() {
            let list: Vec<String> = ruled.iter().map(|(n, l)| format!("{n} ({l})")).collect();
            warn!(
                "pseudoku: note: levels {} have layout rules, which bind builds of levels only: \
                 this build stored puzzles by their rating alone, so some may break their \
                 level's rules; build with --per-level or --level NAME to keep them",
                list.join(", ")
            );
        }
    }
    if !prog.targets.is_empty() {
        let bands = (opts.targets.iter())
            .filter(|(aim, _)| matches!(aim, bank::Aim::Band(_)))
            .count();
        let levels = opts.per_level.is_some() || opts.targets.len() > bands;
        let what = match (bands > 0, levels) {
            (true, true) => "bands and levels",
            (true, false) => "bands",
            _ => "levels",
        };
        say!(
            "{} puzzles fell outside the {what} still open",
            prog.off_band
        );
    }
    say!(
        "time by stage: the workers' CPU time for generation, uniqueness and canonical form \
         {:.1} s and rating {:.1} s; the writer's time inserting {:.1} s",
        prog.stages.generation.as_secs_f64(),
        prog.stages.rating.as_secs_f64(),
        prog.stages.insert.as_secs_f64()
    );
    Ok(Outcome::Interrupted.when(stopped))
}

fn run_merge(args: &MergeArgs) -> anyhow::Result<Outcome> {
    let _ = ctrlc::set_handler(|| STOP.store(true, std::sync::atomic::Ordering::Relaxed));
    let opts = bank::MergeOptions {
        out: args.out.clone(),
        inputs: args.inputs.clone(),
        wait: args.wait,
        commit_rows: 65_536,
    };
    let start = std::time::Instant::now();
    let done = bank::merge(&opts, &STOP, |m| {
        warn!("merged up to job {}: {} stored", m.next_job, m.stored);
    })?;
    if done.already {
        warn!(
            "{} already holds this merge of {} shards ({} puzzles): nothing to do",
            args.out.display(),
            done.shards,
            done.stored
        );
        return Ok(Outcome::Success);
    }
    warn!(
        "{} {} puzzles of {} shards into {} in {:.1} s ({} duplicates across shards, {} of \
         jobs whose quota was full, {} off the open levels){}",
        if done.complete { "stored" } else { "stopped:" },
        done.stored,
        done.shards,
        args.out.display(),
        start.elapsed().as_secs_f64(),
        done.duplicates,
        done.ignored,
        done.off,
        if done.complete {
            ""
        } else {
            "; run the same command to continue"
        }
    );
    Ok(Outcome::Interrupted.when(!done.complete))
}

fn run_unserve(args: &UnserveArgs) -> anyhow::Result<Outcome> {
    use bank::Unserved;
    let conn = bank::open_existing(&args.db)?;
    let mut kept = 0;
    for &id in &args.ids {
        match bank::unserve(&conn, id)? {
            Unserved::Back { was_served: true } => say!("{id}\tunserved"),
            Unserved::Back { was_served: false } => say!("{id}\tnot served"),
            Unserved::Missing => {
                kept += 1;
                warn!("pseudoku: {}: no puzzle with id {id}", args.db.display());
            }
            Unserved::Exported { date, slot } => {
                kept += 1;
                match date.strip_prefix("book:") {
                    Some(name) => warn!(
                        "pseudoku: puzzle {id} is number {slot} of the book {name}: left served \
                         (write that book with --replace first)"
                    ),
                    None => warn!(
                        "pseudoku: puzzle {id} is in the export of {date}, slot {slot}: left \
                         served (export that date with --replace first)"
                    ),
                }
            }
        }
    }
    Ok(Outcome::Mismatch.when(kept > 0))
}

fn run_get(args: &GetArgs) -> anyhow::Result<Outcome> {
    use bank::retrieve::Selector;
    if let Some(id) = args.id {
        let conn = bank::open_existing(&args.db)?;
        let levels = bank::levels::Levels::read(&conn)?;
        let Some(p) = bank::retrieve::by_id(&conn, &levels, id)? else {
            warn!("pseudoku: {}: no puzzle with id {id}", args.db.display());
            return Ok(Outcome::Short);
        };
        let mut out = io::stdout().lock();
        bank::retrieve::write(&mut out, &p, args.json)?;
        out.flush()?;
        // Marked once it is out: a puzzle that could not be written, or that the reader of a
        // pipe went away without reading, stays unserved.
        if args.mark_served {
            read_by_reader()?;
            bank::retrieve::mark_served(&conn, id)?;
        }
        return Ok(Outcome::Success);
    }
    let selector = match (&args.band, &args.percentile, &args.level) {
        (Some(b), _, _) => Selector::Band(*b),
        (_, Some(p), _) => Selector::Percentile(*p),
        (_, _, Some(l)) => Selector::Level(l.clone()),
        // clap requires --technique without any of them.
        _ => Selector::All,
    };
    let narrowing = bank::retrieve::Narrowing {
        technique: args.technique,
        named: match (&args.rating, &args.range) {
            (Some(name), Some(range)) => {
                Some(bank::retrieve::NamedAsk::parse(name, range).map_err(anyhow::Error::msg)?)
            }
            _ => None,
        },
    };
    let conn = bank::open_existing(&args.db)?;
    let rng_seed = args.rng_seed.unwrap_or_else(pseudoku::Rng::clock_seed);
    let mut rng = pseudoku::Rng::new(rng_seed);
    // With --mark-served, each puzzle is written, flushed, and (into a pipe) read by the
    // reader before the next: one that cannot be written (a closed pipe, a full disk) or that
    // the reader went away without reading stays unserved, and so do the rest.
    let mut out = BufWriter::new(io::stdout().lock());
    let mark = args.mark_served;
    let (levels, handed) = bank::retrieve::get(
        &conn,
        &selector,
        &narrowing,
        args.count as usize,
        mark,
        &mut rng,
        |p| {
            bank::retrieve::write(&mut out, p, args.json)?;
            if mark {
                out.flush()?;
                read_by_reader()?;
            }
            Ok(())
        },
    )?;
    out.flush()?;
    if (handed as u64) < args.count {
        let what = selector.describe(&levels, &narrowing);
        if handed == 0 {
            warn!("pseudoku: no unserved puzzle left in {what}");
        } else {
            warn!(
                "pseudoku: only {handed} unserved puzzles left in {what} ({} asked)",
                args.count
            );
        }
        return Ok(Outcome::Short);
    }
    Ok(Outcome::Success)
}

/// Waits until what was written to standard output has been read, when it is a pipe: a
/// line written into a pipe is the reader's only once it has read it (a pipe holds 64 KiB the
/// reader may never read). An error (a broken pipe) when the reader goes away first. Standard
/// output that is a file or a terminal has a line once it is flushed.
fn read_by_reader() -> io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::event::{poll, PollFd, PollFlags};
        use rustix::fs::FileType;
        let stdout = io::stdout();
        let is_pipe = rustix::fs::fstat(&stdout)
            .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Fifo);
        if !is_pipe {
            return Ok(());
        }
        let mut pause = std::time::Duration::from_micros(20);
        loop {
            match rustix::io::ioctl_fionread(&stdout) {
                Ok(0) | Err(_) => return Ok(()),
                Ok(_) => {}
            }
            // A pipe whose reader is gone polls as an error.
            let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
            let _ = poll(&mut fds, Some(&rustix::event::Timespec::default()));
            if fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP) {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(5));
        }
    }
    #[cfg(not(unix))]
    Ok(())
}

fn run_calibrate(args: &CalibrateArgs) -> anyhow::Result<Outcome> {
    use bank::levels::{self as calibrate, Corpus, LevelChange};
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
    if let Some(path) = &args.from {
        anyhow::ensure!(path.is_file(), "{}: no such file", path.display());
        if let Some(name) = &args.named {
            spin.set_message(format!("rating and fitting {}", path.display()));
            let fit = pool.install(|| bank::levels::fit_numbers_file(path))?;
            let summary = bank::levels::numbers_summary(&fit, name);
            spin.suspend(|| io::stdout().write_all(summary.as_bytes()))?;
            spin.set_message("valuing the stored puzzles");
            let n = pool.install(|| {
                bank::levels::store_named(&mut conn, name, &fit.regression, &|rows| {
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
            let (rating, _) = bank::levels::stored_levels(&conn)?;
            let rating = args.rating.unwrap_or(rating);
            spin.set_message(format!("rating and fitting {}", path.display()));
            let fit =
                pool.install(|| bank::levels::fit_file(path, args.levels.as_ref(), rating))?;
            let summary = bank::levels::summary(&fit, rating);
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
            levels = Some(match fit.kept_model() {
                Some(model) => LevelChange::Learned(fit.set.clone(), model.clone()),
                None => LevelChange::Set(fit.set),
            });
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
        levels.get_or_insert(LevelChange::Names(bank::levels::LevelNames::default()));
    }
    let change = calibrate::Calibration {
        reference,
        rating: args.rating,
        levels,
        layouts,
        force: args.force,
        names_given: args.levels.is_some(),
    };
    let before = bank::levels::level_counts(&conn)?;
    spin.set_message("recomputing every stored level");
    let (levels, n) = pool.install(|| {
        calibrate::calibrate_with_progress(&mut conn, &change, &|rows| {
            spin.set_message(format!(
                "re-rating the stored puzzles for the model: {rows}"
            ))
        })
    })?;
    spin.finish_and_clear();
    let description = bank::levels::reference_description(&conn)?.unwrap_or_default();
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
    let after = bank::levels::level_counts(&conn)?;
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

fn run_export(args: &ExportArgs) -> anyhow::Result<Outcome> {
    let start = bank::export::parse_date(&args.start)?;
    let print = print_options(args)?;
    let mut conn = bank::open_existing(&args.db)?;
    let opts = bank::export::ExportOptions {
        start,
        days: args.days,
        mix: args.mix.clone(),
        format: output_format(args.format, &args.print),
        out: args.out.clone(),
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
    let report = bank::export::export_with_progress(&mut conn, &opts, &|stage, done, total| {
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
        return Ok(Outcome::Short.when(!report.shortages.is_empty()));
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
            (Some(a), Some(b)) if a.date != b.date => format!("{} to {}", a.date, b.date),
            (Some(a), _) => a.date.clone(),
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
    warn!(
        "exported {} ({} new, {} as exported before) in {} to {}",
        plural(report.puzzles, "puzzle"),
        report.new,
        report.puzzles - report.new,
        plural(report.files.len(), "file"),
        args.out.display()
    );
    Ok(Outcome::Short.when(!report.shortages.is_empty()))
}

/// The dates an export replaced, grouped by the mix they had been recorded with (in the order
/// of their first date).
fn replaced_by_mix(
    replaced: &[bank::export::Replaced],
) -> Vec<(&str, Vec<&bank::export::Replaced>)> {
    let mut out: Vec<(&str, Vec<&bank::export::Replaced>)> = Vec::new();
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
fn print_options(args: &ExportArgs) -> anyhow::Result<bank::export::PrintOptions> {
    let only = [("--page-per-day", args.page_per_day), ("--book", args.book)];
    if args.print.cover && !(args.single_file || args.book) {
        anyhow::bail!(
            "--cover is the cover of one file: add --single-file or --book (a book's cover)"
        );
    }
    Ok(bank::export::PrintOptions {
        page_per_day: args.page_per_day,
        book: args.book,
        ..printed_pages(&args.print, output_format(args.format, &args.print), &only)?
    })
}

/// The format files are written in: `--per-puzzle`'s, else `--format`'s.
fn output_format(format: bank::export::Format, print: &PrintArgs) -> bank::export::Format {
    print.per_puzzle.unwrap_or(format)
}

/// Whether each grid goes in a file of its own.
fn per_puzzle(format: bank::export::Format, print: &PrintArgs) -> bool {
    print.per_puzzle.is_some() || format.single_grid()
}

/// The printed pages' options shared by `export` and `book`, with `more` (flags of the
/// command, and whether each was given): an error when one is given for a format that is not
/// printed.
fn printed_pages(
    args: &PrintArgs,
    format: bank::export::Format,
    more: &[(&str, bool)],
) -> anyhow::Result<bank::export::PrintOptions> {
    use bank::export::{Format, PrintOptions};
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
    })
}

fn run_book(args: &BookArgs) -> anyhow::Result<Outcome> {
    let format = output_format(args.format, &args.print);
    let print = printed_pages(&args.print, format, &[])?;
    let mut conn = bank::open_existing(&args.db)?;
    let opts = bank::export::BookOptions {
        name: args.name.clone(),
        mix: args.mix.clone(),
        format,
        per_puzzle: per_puzzle(format, &args.print),
        out: args.out.clone(),
        replace: args.replace,
        reprint: args.reprint,
        print: bank::export::PrintOptions {
            title: args.print.title.clone().or_else(|| Some(args.name.clone())),
            ..print
        },
        rng_seed: args.rng_seed,
    };
    let report = bank::export::book(&mut conn, &opts)?;
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

fn run_stats(args: &StatsArgs) -> anyhow::Result<Outcome> {
    let conn = bank::open_existing(&args.db)?;
    let inv = bank::stats::read(&conn)?;
    if let Some(path) = &args.plot {
        bank::stats::draw(&inv, path)?;
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

fn run_verify(args: &VerifyArgs) -> anyhow::Result<Outcome> {
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

fn run_list(args: &ListArgs) -> anyhow::Result<Outcome> {
    let at = &args.library;
    if let Some(file) = &at.library {
        io::stdout().write_all(bank::seeds::Library::load(file)?.summary().as_bytes())?;
        return Ok(Outcome::Success);
    }
    let base = seed_library(at.seed_library.as_deref())?;
    let n = base.seeds.len();
    // A bank that does not exist yet has no imports (and is not created by listing).
    let (lib, imported) = if at.db.is_file() {
        let conn = bank::open_existing(&at.db)?;
        bank::seeds::with_imports(&conn, base)?
    } else {
        (base, 0)
    };
    io::stdout().write_all(lib.summary().as_bytes())?;
    say!(
        "library {n} + imported into {} {imported}: the seeds `pseudoku build` uses",
        at.db.display()
    );
    Ok(Outcome::Success)
}

fn run_import(args: &ImportArgs) -> anyhow::Result<Outcome> {
    let at = &args.library;
    let (done, total) = match &at.library {
        Some(file) => {
            let mut lib = bank::seeds::Library::load(file)?;
            let done = lib.import(&args.input)?;
            lib.save(file)?;
            (done, format!("library: {} seeds", lib.seeds.len()))
        }
        None => {
            let base = seed_library(at.seed_library.as_deref())?;
            let n = base.seeds.len();
            // A missing input creates no bank.
            anyhow::ensure!(
                args.input.as_os_str() == "-" || args.input.is_file(),
                "{}: no such file",
                args.input.display()
            );
            let _lock = bank::WriterLock::acquire(&at.db, "seeds import", args.wait)?;
            let conn = bank::open(&at.db)?;
            let (done, imported) = bank::seeds::import(&conn, &args.input, base)?;
            (
                done,
                format!("library {n} + imported into {} {imported}", at.db.display()),
            )
        }
    };
    for line in &done.bad {
        warn!("{line}");
    }
    say!(
        "imported {}, already in the library {}, bad lines {}; {total}",
        done.added,
        done.duplicates,
        done.bad.len(),
    );
    Ok(lines_outcome(done.bad.len()))
}

fn run_mine(args: &MineArgs) -> anyhow::Result<Outcome> {
    let opts = bank::seeds::MineOptions {
        tier: args.tier,
        count: args.count,
        threads: args.threads,
        rng_seed: args.rng_seed,
        max_jobs: args.max_jobs,
        climb: args.climb,
        out: args.out.clone(),
    };
    let bar = indicatif::ProgressBar::new(args.max_jobs);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} {pos}/{len} candidates {msg}")
            .expect("a valid template"),
    );
    let start = std::time::Instant::now();
    let (lib, jobs) = bank::seeds::mine(&opts, |jobs, have| {
        bar.set_position(jobs);
        bar.set_message(format!(
            "tier 1: {}  2: {}  3: {}  4: {}  5+: {}",
            have[1], have[2], have[3], have[4], have[5]
        ));
    })?;
    bar.finish();
    if jobs == 0 {
        warn!(
            "{} already has the seeds --count asks for in every tier: nothing mined (write a new \
             library with --out NEW.tsv, or ask for more with a larger --count)",
            args.out.display()
        );
    } else {
        warn!(
            "mined {jobs} candidates in {:.1?}; library {}: {} seeds",
            start.elapsed(),
            args.out.display(),
            lib.seeds.len()
        );
    }
    io::stdout().write_all(lib.summary().as_bytes())?;
    Ok(Outcome::Success)
}
