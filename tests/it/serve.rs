//! `serve`: per-user puzzles that never repeat (also under concurrency), every route's JSON,
//! bad requests as 4xx JSON errors, the token, the OpenAPI description against the real
//! responses, metrics, and a SIGTERM that loses no recorded delivery.

use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command};

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A running server on a free port; stopped (SIGTERM) when dropped.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(db: &Path, extra: &[&str]) -> Server {
        let (child, base) = crate::common::serve(db, extra);
        Server { child, base }
    }

    fn get(&self, path: &str) -> (u16, Value) {
        answer(ureq::get(&format!("{}{path}", self.base)).call())
    }

    /// A delivery: POST without a body.
    fn deliver(&self, path: &str) -> (u16, Value) {
        answer(ureq::post(&format!("{}{path}", self.base)).call())
    }

    /// A GET with a bearer token.
    fn get_with(&self, path: &str, bearer: &str) -> (u16, Value) {
        answer(
            ureq::get(&format!("{}{path}", self.base))
                .set("Authorization", &format!("Bearer {bearer}"))
                .call(),
        )
    }

    /// A JSON POST with a bearer token.
    fn post_with(&self, path: &str, body: &str, bearer: &str) -> (u16, Value) {
        answer(
            ureq::post(&format!("{}{path}", self.base))
                .set("Authorization", &format!("Bearer {bearer}"))
                .set("Content-Type", "application/json")
                .send_string(body),
        )
    }

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        answer(
            ureq::post(&format!("{}{path}", self.base))
                .set("Content-Type", "application/json")
                .send_string(body),
        )
    }

    /// Sends SIGTERM and waits: the exit status.
    fn stop(mut self) -> std::process::ExitStatus {
        terminate(&self.child);
        let status = self.child.wait().unwrap();
        std::mem::forget(self);
        status
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        terminate(&self.child);
        let _ = self.child.wait();
    }
}

fn terminate(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

/// Status and JSON body of a response (errors included).
fn answer(r: Result<ureq::Response, ureq::Error>) -> (u16, Value) {
    let resp = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn bank(dir: &Path, per_level: u64) -> std::path::PathBuf {
    let db = dir.join("b.db");
    crate::common::build_levels(&db, per_level, 2);
    db
}

#[test]
fn a_user_never_gets_a_class_twice_even_concurrently() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 15);
    let server = Server::start(&db, &[]);
    // One user, 8 threads, 3 more requests than the level holds: 15 distinct puzzles, then
    // clear 404 errors.
    let ids = std::sync::Mutex::new(Vec::new());
    let errors = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..3 {
                    let (status, v) = server.deliver("/v1/puzzles/next?user=ann&level=easy");
                    if status == 200 {
                        ids.lock().unwrap().push(v["id"].as_i64().unwrap());
                    } else {
                        errors.lock().unwrap().push((status, v));
                    }
                }
            });
        }
    });
    let ids = ids.into_inner().unwrap();
    let errors = errors.into_inner().unwrap();
    assert_eq!(ids.len(), 15, "{errors:?}");
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 15);
    assert_eq!(errors.len(), 9);
    for (status, v) in &errors {
        assert_eq!(*status, 404);
        assert!(v["error"]
            .as_str()
            .unwrap()
            .contains("has had every puzzle of level easy"));
    }
    // Another user still gets puzzles of that level; the keys of a puzzle.
    let (status, v) = server.deliver("/v1/puzzles/next?user=bob&level=easy&solution=true");
    assert_eq!(status, 200);
    let keys: HashSet<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        HashSet::from([
            "id",
            "puzzle",
            "level",
            "difficulty",
            "percentile",
            "clues",
            "hardest_step",
            "hardest_steps",
            "solution"
        ])
    );
    assert_eq!(v["level"], "easy");
    let (status, v) = server.deliver("/v1/puzzles/next?user=bob&band=4/4");
    assert_eq!(status, 200);
    assert!(v.get("solution").is_none());
    assert_eq!(server.stop().code(), Some(0));
    // The history holds exactly what was handed out, and the publisher's flag is untouched.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = crate::common::scalar(
        &conn,
        "SELECT COUNT(*) FROM user_history WHERE user = 'ann'",
    );
    assert_eq!(n, 15);
    let served: i64 = crate::common::scalar(
        &conn,
        "SELECT COUNT(*) FROM puzzles_text WHERE served_at IS NOT NULL",
    );
    assert_eq!(served, 0);
}

#[test]
fn every_route_answers_json_and_bad_requests_get_4xx_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(&db, &[]);
    assert_eq!(
        server.get("/healthz"),
        (200, serde_json::json!({"status": "ok", "deliveries": true}))
    );
    let (status, levels) = server.get("/v1/levels");
    assert_eq!(status, 200);
    assert_eq!(levels["levels"].as_array().unwrap().len(), 4);
    assert_eq!(levels["levels"][0]["count"], 5);
    let (_, p) = server.deliver("/v1/puzzles/next?user=u1&level=hard");
    let id = p["id"].as_i64().unwrap();
    let (status, same) = server.get(&format!("/v1/puzzles/{id}"));
    assert_eq!((status, &same["puzzle"]), (200, &p["puzzle"]));
    let (status, h) = server.post("/v1/hint", &format!(r#"{{"puzzle":"{HARD}"}}"#));
    assert_eq!(status, 200);
    assert_eq!(h["technique"], "hidden single");
    assert_eq!(h["placements"], serde_json::json!([[6, 2, 4]]));
    // Candidates as the player keeps them: every digit but 4 in r6c2 (its solution).
    let mut marks = vec!["123456789".to_string(); 81];
    marks[5 * 9 + 1] = "12356789".into();
    let body = serde_json::json!({"puzzle": HARD, "candidates": marks}).to_string();
    let (status, h) = server.post("/v1/hint", &body);
    assert_eq!(
        (status, h["technique"].as_str()),
        (200, Some("missing candidate"))
    );
    let (status, s) = server.post("/v1/solve", &format!(r#"{{"puzzles":["{HARD}"]}}"#));
    assert_eq!(status, 200);
    assert_eq!(s["results"][0]["solutions"], 1);
    let (status, c) = server.post("/v1/canon", &format!(r#"{{"puzzles":["{HARD}"]}}"#));
    assert_eq!(status, 200);
    assert_eq!(c["results"][0]["key"].as_str().unwrap().len(), 64);
    let (status, r) = server.post("/v1/rate", &format!(r#"{{"puzzles":["{HARD}"]}}"#));
    assert_eq!(status, 200);
    assert!(r["results"][0]["difficulty"].as_f64().unwrap() > 0.0);

    // Bad requests: a 4xx with a reason, never a 500.
    // Just over the server's 256 KiB limit: it answers 413 once it has read the limit, and the
    // few bytes left fit in the socket's buffers, so the client has finished writing by then
    // (with 44 KB left, a loaded machine sometimes saw the connection closed mid-write).
    let big = format!(r#"{{"puzzles":["{}"]}}"#, "1".repeat(256 * 1024));
    let bad: Vec<(u16, (u16, Value))> = vec![
        (
            400,
            server.deliver("/v1/puzzles/next?user=bad%20id&level=hard"),
        ),
        (400, server.deliver("/v1/puzzles/next?level=hard")),
        (
            400,
            server.deliver("/v1/puzzles/next?user=u1&level=impossible"),
        ),
        (400, server.deliver("/v1/puzzles/next?user=u1&band=9/4")),
        (
            400,
            server.deliver("/v1/puzzles/next?user=u1&level=hard&band=1/4"),
        ),
        (
            400,
            server.deliver("/v1/puzzles/next?user=u1&level=hard&solution=maybe"),
        ),
        (400, server.get("/v1/puzzles/abc")),
        (404, server.get("/v1/puzzles/999999")),
        (404, server.get("/v2/nothing")),
        (400, server.post("/v1/hint", r#"{"puzzle":"123"}"#)),
        (
            400,
            server.post(
                "/v1/hint",
                &format!(r#"{{"puzzle":"{HARD}","entries":"12"}}"#),
            ),
        ),
        (
            422,
            server.post("/v1/hint", &format!(r#"{{"puzzle":"{}"}}"#, ".".repeat(81))),
        ),
        (400, server.post("/v1/hint", "not json")),
        (422, server.post("/v1/hint", r#"{"puzzle": 5}"#)),
        (400, server.post("/v1/solve", r#"{"puzzles":[]}"#)),
        (
            400,
            server.post(
                "/v1/rate",
                &format!(
                    r#"{{"puzzles":[{}]}}"#,
                    vec![format!("\"{HARD}\""); 51].join(",")
                ),
            ),
        ),
        (413, server.post("/v1/solve", &big)),
    ];
    for (want, (status, v)) in bad {
        assert_eq!(status, want, "{v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    // The metrics count the routes by pattern.
    let text = ureq::get(&format!("{}/metrics", server.base))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(text.contains(r#"pseudoku_requests_total{route="/v1/puzzles/{id}",status="200"} 1"#));
    assert!(text.contains(r#"pseudoku_request_seconds_bucket{route="/v1/hint",le="+Inf"}"#));
    // One delivery (the first request), committed by the writer in one transaction.
    assert!(text.contains("pseudoku_deliveries_total 1\n"), "{text}");
    assert!(
        text.contains(r#"pseudoku_write_seconds_count{kind="commit"} 1"#),
        "{text}"
    );
    assert!(text.contains("# TYPE pseudoku_wal_pages gauge"), "{text}");
    // Idle, the checkpointer's tries every 100 ms copy nothing and count nothing: at most the
    // checkpoints that copied the one commit.
    std::thread::sleep(std::time::Duration::from_millis(800));
    let text = ureq::get(&format!("{}/metrics", server.base))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let checkpoints: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix(r#"pseudoku_write_seconds_count{kind="checkpoint"} "#))
        .map_or(0, |n| n.trim().parse().unwrap());
    assert!(
        checkpoints <= 2,
        "{checkpoints} checkpoints for one commit:\n{text}"
    );
}

/// `schema` with its `$ref` followed (to `#/components/schemas/NAME` of `spec`).
fn deref<'a>(spec: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap();
            deref(spec, &spec["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// The alternatives a schema allows (`oneOf`, `anyOf`, `allOf`, or itself), followed.
fn alternatives<'a>(spec: &'a Value, schema: &'a Value) -> Vec<&'a Value> {
    let schema = deref(spec, schema);
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(list) = schema[key].as_array() {
            return list.iter().flat_map(|s| alternatives(spec, s)).collect();
        }
    }
    vec![schema]
}

/// Checks that every key of `value`, at every depth, is a property its schema declares.
fn conforms(spec: &Value, schema: &Value, value: &Value, at: &str) {
    let alts = alternatives(spec, schema);
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let prop = alts
                    .iter()
                    .find_map(|s| s["properties"].get(k))
                    .unwrap_or_else(|| panic!("{at}.{k} is not in the schema: {value}"));
                conforms(spec, prop, v, &format!("{at}.{k}"));
            }
        }
        Value::Array(items) => {
            let item = alts
                .iter()
                .find_map(|s| s.get("items"))
                .unwrap_or_else(|| panic!("{at} is a list the schema does not declare"));
            for v in items {
                conforms(spec, item, v, &format!("{at}[]"));
            }
        }
        _ => {}
    }
}

#[test]
fn the_openapi_description_is_generated_and_real_answers_follow_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(&db, &[]);
    let (status, spec) = server.get("/openapi.json");
    assert_eq!(status, 200);
    assert_eq!(spec["info"]["title"], "pseudoku");
    let paths = spec["paths"].as_object().unwrap();
    let source = include_str!("../../src/serve/api/mod.rs");
    // Every route of the router is described.
    for line in source
        .lines()
        .filter(|l| l.trim_start().starts_with(".route(\""))
    {
        let route = line.split('"').nth(1).unwrap();
        // The play page's own files (the page itself is described).
        if route == "/sw.js" {
            continue;
        }
        assert!(paths.contains_key(route), "{route} is not in openapi.json");
    }
    // Every answer, good or bad, follows the schema its route declares for its status.
    let declared = |route: &str, method: &str, status: u16| -> Value {
        spec["paths"][route][method]["responses"][status.to_string()]["content"]["application/json"]
            ["schema"]
            .clone()
    };
    let puzzles = format!(r#"{{"puzzles":["{HARD}"]}}"#);
    let first = server.deliver("/v1/puzzles/next?user=x&level=easy&solution=true");
    let result = format!(
        r#"{{"user":"x","puzzle":{},"solved":true,"seconds":321}}"#,
        first.1["id"]
    );
    let cases: Vec<(&str, &str, (u16, Value))> = vec![
        ("/v1/puzzles/next", "post", first.clone()),
        (
            "/v1/puzzles/next",
            "post",
            server.deliver("/v1/puzzles/next?user=x&match=skill"),
        ),
        ("/v1/results", "post", server.post("/v1/results", &result)),
        ("/v1/results", "post", server.post("/v1/results", &result)),
        (
            "/v1/results",
            "post",
            server.post("/v1/results", &result.replace("\"x\"", "\"y\"")),
        ),
        (
            "/v1/results",
            "post",
            server.post("/v1/results", &result.replace("321", "2")),
        ),
        ("/v1/players/{user}", "get", server.get("/v1/players/x")),
        ("/v1/players/{user}", "get", server.get("/v1/players/a%20b")),
        (
            "/v1/puzzles/next",
            "post",
            server.deliver("/v1/puzzles/next?user=x"),
        ),
        (
            "/v1/puzzles/next",
            "get",
            server.get("/v1/puzzles/next?user=x&level=easy"),
        ),
        (
            "/v1/puzzles/{id}",
            "get",
            server.get("/v1/puzzles/1?solution=true"),
        ),
        ("/v1/puzzles/{id}", "get", server.get("/v1/puzzles/999999")),
        (
            "/v1/hint",
            "post",
            server.post("/v1/hint", &format!(r#"{{"puzzle":"{HARD}"}}"#)),
        ),
        (
            "/v1/hint",
            "post",
            server.post("/v1/hint", r#"{"puzzle":"1"}"#),
        ),
        ("/v1/levels", "get", server.get("/v1/levels")),
        (
            "/v1/daily",
            "get",
            server.get(&format!(
                "/v1/daily?date={}&level=hard&solution=true",
                pseudoku::calendar::Date::today()
            )),
        ),
        (
            "/v1/daily",
            "get",
            server.get("/v1/daily?date=2001-01-01&level=hard"),
        ),
        (
            "/v1/daily",
            "get",
            server.get("/v1/daily?date=2999-01-01&level=hard"),
        ),
        ("/v1/solve", "post", server.post("/v1/solve", &puzzles)),
        ("/v1/canon", "post", server.post("/v1/canon", &puzzles)),
        (
            "/v1/rate",
            "post",
            server.post(
                "/v1/rate",
                &format!(r#"{{"puzzles":["{HARD}","{}"]}}"#, ".".repeat(81)),
            ),
        ),
        (
            "/v1/rate",
            "post",
            server.post("/v1/rate", r#"{"puzzles":[]}"#),
        ),
        ("/healthz", "get", server.get("/healthz")),
    ];
    for (route, method, (status, body)) in &cases {
        let schema = declared(route, method, *status);
        assert!(
            !schema.is_null(),
            "{method} {route} answered {status}, which it does not declare"
        );
        conforms(&spec, &schema, body, &format!("{method} {route} {status}"));
    }
}

#[test]
fn a_token_guards_deliveries() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let token = dir.path().join("token");
    std::fs::write(&token, "s3cret\n").unwrap();
    let server = Server::start(&db, &["--token-file", token.to_str().unwrap()]);
    let (status, v) = server.deliver("/v1/puzzles/next?user=u&level=easy");
    assert_eq!(status, 401, "{v}");
    let url = format!("{}/v1/puzzles/next?user=u&level=easy", server.base);
    let (status, _) = answer(ureq::post(&url).set("Authorization", "Bearer wrong").call());
    assert_eq!(status, 401);
    let (status, _) = answer(
        ureq::post(&url)
            .set("Authorization", "Bearer s3cret")
            .call(),
    );
    assert_eq!(status, 200);
    // Reading routes are guarded too (see below), the health check is not.
    assert_eq!(server.get("/v1/levels").0, 401);
    assert_eq!(server.get("/healthz").0, 200);
}

#[test]
fn sigterm_keeps_every_delivery_made() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 40);
    let server = Server::start(&db, &[]);
    let delivered = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..4 {
            let (server, delivered) = (&server, &delivered);
            s.spawn(move || {
                for _ in 0..30 {
                    let r = ureq::post(&format!(
                        "{}/v1/puzzles/next?user=t{t}&level=medium",
                        server.base
                    ))
                    .call();
                    match r {
                        Ok(_) => {
                            delivered.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                        Err(_) => break,
                    }
                }
            });
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        terminate(&server.child);
    });
    let status = server.stop();
    assert_eq!(status.code(), Some(0));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let recorded: i64 = crate::common::scalar(&conn, "SELECT COUNT(*) FROM user_history");
    // Every answered delivery was committed before it was answered.
    assert!(recorded as u64 >= delivered.load(std::sync::atomic::Ordering::SeqCst));
    let per_user: i64 = crate::common::scalar(
        &conn,
        "SELECT COUNT(*) FROM (SELECT user, canon_key, COUNT(*) n FROM user_history GROUP BY 1, 2 HAVING n > 1)",
    );
    assert_eq!(per_user, 0);
}

/// The number of classes `user` was given, as the bank records it.
fn given(db: &Path, user: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT COUNT(*) FROM user_history WHERE user = ?1",
        [user],
        |r| r.get(0),
    )
    .unwrap()
}

#[test]
fn concurrent_draws_of_one_user_never_say_finished_while_a_puzzle_is_left() {
    let dir = tempfile::tempdir().unwrap();
    // 40 puzzles a level: the users run out within the test.
    let db = bank(dir.path(), 40);
    let server = Server::start(&db, &[]);
    for round in 0..3 {
        let user = format!("racer{round}");
        let url = format!("{}/v1/puzzles/next?user={user}&level=easy", server.base);
        let false_ends = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..16 {
                s.spawn(|| loop {
                    match answer(ureq::post(&url).call()) {
                        (200, _) | (409, _) => continue,
                        (404, v) => {
                            // "Finished" is true only once every puzzle of the level is the
                            // user's (deliveries are committed before they are answered).
                            if given(&db, &user) != 40 {
                                false_ends.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            }
                            assert!(v["error"].as_str().unwrap().contains("has had every"));
                            break;
                        }
                        other => panic!("{other:?}"),
                    }
                });
            }
        });
        assert_eq!(false_ends.into_inner(), 0, "round {round}");
        assert_eq!(given(&db, &user), 40);
    }
}

#[test]
fn a_get_or_head_of_the_next_puzzle_delivers_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(&db, &[]);
    let url = format!("{}/v1/puzzles/next?user=peek&level=easy", server.base);
    let (status, v) = answer(ureq::get(&url).call());
    assert_eq!(status, 405, "{v}");
    assert!(v["error"].as_str().unwrap().contains("POST"), "{v}");
    let head = ureq::head(&url).call();
    assert!(matches!(head, Err(ureq::Error::Status(405, _))), "{head:?}");
    // A cross-site GET, as a page elsewhere would send it.
    let r = ureq::get(&url)
        .set("Origin", "https://elsewhere.example")
        .call();
    assert!(matches!(r, Err(ureq::Error::Status(405, _))));
    assert_eq!(given(&db, "peek"), 0);
    // Every refused method answers JSON with a reason.
    let (status, v) = answer(ureq::request("DELETE", &format!("{}/v1/levels", server.base)).call());
    assert_eq!(status, 405);
    assert!(v["error"].as_str().is_some(), "{v}");
}

#[test]
fn with_a_token_every_route_but_health_and_the_page_needs_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let token = dir.path().join("token");
    std::fs::write(&token, "s3cret\n").unwrap();
    let server = Server::start(&db, &["--token-file", token.to_str().unwrap()]);
    for path in ["/v1/levels", "/v1/puzzles/1", "/metrics", "/openapi.json"] {
        let (status, v) = server.get(path);
        assert_eq!(status, 401, "{path}: {v}");
        let with = ureq::get(&format!("{}{path}", server.base))
            .set("Authorization", "bearer s3cret")
            .call();
        assert!(
            with.is_ok(),
            "{path}: the scheme is case-insensitive: {with:?}"
        );
    }
    for (path, body) in [
        ("/v1/hint", format!(r#"{{"puzzle":"{HARD}"}}"#)),
        ("/v1/rate", format!(r#"{{"puzzles":["{HARD}"]}}"#)),
        ("/v1/solve", format!(r#"{{"puzzles":["{HARD}"]}}"#)),
        ("/v1/canon", format!(r#"{{"puzzles":["{HARD}"]}}"#)),
    ] {
        assert_eq!(server.post(path, &body).0, 401, "{path}");
    }
    for path in [
        "/healthz",
        "/",
        "/app.js",
        "/style.css",
        "/sw.js",
        "/manifest.webmanifest",
        "/icon.svg",
        "/icon-192.png",
        "/icon-512.png",
    ] {
        assert_eq!(
            ureq::get(&format!("{}{path}", server.base))
                .call()
                .map(|r| r.status())
                .ok(),
            Some(200),
            "{path}"
        );
    }
}

/// The ids of `n` deliveries to a new user of a server started on `db` with `extra`.
fn first_draws(db: &Path, extra: &[&str], user: &str, n: usize) -> Vec<i64> {
    let server = Server::start(db, extra);
    let ids = (0..n)
        .map(|_| {
            let (status, v) = server.deliver(&format!("/v1/puzzles/next?user={user}&level=easy"));
            assert_eq!(status, 200, "{v}");
            v["id"].as_i64().unwrap()
        })
        .collect();
    server.stop();
    ids
}

/// A server started again without `--seed` hands a new user other puzzles, in another order,
/// than it handed the first new user (the seed comes from the clock and is logged); with
/// `--seed` two servers on copies of one bank hand out the same.
#[test]
fn a_restarted_server_hands_new_users_another_order_unless_seeded() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 10);
    let copy = dir.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    let first = first_draws(&db, &[], "new1", 10);
    let second = first_draws(&db, &[], "new2", 10);
    assert_ne!(first, second, "the 10 easy puzzles in the same order");
    let seeded = first_draws(&db, &["--seed", "7"], "new3", 10);
    let again = first_draws(&copy, &["--seed", "7"], "new3", 10);
    assert_eq!(seeded, again);
}

/// A raw TCP connection to `base` (`http://HOST:PORT`).
fn connect(base: &str) -> std::net::TcpStream {
    std::net::TcpStream::connect(base.trim_start_matches("http://")).unwrap()
}

#[test]
fn silent_and_slow_clients_are_closed_and_cannot_starve_health() {
    use std::io::{Read as _, Write as _};
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(
        &db,
        &[
            "--header-timeout",
            "1",
            "--max-per-client",
            "20",
            "--max-connections",
            "40",
        ],
    );
    // A silent connection and one that sends half a header are closed after the deadline.
    let mut silent = connect(&server.base);
    let mut slow = connect(&server.base);
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    for c in [&mut silent, &mut slow] {
        c.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        let t = std::time::Instant::now();
        let mut buf = [0u8; 512];
        let n = c.read(&mut buf).unwrap_or(0);
        let answer = String::from_utf8_lossy(&buf[..n]).to_string();
        assert!(n == 0 || answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(
            t.elapsed() < std::time::Duration::from_secs(5),
            "closed late"
        );
    }
    // Many silent connections from one client: beyond its share they are refused, and
    // /healthz still answers.
    let hogs: Vec<_> = (0..100).map(|_| connect(&server.base)).collect();
    std::thread::sleep(std::time::Duration::from_millis(200));
    drop(hogs);
    let t = std::time::Instant::now();
    loop {
        match ureq::get(&format!("{}/healthz", server.base))
            .timeout(std::time::Duration::from_secs(2))
            .call()
        {
            Ok(r) => {
                assert_eq!(r.status(), 200);
                break;
            }
            Err(e) => assert!(t.elapsed().as_secs() < 5, "health starved: {e}"),
        }
    }
    // A head larger than allowed is refused, and the server goes on.
    let mut big = connect(&server.base);
    let line = format!(
        "GET /healthz HTTP/1.1\r\nX-Big: {}\r\n\r\n",
        "a".repeat(300_000)
    );
    let _ = big.write_all(line.as_bytes());
    let mut buf = [0u8; 64];
    let n = big.read(&mut buf).unwrap_or(0);
    let answer = String::from_utf8_lossy(&buf[..n]).to_string();
    assert!(n == 0 || answer.starts_with("HTTP/1.1 431"), "{answer}");
    assert_eq!(server.get("/healthz").0, 200);
}

#[test]
fn sigterm_stops_the_server_in_bounded_time_whatever_the_clients_do() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(&db, &["--drain", "2", "--header-timeout", "60"]);
    // A client that never finishes its request, and one that sends a body slowly.
    let _silent = connect(&server.base);
    let mut slow = connect(&server.base);
    slow.write_all(
        b"POST /v1/rate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let t = std::time::Instant::now();
    let status = server.stop();
    assert_eq!(status.code(), Some(0));
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "stopped after {:?}",
        t.elapsed()
    );
}

#[test]
fn a_client_that_leaves_before_its_delivery_is_committed_is_not_charged() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 30);
    let server = Server::start(&db, &[]);
    // Requests sent and dropped at once: the server may draw for them, but a delivery whose
    // client is gone when the writer commits is not recorded.
    let mut answered = 0;
    for _ in 0..50 {
        let mut c = connect(&server.base);
        c.write_all(
            b"POST /v1/puzzles/next?user=ghost&level=easy HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        )
        .unwrap();
        c.shutdown(std::net::Shutdown::Both).unwrap();
        drop(c);
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let charged = given(&db, "ghost");
    // What hyper cannot see in time is charged; most requests are not.
    answered += charged;
    assert!(answered <= 25, "{answered} of 50 vanished clients charged");
}

#[test]
fn health_tells_the_truth_and_a_read_only_bank_needs_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    {
        let server = Server::start(&db, &[]);
        let (status, v) = server.get("/healthz");
        assert_eq!((status, v["status"].as_str()), (200, Some("ok")), "{v}");
        assert_eq!(v["deliveries"], true);
        // The class-key index gone while it serves: not ready, and says why.
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute_batch("DROP INDEX puzzles_key")
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let (status, v) = server.get("/healthz");
        assert_eq!(status, 503, "{v}");
        assert!(v["reason"].as_str().unwrap().contains("puzzles_key"), "{v}");
        // The next command that opens the bank puts it back.
        let out = crate::common::pseudoku()
            .args(["stats", "--db"])
            .arg(&db)
            .output()
            .unwrap();
        assert!(out.status.success());
        std::thread::sleep(std::time::Duration::from_millis(1100));
        assert_eq!(server.get("/healthz").0, 200);
        // Deliveries that cannot be committed (the log cannot be written: a full or read-only
        // disk) make it unavailable until one can again.
        let wal = dir.path().join("b.db-wal");
        if let Some(guard) = ReadOnly::make(&wal) {
            let (status, v) = server.deliver("/v1/puzzles/next?user=w&level=easy");
            assert_eq!(status, 503, "{v}");
            std::thread::sleep(std::time::Duration::from_millis(1100));
            let (status, v) = server.get("/healthz");
            assert_eq!(status, 503, "{v}");
            assert!(
                v["reason"]
                    .as_str()
                    .unwrap()
                    .contains("could not be recorded"),
                "{v}"
            );
            drop(guard);
            let (status, v) = server.deliver("/v1/puzzles/next?user=w&level=easy");
            assert_eq!(status, 200, "{v}");
        }
    }
    // Without its class-key index (a killed build), the bank is not ready... until a
    // command puts it back: serving does on start when no build holds the bank.
    {
        let server = Server::start(&db, &[]);
        assert_eq!(server.get("/healthz").0, 200, "restored on start");
    }
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'puzzles_key'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 1);
    // A bank the server cannot write is refused, unless --read-only.
    let copy = dir.path().join("ro.db");
    std::fs::copy(&db, &copy).unwrap();
    let Some(_guard) = ReadOnly::make(&copy) else {
        eprintln!("skipped: cannot make a file read-only here (root without chattr)");
        return;
    };
    let out = crate::common::pseudoku()
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&copy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--read-only"), "{err}");
    let server = Server::start(&copy, &["--read-only"]);
    let (status, v) = server.get("/healthz");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["deliveries"], false);
    let (status, v) = server.deliver("/v1/puzzles/next?user=x&level=easy");
    assert_eq!(status, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("read-only"), "{v}");
    assert_eq!(server.get("/v1/puzzles/1").0, 200);
}

/// A file made read-only for the test (immutable for root, whom permissions do not stop), and
/// made writable again when dropped.
struct ReadOnly(std::path::PathBuf, bool);

impl ReadOnly {
    fn make(path: &Path) -> Option<ReadOnly> {
        if crate::common::is_root() {
            let ok = std::process::Command::new("chattr")
                .arg("+i")
                .arg(path)
                .status()
                .is_ok_and(|s| s.success());
            ok.then(|| ReadOnly(path.to_path_buf(), true))
        } else {
            let mut perm = std::fs::metadata(path).unwrap().permissions();
            perm.set_readonly(true);
            std::fs::set_permissions(path, perm).unwrap();
            Some(ReadOnly(path.to_path_buf(), false))
        }
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.1 {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(&self.0)
                .status();
        }
    }
}

#[test]
fn a_user_practises_one_technique_without_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 15);
    let conn = rusqlite::Connection::open(&db).unwrap();
    // The commonest hardest step beyond the singles, and its puzzles' ids.
    let (code, n): (u8, i64) = conn
        .query_row(
            "SELECT step, COUNT(*) AS n FROM puzzles WHERE step > 1 GROUP BY step \
             ORDER BY n DESC, step DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let name = pseudoku::rate::Strategy::from_code(code).unwrap().name();
    let query = format!(
        "/v1/puzzles/next?user=kim&technique={}",
        name.replace(' ', "%20")
    );
    let server = Server::start(&db, &[]);
    let mut seen = HashSet::new();
    for _ in 0..n {
        let (status, v) = server.deliver(&query);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["hardest_step"], name, "{v}");
        assert!(seen.insert(v["id"].as_i64().unwrap()), "a repeat: {v}");
    }
    let (status, v) = server.deliver(&query);
    assert_eq!(status, 404, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("whose hardest step is"),
        "{v}"
    );
    // With a level, and a name that is no technique.
    let (status, v) =
        server.deliver("/v1/puzzles/next?user=lee&level=hard&technique=hidden_single");
    assert!(status == 200 || status == 404, "{status} {v}");
    let (status, v) = server.deliver("/v1/puzzles/next?user=lee&technique=x-wung");
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("no technique is called"),
        "{v}"
    );
}

#[test]
fn a_user_draws_by_a_named_rating_without_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 15);
    // A publisher's scale: a number per puzzle, here half the difficulty.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows = crate::common::rated_puzzles(&conn);
    let file = dir.path().join("scale.tsv");
    let lines: Vec<String> = rows
        .iter()
        .map(|(p, d)| format!("{p}\t{}", d / 2.0))
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    crate::common::pseudoku()
        .args(["calibrate", "--labelled", "--named", "pub", "--from"])
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .assert()
        .success();
    let inside: HashSet<i64> = conn
        .prepare(
            "SELECT v.puzzle_id FROM named_ratings v JOIN rating_names n ON n.id = v.rating_id \
             WHERE n.name = 'pub' AND v.value >= 2.0 AND v.value <= 4.0",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!inside.is_empty());
    let server = Server::start(&db, &[]);
    let mut seen = HashSet::new();
    for _ in 0..inside.len() {
        let (status, v) = server.deliver("/v1/puzzles/next?user=kim&rating=pub&range=2.0..4.0");
        assert_eq!(status, 200, "{v}");
        let id = v["id"].as_i64().unwrap();
        assert!(inside.contains(&id), "{v}");
        assert!(seen.insert(id), "a repeat: {v}");
    }
    let (status, v) = server.deliver("/v1/puzzles/next?user=kim&rating=pub&range=2.0..4.0");
    assert_eq!(status, 404, "{v}");
    for (query, reason) in [
        ("rating=se&range=1..2", "no rating named \"se\""),
        ("rating=pub&range=4..2", "bad range"),
        ("rating=pub", "go together"),
    ] {
        let (status, v) = server.deliver(&format!("/v1/puzzles/next?user=kim&{query}"));
        assert_eq!(status, 400, "{query}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(reason),
            "{query}: {v}"
        );
    }
}

#[test]
fn reasons_are_said_once_entries_keep_the_clues_and_cors_is_given_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(&db, &[]);
    // Each reason once, not under a second prefix.
    let (status, e) = server.deliver("/v1/puzzles/next?user=u&band=5/4");
    let reason = e["error"].as_str().unwrap();
    assert_eq!(status, 400);
    assert_eq!(reason.matches("bad band").count(), 1, "{reason}");
    let (status, e) = server.deliver("/v1/puzzles/next?user=u&percentile=9..1");
    let reason = e["error"].as_str().unwrap();
    assert_eq!(status, 400);
    assert_eq!(
        reason.matches("bad percentile range").count(),
        1,
        "{reason}"
    );
    // Entries that change a clue are a malformed board, named by its cell (r1c1 holds 4).
    let mut entries = vec!['.'; 81];
    entries[0] = '5';
    let entries: String = entries.into_iter().collect();
    let body = serde_json::json!({"puzzle": HARD, "entries": entries}).to_string();
    let (status, e) = server.post("/v1/hint", &body);
    assert_eq!(status, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("r1c1"), "{e}");
    // Repeating the clue is fine; 80 cells are not.
    let same = format!("4{}", ".".repeat(80));
    let body = serde_json::json!({"puzzle": HARD, "entries": same}).to_string();
    assert_eq!(server.post("/v1/hint", &body).0, 200);
    let body = serde_json::json!({"puzzle": HARD, "entries": ".".repeat(80)}).to_string();
    let (status, e) = server.post("/v1/hint", &body);
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("81"), "{e}");
    // No CORS unless asked.
    let r = ureq::get(&format!("{}/v1/levels", server.base))
        .set("Origin", "https://app.example.com")
        .call()
        .unwrap();
    assert_eq!(r.header("access-control-allow-origin"), None);
    drop(server);

    // --cors ORIGIN: preflights answered (before the token), the header on answers; another
    // origin gets none.
    let token = dir.path().join("token");
    std::fs::write(&token, "s3cret\n").unwrap();
    let t = token.to_str().unwrap();
    let server = Server::start(
        &db,
        &["--cors", "https://app.example.com", "--token-file", t],
    );
    let pre = ureq::request("OPTIONS", &format!("{}/v1/puzzles/next", server.base))
        .set("Origin", "https://app.example.com")
        .set("Access-Control-Request-Method", "POST")
        .set(
            "Access-Control-Request-Headers",
            "authorization,content-type",
        )
        .call()
        .unwrap();
    assert!(pre.status() < 300, "{}", pre.status());
    assert_eq!(
        pre.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    let methods = pre
        .header("access-control-allow-methods")
        .unwrap()
        .to_string();
    assert!(methods.contains("POST"), "{methods}");
    let r = ureq::post(&format!(
        "{}/v1/puzzles/next?user=w&level=easy",
        server.base
    ))
    .set("Origin", "https://app.example.com")
    .set("Authorization", "Bearer s3cret")
    .call()
    .unwrap();
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    let other = ureq::get(&format!("{}/healthz", server.base))
        .set("Origin", "https://elsewhere.example")
        .call()
        .unwrap();
    assert_eq!(other.header("access-control-allow-origin"), None);
    drop(server);

    // A bad origin is a usage error.
    let o = crate::common::pseudoku()
        .args(["serve", "--cors", "app.example.com/path", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("origin"));
}

/// A server on `db` with the token `s3cret` and the page's token `pl4y-0nly` (their files
/// written in `dir`).
fn with_tokens(dir: &Path, db: &Path) -> Server {
    let (token, page) = (dir.join("token"), dir.join("page-token"));
    std::fs::write(&token, "s3cret\n").unwrap();
    std::fs::write(&page, "pl4y-0nly\n").unwrap();
    Server::start(
        db,
        &[
            "--token-file",
            token.to_str().unwrap(),
            "--page-token-file",
            page.to_str().unwrap(),
        ],
    )
}

#[test]
fn a_page_token_opens_what_the_play_page_plays_with_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = with_tokens(dir.path(), &db);
    let (token, page) = (dir.path().join("token"), dir.path().join("page-token"));
    // The page carries its token.
    let (status, html) = server.get("/");
    assert_eq!(status, 200);
    let html = html.as_str().unwrap();
    assert!(html.contains(r#"<meta name="pseudoku-token" content="pl4y-0nly">"#));
    let with = |method: &str, path: &str, bearer: &str, body: Option<&str>| -> u16 {
        let r = ureq::request(method, &format!("{}{path}", server.base))
            .set("Authorization", &format!("Bearer {bearer}"));
        let r = match body {
            Some(b) => r.set("Content-Type", "application/json").send_string(b),
            None => r.call(),
        };
        answer(r).0
    };
    let (_, one) = server.get_with("/v1/puzzles/1", "s3cret");
    let hint = format!(r#"{{"puzzle":"{}"}}"#, one["puzzle"].as_str().unwrap());
    let solve = format!(r#"{{"puzzles":["{HARD}"]}}"#);
    // What the page plays with: open to either token (a page's player by the server's id).
    let (_, player) = server.post_with("/v1/players", "", "pl4y-0nly");
    let player = player["user"].as_str().unwrap().to_string();
    for bearer in ["pl4y-0nly", "s3cret"] {
        assert_eq!(with("GET", "/v1/levels", bearer, None), 200, "{bearer}");
        let next = format!("/v1/puzzles/next?user={player}&level=easy");
        assert_eq!(with("POST", &next, bearer, None), 200);
        assert_eq!(with("GET", "/v1/puzzles/1", bearer, None), 200);
        assert_eq!(with("POST", "/v1/hint", bearer, Some(&hint)), 200);
    }
    // Everything else keeps the server's token.
    for (method, path, body) in [
        ("GET", "/metrics", None),
        ("GET", "/openapi.json", None),
        ("POST", "/v1/solve", Some(solve.as_str())),
        ("POST", "/v1/rate", Some(solve.as_str())),
    ] {
        assert_eq!(with(method, path, "pl4y-0nly", body), 401, "{path}");
        assert_eq!(with(method, path, "s3cret", body), 200, "{path}");
    }
    assert_eq!(with("GET", "/v1/levels", "wrong", None), 401);
    drop(server);
    // Without --token-file, or the same as the token, or unsafe in a page: refused (exit 2).
    std::fs::write(dir.path().join("same"), "s3cret").unwrap();
    std::fs::write(dir.path().join("quote"), "a\"b").unwrap();
    for extra in [
        vec!["--page-token-file", page.to_str().unwrap()],
        vec![
            "--token-file",
            token.to_str().unwrap(),
            "--page-token-file",
            dir.path().join("same").to_str().unwrap(),
        ],
        vec![
            "--token-file",
            token.to_str().unwrap(),
            "--page-token-file",
            dir.path().join("quote").to_str().unwrap(),
        ],
    ] {
        let o = crate::common::pseudoku()
            .arg("serve")
            .args(&extra)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert_ne!(o.status.code(), Some(0), "{extra:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
    }
}

/// `GET /v1/daily?date=DATE&level=LEVEL`.
fn daily(server: &Server, date: &str, level: &str) -> (u16, Value) {
    server.get(&format!(
        "/v1/daily?date={date}&level={level}&solution=true"
    ))
}

#[test]
fn the_daily_puzzle_is_one_per_date_and_level_for_everyone_and_never_changes() {
    use pseudoku::calendar::Date;
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 2);
    let today = Date::today();
    let day = |offset: i64| Date::from_days(today.days() + offset).to_string();
    // A publisher's export of tomorrow, made before: the site's daily puzzle of tomorrow at
    // that level is the export's.
    let out = dir.path().join("out");
    let done = crate::common::run_out(
        "export",
        &db,
        &out,
        &["--start", &day(1), "--days", "1", "--mix", "easy:1"],
    );
    assert!(done.status.success(), "{done:?}");
    let exported: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT puzzle_id FROM batches", [], |r| r.get(0))
        .unwrap();
    let server = Server::start(&db, &[]);
    let (status, tomorrow) = daily(&server, &day(1), "easy");
    assert_eq!(status, 200, "{tomorrow}");
    assert_eq!(tomorrow["id"], exported);
    assert_eq!(tomorrow["date"], day(1));
    assert_eq!(tomorrow["level"], "easy");
    assert_eq!(tomorrow["solution"].as_str().unwrap().len(), 81);
    // Today and yesterday at medium: two puzzles, the same at every ask; a level of two
    // puzzles has none left for tomorrow.
    let (_, medium) = daily(&server, &day(0), "medium");
    let (_, before) = daily(&server, &day(-1), "medium");
    assert_ne!(medium["id"], before["id"]);
    for _ in 0..3 {
        assert_eq!(daily(&server, &day(0), "medium").1["id"], medium["id"]);
        assert_eq!(daily(&server, &day(-1), "medium").1["id"], before["id"]);
    }
    let (status, none) = daily(&server, &day(1), "medium");
    assert_eq!(status, 404, "{none}");
    assert!(none["error"].as_str().unwrap().contains("no puzzle left"));
    // Easy: the export took one, today takes the other, yesterday has none left.
    let (status, easy) = daily(&server, &day(0), "easy");
    assert_eq!(status, 200, "{easy}");
    assert_ne!(easy["id"], tomorrow["id"]);
    assert_eq!(daily(&server, &day(-1), "easy").0, 404);
    // Before the archive's 30 days: only what was recorded; after tomorrow: not out yet; bad
    // asks.
    let (status, old) = daily(&server, &day(-31), "hard");
    assert_eq!(status, 404, "{old}");
    assert!(old["error"].as_str().unwrap().contains("recorded"), "{old}");
    let (status, later) = daily(&server, &day(2), "hard");
    assert_eq!(status, 400, "{later}");
    assert!(
        later["error"].as_str().unwrap().contains("not out yet"),
        "{later}"
    );
    for ask in [
        format!("/v1/daily?date={}", day(0)),
        "/v1/daily?level=easy".to_string(),
        format!("/v1/daily?date={}&level=nope", day(0)),
        "/v1/daily?date=2026-02-30&level=easy".to_string(),
        "/v1/daily?date=27-11-2026&level=easy".to_string(),
    ] {
        let (status, body) = server.get(&ask);
        assert_eq!(status, 400, "{ask}: {body}");
        assert!(body["error"].is_string(), "{ask}: {body}");
    }
    server.stop();
    // Recorded for good: a restarted server gives the same puzzles; they are marked served,
    // so no export or later draw hands them out again.
    let server = Server::start(&db, &[]);
    assert_eq!(daily(&server, &day(0), "medium").1["id"], medium["id"]);
    assert_eq!(daily(&server, &day(-1), "medium").1["id"], before["id"]);
    assert_eq!(daily(&server, &day(1), "easy").1["id"], exported);
    server.stop();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (rows, served): (i64, i64) = conn
        .query_row(
            "SELECT count(*), sum(p.served_at IS NOT NULL) FROM daily d
             JOIN puzzles p ON p.id = d.puzzle_id",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((rows, served), (4, 4));
}

/// The archive: a level's last 30 days, the latest first, each recorded day with its puzzle
/// and the player's game of it; the days not yet recorded still playable back to 30 days,
/// older ones only as recorded.
#[test]
fn the_archive_lists_a_levels_last_30_days_with_the_players_games() {
    use pseudoku::calendar::Date;
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(&db, &[]);
    let today = Date::today();
    let day = |offset: i64| Date::from_days(today.days() + offset).to_string();
    // Ann plays three days at easy: today's and the day before yesterday's she solves (the
    // second with two hints), the one of 29 days ago she leaves; 30 days back is still drawn,
    // 31 is not.
    let mut ids = std::collections::BTreeMap::new();
    for offset in [0, -2, -29, -30] {
        let (status, v) = server.get(&format!(
            "/v1/daily?date={}&level=easy&user=ann",
            day(offset)
        ));
        assert_eq!(status, 200, "{offset}: {v}");
        ids.insert(offset, v["id"].as_i64().unwrap());
    }
    let (status, old) = daily(&server, &day(-31), "easy");
    assert_eq!(status, 404, "{old}");
    for (offset, solved, seconds, hints) in [
        (0, true, 300.0, 0),
        (-2, true, 412.0, 2),
        (-29, false, 20.0, 0),
    ] {
        let body = serde_json::json!({
            "user": "ann", "puzzle": ids[&offset], "solved": solved, "seconds": seconds,
            "hints": hints,
        });
        let (status, v) = server.post("/v1/results", &body.to_string());
        assert_eq!(status, 200, "{v}");
    }
    let (status, archive) = server.get(&format!(
        "/v1/daily/archive?date={}&level=Easy&user=ann",
        day(0)
    ));
    assert_eq!(status, 200, "{archive}");
    assert_eq!(archive["level"], "easy");
    let days = archive["days"].as_array().unwrap();
    assert_eq!(days.len(), 30);
    for (back, d) in days.iter().enumerate() {
        let offset = -(back as i64);
        assert_eq!(d["date"], day(offset), "{d}");
        assert_eq!(d["playable"], true, "{d}");
        assert_eq!(d["id"].as_i64(), ids.get(&offset).copied(), "{d}");
        let game = &d["game"];
        match offset {
            0 => assert_eq!(
                (&game["solved"], &game["seconds"], &game["hints"]),
                (&true.into(), &300.0.into(), &0.into())
            ),
            -2 => assert_eq!(
                (&game["solved"], &game["seconds"], &game["hints"]),
                (&true.into(), &412.0.into(), &2.into())
            ),
            -29 => assert_eq!(
                (&game["solved"], &game["puzzle"]),
                (&false.into(), &ids[&-29].into())
            ),
            _ => assert!(game.is_null(), "{d}"),
        }
    }
    // Without a user: the days and their puzzles, no game; another player: no game either.
    for who in ["", "&user=bob"] {
        let (status, v) = server.get(&format!("/v1/daily/archive?level=easy{who}"));
        assert_eq!(status, 200, "{v}");
        let days = v["days"].as_array().unwrap();
        assert_eq!(days[0]["date"], day(0));
        assert_eq!(days[2]["id"].as_i64(), Some(ids[&-2]));
        assert!(days.iter().all(|d| d["game"].is_null()), "{v}");
    }
    // Ending 10 days ago: 30 days back to 39 ago; past 30 ago only recorded days are
    // playable (the day 30 ago was recorded above).
    let (_, v) = server.get(&format!("/v1/daily/archive?level=easy&date={}", day(-10)));
    let days = v["days"].as_array().unwrap();
    assert_eq!(days.len(), 30);
    for d in days {
        let date: Date = d["date"].as_str().unwrap().parse().unwrap();
        let back = today.days() - date.days();
        assert_eq!(d["playable"], back <= 30 || d["id"].is_i64(), "{d}");
    }
    assert_eq!(days[20]["id"].as_i64(), Some(ids[&-30]));
    assert_eq!(days[21]["playable"], false);
    // Bad asks: a date after tomorrow, no level, an unknown level, a malformed date or user.
    for ask in [
        format!("/v1/daily/archive?level=easy&date={}", day(2)),
        "/v1/daily/archive".to_string(),
        "/v1/daily/archive?level=nope".to_string(),
        "/v1/daily/archive?level=easy&date=2026-13-01".to_string(),
        "/v1/daily/archive?level=easy&user=".to_string(),
    ] {
        let (status, body) = server.get(&ask);
        assert_eq!(status, 400, "{ask}: {body}");
        assert!(body["error"].is_string(), "{ask}: {body}");
    }
    server.stop();
}

#[test]
fn a_page_token_gives_solutions_and_hints_of_a_players_own_puzzles_at_a_players_pace() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 25);
    let server = with_tokens(dir.path(), &db);
    // Every request made with the page's token, counted: the address's pace counts them all.
    let asked = std::cell::Cell::new(0);
    let page_ask = |method: &str, path: &str, body: Option<&str>| {
        asked.set(asked.get() + 1);
        let r = ureq::request(method, &format!("{}{path}", server.base))
            .set("Authorization", "Bearer pl4y-0nly");
        let r = match body {
            Some(b) => r.set("Content-Type", "application/json").send_string(b),
            None => r.call(),
        };
        let retry = match &r {
            Err(ureq::Error::Status(_, resp)) => resp.header("Retry-After").map(str::to_string),
            _ => None,
        };
        let (status, v) = answer(r);
        (status, v, retry)
    };
    // The page's players: ids the server makes (a name the client picks is refused).
    let new_player = || {
        let (status, v, _) = page_ask("POST", "/v1/players", None);
        assert_eq!(status, 200, "{v}");
        v["user"].as_str().unwrap().to_string()
    };
    let (ann, bob, cat, dan) = (new_player(), new_player(), new_player(), new_player());
    let (status, v, _) = page_ask("POST", "/v1/puzzles/next?user=ann&level=easy", None);
    assert_eq!(status, 403, "{v}");
    // A delivery with its solution: the user's. By id, its solution only for that user; the
    // puzzle alone for anyone.
    let (status, mine, _) = page_ask(
        "POST",
        &format!("/v1/puzzles/next?user={ann}&level=easy&solution=true"),
        None,
    );
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["solution"].as_str().unwrap().len(), 81);
    let id = mine["id"].as_i64().unwrap();
    let (status, v, _) = page_ask(
        "GET",
        &format!("/v1/puzzles/{id}?solution=true&user={ann}"),
        None,
    );
    assert_eq!((status, &v["solution"]), (200, &mine["solution"]), "{v}");
    let other_id = if id == 1 { 2 } else { 1 };
    for path in [
        format!("/v1/puzzles/{id}?solution=true"),
        format!("/v1/puzzles/{id}?solution=true&user={bob}"),
        format!("/v1/puzzles/{other_id}?solution=true&user={ann}"),
    ] {
        let (status, v, _) = page_ask("GET", &path, None);
        assert_eq!(status, 403, "{path}: {v}");
        assert!(v["error"].as_str().unwrap().contains("solution"), "{v}");
    }
    let (status, v, _) = page_ask("GET", &format!("/v1/puzzles/{id}"), None);
    assert_eq!(status, 200, "{v}");
    assert!(v.get("solution").is_none(), "{v}");
    // The server's own token still reads every solution.
    let (status, v) = server.get_with(&format!("/v1/puzzles/{id}?solution=true"), "s3cret");
    assert_eq!(
        (status, v["solution"].as_str().map(str::len)),
        (200, Some(81))
    );
    // Hints on the server's puzzles only, not on any puzzle sent.
    let ours = format!(r#"{{"puzzle":"{}"}}"#, mine["puzzle"].as_str().unwrap());
    assert_eq!(page_ask("POST", "/v1/hint", Some(&ours)).0, 200);
    let other = format!(r#"{{"puzzle":"{HARD}"}}"#);
    let (status, v, _) = page_ask("POST", "/v1/hint", Some(&other));
    assert_eq!(status, 403, "{v}");
    assert_eq!(server.post_with("/v1/hint", &other, "s3cret").0, 200);
    // A user's new puzzles at a player's pace: 20 at once, then 429 with Retry-After.
    let mut statuses = Vec::new();
    for _ in 0..22 {
        let (status, v, retry) = page_ask(
            "POST",
            &format!("/v1/puzzles/next?user={cat}&level=easy"),
            None,
        );
        if status == 429 {
            assert!(
                retry.is_some_and(|r| r.parse::<u64>().is_ok_and(|s| s >= 1)),
                "{v}"
            );
            assert!(v["error"].as_str().unwrap().contains("slow down"), "{v}");
        }
        statuses.push(status);
    }
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        20,
        "{statuses:?}"
    );
    assert_eq!(statuses[20..], [429, 429]);
    // Another user is not slowed by cat; the server's token is never limited.
    assert_eq!(
        page_ask(
            "POST",
            &format!("/v1/puzzles/next?user={dan}&level=easy"),
            None
        )
        .0,
        200
    );
    for _ in 0..3 {
        let r = ureq::post(&format!(
            "{}/v1/puzzles/next?user={cat}&level=medium",
            server.base
        ))
        .set("Authorization", "Bearer s3cret")
        .call();
        assert_eq!(answer(r).0, 200);
    }
    // An address reading through the page's token: 120 requests at once, then 2 a second.
    let limited = loop {
        let (status, _, _) = page_ask("GET", "/v1/levels", None);
        if status == 429 {
            break asked.get();
        }
        assert_eq!(status, 200);
        assert!(asked.get() < 200, "the address was never limited");
    };
    assert!(
        (121..=140).contains(&limited),
        "limited at request {limited}"
    );
    assert_eq!(server.get_with("/v1/levels", "s3cret").0, 200);
}

#[test]
fn a_cross_site_page_cannot_make_a_browser_take_deliveries() {
    use std::io::{Read as _, Write as _};
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 10);
    // A raw request: status and the whole answer.
    let raw = |base: &str, head: &str| -> (u16, String) {
        let mut c = connect(base);
        c.write_all(head.as_bytes()).unwrap();
        let mut text = String::new();
        let _ = c.read_to_string(&mut text);
        let status = text[9..12].parse().unwrap();
        (status, text)
    };
    let post = |base: &str, headers: &str| {
        raw(
            base,
            &format!(
                "POST /v1/puzzles/next?user=victim&level=easy HTTP/1.1\r\nHost: {}\r\n\
                 Connection: close\r\nContent-Length: 0\r\n{headers}\r\n",
                base.trim_start_matches("http://")
            ),
        )
    };
    for extra in [vec![], vec!["--cors", "https://app.example"]] {
        let server = Server::start(&db, &extra);
        // A form posted from another site (no preflight): refused, never recorded.
        for headers in [
            "Origin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\n",
            "Origin: http://evil.example\r\nContent-Type: text/plain\r\n",
            "Origin: http://evil.example\r\nContent-Type: multipart/form-data; boundary=x\r\n",
            "Content-Type: application/x-www-form-urlencoded\r\n",
            "Origin: http://evil.example\r\n",
            "Origin: null\r\n",
        ] {
            let (status, text) = post(&server.base, headers);
            assert!(status == 403 || status == 415, "{headers}: {text}");
            assert!(
                text.contains("application/json") && text.contains("\"error\""),
                "{text}"
            );
        }
        assert_eq!(given(&db, "victim"), 0, "{extra:?}");
        // The server's own page, an allowed origin, and a client that is no browser page:
        // taken.
        let own = format!("Origin: {}\r\n", server.base);
        assert_eq!(post(&server.base, &own).0, 200, "{extra:?}");
        let proxied = "Origin: https://sudoku.example\r\nX-Forwarded-Host: sudoku.example\r\n";
        assert_eq!(post(&server.base, proxied).0, 200, "behind a proxy");
        assert_eq!(post(&server.base, "").0, 200);
        if !extra.is_empty() {
            assert_eq!(post(&server.base, "Origin: https://app.example\r\n").0, 200);
        }
        server.stop();
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute("DELETE FROM user_history", [])
            .unwrap();
    }
    let server = Server::start(&db, &["--cors", "*"]);
    assert_eq!(post(&server.base, "Origin: http://any.example\r\n").0, 200);
}

#[test]
fn health_and_new_clients_are_answered_under_a_flood_from_many_addresses() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(
        &db,
        &[
            "--max-connections",
            "128",
            "--max-per-client",
            "16",
            "--header-timeout",
            "30",
        ],
    );
    let port: u16 = server.base.rsplit(':').next().unwrap().parse().unwrap();
    // 40 addresses (127.0.0.2 to 127.0.0.41) each open 16 silent connections: five times the
    // cap of 128.
    let flood: Vec<_> = (2..42u8)
        .flat_map(|a| (0..16).filter_map(move |_| bind_from(a, port).ok()))
        .collect();
    assert_eq!(flood.len(), 640);
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Health checks from other addresses are answered, 13 of 13, and so is a new client.
    let mut answered = 0;
    for a in 100..113u8 {
        if let Ok(s) = bind_from(a, port) {
            if http_get(s, "/healthz").starts_with("HTTP/1.1 200") {
                answered += 1;
            }
        }
    }
    assert_eq!(answered, 13, "health from other addresses under the flood");
    let levels = http_get(bind_from(120, port).unwrap(), "/v1/levels");
    assert!(levels.starts_with("HTTP/1.1 200"), "{levels}");
    drop(flood);
}

/// A connection to `port` of localhost from the address 127.0.0.`host`.
fn bind_from(host: u8, port: u16) -> std::io::Result<std::net::TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&std::net::SocketAddr::from(([127, 0, 0, host], 0)).into())?;
    socket.connect(&std::net::SocketAddr::from(([127, 0, 0, 1], port)).into())?;
    Ok(socket.into())
}

/// `GET path` on an open connection: the answer's head and body as text (read until the
/// server closes or 2 s pass).
fn http_get(mut c: std::net::TcpStream, path: &str) -> String {
    use std::io::{Read as _, Write as _};
    c.set_read_timeout(Some(std::time::Duration::from_secs(2)))
        .unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let _ = c.write_all(head.as_bytes());
    let mut text = String::new();
    let _ = c.read_to_string(&mut text);
    text
}

#[test]
fn a_query_that_does_not_read_is_a_json_400() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let server = Server::start(&db, &[]);
    for (method, path) in [
        ("POST", "/v1/puzzles/next?user=a&user=b&level=easy"),
        (
            "GET",
            "/v1/daily?date=2026-01-01&date=2026-01-02&level=easy",
        ),
        ("GET", "/v1/puzzles/1?solution=true&solution=false"),
        ("GET", "/v1/puzzles/%FF"),
    ] {
        let resp = match ureq::request(method, &format!("{}{path}", server.base)).call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(resp.status(), 400, "{path}");
        assert_eq!(resp.content_type(), "application/json", "{path}");
        let v: Value = serde_json::from_str(&resp.into_string().unwrap()).unwrap();
        assert!(
            v["error"].as_str().unwrap().starts_with("bad "),
            "{path}: {v}"
        );
    }
}

#[test]
fn the_daily_puzzle_never_comes_back_as_a_new_puzzle() {
    use pseudoku::calendar::Date;
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 30);
    let server = Server::start(&db, &[]);
    let (status, today) = daily(&server, &Date::today().to_string(), "easy");
    assert_eq!(status, 200, "{today}");
    let id = today["id"].as_i64().unwrap();
    let mut ids = Vec::new();
    loop {
        let (status, v) = server.deliver("/v1/puzzles/next?user=ann&level=easy");
        if status == 404 {
            break;
        }
        assert_eq!(status, 200, "{v}");
        ids.push(v["id"].as_i64().unwrap());
    }
    assert!(
        !ids.contains(&id),
        "the daily puzzle {id} came back as a new puzzle"
    );
    assert_eq!(ids.len(), 29, "the level's 30 less the daily one: {ids:?}");
    assert_eq!(server.get(&format!("/v1/puzzles/{id}")).0, 200);
}

/// The log an operator reads (`--log-format json` here): the start, one access line per
/// request (method, route pattern, status, time and the id the answer carries in
/// `x-request-id`), an internal error logged with its cause under the id its answer names
/// (the cause itself stays out of the answer), the drain and the stop; every line a JSON
/// object, and no token in any line, whether it came in a header or a query.
#[test]
fn the_log_names_each_request_by_its_id_and_never_a_token() {
    use std::io::{BufRead as _, Read as _};
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path(), 5);
    let (token, page) = ("log-token-1f3a77", "log-page-9c2e04");
    std::fs::write(dir.path().join("token"), token).unwrap();
    std::fs::write(dir.path().join("page-token"), page).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pseudoku"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--db",
        ])
        .arg(&db)
        .arg("--token-file")
        .arg(dir.path().join("token"))
        .arg("--page-token-file")
        .arg(dir.path().join("page-token"))
        .env_remove("RUST_LOG")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let start: Value = serde_json::from_str(&first).unwrap_or_else(|e| panic!("{first}: {e}"));
    let message = start["message"].as_str().unwrap();
    let addr = message
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {message}"));
    let server = Server {
        child,
        base: format!("http://{addr}"),
    };
    let mut ids = Vec::new();
    let mut call = |req: ureq::Request| -> (u16, String, Value) {
        let resp = match req.call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        let id = resp.header("x-request-id").expect("an id").to_string();
        ids.push(id.clone());
        let status = resp.status();
        (
            status,
            id,
            serde_json::from_str(&resp.into_string().unwrap()).unwrap(),
        )
    };
    let url = |path: &str| format!("{}{path}", server.base);
    assert_eq!(call(ureq::get(&url("/healthz"))).0, 200);
    let bearer = |t: &str| format!("Bearer {t}");
    let (status, _, _) = call(ureq::get(&url("/v1/levels")).set("Authorization", &bearer(token)));
    assert_eq!(status, 200);
    let (status, _, player) =
        call(ureq::post(&url("/v1/players")).set("Authorization", &bearer(page)));
    assert_eq!(status, 200);
    let player = player["user"].as_str().unwrap().to_string();
    let (status, _, _) = call(
        ureq::post(&url(&format!(
            "/v1/puzzles/next?user={player}&level=easy&token={token}"
        )))
        .set("Authorization", &bearer(page)),
    );
    assert_eq!(status, 200);
    assert_eq!(call(ureq::get(&url("/v1/levels"))).0, 401);
    // The bank fails under the server: the answer names the request, not the cause.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("ALTER TABLE puzzles RENAME TO moved")
        .unwrap();
    let (status, failed, body) =
        call(ureq::get(&url("/v1/puzzles/1")).set("Authorization", &bearer(token)));
    assert_eq!(status, 503, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains(&format!("request {failed}")), "{error}");
    assert!(
        !error.contains("moved") && !error.contains("no such table"),
        "{error}"
    );
    assert!(server.stop().success());
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let lines: Vec<Value> = rest
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let all = format!("{first}{rest}");
    assert!(
        !all.contains(token) && !all.contains(page),
        "a token in the log:\n{all}"
    );
    let access: Vec<&Value> = lines.iter().filter(|l| l["message"] == "request").collect();
    let logged: Vec<&str> = access.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(logged, ids.iter().map(String::as_str).collect::<Vec<_>>());
    let of = |id: &str| *access.iter().find(|l| l["id"] == id).unwrap();
    assert_eq!(of(&failed)["status"], 503);
    assert_eq!(of(&failed)["route"], "/v1/puzzles/{id}");
    assert_eq!(of(&failed)["method"], "GET");
    assert_eq!(of(&ids[4])["status"], 401);
    let internal = lines
        .iter()
        .find(|l| l["level"] == "ERROR")
        .unwrap_or_else(|| panic!("no error line:\n{all}"));
    assert_eq!(internal["id"], failed.as_str());
    assert!(
        internal["cause"]
            .as_str()
            .unwrap()
            .contains("no such table: puzzles"),
        "{internal}"
    );
    assert!(lines
        .iter()
        .any(|l| l["message"].as_str().unwrap().starts_with("stopping")));
    assert_eq!(lines.last().unwrap()["message"], "stopped");
}

#[test]
fn following_the_apis_hints_solves_hard_and_expert_puzzles_with_and_without_notes() {
    let dir = tempfile::tempdir().unwrap();
    let (db, puzzles) = crate::hint::hard_and_expert(dir.path(), 4);
    let server = Server::start(&db, &[]);
    let mut rng = pseudoku::Rng::new(41);
    let (mut games, mut without_notes) = (0, 0);
    for p in &puzzles {
        let (boards, solution) = crate::hint::starting_boards(p, 2, &mut rng);
        for board in boards {
            without_notes += usize::from(board.marks.is_none());
            let ask = |b: &pseudoku::hint::Board| {
                let entries: String = b.entries.iter().map(|&e| (b'0' + e) as char).collect();
                let mut body = serde_json::json!({"puzzle": p, "entries": entries});
                if let Some(marks) = &b.marks {
                    let cells: Vec<String> = marks
                        .iter()
                        .map(|m| {
                            (1..=9u8)
                                .filter(|d| m >> (d - 1) & 1 == 1)
                                .map(|d| (b'0' + d) as char)
                                .collect()
                        })
                        .collect();
                    body["candidates"] = serde_json::json!(cells);
                }
                let (status, h) = server.post("/v1/hint", &body.to_string());
                assert_eq!(status, 200, "{h}");
                h
            };
            crate::hint::follow_hints(board, &solution, ask)
                .unwrap_or_else(|why| panic!("{p}: {why}"));
            games += 1;
        }
    }
    // Each position as drawn (with notes a third of the time), bare and with every candidate.
    assert_eq!(games, 48);
    assert!((16..48).contains(&without_notes), "{without_notes}");
}
