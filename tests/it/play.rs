//! Play: players' results counted once per delivery and refused with reasons, the learned
//! ratings they move (as the library computes them, never lost on a SIGKILL), the player's
//! and the puzzle's views, draws matched to a player's skill (`match=skill`, `get
//! --for-user`), an app's log counted in bulk (`results import`), levels refitted to human
//! time (`calibrate --from-play`), and the simulator's curves.

use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A server; SIGTERM when dropped.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(db: &Path) -> Server {
        Server::with(db, &[])
    }
    fn with(db: &Path, extra: &[&str]) -> Server {
        let (child, base) = crate::common::serve(db, extra);
        Server { child, base }
    }
    /// A request with a bearer token (`None`: none).
    fn ask(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let mut r = ureq::request(method, &format!("{}{path}", self.base));
        if let Some(t) = token {
            r = r.set("Authorization", &format!("Bearer {t}"));
        }
        answer(match body {
            Some(b) => r
                .set("Content-Type", "application/json")
                .send_string(&b.to_string()),
            None => r.call(),
        })
    }
    fn get(&self, path: &str) -> (u16, Value) {
        answer(ureq::get(&format!("{}{path}", self.base)).call())
    }
    fn deliver(&self, query: &str) -> (u16, Value) {
        answer(ureq::post(&format!("{}/v1/puzzles/next?{query}", self.base)).call())
    }
    fn result(&self, body: &Value) -> (u16, Value) {
        answer(
            ureq::post(&format!("{}/v1/results", self.base))
                .set("Content-Type", "application/json")
                .send_string(&body.to_string()),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

fn answer(r: Result<ureq::Response, ureq::Error>) -> (u16, Value) {
    crate::common::reply(r).expect("an answer")
}

/// A bank of `per_level` puzzles a level in a temporary folder.
fn bank(per_level: u64) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    crate::common::build_levels(&db, per_level, 2);
    (dir, db)
}

/// A game's body.
fn game(user: &str, puzzle: i64, solved: bool, seconds: f64) -> Value {
    json!({"user": user, "puzzle": puzzle, "solved": solved, "seconds": seconds})
}

/// The library's rating of a view's `learned`.
fn learned(v: &Value) -> (f64, f64, u64) {
    (
        v["rating"].as_f64().unwrap(),
        v["deviation"].as_f64().unwrap(),
        v["results"].as_u64().unwrap(),
    )
}

#[test]
fn a_result_is_counted_once_per_delivery_as_the_model_says_and_refused_with_reasons() {
    let (_dir, db) = bank(20);
    let server = Server::start(&db);
    let (status, p) = server.deliver("user=alice&level=medium");
    assert_eq!(status, 200, "{p}");
    let id = p["id"].as_i64().unwrap();
    // Before any result: the puzzle's prior, from its percentile.
    let (_, before) = server.get(&format!("/v1/puzzles/{id}"));
    let prior = pseudoku::play::prior(before["percentile"].as_f64().unwrap());
    assert_eq!(
        learned(&before["learned"]),
        ((prior.rating * 10.0).round() / 10.0, 200.0, 0)
    );
    // A solve in 300 s, with one hint: the library's count, exactly.
    let body = json!({"user": "alice", "puzzle": id, "solved": true, "seconds": 300.0, "hints": 1});
    let (status, counted) = server.result(&body);
    assert_eq!(status, 200, "{counted}");
    let g: pseudoku::play::Game = serde_json::from_value(body.clone()).unwrap();
    let outcome = pseudoku::play::count(&g, None, pseudoku::play::PuzzleRated::fresh(prior));
    let (score, p_after, q_after) = (outcome.score, outcome.player, outcome.puzzle.rated);
    assert_eq!(
        counted["score"].as_f64(),
        score.map(|s| (s * 1000.0).round() / 1000.0)
    );
    // A newcomer's first game is held: the puzzle keeps its prior until the player's record.
    assert_eq!(counted["held"], json!(true));
    assert_eq!(q_after.glicko, prior);
    let view = |r: pseudoku::play::Rated| {
        serde_json::to_value(pseudoku::play::Learned::of(&r.glicko, r.results)).unwrap()
    };
    assert_eq!(counted["player"], view(p_after));
    assert_eq!(counted["puzzle"], view(q_after));
    // Shown where it is asked for.
    let (_, player) = server.get("/v1/players/alice");
    assert_eq!(player["learned"], view(p_after));
    assert_eq!(player["games"], 1);
    assert_eq!(player["history"][0]["puzzle"], id);
    assert_eq!(player["history"][0]["hints"], 1);
    let (_, puzzle) = server.get(&format!("/v1/puzzles/{id}"));
    assert_eq!(puzzle["learned"], view(q_after));
    // Refused, each with its reason, and never counted.
    let refusals = [
        (body.clone(), 409, "counted already"),
        (game("bob", id, true, 300.0), 403, "was not handed"),
        (game("alice", 999_999, true, 300.0), 404, "no puzzle"),
        (game("alice", id, true, 4.0), 400, "under 10 seconds"),
        (game("alice", id, true, -1.0), 400, "0 or more"),
        (game("alice", id, true, 1e9), 400, "more than a week"),
        (game("a b", id, true, 300.0), 400, "bad user id"),
        (
            json!({"user": "alice", "puzzle": id, "seconds": 300.0}),
            422,
            "solved",
        ),
        (
            json!({"user": "alice", "puzzle": id, "solved": true, "seconds": 300.0, "speed": 1}),
            422,
            "speed",
        ),
        (
            json!({"user": "alice", "puzzle": id, "solved": true, "seconds": 300.0, "hints": 9999}),
            400,
            "hints",
        ),
    ];
    for (body, want, says) in refusals {
        let (status, v) = server.result(&body);
        assert_eq!(status, want, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{body}: {v}");
    }
    let (_, player) = server.get("/v1/players/alice");
    assert_eq!(player["games"], 1);
    // A glance (abandoned within 30 s) is kept but rates nothing; a newcomer's view.
    let (_, p2) = server.deliver("user=alice&level=easy");
    let id2 = p2["id"].as_i64().unwrap();
    let (status, glance) = server.result(&game("alice", id2, false, 12.0));
    assert_eq!(status, 200);
    assert_eq!(glance["score"], Value::Null);
    assert_eq!(glance["player"], view(p_after));
    let (_, newcomer) = server.get("/v1/players/nobody");
    let start = pseudoku::play::newcomer().rating;
    // As views show ratings: to a tenth.
    assert_eq!(
        learned(&newcomer["learned"]),
        ((start * 10.0).round() / 10.0, 350.0, 0)
    );
    assert!((start - 1132.0).abs() < 0.5, "{start}");
    assert_eq!(newcomer["games"], 0);
    drop(server);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = crate::common::scalar(&conn, "SELECT count(*) FROM results");
    assert_eq!(n, 2);
    let out = crate::common::run_cli(&["stats", "--json", "--db", db.to_str().unwrap()]);
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["play"]["results"], 2);
    assert_eq!(stats["play"]["players"], 1);
    assert_eq!(stats["play"]["puzzles"], 0);
}

#[test]
fn matched_draws_stay_near_the_players_rating_and_never_repeat() {
    let (dir, db) = bank(40);
    let server = Server::start(&db);
    let conn = rusqlite::Connection::open(&db).unwrap();
    // A strong player: fast solves of what they were given.
    for _ in 0..6 {
        let (_, p) = server.deliver("user=ace&level=hard");
        let id = p["id"].as_i64().unwrap();
        assert_eq!(server.result(&game("ace", id, true, 120.0)).0, 200);
    }
    let (_, ace) = server.get("/v1/players/ace");
    let rating = ace["learned"]["rating"].as_f64().unwrap();
    assert!(rating > 1650.0, "{ace}");
    // The puzzles of the first window the player has not had yet, by their learned ratings.
    let had: BTreeSet<i64> = {
        let mut stmt = conn
            .prepare("SELECT puzzle_id FROM user_history WHERE user = 'ace'")
            .unwrap();
        let ids = stmt.query_map([], |r| r.get(0)).unwrap();
        ids.map(Result::unwrap).collect()
    };
    let bank_size: i64 = crate::common::scalar(&conn, "SELECT count(*) FROM puzzles");
    let in_first = (1..=bank_size)
        .filter(|id| !had.contains(id))
        .filter(|id| {
            let (_, p) = server.get(&format!("/v1/puzzles/{id}"));
            let r = p["learned"]["rating"].as_f64().unwrap();
            (r - rating).abs() <= pseudoku::play::WINDOWS[0]
        })
        .count();
    // A rating near the top of a bank of 160 still has a handful of puzzles within 100 points.
    assert!(
        in_first >= 5,
        "{in_first} puzzles within 100 points of {rating}"
    );
    let mut seen = BTreeSet::new();
    let mut near = Vec::new();
    for _ in 0..20 {
        let (status, p) = server.deliver("user=ace&match=skill");
        assert_eq!(status, 200, "{p}");
        assert!(seen.insert(p["id"].as_i64().unwrap()), "a class twice: {p}");
        let r = p["learned"]["rating"].as_f64().unwrap();
        near.push((r - rating).abs() <= pseudoku::play::WINDOWS[0]);
        // Always within the widest window the bank needed.
        assert!(
            (r - rating).abs() <= pseudoku::play::WINDOWS[4],
            "{r} {rating}"
        );
    }
    // The draws land in the first window until the user has had every puzzle there (a
    // window's seeks end with an exact walk of it), then the window widens.
    let first = in_first.min(20);
    assert!(
        near[..first].iter().all(|&n| n) && near[first..].iter().all(|&n| !n),
        "{in_first} puzzles were left within 100 points of {rating}: {near:?}"
    );
    // A newcomer starts on the easiest level, and a win there lifts their rating.
    let start = pseudoku::play::newcomer().rating;
    let (_, p) = server.deliver("user=fresh&match=skill");
    assert_eq!(p["level"], "easy", "{p}");
    assert!(
        (p["learned"]["rating"].as_f64().unwrap() - start).abs() <= 200.0,
        "{p}"
    );
    let (status, won) = server.result(&game("fresh", p["id"].as_i64().unwrap(), true, 200.0));
    assert_eq!(status, 200, "{won}");
    assert!(won["player"]["rating"].as_f64().unwrap() > start, "{won}");
    for bad in [
        "match=skill",
        "user=ace&match=fast",
        "user=ace&match=skill&level=easy",
    ] {
        let (status, v) = server.deliver(bad);
        assert_eq!(status, 400, "{bad}: {v}");
    }
    drop(server);
    // `get --for-user` draws the same way, records each as the user's, never one they had.
    let out = crate::common::run_cli(&[
        "get",
        "--for-user",
        "ace",
        "--count",
        "5",
        "--json",
        "--seed",
        "7",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", crate::common::text(&out.stderr));
    let lines: Vec<Value> = crate::common::text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .collect();
    let ids: Vec<i64> = lines.iter().map(|l| l["id"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), 5);
    // Each with its learned rating, as `get --id` (and the server) give it.
    for line in &lines {
        let learned = &line["learned"];
        assert!(learned["rating"].as_f64().is_some(), "{line}");
        assert!(learned["deviation"].as_f64().unwrap() > 0.0, "{line}");
        let out = crate::common::run_cli(&[
            "get",
            "--id",
            &line["id"].to_string(),
            "--json",
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", crate::common::text(&out.stderr));
        let by_id: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(&by_id["learned"], learned);
    }
    for id in &ids {
        assert!(!seen.contains(id));
        let given: i64 = crate::common::scalar(
            &conn,
            &format!("SELECT count(*) FROM user_history WHERE user = 'ace' AND puzzle_id = {id}"),
        );
        assert_eq!(given, 1);
    }
    drop(dir);
}

/// Each learned rating equals the one written with the last game that taught it (a result,
/// or a held game settled, each in one transaction with the ratings it moved), and the
/// results counts agree: a player's counts every rated game, a puzzle's the games that taught
/// it.
fn consistent(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    // What taught each puzzle, in order: a result not held (its seq), a held game settled
    // (after the result that made its player's record).
    // Each event: (the result it came with, the held result it settled or 0), the rating.
    type Taught = Vec<((i64, i64), f64)>;
    let mut taught: std::collections::HashMap<i64, Taught> = Default::default();
    let mut stmt = conn
        .prepare(
            "SELECT puzzle_id, seq, 0, puzzle_rating FROM results WHERE held = 0 UNION ALL \
             SELECT puzzle_id, by_seq, result_seq, puzzle_rating FROM settled WHERE share > 0",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?), r.get(3)?)))
        .unwrap();
    for row in rows {
        let (id, at, rating): (i64, (i64, i64), f64) = row.unwrap();
        taught.entry(id).or_default().push((at, rating));
    }
    let mut stmt = conn
        .prepare("SELECT puzzle_id, rating, results FROM puzzle_ratings")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    for row in rows {
        let (id, rating, results): (i64, f64, i64) = row.unwrap();
        let events = taught.remove(&id).unwrap_or_default();
        assert_eq!(
            events.len() as i64,
            results,
            "puzzle {id}: its results count"
        );
        let last = events.iter().max_by_key(|e| e.0).map(|e| e.1);
        assert_eq!(
            last,
            Some(rating),
            "puzzle {id}: its rating apart from its results"
        );
    }
    assert!(
        taught.is_empty(),
        "puzzles taught without a rating: {taught:?}"
    );
    let bad: i64 = crate::common::scalar(
        &conn,
        "SELECT count(*) FROM player_ratings p WHERE p.rating != (SELECT r.player_rating FROM \
         results r WHERE r.user = p.user AND r.score IS NOT NULL ORDER BY r.seq DESC LIMIT 1) \
         OR p.results != (SELECT count(*) FROM results r WHERE r.user = p.user AND r.score IS \
         NOT NULL)",
    );
    assert_eq!(bad, 0, "player ratings apart from their results");
    let bad: i64 = crate::common::scalar(
        &conn,
        "SELECT count(*) FROM results WHERE (score IS NULL) != (held IS NULL)",
    );
    assert_eq!(bad, 0, "results neither held nor taught");
}

#[test]
fn an_apps_log_counts_as_the_route_does_names_bad_lines_and_continues() {
    let (dir, db) = bank(20);
    let copy = dir.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    // Games through the route, in order.
    let server = Server::start(&db);
    let mut lines = Vec::new();
    for i in 0..60 {
        let user = format!("u{}", i % 7);
        let (_, p) = server.deliver(&format!("user={user}&level=easy"));
        let id = p["id"].as_i64().unwrap();
        let g = game(&user, id, i % 9 != 0, 60.0 + 37.0 * f64::from(i % 11));
        assert_eq!(server.result(&g).0, 200);
        lines.push(g.to_string());
    }
    drop(server);
    // The same games as a log, with bad lines among them.
    let log = dir.path().join("log.jsonl");
    let mut text = lines[..30].join("\n");
    text.push_str(
        "\nnot json\n{\"user\":\"u1\",\"puzzle\":999999,\"solved\":true,\"seconds\":200}\n",
    );
    text.push_str(&lines[30..].join("\n"));
    text.push_str("\n{\"user\":\"u1\",\"puzzle\":1,\"solved\":true,\"seconds\":2}\n");
    std::fs::write(&log, text).unwrap();
    let half = dir.path().join("half.jsonl");
    std::fs::write(&half, lines[..25].join("\n")).unwrap();
    let import = |file: &Path| {
        crate::common::run_cli(&[
            "results",
            "import",
            file.to_str().unwrap(),
            "--db",
            copy.to_str().unwrap(),
        ])
    };
    // A first run that stopped after 25 lines, then the whole log: the log's order kept.
    assert!(import(&half).status.success());
    let out = import(&log);
    assert_eq!(out.status.code(), Some(1));
    let (said, warned) = (
        crate::common::text(&out.stdout),
        crate::common::text(&out.stderr),
    );
    assert!(
        said.contains("counted 35 games") && said.contains("25 counted before"),
        "{said}"
    );
    assert!(said.contains("3 lines skipped"), "{said}");
    let file = log.display().to_string();
    assert!(
        warned.contains(&format!("{file}:31: not a result")),
        "{warned}"
    );
    assert!(
        warned.contains(&format!("{file}:32: no puzzle with id 999999")),
        "{warned}"
    );
    assert!(
        warned.contains(&format!("{file}:63: seconds 2")),
        "{warned}"
    );
    // The same ratings as the route taught, to the last digit, and every rating the last
    // one its results wrote.
    assert_eq!(
        crate::common::learned_ratings(&copy),
        crate::common::learned_ratings(&db)
    );
    consistent(&db);
    consistent(&copy);
    // Run again: nothing new.
    let again = crate::common::text(&import(&log).stdout);
    assert!(
        again.contains("counted 0 games") && again.contains("60 counted before"),
        "{again}"
    );
}

#[test]
fn a_server_killed_mid_load_keeps_every_result_it_acknowledged() {
    let (_dir, db) = bank(30);
    let mut server = Server::start(&db);
    let base = server.base.clone();
    let acknowledged: Mutex<Vec<(String, i64)>> = Mutex::new(Vec::new());
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for c in 0..6 {
            let (acknowledged, done, base) = (&acknowledged, &done, &base);
            s.spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(std::time::Duration::from_secs(20))
                    .build();
                let user = format!("k{c}");
                loop {
                    let url = format!("{base}/v1/puzzles/next?user={user}&match=skill");
                    let Some((200, p)) = crate::common::reply(agent.post(&url).call()) else {
                        return;
                    };
                    let id = p["id"].as_i64().unwrap();
                    let body = game(&user, id, true, 100.0 + 50.0 * f64::from(c));
                    let sent = agent
                        .post(&format!("{base}/v1/results"))
                        .set("Content-Type", "application/json")
                        .send_string(&body.to_string());
                    match crate::common::reply(sent) {
                        Some((200, _)) => {
                            acknowledged.lock().unwrap().push((user.clone(), id));
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        Some((status, v)) => panic!("{status} {v}"),
                        None => return,
                    }
                }
            });
        }
        while done.load(Ordering::Relaxed) < 120 {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        server.child.kill().unwrap();
        server.child.wait().unwrap();
    });
    let acknowledged = acknowledged.into_inner().unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let stored: BTreeSet<(String, i64)> = {
        let mut stmt = conn.prepare("SELECT user, puzzle_id FROM results").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    eprintln!(
        "{} acknowledged, {} stored",
        acknowledged.len(),
        stored.len()
    );
    for a in &acknowledged {
        assert!(stored.contains(a), "acknowledged but lost: {a:?}");
    }
    consistent(&db);
}

#[test]
fn levels_refit_to_human_time_from_play() {
    let (dir, db) = bank(40);
    // Players whose times follow the bank's own rating (a harder puzzle takes longer), each
    // level's puzzles played by eight players, through a log.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: Vec<(i64, f64)> = {
        let mut stmt = conn
            .prepare("SELECT id, difficulty FROM puzzles ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, f64>(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let mut log = String::new();
    for u in 0..8 {
        for &(id, d) in &rows {
            let seconds = 30.0 * (d / 1000.0 * 0.55).exp() * (1.0 + 0.1 * f64::from(u));
            log.push_str(&format!(
                "{}\n",
                game(&format!("p{u}"), id, true, seconds.max(11.0))
            ));
        }
    }
    let file = dir.path().join("log.jsonl");
    std::fs::write(&file, log).unwrap();
    let out = crate::common::run_cli(&[
        "results",
        "import",
        file.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", crate::common::text(&out.stderr));
    let out = crate::common::run_cli(&["calibrate", "--from-play", "--db", db.to_str().unwrap()]);
    let said = crate::common::text(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        crate::common::text(&out.stderr)
    );
    assert!(said.contains("held out"), "{said}");
    // The levels refitted: the played puzzles' mean learned rating rises level by level.
    let out = crate::common::run_cli(&["stats", "--json", "--db", db.to_str().unwrap()]);
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    let means: Vec<f64> = stats["play"]["per_level"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l[2].as_f64().unwrap())
        .collect();
    assert!(means.len() >= 3, "{stats}");
    assert!(means.windows(2).all(|w| w[0] < w[1]), "{means:?}");
    // Too few results a puzzle: refused with the reason, nothing changed.
    let out = crate::common::run_cli(&[
        "calibrate",
        "--from-play",
        "--min-results",
        "9",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let said = crate::common::text(&out.stderr);
    assert!(said.contains("the puzzles players rated"), "{said}");
    assert!(
        said.contains("with at least 9 results each") && said.contains("--min-results N"),
        "the threshold named: {said}"
    );
    // A count past any bank's: refused as such, not wrapped into a negative one.
    let out = crate::common::run_cli(&[
        "calibrate",
        "--from-play",
        "--min-results",
        "18446744073709551615",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(crate::common::text(&out.stderr).contains("--min-results"));
}

#[test]
fn a_log_names_a_line_of_bad_bytes_and_counts_the_rest() {
    let (dir, db) = bank(20);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let ids: Vec<i64> = crate::common::column(&conn, "SELECT id FROM puzzles ORDER BY id LIMIT 6");
    // Six games; between them a line that is not UTF-8, a line of 1 MiB, CRLF line ends.
    let mut log = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        log.extend_from_slice(
            game("logged", *id, true, 100.0 + i as f64)
                .to_string()
                .as_bytes(),
        );
        log.extend_from_slice(b"\r\n");
        match i {
            1 => log.extend_from_slice(b"{\"user\":\"x\xff\xfe\"}\r\n"),
            3 => {
                log.extend_from_slice(&vec![b'{'; 1 << 20]);
                log.extend_from_slice(b"\r\n");
            }
            _ => {}
        }
    }
    let file = dir.path().join("games.jsonl");
    std::fs::write(&file, &log).unwrap();
    let import = || {
        crate::common::run_cli(&[
            "results",
            "import",
            file.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ])
    };
    let out = import();
    let (said, warned) = (
        crate::common::text(&out.stdout),
        crate::common::text(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{said}{warned}");
    assert!(
        said.contains("counted 6 games") && said.contains("2 lines skipped"),
        "{said}"
    );
    let name = file.display();
    assert!(
        warned.contains(&format!("{name}:3: not valid UTF-8 text")),
        "{warned}"
    );
    assert!(
        warned.contains(&format!("{name}:6: a line longer than 65536 bytes")),
        "{warned}"
    );
    assert!(warned.len() < 2_000, "{} bytes said", warned.len());
    // Run again: nothing new, the same lines named.
    let again = crate::common::text(&import().stdout);
    assert!(
        again.contains("counted 0 games") && again.contains("6 counted before"),
        "{again}"
    );
    // A bank whose history was moved to a fleet: refused, as a server refuses it.
    conn.execute(
        "INSERT INTO settings (key, value) VALUES ('history_moved', 'exported to postgres://app@db/fleet on 2026-12-01')",
        [],
    )
    .unwrap();
    let out = import();
    assert_eq!(out.status.code(), Some(2));
    let err = crate::common::text(&out.stderr);
    assert!(
        err.contains("history was exported") && err.contains("--history"),
        "{err}"
    );
    consistent(&db);
}

/// A server as a public site runs it: the server's token, and the play page's public one.
fn public_server(dir: &Path, db: &Path) -> Server {
    let (token, page) = (dir.join("token"), dir.join("page-token"));
    std::fs::write(&token, "s3cret\n").unwrap();
    std::fs::write(&page, "pl4y\n").unwrap();
    Server::with(
        db,
        &[
            "--token-file",
            token.to_str().unwrap(),
            "--page-token-file",
            page.to_str().unwrap(),
        ],
    )
}

/// A puzzle's learned rating and results, as `GET /v1/puzzles/{id}` shows them.
fn learned_of(server: &Server, id: i64) -> (f64, u64) {
    let (status, v) = server.ask("GET", &format!("/v1/puzzles/{id}"), Some("s3cret"), None);
    assert_eq!(status, 200, "{v}");
    let (rating, _, results) = learned(&v["learned"]);
    (rating, results)
}

#[test]
fn forged_players_with_the_page_token_move_the_daily_puzzle_by_nothing() {
    let (dir, db) = bank(20);
    let server = public_server(dir.path(), &db);
    let page = Some("pl4y");
    let today = pseudoku::calendar::Date::today().to_string();
    let daily = |user: Option<&str>| {
        let who = user.map_or(String::new(), |u| format!("&user={u}"));
        server.ask(
            "GET",
            &format!("/v1/daily?date={today}&level=hard{who}"),
            page,
            None,
        )
    };
    let (status, d) = daily(None);
    assert_eq!(status, 200, "{d}");
    let id = d["id"].as_i64().unwrap();
    let before = learned_of(&server, id);
    assert_eq!(before.1, 0);
    // 30 forged players from one address: the address's budget of new players lets 20 in.
    let mut forged = Vec::new();
    let mut refused = 0;
    for _ in 0..30 {
        match server.ask("POST", "/v1/players", page, None) {
            (200, v) => forged.push(v["user"].as_str().unwrap().to_string()),
            (429, v) => {
                assert!(v["error"].as_str().unwrap().contains("new players"), "{v}");
                refused += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((forged.len(), refused), (20, 10));
    // Each asks for the daily puzzle (its delivery) and posts a solve in ten seconds: counted,
    // held (no record), the puzzle not moved.
    for user in &forged {
        assert_eq!(daily(Some(user)).0, 200);
        let (status, c) = server.ask(
            "POST",
            "/v1/results",
            page,
            Some(&game(user, id, true, 10.0)),
        );
        assert_eq!(status, 200, "{c}");
        assert_eq!(c["held"], json!(true), "{c}");
    }
    assert_eq!(learned_of(&server, id), before);
    // A player the server made, who never asked for the daily puzzle: not handed it.
    let (_, fresh) = server.ask("POST", "/v1/players", Some("s3cret"), None);
    let fresh = fresh["user"].as_str().unwrap().to_string();
    let (status, v) = server.ask(
        "POST",
        "/v1/results",
        page,
        Some(&game(&fresh, id, true, 10.0)),
    );
    assert_eq!(status, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("not handed"), "{v}");
    // Ann plays through the app behind the server's token (its names are its own): she asks
    // for the daily puzzle.
    let ann_daily = format!("/v1/daily?date={today}&level=hard&user=ann");
    assert_eq!(server.ask("GET", &ann_daily, Some("s3cret"), None).0, 200);
    // Names a page's client picks, or an id of the server's altered, are no players of it:
    // no result, no delivery, no daily, no games read.
    let mut altered = forged[0].clone().into_bytes();
    let last = altered.len() - 1;
    altered[last] = if altered[last] == b'0' { b'1' } else { b'0' };
    let altered = String::from_utf8(altered).unwrap();
    for name in ["ann", altered.as_str()] {
        // A glance (left within seconds) in another's name: refused, so their win stays theirs.
        let (status, v) = server.ask(
            "POST",
            "/v1/results",
            page,
            Some(&game(name, id, false, 5.0)),
        );
        assert_eq!(status, 403, "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("not a player id"),
            "{v}"
        );
        for (method, path) in [
            ("POST", format!("/v1/puzzles/next?user={name}&level=easy")),
            (
                "GET",
                format!("/v1/daily?date={today}&level=hard&user={name}"),
            ),
            ("GET", format!("/v1/players/{name}")),
        ] {
            assert_eq!(server.ask(method, &path, page, None).0, 403, "{path}");
        }
    }
    // A player reads their own games; the server's token reads any.
    let (status, own) = server.ask("GET", &format!("/v1/players/{}", forged[0]), page, None);
    assert_eq!((status, own["games"].as_u64()), (200, Some(1)), "{own}");
    // Ann's win is hers to post (no forged glance took her result), and her games hers to
    // read.
    let (status, c) = server.ask(
        "POST",
        "/v1/results",
        Some("s3cret"),
        Some(&game("ann", id, true, 500.0)),
    );
    assert_eq!(status, 200, "{c}");
    let (status, ann) = server.ask("GET", "/v1/players/ann", Some("s3cret"), None);
    assert_eq!((status, ann["games"].as_u64()), (200, Some(1)), "{ann}");
    // The page's token draws by level or skill, never by a range that holds one puzzle.
    let (_, p) = server.ask("GET", &format!("/v1/puzzles/{id}"), Some("s3cret"), None);
    let at = p["percentile"].as_f64().unwrap();
    for how in [
        format!("percentile={:.3}..{:.3}", at - 0.005, at + 0.005),
        "band=4/4".to_string(),
        "technique=x-wing".to_string(),
    ] {
        let path = format!("/v1/puzzles/next?user={}&{how}", forged[1]);
        let (status, v) = server.ask("POST", &path, page, None);
        assert_eq!(status, 403, "{how}: {v}");
    }
    drop(server);
    consistent(&db);
}

#[test]
fn forged_players_without_a_token_move_a_puzzle_no_more_than_the_days_bound() {
    let (_dir, db) = bank(20);
    // A server without a token, as the attack found it: 400 names from one address; its
    // budget of new players lets 20 in, whose games are all held.
    let server = Server::start(&db);
    // The target: the hardest puzzle whose percentile no other puzzle shares, which a range
    // of percentiles narrower than the bank's steps between puzzles holds alone.
    let mut at: Vec<(f64, i64)> = (1..=80)
        .map(|id| {
            (
                server.get(&format!("/v1/puzzles/{id}")).1["percentile"]
                    .as_f64()
                    .unwrap(),
                id,
            )
        })
        .collect();
    at.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let (at, target) = (0..at.len())
        .rev()
        .find(|&i| {
            (i == 0 || at[i - 1].0 != at[i].0) && (i + 1 == at.len() || at[i + 1].0 != at[i].0)
        })
        .map(|i| at[i])
        .unwrap();
    let (_, t) = server.get(&format!("/v1/puzzles/{target}"));
    let (prior, _, _) = learned(&t["learned"]);
    let lone = format!("percentile={:.3}..{:.3}", at - 0.005, at + 0.005);
    let mut admitted = 0;
    for i in 0..400 {
        let (status, p) = server.deliver(&format!("user=f{i}&{lone}"));
        if status == 429 {
            continue;
        }
        assert_eq!((status, p["id"].as_i64()), (200, Some(target)), "{p}");
        admitted += 1;
        assert_eq!(
            server.result(&game(&format!("f{i}"), target, true, 10.0)).0,
            200
        );
    }
    assert_eq!(admitted, 20);
    assert_eq!(
        learned(&server.get(&format!("/v1/puzzles/{target}")).1["learned"]).0,
        prior
    );
    drop(server);
    // Patient forgers, 40 of them (an address's budget raised): each plays nine puzzles
    // first, then the target as its tenth game, which makes its record and settles the held
    // games, the target's among them: the held games move it by the day's bound at most.
    let server = Server::with(&db, &["--new-players-per-address", "1000"]);
    let bound = pseudoku::play::Trust::DEFAULT.daily_move;
    let mut moved = Vec::new();
    for i in 0..40 {
        let user = format!("g{i}");
        for _ in 0..9 {
            let (status, p) = server.deliver(&format!("user={user}&level=easy"));
            assert_eq!(status, 200, "{p}");
            let id = p["id"].as_i64().unwrap();
            assert_eq!(server.result(&game(&user, id, false, 40.0)).0, 200);
        }
        assert_eq!(server.deliver(&format!("user={user}&{lone}")).0, 200);
        let (status, c) = server.result(&game(&user, target, true, 10.0));
        assert_eq!((status, &c["held"]), (200, &json!(true)), "{c}");
        moved.push(prior - c["puzzle"]["rating"].as_f64().unwrap());
    }
    assert!(
        moved[0] > 10.0,
        "the first settled forger moved it: {moved:?}"
    );
    let last = *moved.last().unwrap();
    assert!(
        last <= bound + 0.1 && moved.windows(2).all(|w| w[1] >= w[0] - 1e-9),
        "{moved:?}"
    );
    eprintln!("40 patient forgers moved the target by {last:.1} (bound {bound})");
    drop(server);
    consistent(&db);
}

#[test]
fn simulated_players_teach_the_bank_more_than_its_static_rating() {
    use pseudoku::play::simulate::{run, Simulation};
    let points = run(&Simulation::default());
    let whole = run(&Simulation {
        trust: pseudoku::play::Trust::EVERY_GAME,
        ..Simulation::default()
    });
    for (p, w) in points.iter().zip(&whole) {
        eprintln!(
            "{:>3} results a puzzle: learned {:.4} (every game whole {:.4}), static {:.3}, players {:.3}",
            p.results_per_puzzle, p.learned, w.learned, p.static_rating, p.players
        );
    }
    let at = |points: &[pseudoku::play::simulate::Point], n: usize| {
        *points.iter().find(|p| p.results_per_puzzle == n).unwrap()
    };
    // Before any result the learned ratings are the priors: the static rating's order.
    assert!((at(&points, 0).learned - at(&points, 0).static_rating).abs() < 0.01);
    // They pass it within a few results a puzzle and keep rising.
    assert!(at(&points, 5).learned > at(&points, 5).static_rating + 0.02);
    assert!(
        at(&points, 20).learned > at(&points, 5).learned && at(&points, 50).learned > 0.9,
        "{points:?}"
    );
    // Holding a new player's games until their record costs honest play nothing that shows
    // at 5 results a puzzle, and nothing by 10.
    for n in [5, 10, 20, 50] {
        assert!(
            at(&points, n).learned >= at(&whole, n).learned - 0.001,
            "{n}: {:?} against {:?}",
            at(&points, n),
            at(&whole, n)
        );
    }
    // Players' learned skill ranks their true skill.
    assert!(
        at(&points, 10).players > 0.9 && at(&points, 50).players > 0.95,
        "{points:?}"
    );
}
