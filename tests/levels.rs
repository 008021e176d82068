//! Percentiles, bands and retrieval end to end: a bank built with band quotas holds them, `get`
//! returns puzzles in the range asked, `--mark-served` never hands a puzzle out twice even to
//! concurrent processes, `calibrate` recomputes every percentile, `stats` adds up.

mod common;
use common::*;

use pseudoku::levels::{Band, RatingKind, Reference};
use rusqlite::Connection;
use std::collections::HashSet;
use std::path::Path;

fn percentiles(conn: &Connection) -> Vec<f64> {
    column(conn, "SELECT percentile FROM puzzles ORDER BY id")
}

/// Checks that every stored percentile is the stored difficulty's against the stored
/// reference; returns the sizes of both.
fn check_percentiles(conn: &Connection) -> (usize, usize) {
    let reference: Vec<f64> = column(conn, "SELECT difficulty FROM reference");
    let n = reference.len();
    let reference = Reference::new(reference);
    let rows: Vec<(f64, f64)> = conn
        .prepare("SELECT difficulty, percentile FROM puzzles")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (d, p) in &rows {
        assert_eq!(reference.percentile(*d), *p);
    }
    (n, rows.len())
}

/// `get` with `args`, parsed as JSON lines (after checking each line's keys and their order).
fn get_json(db: &Path, args: &[&str]) -> (Vec<serde_json::Value>, i32, String) {
    let out = pseudoku()
        .arg("get")
        .args(args)
        .arg("--json")
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    let rows = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let keys = [
                "id",
                "puzzle",
                "solution",
                "level",
                "difficulty",
                "hsolve",
                "percentile",
                "tier",
            ];
            let at: Vec<usize> = keys
                .iter()
                .map(|k| l.find(&format!("\"{k}\":")).expect(k))
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "key order: {l}");
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v.as_object().unwrap().len(), keys.len());
            v
        })
        .collect();
    (
        rows,
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_bank_built_with_quotas_serves_every_range() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 150, 4, 2);
    let conn = Connection::open(&db).unwrap();
    // Each band holds its quota.
    let pcts = percentiles(&conn);
    assert_eq!(pcts.len(), 600);
    for k in 1..=4 {
        let r = Band::new(k, 4).unwrap().range();
        assert_eq!(
            pcts.iter().filter(|&&p| r.contains(p)).count(),
            150,
            "band {k}"
        );
    }
    // Every percentile is the stored rating's against the stored reference.
    assert_eq!(check_percentiles(&conn), (10_000, 600));
    // Retrieval by band, percentile range and level stays in range, with the JSON keys in order.
    for (args, low, high, level) in [
        (
            vec!["--band", "3/4", "--count", "20"],
            50.0,
            75.0,
            Some("hard"),
        ),
        (
            vec!["--percentile", "10..30", "--count", "20"],
            10.0,
            30.0,
            None,
        ),
        (
            vec!["--level", "expert", "--count", "20"],
            75.0,
            100.0001,
            Some("expert"),
        ),
        (
            vec!["--level", "Easy", "--count", "20"],
            0.0,
            25.0,
            Some("easy"),
        ),
    ] {
        let (rows, code, _) = get_json(&db, &args);
        assert_eq!(code, 0, "{args:?}");
        assert_eq!(rows.len(), 20);
        let ids: HashSet<i64> = rows.iter().map(|r| r["id"].as_i64().unwrap()).collect();
        assert_eq!(ids.len(), 20, "distinct puzzles");
        for r in &rows {
            let p = r["percentile"].as_f64().unwrap();
            assert!(p >= low && p < high, "{args:?}: {p}");
            // The level printed is the one the percentile falls in.
            if let Some(level) = level {
                assert_eq!(r["level"], level, "{args:?}");
            }
            assert!(r["difficulty"].as_f64().is_some() && r["hsolve"].as_f64().is_some());
        }
    }
    // The TSV form: puzzle, level, difficulty, hsolve, percentile, id.
    let out = pseudoku()
        .args(["get", "--band", "1/4", "--seed", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let line = String::from_utf8(out.stdout).unwrap();
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 6);
    assert_eq!(fields[0].len(), 81);
    assert_eq!(fields[1], "easy");
    assert!(fields[4].parse::<f64>().unwrap() < 25.0);
    // The same seed gives the same puzzle.
    let again = pseudoku()
        .args(["get", "--band", "1/4", "--seed", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(again.stdout, line.as_bytes());
    // stats adds up.
    let out = pseudoku()
        .args(["stats", "--json", "--db"])
        .arg(&db)
        .arg("--plot")
        .arg(dir.path().join("bank.svg"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["puzzles"], 600);
    let bands: Vec<u64> = s["bands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["puzzles"].as_u64().unwrap())
        .collect();
    assert_eq!(bands, [150, 150, 150, 150]);
    let tiers: u64 = s["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap())
        .sum();
    assert_eq!(tiers, 600);
    let hist: u64 = s["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bank"].as_u64().unwrap())
        .sum();
    assert_eq!(hist, 600);
    let svg = std::fs::read_to_string(dir.path().join("bank.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<rect").count(),
        1 + 30 + 1 + 4,
        "background, bins, legend, bands"
    );
}

#[test]
fn concurrent_callers_never_get_the_same_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 60, 1, 2);
    // Six processes at once, 15 puzzles each, from a range of 60: 90 asked.
    let children: Vec<std::process::Child> = (0..6)
        .map(|i| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("pseudoku"))
                .args([
                    "get",
                    "--band",
                    "1/1",
                    "--count",
                    "15",
                    "--mark-served",
                    "--json",
                ])
                .args(["--seed", &i.to_string(), "--db"])
                .arg(&db)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ids = Vec::new();
    let mut short = 0;
    for c in children {
        let out = c.wait_with_output().unwrap();
        for l in String::from_utf8(out.stdout).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            ids.push(v["id"].as_i64().unwrap());
        }
        if out.status.code() == Some(1) {
            short += 1;
            assert!(String::from_utf8(out.stderr)
                .unwrap()
                .contains("unserved puzzle"));
        } else {
            assert!(out.status.success());
        }
    }
    let distinct: HashSet<i64> = ids.iter().copied().collect();
    assert_eq!(distinct.len(), ids.len(), "a puzzle was served twice");
    assert_eq!(ids.len(), 60, "every puzzle served once");
    assert!(short >= 2, "90 asked of 60: some callers come up short");
    // Nothing left: say so and exit 1.
    let (rows, code, err) = get_json(&db, &["--band", "1/1", "--mark-served"]);
    assert!(rows.is_empty());
    assert_eq!(code, 1);
    assert!(err.contains("no unserved puzzle left"), "{err}");
    let conn = Connection::open(&db).unwrap();
    let served: i64 = scalar(
        &conn,
        "SELECT COUNT(*) FROM puzzles WHERE served_at IS NOT NULL",
    );
    assert_eq!(served, 60);
}

#[test]
fn calibrate_replaces_the_reference_and_recomputes_every_percentile() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 40, 4, 2);
    let corpus = dir.path().join("corpus.txt");
    std::fs::write(
        &corpus,
        concat!(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
            "not a puzzle\n",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n",
        ),
    )
    .unwrap();
    pseudoku()
        .args(["calibrate", "--from"])
        .arg(&corpus)
        .arg("--db")
        .arg(&db)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("corpus.txt:3:"))
        .stdout(predicates::str::contains("3 puzzles"));
    let conn = Connection::open(&db).unwrap();
    assert_eq!(check_percentiles(&conn), (3, 160));
    // Switching to hsolve and new level names recomputes from the hsolve column.
    pseudoku()
        .args([
            "calibrate",
            "--rating",
            "hsolve",
            "--levels",
            "gentle,tough",
            "--db",
        ])
        .arg(&db)
        .assert()
        .success();
    let (rows, code, _) = get_json(&db, &["--level", "tough", "--count", "5"]);
    assert_eq!(code, 0);
    for r in rows {
        assert!(r["percentile"].as_f64().unwrap() >= 50.0);
    }
    // Back to the default reference: the same as a new bank's.
    pseudoku()
        .args(["calibrate", "--default", "--rating", "difficulty", "--db"])
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains("10000 puzzles"));
}

#[test]
fn targeted_builds_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut banks = Vec::new();
    for threads in [1, 2] {
        let db = dir.path().join(format!("bank{threads}.db"));
        build_bands(&db, 50, 4, threads);
        let conn = Connection::open(&db).unwrap();
        let rows: Vec<(String, i64, f64)> = conn
            .prepare("SELECT puzzle, job, percentile FROM puzzles ORDER BY job")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        banks.push(rows);
    }
    assert_eq!(banks[0].len(), 200);
    assert_eq!(banks[0], banks[1]);
}

#[test]
fn retrieval_uses_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 10, 1, 2);
    let conn = Connection::open(&db).unwrap();
    let plan = pseudoku::store::retrieval::take_plans(&conn, RatingKind::Difficulty).unwrap();
    // The id span is two seeks, a draw looks a row up by its id, listing a rare range
    // searches the index of unserved puzzles: nothing scans the table.
    assert!(
        plan.iter().all(|p| !p.starts_with("SCAN puzzles")),
        "{plan:?}"
    );
    let searches: Vec<&String> = plan.iter().filter(|p| p.starts_with("SEARCH")).collect();
    assert_eq!(searches.len(), 4, "{plan:?}");
    assert!(searches[2].contains("PRIMARY KEY"), "{plan:?}");
    assert!(searches[3].contains("puzzles_unserved"), "{plan:?}");
}

#[test]
fn handouts_are_uniform_within_a_band() {
    use pseudoku::dev::stats::{chi_square, chi_square_p};
    use pseudoku::store::retrieval::take;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 300, 4, 2);
    let conn = pseudoku::store::open(&db).unwrap();
    for band in ["2/4", "3/4", "4/4"] {
        let range = band.parse::<Band>().unwrap().range();
        // The band's content: (tier, decile of the band's percentile range) per puzzle.
        let cell = |tier: u8, p: f64| -> (usize, usize) {
            let d = ((p - range.low) / (range.high - range.low) * 10.0).floor();
            (tier as usize, (d as usize).min(9))
        };
        let content: Vec<(usize, usize)> = {
            let mut stmt = conn
                .prepare("SELECT tier, percentile FROM puzzles WHERE served_at IS NULL")
                .unwrap();
            let rows: Vec<(u8, f64)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            rows.into_iter()
                .filter(|&(_, p)| range.contains(p))
                .map(|(t, p)| cell(t, p))
                .collect()
        };
        assert!(content.len() >= 300, "{band}: {}", content.len());
        let mut rng = pseudoku::Rng::new(1);
        let (mut by_tier, mut by_decile) = (vec![0u64; 7], vec![0u64; 10]);
        for _ in 0..20_000 {
            let p = take(&conn, RatingKind::Difficulty, range, 1, false, &mut rng).unwrap();
            let (t, d) = cell(p[0].tier, p[0].percentile);
            by_tier[t] += 1;
            by_decile[d] += 1;
        }
        let share = |f: &dyn Fn(&(usize, usize)) -> usize, n: usize| -> Vec<f64> {
            let mut v = vec![0.0; n];
            for c in &content {
                v[f(c)] += 1.0 / content.len() as f64;
            }
            v
        };
        for (what, observed, shares) in [
            ("hardest tier", &by_tier, share(&|c| c.0, 7)),
            ("percentile decile", &by_decile, share(&|c| c.1, 10)),
        ] {
            let (stat, df) = chi_square(observed, &shares);
            let p = chi_square_p(stat, df);
            assert!(
                p > 0.01,
                "{band} by {what}: chi-square {stat:.1} on {df} df, p = {p:.4}: {observed:?} \
                 against shares {shares:?}"
            );
        }
    }
}
