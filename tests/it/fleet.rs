//! A fleet: several `serve --history postgres://...` processes, each on its own copy of one
//! bank, recording in one PostgreSQL history; no user gets a class twice whichever server
//! answers, a server killed with SIGKILL loses no delivery its clients received, the bank
//! identity is checked, and `history export|import` move a bank's history there and back.
//!
//! Each test starts a throwaway PostgreSQL cluster (Debian's `postgresql`: `initdb` and
//! `pg_ctl` in a temporary folder, as the unprivileged `postgres` user when run as root). It
//! skips with a message where PostgreSQL is not installed, unless `PSEUDOKU_REQUIRE_POSTGRES`
//! is set (CI sets it and installs the package), which makes that a failure.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// A PostgreSQL cluster in a temporary folder on a free port; stopped when dropped.
struct Cluster {
    _dir: tempfile::TempDir,
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// The newest PostgreSQL server programs installed (Debian keeps them out of the PATH).
fn postgres_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| Some(e.ok()?.path().join("bin")))
        .filter(|bin| bin.join("initdb").is_file() && bin.join("pg_ctl").is_file())
        .collect();
    found.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok())
            .unwrap_or(0)
    });
    found.pop()
}

impl Cluster {
    /// A started cluster with the trusted superuser `pseudoku`, or `None` (after saying why)
    /// where PostgreSQL is not installed and not required.
    fn start() -> Option<Cluster> {
        let Some(bin) = postgres_bin() else {
            assert!(
                std::env::var_os("PSEUDOKU_REQUIRE_POSTGRES").is_none(),
                "PSEUDOKU_REQUIRE_POSTGRES is set, but no PostgreSQL is installed \
                 (/usr/lib/postgresql/*/bin/initdb)"
            );
            crate::common::skipping(
                "the fleet tests",
                "no PostgreSQL (apt-get install postgresql)",
            );
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        // initdb refuses root: the cluster is the `postgres` user's, in a folder it can use.
        let as_postgres = crate::common::is_root();
        if as_postgres {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        let cluster = Cluster {
            data: dir.path().join("data"),
            _dir: dir,
            bin,
            port: crate::common::free_port(),
            as_postgres,
        };
        let data = cluster.data.display().to_string();
        cluster.run(
            "initdb",
            &["-D", &data, "-A", "trust", "-U", "pseudoku", "-E", "UTF8"],
        );
        cluster.resume();
        Some(cluster)
    }

    /// Starts the server (again).
    fn resume(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self._dir.path().display()
        );
        let log = self._dir.path().join("log").display().to_string();
        let data = self.data.display().to_string();
        self.run(
            "pg_ctl",
            &["-D", &data, "-o", &options, "-l", &log, "-w", "start"],
        );
    }

    /// Stops the server (its clients' connections are cut).
    fn pause(&self) {
        let data = self.data.display().to_string();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"]);
    }

    /// Every process of the server (the postmaster and its children).
    fn processes(&self) -> Vec<u32> {
        let pid = std::fs::read_to_string(self.data.join("postmaster.pid")).unwrap();
        let main: u32 = pid.lines().next().unwrap().trim().parse().unwrap();
        let mut all = vec![main];
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // pid (comm) state ppid ...: the fields after the last ')'.
            let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
            let ppid = after.split_whitespace().nth(1).and_then(|p| p.parse().ok());
            if ppid == Some(main) {
                all.extend(
                    entry
                        .file_name()
                        .to_str()
                        .and_then(|n| n.parse::<u32>().ok()),
                );
            }
        }
        all
    }

    /// Sends `signal` to every process of the server.
    fn signal(&self, signal: &str) {
        for pid in self.processes() {
            let _ = Command::new("kill")
                .args([signal, &pid.to_string()])
                .status();
        }
    }

    /// Freezes the server as a hung host would (SIGSTOP to every process: connections stay
    /// open, nothing answers).
    fn freeze(&self) {
        self.signal("-STOP");
    }

    /// Thaws a frozen server.
    fn thaw(&self) {
        self.signal("-CONT");
    }

    /// Runs a PostgreSQL program (as `postgres` when root), which must succeed.
    fn run(&self, program: &str, args: &[&str]) -> String {
        let path = self.bin.join(program);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        crate::common::succeed(
            cmd.args(args).current_dir("/"),
            &format!("{program} {args:?}"),
        )
    }

    /// The address of database `db`.
    fn url(&self, db: &str) -> String {
        format!("postgres://pseudoku@127.0.0.1:{}/{db}", self.port)
    }

    /// A new empty database: its address.
    fn database(&self, name: &str) -> String {
        self.sql("postgres", &format!("CREATE DATABASE {name}"));
        self.url(name)
    }

    /// The rows `sql` gives on database `db`, one line each, columns split by `|`.
    fn sql(&self, db: &str, sql: &str) -> String {
        let port = self.port.to_string();
        self.run(
            "psql",
            &[
                "-At",
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "pseudoku",
                "-d",
                db,
                "-c",
                sql,
            ],
        )
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // A frozen server would not stop.
        if self.data.join("postmaster.pid").exists() {
            self.thaw();
        }
        let data = self.data.display().to_string();
        let _ = std::panic::catch_unwind(|| {
            self.run("pg_ctl", &["-D", &data, "-m", "immediate", "stop"]);
        });
    }
}

/// A `serve` process; SIGTERM when dropped (unless killed).
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(db: &Path, history: &str) -> Server {
        let (child, base) = crate::common::serve(db, &["--history", history]);
        Server { child, base }
    }

    /// A server recording in the bank alone (no history).
    fn start_alone(db: &Path) -> Server {
        let (child, base) = crate::common::serve(db, &[]);
        Server { child, base }
    }

    fn kill9(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    fn stop(mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let status = self.child.wait().unwrap();
        std::mem::forget(self);
        status
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A server killed already is gone: nothing to say.
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stderr(std::process::Stdio::null())
            .status();
        let _ = self.child.wait();
    }
}

/// What a request got: an answer (status, JSON), or no answer (the server is gone).
fn ask(agent: &ureq::Agent, method: &str, url: &str) -> Option<(u16, Value)> {
    crate::common::reply(agent.request(method, url).call())
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build()
}

/// What `serve` on `db` with the history `history` says when it refuses to start (exit 2).
fn refused(db: &Path, history: &str) -> String {
    let out = crate::common::pseudoku()
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--history",
            history,
            "--db",
        ])
        .arg(db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Two copies of one bank of `per_level` puzzles a level.
fn two_copies(dir: &Path, per_level: u64) -> (PathBuf, PathBuf) {
    let db = dir.join("bank.db");
    crate::common::build_levels(&db, per_level, 2);
    let (a, b) = (dir.join("a.db"), dir.join("b.db"));
    std::fs::copy(&db, &a).unwrap();
    std::fs::copy(&db, &b).unwrap();
    (a, b)
}

/// A bank of `per_level` puzzles a level in a temporary folder: the folder and the bank.
fn one_bank(per_level: u64) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    crate::common::build_levels(&db, per_level, 2);
    (dir, db)
}

/// The history's deliveries: user -> the puzzle ids given.
fn table(cluster: &Cluster, db: &str) -> BTreeMap<String, Vec<i64>> {
    let mut rows: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    let out = cluster.sql(db, "SELECT user_id, puzzle_id FROM pseudoku_user_history");
    for line in out.lines().filter(|l| !l.is_empty()) {
        let (user, id) = line.split_once('|').unwrap();
        rows.entry(user.to_string())
            .or_default()
            .push(id.parse().unwrap());
    }
    rows
}

#[test]
fn two_servers_on_copies_of_one_bank_never_give_a_user_a_class_twice() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_copies(dir.path(), 40);
    let history = cluster.database("fleet");
    // Both started at once on the empty history: they take turns to make it, both serve.
    let servers = std::thread::scope(|s| {
        let first = s.spawn(|| Server::start(&a, &history));
        let second = s.spawn(|| Server::start(&b, &history));
        [first.join().unwrap(), second.join().unwrap()]
    });
    // 8 clients: client c is user u(c mod 4) on server (c mod 2), so every user is asked for
    // by two clients at once on two servers, until the level is used up for the user.
    let got: Mutex<BTreeMap<String, Vec<i64>>> = Mutex::new(BTreeMap::new());
    let ends: Mutex<Vec<(u16, String)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for c in 0..8 {
            let (got, ends, server) = (&got, &ends, &servers[c % 2]);
            s.spawn(move || {
                let agent = agent();
                let user = format!("u{}", c % 4);
                let url = format!("{}/v1/puzzles/next?user={user}&level=easy", server.base);
                for _ in 0..60 {
                    let (status, v) = ask(&agent, "POST", &url).expect("the server answers");
                    if status != 200 {
                        ends.lock().unwrap().push((status, v["error"].to_string()));
                        return;
                    }
                    let id = v["id"].as_i64().unwrap();
                    got.lock()
                        .unwrap()
                        .entry(user.clone())
                        .or_default()
                        .push(id);
                }
                panic!("{user} got more than the level holds");
            });
        }
    });
    let got = got.into_inner().unwrap();
    // Each user got the level's 40 puzzles exactly once, over both servers.
    assert_eq!(got.len(), 4);
    for (user, ids) in &got {
        let distinct: BTreeSet<_> = ids.iter().collect();
        assert_eq!(ids.len(), 40, "{user}: {ids:?}");
        assert_eq!(distinct.len(), 40, "{user} got a class twice: {ids:?}");
    }
    // Every client then heard that the user had had them all.
    let ends = ends.into_inner().unwrap();
    assert_eq!(ends.len(), 8);
    for (status, reason) in &ends {
        assert_eq!(*status, 404, "{reason}");
        assert!(
            reason.contains("has had every puzzle of level easy"),
            "{reason}"
        );
    }
    // The table holds exactly what was handed out.
    let recorded = table(&cluster, "fleet");
    for (user, ids) in &got {
        let mut ids = ids.clone();
        ids.sort_unstable();
        let mut rows = recorded[user].clone();
        rows.sort_unstable();
        assert_eq!(rows, ids, "{user}");
    }

    // The daily puzzle asked of both servers at once: one, the same from both, recorded once.
    let today = cluster.sql(
        "postgres",
        "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    );
    let dailies: Vec<Value> = std::thread::scope(|s| {
        let asks: Vec<_> = (0..4)
            .map(|i| {
                let url = format!("{}/v1/daily?date={today}&level=hard", servers[i % 2].base);
                s.spawn(move || ask(&agent(), "GET", &url).unwrap())
            })
            .collect();
        asks.into_iter()
            .map(|h| {
                let (status, v) = h.join().unwrap();
                assert_eq!(status, 200, "{v}");
                v
            })
            .collect()
    });
    assert!(
        dailies.iter().all(|v| v["id"] == dailies[0]["id"]),
        "{dailies:?}"
    );
    let daily = cluster.sql("fleet", "SELECT day, level, puzzle_id FROM pseudoku_daily");
    assert_eq!(daily, format!("{today}|hard|{}", dailies[0]["id"]));

    // A server on another bank is refused, and says why.
    let other = dir.path().join("other.db");
    crate::common::build_levels(&other, 5, 2);
    let err = refused(&other, &history);
    assert!(err.contains("was recorded against bank"), "{err}");
    assert!(err.contains("--history-rebind"), "{err}");
    for server in servers {
        assert_eq!(server.stop().code(), Some(0));
    }

    // A refresh: a build adds 10 puzzles a level to the bank (its id stays); a server
    // restarted on a new copy serves, and its users get the new puzzles, once each; a server
    // on an old copy is then refused.
    let db = dir.path().join("bank.db");
    crate::common::build_levels(&db, 10, 2);
    std::fs::copy(&db, &b).unwrap();
    let refreshed = Server::start(&b, &history);
    let url = format!("{}/v1/puzzles/next?user=u0&level=easy", refreshed.base);
    let mut fresh = BTreeSet::new();
    while let Some((200, v)) = ask(&agent(), "POST", &url) {
        fresh.insert(v["id"].as_i64().unwrap());
    }
    assert_eq!(fresh.len(), 10, "the level's 10 new puzzles: {fresh:?}");
    assert!(fresh.iter().all(|id| !got["u0"].contains(id)));
    assert_eq!(refreshed.stop().code(), Some(0));
    let err = refused(&a, &history);
    assert!(err.contains("this copy of the bank is older"), "{err}");
}

#[test]
fn a_server_killed_mid_load_loses_nothing_its_clients_received() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_copies(dir.path(), 150);
    let history = cluster.database("fleet");
    let mut first = Server::start(&a, &history);
    let second = Server::start(&b, &history);
    let bases = [first.base.clone(), second.base.clone()];
    // 8 clients, each a user, half on each server; a client whose server stops answering
    // asks the other from then on (as a load balancer would send it).
    const ASKS: usize = 100;
    let delivered = AtomicUsize::new(0);
    let got: Mutex<BTreeMap<String, Vec<i64>>> = Mutex::new(BTreeMap::new());
    let failovers = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for c in 0..8 {
            let (got, delivered, failovers, bases) = (&got, &delivered, &failovers, &bases);
            s.spawn(move || {
                let agent = agent();
                let user = format!("k{c}");
                let mut on = c % 2;
                let mut ids = Vec::new();
                while ids.len() < ASKS {
                    let url = format!("{}/v1/puzzles/next?user={user}&level=easy", bases[on]);
                    match ask(&agent, "POST", &url) {
                        Some((200, v)) => {
                            ids.push(v["id"].as_i64().unwrap());
                            delivered.fetch_add(1, Ordering::Relaxed);
                        }
                        Some((status, v)) => panic!("{user}: {status} {v}"),
                        None => {
                            assert_eq!(on, 0, "{user}: the surviving server stopped answering");
                            on = 1;
                            failovers.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                got.lock().unwrap().insert(user, ids);
            });
        }
        // Mid-load (a quarter of the deliveries made), the first server is killed outright.
        while delivered.load(Ordering::Relaxed) < 8 * ASKS / 4 {
            std::thread::sleep(Duration::from_millis(5));
        }
        first.kill9();
    });
    let got = got.into_inner().unwrap();
    assert_eq!(
        failovers.load(Ordering::Relaxed),
        4,
        "the first server's 4 clients moved"
    );
    let recorded = table(&cluster, "fleet");
    let unseen: usize = got.keys().map(|u| recorded[u].len() - ASKS).sum();
    eprintln!(
        "{} deliveries received, {} recorded; {unseen} recorded but not received (in flight at \
         the kill)",
        8 * ASKS,
        recorded.values().map(Vec::len).sum::<usize>()
    );
    for (user, ids) in &got {
        let distinct: BTreeSet<i64> = ids.iter().copied().collect();
        assert_eq!(distinct.len(), ASKS, "{user} got a class twice: {ids:?}");
        // Every delivery received is recorded; at most the one in flight at the kill is
        // recorded without having been received.
        let rows: BTreeSet<i64> = recorded[user].iter().copied().collect();
        assert_eq!(rows.len(), recorded[user].len());
        assert!(
            distinct.is_subset(&rows),
            "{user}: received but not recorded"
        );
        assert!(rows.len() <= ASKS + 1, "{user}: {} recorded", rows.len());
    }
    // The killed server's copy of the bank serves again (it was only read), and the history
    // keeps its users from getting what the other server gave them.
    let again = Server::start(&a, &history);
    let agent = agent();
    for (user, ids) in &got {
        let url = format!("{}/v1/puzzles/next?user={user}&level=easy", again.base);
        let (status, v) = ask(&agent, "POST", &url).unwrap();
        assert_eq!(status, 200, "{v}");
        assert!(
            !ids.contains(&v["id"].as_i64().unwrap()),
            "{user} got a class again"
        );
    }
    assert_eq!(again.stop().code(), Some(0));
    assert_eq!(second.stop().code(), Some(0));
}

/// The bank's per-user history: user, class (hex), puzzle id, time.
fn bank_rows(db: &Path) -> BTreeSet<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    crate::common::column(
        &conn,
        "SELECT user || '|' || lower(hex(canon_key)) || '|' || puzzle_id || '|' || given_at \
         FROM user_history",
    )
    .into_iter()
    .collect()
}

/// The fleet's history, in the same form.
fn history_rows(cluster: &Cluster, db: &str) -> BTreeSet<String> {
    cluster
        .sql(
            db,
            "SELECT user_id, encode(canon_key, 'hex'), puzzle_id, \
             to_char(given_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') \
             FROM pseudoku_user_history",
        )
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn a_banks_history_moves_to_postgres_and_back() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    crate::common::build_levels(&db, 12, 2);
    // One server on the bank alone: 5 deliveries to ann, the day's daily puzzle.
    let (mut child, base) = crate::common::serve(&db, &[]);
    let agent = agent();
    let mut ann = BTreeSet::new();
    for _ in 0..5 {
        let url = format!("{base}/v1/puzzles/next?user=ann&level=easy");
        let (status, v) = ask(&agent, "POST", &url).unwrap();
        assert_eq!(status, 200);
        ann.insert(v["id"].as_i64().unwrap());
    }
    let today = cluster.sql(
        "postgres",
        "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    );
    let (status, daily) = ask(
        &agent,
        "GET",
        &format!("{base}/v1/daily?date={today}&level=Easy"),
    )
    .unwrap();
    assert_eq!(status, 200);
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    child.wait().unwrap();

    // 25,000 more deliveries (2,500 users, 10 classes each), so that the move takes pages.
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..25_000u32 {
            let key = blake3::hash(&i.to_le_bytes());
            tx.execute(
                "INSERT INTO user_history (user, canon_key, puzzle_id) VALUES (?1, ?2, ?3)",
                rusqlite::params![
                    format!("p{}", i / 10),
                    &key.as_bytes()[..],
                    i64::from(i % 7 + 1)
                ],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }

    // Exported: the history holds them; again: nothing new.
    let history = cluster.database("moved");
    let export = |extra: &[&str]| {
        crate::common::pseudoku()
            .args(["history", "export", &history, "--db"])
            .arg(&db)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = export(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!(
            "{} -> the history: 25005 deliveries (25005 new), 1 daily puzzles (1 new); the \
             history now records this bank",
            db.display()
        )
    );
    let out = export(&[]);
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("25005 deliveries (0 new), 1 daily puzzles (0 new)"));
    let recorded: BTreeSet<i64> = table(&cluster, "moved")["ann"].iter().copied().collect();
    assert_eq!(recorded, ann);
    // Row for row, the times to the millisecond.
    assert_eq!(bank_rows(&db), history_rows(&cluster, "moved"));

    // A fleet server on a copy goes on from there: ann gets the level's others, then 404;
    // the daily puzzle is the one the bank recorded.
    let copy = dir.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    let fleet = Server::start(&copy, &history);
    let mut more = BTreeSet::new();
    loop {
        let url = format!("{}/v1/puzzles/next?user=ann&level=easy", fleet.base);
        let (status, v) = ask(&agent, "POST", &url).unwrap();
        if status == 404 {
            break;
        }
        assert_eq!(status, 200, "{v}");
        assert!(more.insert(v["id"].as_i64().unwrap()));
    }
    // The level's 12 but ann's 5 and the daily puzzle (which may be one of hers: the day's
    // draw decides), never handed out as a new puzzle.
    let daily_id = daily["id"].as_i64().unwrap();
    assert_eq!(more.len(), 12 - 5 - usize::from(!ann.contains(&daily_id)));
    assert!(more.is_disjoint(&ann));
    assert!(!more.contains(&daily_id));
    let url = format!("{}/v1/daily?date={today}&level=easy", fleet.base);
    let (status, v) = ask(&agent, "GET", &url).unwrap();
    assert_eq!((status, &v["id"]), (200, &daily["id"]));
    assert_eq!(fleet.stop().code(), Some(0));

    // Imported back into the bank: each of ann's puzzles once; the daily puzzle once.
    let out = crate::common::pseudoku()
        .args(["history", "import", &history, "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!(
            "{} deliveries ({} new), 1 daily puzzles (0 new)",
            25005 + more.len(),
            more.len()
        )),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(bank_rows(&db), history_rows(&cluster, "moved"));
    let n: i64 = crate::common::scalar(
        &conn,
        "SELECT COUNT(DISTINCT puzzle_id) FROM user_history WHERE user = 'ann'",
    );
    assert_eq!(n as usize, 5 + more.len());

    // Another bank's history is refused (exit 2, the reason), unless --rebind.
    let other = dir.path().join("other.db");
    crate::common::build_levels(&other, 3, 2);
    let out = crate::common::pseudoku()
        .args(["history", "export", &history, "--db"])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("was recorded against bank"));
    let out = crate::common::pseudoku()
        .args(["history", "export", &history, "--rebind", "--db"])
        .arg(&other)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("(rebound)"));
}

#[test]
fn a_history_that_stops_answering_is_a_503_with_its_reason_until_it_is_back() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    crate::common::build_levels(&db, 5, 2);
    let server = Server::start(&db, &cluster.url("postgres"));
    let agent = agent();
    let next = format!("{}/v1/puzzles/next?user=ann&level=easy", server.base);
    let health = format!("{}/healthz", server.base);
    assert_eq!(ask(&agent, "POST", &next).unwrap().0, 200);
    assert_eq!(ask(&agent, "GET", &health).unwrap().0, 200);
    cluster.pause();
    // A delivery cannot be recorded: 503 and why; health says so; reads still answer.
    let (status, v) = ask(&agent, "POST", &next).unwrap();
    assert_eq!(status, 503, "{v}");
    let reason = v["error"].as_str().unwrap();
    assert!(
        reason.starts_with("the history: error connecting to server")
            && !reason.contains("127.0.0.1"),
        "{reason}"
    );
    let (status, v) = ask(&agent, "GET", &health).unwrap();
    assert_eq!(
        (status, v["status"].as_str()),
        (503, Some("unavailable")),
        "{v}"
    );
    assert!(
        v["reason"].as_str().unwrap().starts_with("the history: "),
        "{v}"
    );
    assert_eq!(
        ask(&agent, "GET", &format!("{}/v1/levels", server.base))
            .unwrap()
            .0,
        200
    );
    // Back: health sees it first (a server out of the balancer gets no delivery), then
    // deliveries go on, none twice.
    cluster.resume();
    let (status, v) = ask(&agent, "GET", &health).unwrap();
    assert_eq!(status, 200, "{v}");
    let mut ids = BTreeSet::new();
    while let Some((200, v)) = ask(&agent, "POST", &next) {
        assert!(ids.insert(v["id"].as_i64().unwrap()));
    }
    assert_eq!(ids.len(), 4, "the level's other 4: {ids:?}");
    assert_eq!(server.stop().code(), Some(0));
}

#[test]
fn a_frozen_history_is_a_503_within_the_deadline_and_charges_no_delivery_not_received() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let (_dir, db) = one_bank(150);
    let history = cluster.database("fleet");
    let server = Server::start(&db, &history);
    // 8 clients, each a user, ask for easy puzzles without pause; a quarter of the way in,
    // PostgreSQL freezes (SIGSTOP: a hung host) for 6 s, then thaws; the clients go on.
    const CLIENTS: usize = 8;
    let delivered = AtomicUsize::new(0);
    let frozen = std::sync::atomic::AtomicBool::new(false);
    let thawed = std::sync::atomic::AtomicBool::new(false);
    let got: Mutex<BTreeMap<String, Vec<i64>>> = Mutex::new(BTreeMap::new());
    let slowest_frozen = Mutex::new(Duration::ZERO);
    let refused = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for c in 0..CLIENTS {
            let (got, delivered, frozen, thawed, slowest_frozen, refused, base) = (
                &got,
                &delivered,
                &frozen,
                &thawed,
                &slowest_frozen,
                &refused,
                &server.base,
            );
            s.spawn(move || {
                let agent = agent();
                let user = format!("f{c}");
                let url = format!("{base}/v1/puzzles/next?user={user}&level=easy");
                let mut ids = Vec::new();
                let mut after_thaw = 0;
                while after_thaw < 10 {
                    let during = frozen.load(Ordering::SeqCst) && !thawed.load(Ordering::SeqCst);
                    let t = std::time::Instant::now();
                    let (status, v) = ask(&agent, "POST", &url).expect("the server answers");
                    let took = t.elapsed();
                    match status {
                        200 => {
                            ids.push(v["id"].as_i64().unwrap());
                            delivered.fetch_add(1, Ordering::SeqCst);
                        }
                        503 => {
                            refused.fetch_add(1, Ordering::SeqCst);
                            let reason = v["error"].as_str().unwrap();
                            assert!(reason.starts_with("the history"), "{reason}");
                        }
                        other => panic!("{user}: {other} {v}"),
                    }
                    if during {
                        let mut slowest = slowest_frozen.lock().unwrap();
                        *slowest = (*slowest).max(took);
                    }
                    if thawed.load(Ordering::SeqCst) && status == 200 {
                        after_thaw += 1;
                    }
                }
                got.lock().unwrap().insert(user, ids);
            });
        }
        while delivered.load(Ordering::SeqCst) < 8 * 150 / 4 / 2 {
            std::thread::sleep(Duration::from_millis(5));
        }
        cluster.freeze();
        frozen.store(true, Ordering::SeqCst);
        // /healthz agrees within the same bound while it is frozen.
        std::thread::sleep(Duration::from_millis(2500));
        let t = std::time::Instant::now();
        let (status, v) = ask(&agent(), "GET", &format!("{}/healthz", server.base)).unwrap();
        let health_took = t.elapsed();
        assert_eq!(status, 503, "{v}");
        assert!(
            health_took < Duration::from_secs(3),
            "/healthz took {health_took:?}"
        );
        std::thread::sleep(Duration::from_millis(3500));
        cluster.thaw();
        thawed.store(true, Ordering::SeqCst);
    });
    let got = got.into_inner().unwrap();
    let slowest = slowest_frozen.into_inner().unwrap();
    // Every answer while frozen came within the documented bound (2 s, and the round trip).
    assert!(
        slowest < Duration::from_secs(3),
        "an answer took {slowest:?} while the history was frozen"
    );
    assert!(refused.load(Ordering::SeqCst) > 0, "nothing was refused");
    // After the thaw, what was recorded: every delivery received, and beyond those at most
    // the ones in flight at the freeze (one a client), none of the requests made meanwhile.
    std::thread::sleep(Duration::from_millis(500));
    let recorded = table(&cluster, "fleet");
    let mut unseen = 0;
    for (user, ids) in &got {
        let received: BTreeSet<i64> = ids.iter().copied().collect();
        assert_eq!(received.len(), ids.len(), "{user} got a class twice");
        let rows: BTreeSet<i64> = recorded[user].iter().copied().collect();
        assert!(
            received.is_subset(&rows),
            "{user}: received but not recorded"
        );
        unseen += rows.len() - received.len();
    }
    eprintln!(
        "frozen history: the slowest answer took {slowest:?}; {} refused (503); {unseen} \
         deliveries recorded but not received",
        refused.load(Ordering::SeqCst)
    );
    assert!(
        unseen <= CLIENTS,
        "{unseen} deliveries recorded but never received (at most {CLIENTS} were in flight)"
    );
    assert_eq!(server.stop().code(), Some(0));
}

/// The ids of every puzzle of level `level` user `user` is given by `base` until 404.
fn all_of_level(base: &str, user: &str, level: &str) -> Vec<i64> {
    let agent = agent();
    let url = format!("{base}/v1/puzzles/next?user={user}&level={level}");
    let mut ids = Vec::new();
    loop {
        let (status, v) = ask(&agent, "POST", &url).unwrap();
        if status == 404 {
            return ids;
        }
        assert_eq!(status, 200, "{v}");
        ids.push(v["id"].as_i64().unwrap());
    }
}

#[test]
fn a_fleets_daily_puzzle_never_comes_back_as_a_new_puzzle() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_copies(dir.path(), 30);
    let history = cluster.database("fleet");
    let (first, second) = (Server::start(&a, &history), Server::start(&b, &history));
    let today = cluster.sql(
        "postgres",
        "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    );
    let url = format!("{}/v1/daily?date={today}&level=easy", first.base);
    let (status, daily) = ask(&agent(), "GET", &url).unwrap();
    assert_eq!(status, 200, "{daily}");
    let daily = daily["id"].as_i64().unwrap();
    // Whichever server a player's new puzzles come from, the day's puzzle is not among them:
    // the level's 30 less the daily one, each once.
    let mut ids = all_of_level(&second.base, "ann", "easy");
    ids.extend(all_of_level(&first.base, "ann", "easy"));
    assert!(!ids.contains(&daily), "the daily puzzle {daily} came back");
    assert_eq!(ids.len(), 29, "{ids:?}");
    assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), 29);
    // Asked for by id, it is still there.
    let (status, v) = ask(
        &agent(),
        "GET",
        &format!("{}/v1/puzzles/{daily}", second.base),
    )
    .unwrap();
    assert_eq!((status, v["id"].as_i64()), (200, Some(daily)));
    // The archive on the other server lists the day's puzzle; once Ann has asked for it as
    // hers and her solve is counted by the first server, with her game.
    let archive = |user: &str| {
        let url = format!(
            "{}/v1/daily/archive?date={today}&level=easy{user}",
            second.base
        );
        let (status, v) = ask(&agent(), "GET", &url).unwrap();
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["days"].as_array().unwrap().len(), 30, "{v}");
        v["days"][0].clone()
    };
    let day = archive("");
    assert_eq!(
        (day["date"].as_str(), day["id"].as_i64()),
        (Some(&*today), Some(daily))
    );
    assert!(day["game"].is_null(), "{day}");
    let mine = format!("{}/v1/daily?date={today}&level=easy&user=ann", second.base);
    assert_eq!(ask(&agent(), "GET", &mine).unwrap().0, 200);
    let counted = post(
        &agent(),
        &format!("{}/v1/results", first.base),
        &game("ann", daily, 321.0),
    );
    assert_eq!(counted.unwrap().0, 200);
    let day = archive("&user=ann");
    assert_eq!(day["id"].as_i64(), Some(daily));
    assert_eq!(
        (&day["game"]["solved"], &day["game"]["seconds"]),
        (&true.into(), &321.0.into())
    );
    assert_eq!(first.stop().code(), Some(0));
    assert_eq!(second.stop().code(), Some(0));
}

#[test]
fn a_history_is_not_moved_while_a_server_records_in_the_bank_nor_served_alone_after() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let (_dir, db) = one_bank(5);
    let history = cluster.database("moved");
    let move_history = |verb: &str| {
        crate::common::pseudoku()
            .args(["history", verb, &history, "--db"])
            .arg(&db)
            .output()
            .unwrap()
    };
    // A lone server records in the bank: its history is not moved (exit 2, why), and the
    // history is left empty.
    let (mut child, base) = crate::common::serve(&db, &[]);
    let (status, _) = ask(
        &agent(),
        "POST",
        &format!("{base}/v1/puzzles/next?user=ann&level=easy"),
    )
    .unwrap();
    assert_eq!(status, 200);
    for verb in ["export", "import"] {
        let out = move_history(verb);
        assert_eq!(out.status.code(), Some(2), "{verb}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is recording deliveries in this bank: stop it first"),
            "{err}"
        );
    }
    // A second lone server on the bank is refused too: one server records in a bank.
    let out = crate::common::pseudoku()
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("one server records in a bank"));
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    child.wait().unwrap();
    // Stopped: the move goes; the bank then refuses to be served alone (its deliveries would
    // never reach the fleet) until the history comes back.
    let out = move_history("export");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = crate::common::pseudoku()
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("history was exported to postgres://"), "{err}");
    assert!(err.contains("pseudoku history import"), "{err}");
    let fleet = Server::start(&db, &history);
    let (status, _) = ask(
        &agent(),
        "POST",
        &format!("{}/v1/puzzles/next?user=ann&level=easy", fleet.base),
    )
    .unwrap();
    assert_eq!(status, 200);
    assert_eq!(fleet.stop().code(), Some(0));
    let out = move_history("import");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lone = Server::start_alone(&db);
    let ids = all_of_level(&lone.base, "ann", "easy");
    assert_eq!(ids.len(), 3, "the level's 5 less the 2 ann had: {ids:?}");
    assert_eq!(lone.stop().code(), Some(0));
}

#[test]
fn copies_that_grew_apart_are_not_served_by_one_history() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_copies(dir.path(), 10);
    // Each copy grows by a build of its own: the same ids name different puzzles.
    for (copy, seed) in [(&a, "7"), (&b, "8")] {
        crate::common::pseudoku()
            .args([
                "build",
                "--per-level",
                "3",
                "--threads",
                "2",
                "--seed",
                seed,
                "--db",
            ])
            .arg(copy)
            .assert()
            .success();
    }
    let history = cluster.database("fleet");
    let first = Server::start(&a, &history);
    let err = refused(&b, &history);
    assert!(err.contains("grew apart"), "{err}");
    assert!(err.contains("--history-rebind"), "{err}");
    // An older copy of the same lineage (the bank before either build) is refused as older;
    // a newer copy of a's lineage is taken.
    let base = dir.path().join("bank.db");
    assert!(refused(&base, &history).contains("this copy of the bank is older"));
    let newer = dir.path().join("newer.db");
    std::fs::copy(&a, &newer).unwrap();
    crate::common::pseudoku()
        .args([
            "build",
            "--per-level",
            "2",
            "--threads",
            "2",
            "--seed",
            "9",
            "--db",
        ])
        .arg(&newer)
        .assert()
        .success();
    let second = Server::start(&newer, &history);
    // ann has every easy puzzle of the newer copy: the 10 they share with b, and 5 of a's
    // builds that b does not have.
    let ids = all_of_level(&second.base, "ann", "easy");
    assert_eq!(ids.len(), 15, "{ids:?}");
    // The history cannot be imported into the copy that grew apart (its ids mean other
    // puzzles) but with --rebind, which leaves out the deliveries of classes it lacks.
    let import = |extra: &[&str]| {
        crate::common::pseudoku()
            .args(["history", "import", &history, "--db"])
            .arg(&b)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = import(&[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("grew apart"), "{err}");
    let out = import(&["--rebind"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("15 deliveries (10 new, 5 of classes this bank does not have left out)"),
        "{said}"
    );
    // Every row kept names the bank's puzzle of its class.
    let conn = rusqlite::Connection::open(&b).unwrap();
    let kept: i64 = crate::common::scalar(
        &conn,
        "SELECT COUNT(*) FROM user_history h JOIN puzzles p ON p.id = h.puzzle_id \
         AND p.canon_key = h.canon_key WHERE h.user = 'ann'",
    );
    assert_eq!(kept, 10);
    assert_eq!(first.stop().code(), Some(0));
    assert_eq!(second.stop().code(), Some(0));
}

#[test]
fn a_server_started_while_its_history_is_down_waits_for_it_and_then_serves() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let (_dir, db) = one_bank(5);
    let history = cluster.database("fleet");
    cluster.pause();
    // It listens at once: deliveries and /healthz are 503 with the reason while it tries.
    let server = Server::start(&db, &history);
    let agent = agent();
    let health = format!("{}/healthz", server.base);
    let next = format!("{}/v1/puzzles/next?user=ann&level=easy", server.base);
    let (status, v) = ask(&agent, "GET", &health).unwrap();
    assert_eq!(status, 503, "{v}");
    assert!(
        v["reason"].as_str().unwrap().contains("keeps trying"),
        "{v}"
    );
    let (status, v) = ask(&agent, "POST", &next).unwrap();
    assert_eq!(status, 503, "{v}");
    // PostgreSQL back: within its next tries (at most 8 s apart), it serves.
    cluster.resume();
    let t = std::time::Instant::now();
    loop {
        let (status, v) = ask(&agent, "GET", &health).unwrap();
        if status == 200 {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "still {status}: {v}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let (status, v) = ask(&agent, "POST", &next).unwrap();
    assert_eq!(status, 200, "{v}");
    assert_eq!(server.stop().code(), Some(0));
}

/// A game's body for `POST /v1/results`.
fn game(user: &str, puzzle: i64, seconds: f64) -> String {
    serde_json::json!({"user": user, "puzzle": puzzle, "solved": true, "seconds": seconds})
        .to_string()
}

/// A JSON POST: what it got, or `None` when the server is gone.
fn post(agent: &ureq::Agent, url: &str, body: &str) -> Option<(u16, Value)> {
    let resp = match agent
        .post(url)
        .set("Content-Type", "application/json")
        .send_string(body)
    {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(ureq::Error::Transport(_)) => return None,
    };
    let status = resp.status();
    Some((
        status,
        serde_json::from_str(&resp.into_string().ok()?).unwrap(),
    ))
}

/// The learned ratings a fleet's history holds: `player:USER` or `puzzle:ID` -> (rating,
/// deviation, results), ratings to 1e-6.
fn fleet_ratings(cluster: &Cluster, db: &str) -> BTreeMap<String, (i64, i64, i64)> {
    let mut all = BTreeMap::new();
    for (table, key, name) in [
        ("pseudoku_player_ratings", "user_id", "player"),
        ("pseudoku_puzzle_ratings", "puzzle_id", "puzzle"),
    ] {
        let out = cluster.sql(
            db,
            &format!("SELECT {key}, rating, deviation, results FROM {table} WHERE results > 0"),
        );
        for line in out.lines().filter(|l| !l.is_empty()) {
            let f: Vec<&str> = line.split('|').collect();
            let num = |s: &str| (s.parse::<f64>().unwrap() * 1e6).round() as i64;
            all.insert(
                format!("{name}:{}", f[0]),
                (num(f[1]), num(f[2]), f[3].parse().unwrap()),
            );
        }
    }
    all
}

#[test]
fn results_teach_a_fleet_what_they_teach_a_bank_and_match_its_players() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_copies(dir.path(), 40);
    let history = cluster.database("fleet");
    let server = Server::start(&a, &history);
    let agent = agent();
    // Games through the fleet's routes, in order; matched draws among them.
    let mut log = Vec::new();
    for i in 0..48u32 {
        let user = format!("p{}", i % 4);
        let how = if i % 2 == 0 {
            "match=skill"
        } else {
            "level=medium"
        };
        let url = format!("{}/v1/puzzles/next?user={user}&{how}", server.base);
        let (status, p) = ask(&agent, "POST", &url).unwrap();
        assert_eq!(status, 200, "{p}");
        if i % 2 == 0 {
            assert!(p["learned"]["rating"].is_f64(), "{p}");
        }
        let id = p["id"].as_i64().unwrap();
        let body = game(&user, id, 90.0 + 40.0 * f64::from(i % 4) + f64::from(i));
        let (status, counted) =
            post(&agent, &format!("{}/v1/results", server.base), &body).unwrap();
        assert_eq!(status, 200, "{counted}");
        log.push(body);
        // A second result for the delivery, and one for a puzzle not handed out: refused.
        let (status, _) = post(
            &agent,
            &format!("{}/v1/results", server.base),
            &log[i as usize],
        )
        .unwrap();
        assert_eq!(status, 409);
    }
    let (status, v) = post(
        &agent,
        &format!("{}/v1/results", server.base),
        &game("p0", 1, 300.0),
    )
    .unwrap();
    assert!(status == 403 || status == 409, "{status} {v}");
    let (_, p0) = ask(&agent, "GET", &format!("{}/v1/players/p0", server.base)).unwrap();
    assert_eq!(p0["games"], 12);
    // The same games counted into a bank (a copy of it) teach it the same ratings.
    let file = dir.path().join("log.jsonl");
    std::fs::write(&file, log.join("\n")).unwrap();
    crate::common::pseudoku()
        .args(["results", "import", file.to_str().unwrap(), "--db"])
        .arg(&b)
        .assert()
        .success();
    let fleet = fleet_ratings(&cluster, "fleet");
    assert_eq!(fleet.len(), crate::common::learned_ratings(&b).len());
    assert_eq!(fleet, crate::common::learned_ratings(&b));
    assert_eq!(
        p0["learned"]["rating"].as_f64().unwrap(),
        (fleet["player:p0"].0 as f64 / 1e5).round() / 10.0
    );
    // The log counted into the fleet again: every game was counted before.
    let out = crate::common::pseudoku()
        .args([
            "results",
            "import",
            file.to_str().unwrap(),
            "--history",
            &history,
            "--db",
        ])
        .arg(&b)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("counted 0 games") && said.contains("48 counted before"),
        "{said}"
    );
    assert_eq!(server.stop().code(), Some(0));
    // Levels refitted from the fleet's learned ratings: eight players through every puzzle,
    // their times following the bank's rating, counted into the history.
    let conn = rusqlite::Connection::open(&b).unwrap();
    let mut stmt = conn.prepare("SELECT id, difficulty FROM puzzles").unwrap();
    let rows: Vec<(i64, f64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get::<_, f64>(1)? / 1000.0)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut games = Vec::new();
    for u in 0..8u32 {
        for &(id, d) in &rows {
            let seconds = (30.0 * (d * 0.55).exp() * (1.0 + 0.1 * f64::from(u))).max(11.0);
            games.push(game(&format!("q{u}"), id, seconds));
        }
    }
    let many = dir.path().join("many.jsonl");
    std::fs::write(&many, games.join("\n")).unwrap();
    crate::common::pseudoku()
        .args([
            "results",
            "import",
            many.to_str().unwrap(),
            "--history",
            &history,
            "--db",
        ])
        .arg(&b)
        .assert()
        .success();
    // Counted in batches there (each player's held games settled at their tenth), as one by
    // one into the bank: the same ratings.
    let copy = dir.path().join("copy.db");
    std::fs::copy(&b, &copy).unwrap();
    crate::common::pseudoku()
        .args(["results", "import", many.to_str().unwrap(), "--db"])
        .arg(&copy)
        .assert()
        .success();
    assert_eq!(
        fleet_ratings(&cluster, "fleet"),
        crate::common::learned_ratings(&copy)
    );
    let out = crate::common::pseudoku()
        .args(["calibrate", "--from-play", "--history", &history, "--db"])
        .arg(&b)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("held out"), "{said}");
}

#[test]
fn a_fleet_server_killed_mid_load_keeps_every_result_it_acknowledged() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = two_copies(dir.path(), 30);
    let history = cluster.database("fleet");
    let mut server = Server::start(&a, &history);
    let base = server.base.clone();
    let acknowledged: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for c in 0..6 {
            let (acknowledged, done, base) = (&acknowledged, &done, &base);
            s.spawn(move || {
                let agent = agent();
                let user = format!("k{c}");
                loop {
                    let url = format!("{base}/v1/puzzles/next?user={user}&match=skill");
                    let Some((200, p)) = ask(&agent, "POST", &url) else {
                        return;
                    };
                    let id = p["id"].as_i64().unwrap();
                    let body = game(&user, id, 100.0 + 50.0 * f64::from(c));
                    match post(&agent, &format!("{base}/v1/results"), &body) {
                        Some((200, _)) => {
                            acknowledged.lock().unwrap().push(format!("{user}|{id}"));
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        Some((status, v)) => panic!("{status} {v}"),
                        None => return,
                    }
                }
            });
        }
        while done.load(Ordering::Relaxed) < 100 {
            std::thread::sleep(Duration::from_millis(2));
        }
        server.kill9();
    });
    let stored: BTreeSet<String> = cluster
        .sql("fleet", "SELECT user_id, puzzle_id FROM pseudoku_results")
        .lines()
        .map(str::to_string)
        .collect();
    let acknowledged = acknowledged.into_inner().unwrap();
    eprintln!(
        "{} acknowledged, {} stored",
        acknowledged.len(),
        stored.len()
    );
    for a in &acknowledged {
        assert!(stored.contains(a), "acknowledged but lost: {a}");
    }
    // Each rating is the one its last result wrote.
    let apart = cluster.sql(
        "fleet",
        "SELECT count(*) FROM pseudoku_player_ratings p WHERE p.rating != (SELECT r.player_rating \
         FROM pseudoku_results r WHERE r.user_id = p.user_id ORDER BY r.seq DESC LIMIT 1)",
    );
    assert_eq!(apart, "0");
}
