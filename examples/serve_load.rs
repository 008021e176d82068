//! Load on `serve`: a bank (`--per-level 2500`, seed 2026, in a temporary folder), the server
//! as its own process on loopback, and 64 client threads for 30 s: 80% next-puzzle requests
//! for 10,000 users (a random level each), 15% hints on puzzles already handed out (a random
//! share of their solution entered), 5% daily puzzles (yesterday's, today's or tomorrow's, a
//! random level). Then the same again while a `build --threads 1` adds
//! puzzles to the same bank (one worker and its writer: the machine's other core is shared). Prints requests per second, p50 and p99 per route, errors, and the repeats per
//! user found in the bank afterwards.
//!
//! Each phase runs twice: closed loop (every client sends its next request as soon as the
//! last is answered: the most the server takes) and paced at RATE requests per second in all
//! (each client keeps a schedule, and a request's time runs from when it was due, so a slow
//! answer delays no measurement). With `alone`, only the phases without a build; with `nice-build`, the build
//! runs at the lowest priority (`nice -n 19`), as on a machine that serves first. With
//! `next-only`, every request is a next-puzzle request. With `play`, each client plays: a
//! delivery matched to a user's skill (`match=skill`), then that game's result (`POST
//! /v1/results`, a solve of 1 to 21 minutes), so half the requests are results.
//!
//! A fleet: with `history=postgres://USER@HOST:PORT/DATABASE` (a PostgreSQL server; the
//! example makes a new database on it for the run and drops it after), `servers=N` servers
//! (default 1), each on its own copy of the bank, record in that history (`serve --history`);
//! client t sends to server t mod N. With `with-sqlite`, a lone server on the bank's own
//! history runs beside them on another copy, and the two take turns (each client's requests
//! alternate; RATE is shared), so that both are measured over the same moments of the
//! machine. Clients keep every id each user was handed by each group: a repeat they see is
//! reported as an error. The repeats are also counted on a copy of the bank the fleet's
//! history is imported into (`history import`). Implies `alone`.
//!
//! ```text
//! cargo build --release && cargo run --release --example serve_load [SECONDS] [CLIENTS] [RATE] [alone|nice-build] [next-only|play] [history=URL [servers=N] [with-sqlite]]
//! ```

use pseudoku::bank::{self, BuildOptions};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const USERS: u64 = 10_000;

/// The `pseudoku` binary beside this example's folder.
fn binary() -> PathBuf {
    let exe = std::env::current_exe().expect("this example's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/release")
        .join("pseudoku")
}

/// What one phase measured.
#[derive(Default)]
struct Tally {
    latencies: HashMap<String, Vec<f64>>,
    /// Requests over 10 ms, by the second of the phase they were due in.
    slow: HashMap<u64, u64>,
    errors: HashMap<String, u64>,
}

/// Servers measured side by side: a name and its servers' addresses.
type Group = (String, Vec<String>);

/// The puzzle ids each user was handed by each group (group, user): a repeat seen by a
/// client is an id handed twice.
type Received = Mutex<HashMap<(usize, u32), HashSet<i64>>>;

fn phase(
    groups: &[Group],
    seconds: u64,
    clients: usize,
    (rate, next_only, play): (f64, bool, bool),
    puzzles: &Mutex<Vec<(String, String)>>,
    received: &Received,
) -> Tally {
    let tally = Mutex::new(Tally::default());
    let began = Instant::now();
    let deadline = began + Duration::from_secs(seconds);
    std::thread::scope(|s| {
        for t in 0..clients {
            let tally = &tally;
            s.spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(Duration::from_secs(10))
                    .build();
                let mut rng = pseudoku::Rng::for_job(2026, t as u64);
                let levels = ["easy", "medium", "hard", "expert"];
                let mut local = Tally::default();
                let mut asked = 0usize;
                // With `play`: the delivery this client's next request reports a game of.
                let mut pending: Option<(u32, i64)> = None;
                // Paced: this client's requests are due every `gap`, from a staggered start.
                let gap = (rate > 0.0).then(|| Duration::from_secs_f64(clients as f64 / rate));
                let mut due = Instant::now()
                    + gap.map_or(Duration::ZERO, |g| g.mul_f64(t as f64 / clients as f64));
                while Instant::now() < deadline {
                    let start = match gap {
                        Some(g) => {
                            let now = Instant::now();
                            if due > now {
                                std::thread::sleep(due - now);
                            }
                            let at = due;
                            due += g;
                            at
                        }
                        None => Instant::now(),
                    };
                    // 80% deliveries, 15% hints, 5% daily puzzles.
                    // The groups take turns (the same machine's moments for each); a client
                    // keeps to one server of a group.
                    let g = (t + asked) % groups.len();
                    let (group, servers) = &groups[g];
                    asked += 1;
                    let base = &servers[t % servers.len()];
                    let ask = if next_only { 19 } else { rng.below(20) };
                    let hint = ask < 3;
                    let picked = if hint {
                        let list = puzzles.lock().expect("puzzles");
                        (!list.is_empty()).then(|| list[rng.index(list.len())].clone())
                    } else {
                        None
                    };
                    let game = if play { pending.take() } else { None };
                    let (route, result) = match picked {
                        _ if game.is_some() => {
                            let (user, id) = game.expect("a game");
                            let seconds = 60 + rng.below(1200);
                            let body = format!(
                                r#"{{"user":"u{user}","puzzle":{id},"solved":true,"seconds":{seconds}}}"#
                            );
                            (
                                "POST /v1/results",
                                agent
                                    .post(&format!("{base}/v1/results"))
                                    .set("Content-Type", "application/json")
                                    .send_string(&body)
                                    .map(|_| None)
                                    .map_err(|e| e.to_string()),
                            )
                        }
                        None if ask == 3 && !play => {
                            // Yesterday, today or tomorrow: the first ask of each date and
                            // level draws and records it, the others read it.
                            let day = pseudoku::calendar::Date::from_days(
                                pseudoku::calendar::Date::today().days() + i64::from(rng.below(3))
                                    - 1,
                            );
                            let level = levels[rng.index(levels.len())];
                            let url =
                                format!("{base}/v1/daily?date={day}&level={level}&solution=true");
                            (
                                "GET /v1/daily",
                                agent
                                    .get(&url)
                                    .call()
                                    .map(|_| None)
                                    .map_err(|e| e.to_string()),
                            )
                        }
                        Some((puzzle, solution)) => {
                            let entries: String = puzzle
                                .chars()
                                .zip(solution.chars())
                                .map(|(p, s)| {
                                    if p == '.' && rng.below(3) == 0 {
                                        s
                                    } else {
                                        '.'
                                    }
                                })
                                .collect();
                            let body = format!(r#"{{"puzzle":"{puzzle}","entries":"{entries}"}}"#);
                            (
                                "POST /v1/hint",
                                agent
                                    .post(&format!("{base}/v1/hint"))
                                    .set("Content-Type", "application/json")
                                    .send_string(&body)
                                    .map(|_| None)
                                    .map_err(|e| e.to_string()),
                            )
                        }
                        None => {
                            let user = rng.below(USERS as u32);
                            let level = levels[rng.index(levels.len())];
                            let url = if play {
                                format!("{base}/v1/puzzles/next?user=u{user}&match=skill")
                            } else {
                                format!(
                                    "{base}/v1/puzzles/next?user=u{user}&level={level}&solution=true"
                                )
                            };
                            let pending = &mut pending;
                            (
                                if play {
                                    "POST /v1/puzzles/next?match=skill"
                                } else {
                                    "POST /v1/puzzles/next"
                                },
                                agent
                                    .post(&url)
                                    .call()
                                    .map_err(|e| e.to_string())
                                    .and_then(|r| {
                                        let text = r.into_string().map_err(|e| e.to_string())?;
                                        let v: serde_json::Value =
                                            serde_json::from_str(&text).unwrap_or_default();
                                        let id =
                                            v["id"].as_i64().ok_or_else(|| "no id".to_string())?;
                                        if !received
                                            .lock()
                                            .expect("received")
                                            .entry((g, user))
                                            .or_default()
                                            .insert(id)
                                        {
                                            return Err(format!("repeat: u{user} got {id} again"));
                                        }
                                        if play {
                                            *pending = Some((user, id));
                                            return Ok(None);
                                        }
                                        Ok(Some((
                                            v["puzzle"].as_str().unwrap_or_default().to_string(),
                                            v["solution"].as_str().unwrap_or_default().to_string(),
                                        )))
                                    }),
                            )
                        }
                    };
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    let route = if groups.len() > 1 {
                        format!("{group}: {route}")
                    } else {
                        route.to_string()
                    };
                    match result {
                        Ok(got) => {
                            local.latencies.entry(route.clone()).or_default().push(ms);
                            if ms > 10.0 {
                                let second = start.saturating_duration_since(began).as_secs();
                                *local.slow.entry(second).or_default() += 1;
                            }
                            if let Some(p) = got {
                                let mut list = puzzles.lock().expect("puzzles");
                                if list.len() < 5_000 {
                                    list.push(p);
                                }
                            }
                        }
                        Err(e) => *local.errors.entry(format!("{route}: {e}")).or_default() += 1,
                    }
                }
                let mut all = tally.lock().expect("tally");
                for (k, v) in local.latencies {
                    all.latencies.entry(k).or_default().extend(v);
                }
                for (k, v) in local.slow {
                    *all.slow.entry(k).or_default() += v;
                }
                for (k, v) in local.errors {
                    *all.errors.entry(k).or_default() += v;
                }
            });
        }
    });
    tally.into_inner().expect("tally")
}

/// The size of the bank's write-ahead log, in MB.
fn wal_mb(db: &Path) -> f64 {
    let wal = db.with_extension("db-wal");
    std::fs::metadata(wal).map_or(0.0, |m| m.len() as f64 / 1e6)
}

/// The server's own figures for its writes to the bank (from `/metrics`): per kind, how many,
/// their mean, and how many took over 5 and 20 ms.
fn writes(base: &str) {
    let Ok(text) = ureq::get(&format!("{base}/metrics"))
        .call()
        .map(|r| r.into_string())
    else {
        return;
    };
    let text = text.unwrap_or_default();
    let mut kinds: Vec<(String, f64, f64, f64, f64)> = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with("pseudoku_write_seconds"))
    {
        let Some((key, value)) = line.rsplit_once(' ') else {
            continue;
        };
        let value: f64 = value.parse().unwrap_or(0.0);
        let kind = key
            .split("kind=\"")
            .nth(1)
            .and_then(|k| k.split('"').next())
            .unwrap_or("")
            .to_string();
        if !kinds.iter().any(|k| k.0 == kind) {
            kinds.push((kind.clone(), 0.0, 0.0, 0.0, 0.0));
        }
        let k = kinds.iter_mut().find(|k| k.0 == kind).expect("a kind");
        if key.starts_with("pseudoku_write_seconds_count") {
            k.1 = value;
        } else if key.starts_with("pseudoku_write_seconds_sum") {
            k.2 = value;
        } else if key.contains("le=\"0.005\"") {
            k.3 = value;
        } else if key.contains("le=\"0.02\"") {
            k.4 = value;
        }
    }
    for (kind, count, sum, under5, under20) in kinds {
        println!(
            "  bank writes, {kind}: {count} in all, mean {:.2} ms, {} over 5 ms, {} over 20 ms",
            sum / count.max(1.0) * 1e3,
            count - under5,
            count - under20
        );
    }
}

fn report(name: &str, seconds: u64, t: &mut Tally) {
    let total: usize = t.latencies.values().map(Vec::len).sum();
    let errors: u64 = t.errors.values().sum();
    println!(
        "{name}: {total} requests in {seconds} s = {:.0}/s, errors {errors}",
        total as f64 / seconds as f64
    );
    for (route, v) in t.latencies.iter_mut() {
        v.sort_by(f64::total_cmp);
        let q = |f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
        println!(
            "  {route:<22} {:>7} requests, {:>6.0}/s, p50 {:.2} ms, p99 {:.2} ms",
            v.len(),
            v.len() as f64 / seconds as f64,
            q(0.5),
            q(0.99)
        );
    }
    let mut slow: Vec<(u64, u64)> = t.slow.iter().map(|(&s, &n)| (s, n)).collect();
    slow.sort_unstable();
    let over: u64 = slow.iter().map(|s| s.1).sum();
    let worst: Vec<String> = slow
        .iter()
        .filter(|s| s.1 * 100 >= over.max(1) * 5)
        .map(|(s, n)| format!("{n} in second {s}"))
        .collect();
    println!(
        "  over 10 ms: {over} ({:.2}%), most in: {}",
        over as f64 * 100.0 / total.max(1) as f64,
        worst.join(", ")
    );
    for (e, n) in &t.errors {
        println!("  error x{n}: {e}");
    }
}

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .map_or(30, |a| a.parse().expect("seconds"));
    let clients: usize = std::env::args()
        .nth(2)
        .map_or(64, |a| a.parse().expect("clients"));
    let rate: f64 = std::env::args()
        .nth(3)
        .map_or(3750.0, |a| a.parse().expect("a rate"));
    let flags: Vec<String> = std::env::args().skip(4).collect();
    let history = flags.iter().find_map(|f| f.strip_prefix("history="));
    let servers: usize = flags
        .iter()
        .find_map(|f| f.strip_prefix("servers="))
        .map_or(1, |n| n.parse().expect("servers=N"));
    let alone = history.is_some() || flags.iter().any(|f| f == "alone");
    let nice = flags.iter().any(|f| f == "nice-build");
    let next_only = flags.iter().any(|f| f == "next-only");
    let play = flags.iter().any(|f| f == "play");
    let with_sqlite = flags.iter().any(|f| f == "with-sqlite");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("bank.db");
    bank::build(
        &BuildOptions::per_level(db.clone(), 2500, 2026),
        &pseudoku::seeds::Library::shipped(),
        &AtomicBool::new(false),
        |_| {},
    )
    .expect("a bank");
    let fleet = history.map(Fleet::new);
    // Each server of a fleet on its own copy of the bank (and, with `with-sqlite`, a lone
    // server on another copy beside them), or the one server on the bank.
    let mut groups: Vec<Group> = Vec::new();
    let mut started = Vec::new();
    match &fleet {
        Some(f) => {
            if with_sqlite {
                let copy = dir.path().join("alone.db");
                std::fs::copy(&db, &copy).expect("a copy of the bank");
                let (server, base) = start_server(&copy, None);
                started.push(server);
                groups.push(("SQLite x1".to_string(), vec![base]));
            }
            let mut bases = Vec::new();
            for i in 0..servers {
                let copy = dir.path().join(format!("copy{i}.db"));
                std::fs::copy(&db, &copy).expect("a copy of the bank");
                let (server, base) = start_server(&copy, Some(&f.url));
                started.push(server);
                bases.push(base);
            }
            groups.push((format!("PostgreSQL x{servers}"), bases));
        }
        None => {
            let (server, base) = start_server(&db, None);
            started.push(server);
            groups.push(("SQLite x1".to_string(), vec![base]));
        }
    }
    let base = groups[0].1[0].clone();
    let puzzles = Mutex::new(Vec::new());
    let received: Received = Mutex::new(HashMap::new());
    println!(
        "{}; {}{}",
        groups
            .iter()
            .map(|(name, servers)| format!("{name} ({} server(s))", servers.len()))
            .collect::<Vec<_>>()
            .join(", "),
        if play {
            "plays: a matched delivery (match=skill), then its result (POST /v1/results)"
        } else if next_only {
            "next-puzzle requests only"
        } else {
            "80% next, 15% hint, 5% daily"
        },
        if groups.len() > 1 {
            "; the groups take turns, each at RATE / groups"
        } else {
            ""
        }
    );

    // One phase: its figures, then the log's size and the server's write times.
    let run = |name: &str, rate: f64| {
        let mut tally = phase(
            &groups,
            seconds,
            clients,
            (rate, next_only, play),
            &puzzles,
            &received,
        );
        report(name, seconds, &mut tally);
        if fleet.is_none() {
            println!("  write-ahead log: {:.1} MB", wal_mb(&db));
            writes(&base);
        }
    };
    run("serve alone, closed loop", 0.0);
    run(&format!("serve alone, paced at {rate}/s"), rate);
    // A repeat a client saw is an error of its phase ("repeat: ..."); none is the rule.
    let handed: usize = received
        .lock()
        .expect("received")
        .values()
        .map(HashSet::len)
        .sum();
    println!("deliveries the clients received: {handed}, each user's ids distinct (a repeat is an error above)");

    if let Some(fleet) = fleet {
        for mut server in started {
            let _ = Command::new("kill")
                .args(["-TERM", &server.id().to_string()])
                .status();
            let _ = server.wait();
        }
        if with_sqlite {
            print!("the lone server's ");
            count(&dir.path().join("alone.db"));
        }
        // The history, imported into the bank, is counted as a lone server's would be.
        let out = Command::new(binary())
            .args(["history", "import", &fleet.url, "--db"])
            .arg(&db)
            .output()
            .expect("history import");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        print!("the fleet's ");
        count(&db);
        fleet.drop_database();
        return;
    }
    let mut server = started.pop().expect("a server");
    if alone {
        stop_and_count(&mut server, &db);
        return;
    }
    let mut build = if nice {
        let mut c = Command::new("nice");
        c.args(["-n", "19"]).arg(binary());
        c
    } else {
        Command::new(binary())
    };
    let mut build = build
        .args([
            "build",
            "--per-level",
            "50000",
            "--threads",
            "1",
            "--wait",
            "--db",
        ])
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("a build");
    run("serve while a build writes, closed loop", 0.0);
    run(
        &format!("serve while a build writes, paced at {rate}/s"),
        rate,
    );
    let _ = Command::new("kill")
        .args(["-INT", &build.id().to_string()])
        .status();
    let _ = build.wait();
    stop_and_count(&mut server, &db);
}

/// Stops the server (SIGTERM) and counts the deliveries and repeats in the bank.
fn stop_and_count(server: &mut std::process::Child, db: &Path) {
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
    count(db);
}

/// `pseudoku serve` on `db` (recording in `history`, if any) on a free port: the process and
/// its address.
fn start_server(db: &Path, history: Option<&str>) -> (std::process::Child, String) {
    let mut cmd = Command::new(binary());
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db);
    if let Some(url) = history {
        cmd.args(["--history", url]);
    }
    let mut server = cmd.stderr(Stdio::piped()).spawn().expect("the server");
    let mut line = String::new();
    let mut log = BufReader::new(server.stderr.take().expect("stderr"));
    log.read_line(&mut line).expect("the address");
    // The rest of its log (a line per request), read and dropped: unread, it would fill the
    // pipe and stall the server.
    std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
    let base = format!(
        "http://{}",
        line.split("http://")
            .nth(1)
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
    );
    (server, base)
}

/// A database made for one run on a PostgreSQL server, dropped by [`Fleet::drop_database`].
struct Fleet {
    /// The server's address as given.
    server: String,
    /// The new database's name.
    name: String,
    /// The new database's address.
    url: String,
}

impl Fleet {
    /// A new database on the server of `url` (its path names the database to connect to).
    fn new(url: &str) -> Fleet {
        let name = format!("serve_load_{}", std::process::id());
        let (head, _) = url
            .rsplit_once('/')
            .expect("postgres://USER@HOST:PORT/DATABASE");
        let fleet = Fleet {
            server: url.to_string(),
            url: format!("{head}/{name}"),
            name,
        };
        fleet.admin(&format!("CREATE DATABASE {}", fleet.name));
        fleet
    }

    /// Runs `sql` on the server's own database.
    fn admin(&self, sql: &str) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&self.server, tokio_postgres::NoTls)
                .await
                .expect("the PostgreSQL server");
            tokio::spawn(connection);
            client.batch_execute(sql).await.expect(sql);
        });
    }

    fn drop_database(self) {
        self.admin(&format!("DROP DATABASE {}", self.name));
    }
}

/// Counts the deliveries and repeats in the bank's history.
fn count(db: &Path) {
    let conn = rusqlite::Connection::open(db).expect("the bank");
    let repeats: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM (SELECT h.user, p.canon_key, COUNT(*) n FROM user_history h \
             JOIN puzzles p ON p.id = h.puzzle_id GROUP BY 1, 2 HAVING n > 1)",
            [],
            |r| r.get(0),
        )
        .expect("a count");
    let (deliveries, users): (i64, i64) = conn
        .query_row(
            "SELECT COUNT(*), COUNT(DISTINCT user) FROM user_history",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("counts");
    let stored: i64 = conn
        .query_row("SELECT COUNT(*) FROM puzzles", [], |r| r.get(0))
        .expect("a count");
    println!(
        "bank afterwards: {stored} puzzles, {deliveries} deliveries to {users} users, repeats per user: {repeats}"
    );
}
