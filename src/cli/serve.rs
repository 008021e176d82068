//! `serve` and `history`: the HTTP server started from its flags, and a fleet's delivery history
//! exported or imported.

use super::*;
use pseudoku::serve::Recording;

/// The token a file holds (surrounding whitespace trimmed; an empty file is refused).
pub(super) fn read_token(f: &std::path::Path) -> anyhow::Result<String> {
    let t = std::fs::read_to_string(f)
        .with_context(|| format!("reading the token file {}", f.display()))?;
    let t = t.trim().to_string();
    anyhow::ensure!(!t.is_empty(), "{}: the token file is empty", f.display());
    Ok(t)
}

/// Runs `serve`.
pub(super) fn run_serve(args: &ServeArgs) -> anyhow::Result<Outcome> {
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
    // Held until the server returns: dropping it writes out the log lines still queued.
    let _log = init_log(args.log_format);
    let secs = std::time::Duration::from_secs;
    let opts = pseudoku::serve::ServeOptions {
        db: args.db.clone(),
        listen: args.listen,
        token,
        page_token,
        readers: args.readers as usize,
        rng_seed: args.rng_seed.unwrap_or_else(pseudoku::Rng::clock_seed),
        limits: pseudoku::serve::Limits {
            connections: args.max_connections as usize,
            per_client: args.max_per_client as usize,
            header_time: secs(args.header_timeout),
            drain: secs(args.drain),
            ..pseudoku::serve::Limits::default()
        },
        request_time: secs(args.request_timeout),
        recording: match &args.history {
            Some(history) => Recording::Fleet {
                history: history.clone(),
                rebind: args.history_rebind,
            },
            None if args.read_only => Recording::ReadOnly,
            None => Recording::Bank,
        },
        cors: args.cors.clone(),
        new_players_per_address: args.new_players_per_address as u32,
        new_players_per_day: args.new_players_per_day as u32,
    };
    pseudoku::serve::run(
        &opts,
        |addr| {
            tracing::info!(
                target: LIFECYCLE,
                "serving {} on http://{addr} (draws seeded {}){}",
                args.db.display(),
                opts.rng_seed,
                match opts.recording {
                    Recording::ReadOnly => " (read-only: no deliveries)",
                    Recording::Fleet { .. } => " (deliveries recorded in the fleet's history)",
                    Recording::Bank => "",
                }
            );
        },
        |notice| tracing::warn!("{notice}"),
    )
    .with_context(|| format!("serving {}", args.db.display()))?;
    tracing::info!(target: LIFECYCLE, "stopped");
    Ok(Outcome::Success)
}

/// The target of the server's start (its address, which scripts read from the first line),
/// drain and stop: said whatever `RUST_LOG` filters out.
const LIFECYCLE: &str = "pseudoku::lifecycle";

/// The server's log on standard error, written as `format` says, its level from `RUST_LOG`
/// (`info` when unset or unreadable), the start, drain and stop always.
fn init_log(format: LogFormat) -> tracing_appender::non_blocking::WorkerGuard {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info"))
        .add_directive(
            format!("{LIFECYCLE}=info")
                .parse()
                .expect("a valid directive"),
        );
    // A thread of its own writes the lines, so that no request waits for stderr; when its
    // queue is full the request waits rather than lose a line.
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("pseudoku-log")
        .finish(io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_target(false);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    guard
}

/// Runs `history export` (`export`) or `history import`.
pub(super) fn run_history(args: &HistoryArgs, export: bool) -> anyhow::Result<Outcome> {
    let moved = if export {
        pseudoku::history::export(&args.db, &args.url, args.rebind)
    } else {
        pseudoku::history::import(&args.db, &args.url, args.rebind)
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
            pseudoku::history::Binding::New => "; the history now records this bank",
            pseudoku::history::Binding::Rebound => "; the history now records this bank (rebound)",
            pseudoku::history::Binding::Same => "",
        }
    );
    Ok(Outcome::Success)
}
