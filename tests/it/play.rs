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
        let (child, base) = crate::common::serve(db, &[]);
        Server { child, base }
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
    let (score, p_after, q_after) = pseudoku::play::count(
        &g,
        None,
        pseudoku::play::Rated {
            glicko: prior,
            results: 0,
        },
    );
    assert_eq!(
        counted["score"].as_f64(),
        score.map(|s| (s * 1000.0).round() / 1000.0)
    );
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
    assert_eq!(learned(&newcomer["learned"]), (1500.0, 350.0, 0));
    assert_eq!(newcomer["games"], 0);
    drop(server);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = crate::common::scalar(&conn, "SELECT count(*) FROM results");
    assert_eq!(n, 2);
    let out = crate::common::run_cli(&["stats", "--json", "--db", db.to_str().unwrap()]);
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["play"]["results"], 2);
    assert_eq!(stats["play"]["players"], 1);
    assert_eq!(stats["play"]["puzzles"], 1);
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
    let mut seen = BTreeSet::new();
    let mut near = 0;
    for _ in 0..20 {
        let (status, p) = server.deliver("user=ace&match=skill");
        assert_eq!(status, 200, "{p}");
        assert!(seen.insert(p["id"].as_i64().unwrap()), "a class twice: {p}");
        let r = p["learned"]["rating"].as_f64().unwrap();
        near += usize::from((r - rating).abs() <= pseudoku::play::WINDOWS[0]);
        // Always within the widest window the bank needed.
        assert!(
            (r - rating).abs() <= pseudoku::play::WINDOWS[4],
            "{r} {rating}"
        );
    }
    // The first window of a rating near the top of a bank of 200 holds a dozen puzzles or so:
    // the draws land there until the user has had them, then the window widens.
    assert!(near >= 10, "{near} of 20 within 100 points of {rating}");
    // A newcomer is matched near 1500.
    let (_, p) = server.deliver("user=fresh&match=skill");
    assert!(
        (p["learned"]["rating"].as_f64().unwrap() - 1500.0).abs() <= 200.0,
        "{p}"
    );
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
    let ids: Vec<i64> = crate::common::text(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(ids.len(), 5);
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

/// Each learned rating equals the one written with the last result that moved it (a result
/// and its ratings are one transaction), and the results counts agree.
fn consistent(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let bad: i64 = crate::common::scalar(
        &conn,
        "SELECT count(*) FROM puzzle_ratings q WHERE q.rating != (SELECT r.puzzle_rating FROM \
         results r WHERE r.puzzle_id = q.puzzle_id AND r.score IS NOT NULL ORDER BY r.seq DESC \
         LIMIT 1) OR q.results != (SELECT count(*) FROM results r WHERE r.puzzle_id = \
         q.puzzle_id AND r.score IS NOT NULL)",
    );
    assert_eq!(bad, 0, "puzzle ratings apart from their results");
    let bad: i64 = crate::common::scalar(
        &conn,
        "SELECT count(*) FROM player_ratings p WHERE p.rating != (SELECT r.player_rating FROM \
         results r WHERE r.user = p.user AND r.score IS NOT NULL ORDER BY r.seq DESC LIMIT 1) \
         OR p.results != (SELECT count(*) FROM results r WHERE r.user = p.user AND r.score IS \
         NOT NULL)",
    );
    assert_eq!(bad, 0, "player ratings apart from their results");
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
    assert!(crate::common::text(&out.stderr).contains("the puzzles players rated"));
}

#[test]
fn simulated_players_teach_the_bank_more_than_its_static_rating() {
    let points = pseudoku::play::simulate::run(&pseudoku::play::simulate::Simulation::default());
    for p in &points {
        eprintln!(
            "{:>3} results a puzzle: learned {:.3}, static {:.3}, players {:.3}",
            p.results_per_puzzle, p.learned, p.static_rating, p.players
        );
    }
    let at = |n: usize| points.iter().find(|p| p.results_per_puzzle == n).unwrap();
    // Before any result the learned ratings are the priors: the static rating's order.
    assert!((at(0).learned - at(0).static_rating).abs() < 0.01);
    // They pass it within a few results a puzzle and keep rising.
    assert!(at(5).learned > at(5).static_rating + 0.02, "{:?}", at(5));
    assert!(
        at(20).learned > at(5).learned && at(50).learned > 0.9,
        "{points:?}"
    );
    // Players' learned skill ranks their true skill.
    assert!(at(10).players > 0.9 && at(50).players > 0.95, "{points:?}");
}
