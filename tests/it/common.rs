//! Helpers shared by the integration tests: the binary, bank builds, and one-value queries.

use assert_cmd::Command;
use rusqlite::types::FromSql;
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// The `pseudoku` binary.
pub fn pseudoku() -> Command {
    Command::cargo_bin("pseudoku").unwrap()
}

/// `pseudoku ARGS... --db DB`, ready to run: a command on a bank. Each argument is anything
/// `Command::arg` takes (a `&str`, a path).
macro_rules! on_bank {
    ($db:expr; $($arg:expr),* $(,)?) => {{
        let mut command = $crate::common::pseudoku();
        $(command.arg($arg);)*
        command.arg("--db").arg($db);
        command
    }};
}

/// `build --per-band N --bands M --threads T` into `db`; checks every quota was met.
pub fn build_bands(db: &Path, per_band: u64, bands: u32, threads: u32) {
    on_bank!(
        db;
        "build",
        "--per-band",
        &per_band.to_string(),
        "--bands",
        &bands.to_string(),
        "--threads",
        &threads.to_string(),
    )
    .assert()
    .success()
    .stdout(predicates::str::contains(format!(
        "{per_band} of {per_band} stored"
    )));
}

/// `build --per-level N --threads T` into `db` (the bank's default levels); checks every
/// quota was met.
pub fn build_levels(db: &Path, per_level: u64, threads: u32) {
    on_bank!(db; "build", "--per-level", &per_level.to_string(), "--threads", &threads.to_string())
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "{per_level} of {per_level} stored"
        )));
}

/// `build --count N --threads T` into `db`.
pub fn build(db: &Path, count: u64, threads: u32) {
    on_bank!(db; "build", "--count", &count.to_string(), "--threads", &threads.to_string())
        .assert()
        .success();
}

/// `pseudoku COMMAND ARGS --db DB --out OUT` (export, book), run to its end.
pub fn run_out(command: &str, db: &Path, out: &Path, args: &[&str]) -> std::process::Output {
    pseudoku()
        .arg(command)
        .args(args)
        .arg("--db")
        .arg(db)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// `pseudoku ARGS`, run to the end: its status and output.
pub fn run_cli(args: &[&str]) -> std::process::Output {
    pseudoku().args(args).output().unwrap()
}

/// Output bytes as text (lossy).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A hard puzzle with one solution (17 clues).
pub const P: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// An easy puzzle with one solution.
pub const Q: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The bank's puzzles with their `difficulty`, easiest first.
pub fn rated_puzzles(conn: &Connection) -> Vec<(String, f64)> {
    conn.prepare("SELECT puzzle, difficulty FROM puzzles_text ORDER BY difficulty, id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The bank `conn` is open on, opened again through the store (for the library's functions,
/// which take the store's [`pseudoku::store::Bank`]).
pub fn bank_of(conn: &Connection) -> pseudoku::store::Bank {
    let path = conn.path().expect("a bank on a file");
    pseudoku::store::open(Path::new(path)).unwrap()
}

/// The one value of a query without parameters.
pub fn scalar<T: FromSql>(conn: &Connection, sql: &str) -> T {
    conn.query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The first column of every row of a query without parameters.
pub fn column<T: FromSql>(conn: &Connection, sql: &str) -> Vec<T> {
    conn.prepare(sql)
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// `pseudoku serve` over `db` on a free port of localhost (plus `extra` arguments): the running
/// child and its base URL, read from its first line on stderr.
pub fn serve(db: &Path, extra: &[&str]) -> (std::process::Child, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"));
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(extra);
    started(cmd)
}

/// `cmd` (a `serve` on port 0 of localhost) started: the running child and its base URL, read
/// from its first line on stderr; the rest of its log is read and dropped as it comes (a log
/// no one reads would fill the pipe and stall the server).
pub fn started(mut cmd: std::process::Command) -> (std::process::Child, String) {
    use std::io::BufRead as _;
    let mut child = cmd.stderr(std::process::Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    let mut log = std::io::BufReader::new(child.stderr.take().unwrap());
    log.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, format!("http://{addr}"))
}

/// The first of `names` found on the PATH (or an existing absolute path among them).
pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|name| {
        let path = PathBuf::from(name);
        if path.is_absolute() {
            return path.is_file().then_some(path);
        }
        let out = std::process::Command::new("which")
            .arg(name)
            .output()
            .ok()?;
        let found = String::from_utf8(out.stdout).ok()?;
        let found = found.trim();
        (out.status.success() && !found.is_empty()).then(|| PathBuf::from(found))
    })
}

/// A TCP port of this test process's own, free now, for a program that must be told its
/// port (a database, a browser driver, a server restarted on the port it had). It lies below
/// the kernel's range of ports for `bind(0)`, from which every server the tests start on port
/// 0 takes its own, so no such server can take it between now and its use, or between a stop
/// and a restart on it; and each call gives another (a counter from a place of the process's
/// own, a port in use passed over).
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // The kernel hands out ports of `bind(0)` from its ephemeral range (32768 and up, unless
    // configured otherwise): stay below it.
    let low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|r| r.split_whitespace().next()?.parse::<u32>().ok())
        .unwrap_or(32_768);
    let (from, span) = if low > 12_000 {
        (10_000, low - 10_000)
    } else {
        (61_000, 4_000)
    };
    let start = (std::process::id() * 97) % span;
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        assert!(n < span, "no free port left below the ephemeral range");
        let port = (from + (start + n) % span) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

/// True when the tests run as root (file permissions do not stop a write; daemons and
/// services that refuse root are run as their own users).
pub fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// The standard output of `cmd` (`what` names it in the failure), which must succeed,
/// trimmed.
pub fn succeed(cmd: &mut std::process::Command, what: &str) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The level of a puzzle rated `rating` on `levels`, which have no extreme level (where the
/// hardest step decides nothing).
pub fn level_by_rating(levels: &pseudoku::levels::LevelSet, rating: f64) -> usize {
    assert_eq!(
        levels.extreme(),
        None,
        "the extreme level needs the hardest step"
    );
    levels.of(rating, pseudoku::rate::Strategy::NakedSingle)
}

/// What an HTTP request got: the status and the JSON body (a body that is not JSON as a
/// string), errors included; `None` when no answer came (the server is gone).
pub fn reply(r: Result<ureq::Response, ureq::Error>) -> Option<(u16, serde_json::Value)> {
    let resp = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(ureq::Error::Transport(_)) => return None,
    };
    let status = resp.status();
    let text = resp.into_string().ok()?;
    Some((
        status,
        serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
    ))
}

/// The learned ratings of a bank: `player:USER` or `puzzle:ID` -> (rating, deviation, rated
/// results), rating and deviation in millionths.
pub fn learned_ratings(db: &Path) -> std::collections::BTreeMap<String, (i64, i64, i64)> {
    let conn = Connection::open(db).unwrap();
    let mut all = std::collections::BTreeMap::new();
    for (table, key, name) in [
        ("player_ratings", "user", "player"),
        ("puzzle_ratings", "puzzle_id", "puzzle"),
    ] {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT CAST({key} AS TEXT), rating, deviation, results FROM {table}"
            ))
            .unwrap();
        let rows = stmt
            .query_map([], |r| {
                let (k, a, b): (String, f64, f64) = (r.get(0)?, r.get(1)?, r.get(2)?);
                Ok((
                    format!("{name}:{k}"),
                    (
                        (a * 1e6).round() as i64,
                        (b * 1e6).round() as i64,
                        r.get(3)?,
                    ),
                ))
            })
            .unwrap();
        all.extend(rows.map(Result::unwrap));
    }
    all
}

/// Says that the tests of `group` skip, and why, once per group and where the test run's
/// output shows it: written to the process's standard error itself, which the harness does
/// not capture (it shows what a test prints with `eprintln!` only when the test fails).
pub fn skipping(group: &str, why: impl std::fmt::Display) {
    use std::io::Write as _;
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if !said.iter().any(|g| g == group) {
        said.push(group.to_string());
        let _ = writeln!(std::io::stderr(), "SKIPPED {group}: {why}");
    }
}
