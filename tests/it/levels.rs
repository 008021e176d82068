//! Percentiles, bands and retrieval end to end: a bank built with band quotas holds them, `get`
//! returns puzzles in the range asked, `--mark-served` never hands a puzzle out twice even to
//! concurrent processes, `calibrate` recomputes every percentile, `stats` adds up.

use crate::common::*;

use pseudoku::levels::{Band, RatingKind, Reference};
use rusqlite::Connection;
use std::collections::HashSet;
use std::path::Path;

/// Every stored puzzle's percentile (by id), measured as the bank measures it when read: its
/// stored difficulty against the stored reference.
fn percentiles(conn: &Connection) -> Vec<f64> {
    let reference = Reference::new(column(conn, "SELECT difficulty FROM reference"));
    let stored: Vec<f64> = column(conn, "SELECT difficulty FROM puzzles_text ORDER BY id");
    stored.iter().map(|&d| reference.percentile(d)).collect()
}

/// Checks that every stored level is the stored difficulty's on the bank's levels, and that
/// the bank measures percentiles against the stored reference; returns the sizes of both.
fn check_percentiles(conn: &Connection) -> (usize, usize) {
    let reference: Vec<f64> = column(conn, "SELECT difficulty FROM reference");
    let n = reference.len();
    let levels = pseudoku::levels::Levels::read(&bank_of(conn)).unwrap();
    assert_eq!(levels.reference, Reference::new(reference));
    let rows: Vec<(f64, u32, u8)> = conn
        .prepare("SELECT difficulty / 1000.0, level, step FROM puzzles")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (d, l, step) in &rows {
        let step = pseudoku::rate::Strategy::from_code(*step).unwrap();
        assert_eq!(levels.set.of(*d, step) as u32, *l);
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
                "hardest_step",
                "hardest_steps",
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
    // Retrieval by band and percentile range stays in range, by level in the level's rating
    // range, with the JSON keys in order; the level printed is the one of its rating.
    let default = pseudoku::levels::LevelSet::default_for(RatingKind::Difficulty);
    for (args, low, high, level) in [
        (vec!["--band", "3/4", "--count", "20"], 50.0, 75.0, None),
        (
            vec!["--percentile", "10..30", "--count", "20"],
            10.0,
            30.0,
            None,
        ),
        (
            vec!["--level", "expert", "--count", "20"],
            0.0,
            100.0001,
            Some("expert"),
        ),
        (
            vec!["--level", "Medium", "--count", "20"],
            0.0,
            100.0001,
            Some("medium"),
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
            let d = r["difficulty"].as_f64().unwrap();
            assert_eq!(
                r["level"],
                default.name(level_by_rating(&default, d)).unwrap(),
                "{args:?}"
            );
            if let Some(level) = level {
                assert_eq!(r["level"], level, "{args:?}");
            }
            assert!(r["difficulty"].as_f64().is_some() && r["hsolve"].as_f64().is_some());
        }
    }
    // The TSV form: puzzle, level, difficulty, hsolve, percentile, id.
    let out = on_bank!(&db; "get", "--band", "1/4", "--seed", "1")
        .output()
        .unwrap();
    let line = String::from_utf8(out.stdout).unwrap();
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 6);
    assert_eq!(fields[0].len(), 81);
    let d: f64 = fields[2].parse().unwrap();
    assert_eq!(
        fields[1],
        default.name(level_by_rating(&default, d)).unwrap()
    );
    assert!(fields[4].parse::<f64>().unwrap() < 25.0);
    // The same seed gives the same puzzle.
    let again = on_bank!(&db; "get", "--band", "1/4", "--seed", "1")
        .output()
        .unwrap();
    assert_eq!(again.stdout, line.as_bytes());
    // stats adds up.
    let out = on_bank!(&db; "stats", "--json", "--plot", dir.path().join("bank.svg"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["puzzles"], 600);
    // Per level: the puzzles whose difficulty lies in its range.
    let levels: Vec<u64> = s["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["puzzles"].as_u64().unwrap())
        .collect();
    let difficulties: Vec<f64> = column(&conn, "SELECT difficulty FROM puzzles_text");
    let mut want = vec![0u64; 4];
    for d in difficulties {
        want[level_by_rating(&default, d)] += 1;
    }
    assert_eq!(levels, want);
    assert_eq!(s["cuts"].as_array().unwrap().len(), 3);
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
    // The plot (tests/stats_plot.rs checks it further): SVG, the levels named on it.
    let svg = std::fs::read_to_string(dir.path().join("bank.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for l in s["levels"].as_array().unwrap() {
        assert!(svg.contains(&format!("\n{}\n", l["level"].as_str().unwrap())));
    }
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
        "SELECT COUNT(*) FROM puzzles_text WHERE served_at IS NOT NULL",
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
    on_bank!(&db; "calibrate", "--force", "--from", &corpus)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("corpus.txt:3:"))
        .stdout(predicates::str::contains("3 puzzles"));
    let conn = Connection::open(&db).unwrap();
    assert_eq!(check_percentiles(&conn), (3, 160));
    // Switching to hsolve and new level names recomputes from the hsolve column.
    on_bank!(&db; "calibrate", "--rating", "hsolve", "--levels", "gentle,tough")
        .assert()
        .success();
    let (rows, code, _) = get_json(&db, &["--level", "tough", "--count", "5"]);
    assert_eq!(code, 0);
    for r in rows {
        assert!(r["percentile"].as_f64().unwrap() >= 50.0);
    }
    // Back to the default reference: the same as a new bank's.
    on_bank!(&db; "calibrate", "--default", "--rating", "difficulty")
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
            .prepare("SELECT puzzle, job, difficulty FROM puzzles_text ORDER BY job")
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
    use pseudoku::store::retrieval::{take_plans, Within};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 10, 1, 2);
    let bank = pseudoku::store::open(&db).unwrap();
    let levels = pseudoku::levels::Levels::read(&bank).unwrap();
    for (within, index) in [
        (
            Within::Percentiles("0..50".parse().unwrap()),
            "puzzles_rating",
        ),
        (Within::Level(2), "puzzles_level"),
    ] {
        let plan = take_plans(&bank, levels.measure(), within).unwrap();
        // The id span is two seeks, a draw looks a row up by its id, listing a rare range
        // searches the rating's or the level's index: nothing scans the table.
        assert!(
            plan.iter().all(|p| !p.starts_with("SCAN puzzles")),
            "{plan:?}"
        );
        let searches: Vec<&String> = plan.iter().filter(|p| p.starts_with("SEARCH")).collect();
        assert_eq!(searches.len(), 4, "{plan:?}");
        assert!(searches[2].contains("PRIMARY KEY"), "{plan:?}");
        assert!(searches[3].contains(index), "{plan:?}");
    }
}

#[test]
fn handouts_are_uniform_within_a_band_and_a_level() {
    use pseudoku::dev::stats::{chi_square, chi_square_p};
    use pseudoku::store::retrieval::{take, Within};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 300, 4, 2);
    let bank = pseudoku::store::open(&db).unwrap();
    let conn = Connection::open(&db).unwrap();
    let levels = pseudoku::levels::Levels::read(&bank).unwrap();
    let rows: Vec<(u8, f64, u32)> = conn
        .prepare("SELECT tier, difficulty, level FROM puzzles_text WHERE served_at IS NULL")
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, levels.reference.percentile(r.get(1)?), r.get(2)?))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut cases: Vec<(String, Within)> = ["2/4", "3/4", "4/4"]
        .iter()
        .map(|b| {
            (
                format!("band {b}"),
                Within::Percentiles(b.parse::<Band>().unwrap().range()),
            )
        })
        .collect();
    cases.push(("level hard".into(), Within::Level(2)));
    cases.push(("level expert".into(), Within::Level(3)));
    for (what_of, within) in cases {
        let inside = |&(_, p, l): &(u8, f64, u32)| within.contains(p, l);
        let members: Vec<&(u8, f64, u32)> = rows.iter().filter(|r| inside(r)).collect();
        assert!(members.len() >= 100, "{what_of}: {}", members.len());
        // Cells: hardest tier, and decile of the members' percentile span.
        let lo = members.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
        let hi = members
            .iter()
            .map(|r| r.1)
            .fold(f64::NEG_INFINITY, f64::max);
        let cell = |tier: u8, p: f64| -> (usize, usize) {
            let d = ((p - lo) / (hi - lo).max(1e-9) * 10.0).floor();
            (tier as usize, (d as usize).min(9))
        };
        let content: Vec<(usize, usize)> = members.iter().map(|r| cell(r.0, r.1)).collect();
        let mut rng = pseudoku::Rng::new(1);
        let (mut by_tier, mut by_decile) = (vec![0u64; 7], vec![0u64; 10]);
        for _ in 0..20_000 {
            let p = take(&bank, levels.measure(), within, 1, false, &mut rng).unwrap();
            let percentile = levels.reference.percentile(p[0].rating);
            assert!(inside(&(p[0].tier, percentile, p[0].level.unwrap())));
            let (t, d) = cell(p[0].tier, percentile);
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
                "{what_of} by {what}: chi-square {stat:.1} on {df} df, p = {p:.4}: {observed:?} \
                 against shares {shares:?}"
            );
        }
    }
}

#[test]
fn labelled_calibration_fits_the_levels_and_recomputes_every_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 30, 4, 2);
    let conn = Connection::open(&db).unwrap();
    let rated = rated_puzzles(&conn);
    // Three levels by the bank's own ratings, split at two values that separate them.
    let n = rated.len();
    let (t1, t2) = (rated[n / 3].1, rated[2 * n / 3].1);
    let label = |d: f64| -> usize { usize::from(d >= t1) + usize::from(d >= t2) };
    let names = ["gentle", "moderate", "tough"];
    let lines: Vec<String> = rated
        .iter()
        .map(|(p, d)| format!("{p}\t{}", names[label(*d)]))
        .collect();
    let file = dir.path().join("labelled.tsv");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let cuts_before: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'cuts'");

    // Shuffled so that "tough" appears first: the order of first appearance does not rank by
    // rating, and the error says which order does.
    let mut shuffled = lines.clone();
    shuffled.rotate_left(2 * n / 3);
    let unordered = dir.path().join("unordered.tsv");
    std::fs::write(&unordered, shuffled.join("\n") + "\n").unwrap();
    on_bank!(&db; "calibrate", "--labelled", "--from", &unordered)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("do not rank by rating"))
        .stderr(predicates::str::contains("--levels gentle,moderate,tough"));

    // Every problem is named, and nothing changes.
    let mut broken = lines.clone();
    broken[4] = "not a puzzle\tgentle".into();
    broken[7] = format!("{}\tinsane", rated[7].0);
    broken[9] = rated[9].0.clone();
    let bad = dir.path().join("bad.tsv");
    std::fs::write(&bad, broken.join("\n") + "\n").unwrap();
    on_bank!(&db; "calibrate", "--labelled", "--from", &bad, "--levels", "gentle,moderate,tough")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad.tsv:5:"))
        .stderr(predicates::str::contains(
            "bad.tsv:10: expected puzzle<TAB>level name",
        ));
    let few = dir.path().join("few.tsv");
    std::fs::write(&few, lines[..n - 30].join("\n") + "\n").unwrap();
    on_bank!(
        &db;
        "calibrate",
        "--labelled",
        "--from",
        &few,
        "--levels",
        "gentle,moderate,tough,insane",
    )
    .assert()
    .code(2)
    .stderr(predicates::str::contains("level \"insane\" has 0 puzzles"));
    let unknown = dir.path().join("unknown.tsv");
    std::fs::write(
        &unknown,
        format!("{}\n{}\tinsane\n", lines.join("\n"), rated[0].0),
    )
    .unwrap();
    on_bank!(
        &db;
        "calibrate",
        "--labelled",
        "--from",
        &unknown,
        "--levels",
        "gentle,moderate,tough",
    )
    .assert()
    .code(2)
    .stderr(predicates::str::contains(format!(
        "unknown.tsv:{}: unknown level \"insane\"",
        n + 1
    )));
    let cuts_after: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'cuts'");
    assert_eq!(
        cuts_before, cuts_after,
        "a failed calibration changed nothing"
    );

    // The good file's levels replace all of the bank's: refused until --levels names them.
    on_bank!(&db; "calibrate", "--labelled", "--from", &file)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "would replace all of the bank's (easy,medium,hard,expert): name them with \
             --levels gentle,moderate,tough",
        ));
    let cuts_after: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'cuts'");
    assert_eq!(cuts_before, cuts_after);
    // Named: separable, so every puzzle lands in its own level, and the bank's stored levels
    // follow.
    on_bank!(&db; "calibrate", "--labelled", "--levels", "gentle,moderate,tough", "--from", &file)
        .assert()
        .success()
        .stdout(predicates::str::contains(format!("{n} labelled puzzles")))
        .stdout(predicates::str::contains("on the puzzles fitted: 100.0%"))
        .stdout(predicates::str::contains("kept: the cut points"));
    let levels: Vec<(f64, u32)> = conn
        .prepare("SELECT difficulty, level FROM puzzles_text")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (d, l) in levels {
        assert_eq!(l as usize, label(d), "difficulty {d}");
    }
    let names_set: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'levels'");
    assert_eq!(names_set, "gentle,moderate,tough");
    let (rows, code, _) = get_json(&db, &["--level", "moderate", "--count", "5"]);
    assert_eq!(code, 0);
    for r in rows {
        assert_eq!(r["level"], "moderate");
        let d = r["difficulty"].as_f64().unwrap();
        assert!(d >= t1 && d < t2, "{d}");
    }
    // `stats` shows the cuts and each level's percentile range; `rate --db` names levels on
    // the bank's scale.
    on_bank!(&db; "stats")
        .assert()
        .success()
        .stdout(predicates::str::contains("\ngentle\tdifficulty < "))
        .stdout(predicates::str::contains("\ntough\tdifficulty >= "));
    let hardest = &rated[n - 1].0;
    on_bank!(&db; "rate", "--json")
        .write_stdin(format!("{hardest}\n"))
        .assert()
        .success()
        .stdout(predicates::str::contains("\"level\":\"tough\""));
}

#[test]
fn a_bank_rated_by_an_older_model_is_rated_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 60, 2);
    let conn = Connection::open(&db).unwrap();
    let before = rated_puzzles(&conn);
    let levels_before: Vec<u32> = column(&conn, "SELECT level FROM puzzles_text ORDER BY id");
    // What an older model's bank looks like: other ratings, its model recorded as 1.
    conn.execute_batch(
        "UPDATE puzzles SET difficulty = difficulty + 1000, level = 0;
         UPDATE reference SET difficulty = difficulty + 1;
         UPDATE settings SET value = '1' WHERE key = 'difficulty_model';",
    )
    .unwrap();
    on_bank!(&db; "verify")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("rated by difficulty model 1"));
    // Until then it keeps its model and says so; its puzzles are served as they are.
    on_bank!(&db; "stats")
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "rated by difficulty model 1; this program rates with model {}",
            pseudoku::rate::difficulty::MODEL
        )));
    on_bank!(&db; "get", "--level", "easy", "--json")
        .assert()
        .success();
    let kept: Vec<u32> = column(&conn, "SELECT level FROM puzzles_text ORDER BY id");
    assert!(kept.iter().all(|&l| l == 0));
    // The next build re-rates it before adding its own puzzles.
    build(&db, 20, 2);
    on_bank!(&db; "verify", "--sample", "0")
        .assert()
        .success()
        .stdout(predicates::str::contains("checked 80 rows"))
        .stdout(predicates::str::contains(": 0 mismatches"));
    let after: std::collections::HashMap<String, f64> = rated_puzzles(&conn).into_iter().collect();
    assert_eq!(after.len(), 80);
    for (p, d) in &before {
        assert_eq!(after[p], *d, "{p}");
    }
    let levels_after: Vec<u32> = column(&conn, "SELECT level FROM puzzles_text ORDER BY id");
    assert_eq!(levels_after[..60], levels_before[..]);
    assert_eq!(check_percentiles(&conn), (10_000, 80));
    let model: String = scalar(
        &conn,
        "SELECT value FROM settings WHERE key = 'difficulty_model'",
    );
    assert_eq!(model, pseudoku::rate::difficulty::MODEL.to_string());
}

/// The Sudoku Exchange buckets as `puzzle<TAB>level` lines (easy, medium, hard, expert).
fn se_buckets() -> Option<Vec<(String, usize)>> {
    let Ok(path) = pseudoku::dev::refdata::file("se-rated/sudoku_exchange_buckets.tsv") else {
        crate::common::skipping(
            "the tests on the shared reference data",
            pseudoku::dev::refdata::dir().unwrap_err(),
        );
        return None;
    };
    let names = ["easy", "medium", "hard", "diabolical"];
    Some(
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                let level = names.iter().position(|n| f[1].starts_with(n)).unwrap();
                (f[0].to_string(), level)
            })
            .collect(),
    )
}

#[test]
fn the_default_levels_put_the_se_buckets_in_their_own_levels() {
    let Some(buckets) = se_buckets() else { return };
    // `rate` names each puzzle's level on the default scale.
    let input: String = buckets.iter().map(|b| format!("{}\n", b.0)).collect();
    let out = pseudoku()
        .args(["rate", "--json"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    let names = ["easy", "medium", "hard", "expert"];
    let mut m = vec![vec![0u64; 4]; 4];
    for (line, (_, label)) in String::from_utf8(out.stdout).unwrap().lines().zip(&buckets) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let given = names.iter().position(|n| v["level"] == *n).unwrap();
        m[*label][given] += 1;
    }
    let share = pseudoku::levels::fit::agreement(&m);
    assert!(share >= 0.85, "{m:?}");
    for (i, row) in m.iter().enumerate() {
        assert!(row[i] as f64 >= 0.7 * 500.0, "{}: {m:?}", names[i]);
    }
    // Held out: labelled calibration on the buckets, cross-validated on halves.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("buckets.tsv");
    let text: String = buckets
        .iter()
        .map(|(p, l)| format!("{p}\t{}\n", names[*l]))
        .collect();
    std::fs::write(&file, text).unwrap();
    let fit = pseudoku::levels::labelled::fit_file(&file, None, RatingKind::Difficulty).unwrap();
    let cv = fit.cross_validation.confusion();
    assert!(fit.cross_validation.agreement() >= 0.85, "{cv:?}");
    for (i, row) in cv.iter().enumerate() {
        assert!(row[i] as f64 >= 0.7 * 500.0, "{}: {cv:?}", names[i]);
    }
    // The fit on all of them is the shipped default.
    let default = pseudoku::levels::LevelSet::default_for(RatingKind::Difficulty);
    for (a, b) in fit.set.cuts().iter().zip(default.cuts()) {
        assert!((a - b).abs() < 1e-3, "{:?} against {:?}", fit.set, default);
    }
}

#[test]
fn short_floats_small_references_and_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let db = small_bank(dir.path());
    let db_s = db.to_str().unwrap();
    // stats --json: no float with more than 6 decimals.
    let o = run_cli(&["stats", "--db", db_s, "--json"]);
    assert!(o.status.success());
    let json = text(&o.stdout);
    let long = json
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|n| n.split_once('.'))
        .filter(|(_, decimals)| decimals.len() > 6)
        .count();
    assert_eq!(long, 0, "{json}");
    // A mistyped level.
    let o = run_cli(&["get", "--db", db_s, "--level", "hrad"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("did you mean \"hard\"?"),
        "{}",
        text(&o.stderr)
    );
    let o = on_bank!(
        db_s;
        "export",
        "--start",
        "2027-01-01",
        "--days",
        "1",
        "--mix",
        "esay:1",
        "--out",
        dir.path().join("x"),
    )
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("did you mean \"easy\"?"),
        "{}",
        text(&o.stderr)
    );
    // A 50-puzzle reference is taken, with a warning.
    let corpus = dir.path().join("small.txt");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let puzzles: Vec<String> = column(&conn, "SELECT puzzle FROM puzzles_text LIMIT 50");
    std::fs::write(&corpus, puzzles.join("\n")).unwrap();
    let o = on_bank!(db_s; "calibrate", "--from", &corpus)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("only 50 puzzles") && err.contains("give 1000 or more"),
        "{err}"
    );
    // --default puts back the default reference and levels (names and cut points), also after
    // renamed levels.
    let o = run_cli(&["calibrate", "--db", db_s, "--levels", "one,two,three,four"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run_cli(&["calibrate", "--db", db_s, "--default"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let default = pseudoku::scale::LevelSet::default_for(pseudoku::levels::RatingKind::Difficulty);
    let said = text(&o.stdout);
    assert!(said.contains(&format!("levels: {default};")), "{said}");
    // Cut points fitted on labelled puzzles (ratings of 3 decimals) print as midpoints of 4
    // decimals at most, not as `10.062999999999999`.
    let labelled = dir.path().join("labelled.tsv");
    let rows: Vec<String> = column(
        &conn,
        "SELECT puzzle || char(9) || CASE level WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' \
         WHEN 2 THEN 'hard' ELSE 'expert' END FROM puzzles_text ORDER BY level, id",
    );
    std::fs::write(&labelled, rows.join("\n")).unwrap();
    let o = on_bank!(db_s; "calibrate", "--labelled", "--from", &labelled)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    let line = said.lines().next().unwrap();
    let cuts: Vec<&str> = line
        .split(' ')
        .filter(|w| w.parse::<f64>().is_ok() && w.contains('.'))
        .collect();
    assert_eq!(cuts.len(), 3, "{line}");
    for c in cuts {
        assert!(c.split_once('.').unwrap().1.len() <= 4, "{line}");
    }
}

fn small_bank(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("bank.db");
    build_levels(&db, 20, 2);
    db
}

/// The codes of the steps that assume a value (forcing chains, backtracking, trials).
fn assuming_codes() -> Vec<u8> {
    pseudoku::rate::Strategy::ALL
        .iter()
        .filter(|s| s.assumes())
        .map(|s| s.code())
        .collect()
}

#[test]
fn extreme_takes_the_puzzles_that_assume_a_value_and_expert_keeps_none() {
    let dir = tempfile::tempdir().unwrap();
    let db = small_bank(dir.path());
    let db_s = db.to_str().unwrap();
    let conn = Connection::open(&db).unwrap();
    let setting = |key: &str| -> Option<String> {
        conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
            r.get(0)
        })
        .ok()
    };
    let assuming = assuming_codes();
    let steps_of = |level: u32| -> Vec<u8> {
        column(
            &conn,
            &format!("SELECT step FROM puzzles WHERE level = {level}"),
        )
    };
    // The default expert level's rules refuse a step that assumes a value.
    assert_eq!(
        setting("layout:expert").as_deref(),
        Some("symmetry=rotate180 clues=24..30 clued-houses no-assumptions")
    );
    let expert = steps_of(3);
    assert_eq!(expert.len(), 20);
    assert!(expert.iter().all(|s| !assuming.contains(s)), "{expert:?}");
    let cuts = setting("cuts");
    let calibrate_levels = |names: &str| {
        let out = run_cli(&["calibrate", "--levels", names, "--db", db_s]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    // Adding extreme keeps the cut points and gives it expert's layout without the rule.
    calibrate_levels("easy,medium,hard,expert,extreme");
    assert_eq!(setting("cuts"), cuts);
    assert_eq!(
        setting("layout:extreme").as_deref(),
        Some("symmetry=rotate180 clues=24..30 clued-houses")
    );
    let out = run_cli(&["build", "--level", "extreme", "--count", "4", "--db", db_s]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("4 of 4 stored"),
        "{}",
        text(&out.stdout)
    );
    let extreme = steps_of(4);
    assert_eq!(extreme.len(), 4);
    assert!(extreme.iter().all(|s| assuming.contains(s)), "{extreme:?}");
    let low: f64 = scalar(
        &conn,
        "SELECT MIN(difficulty) / 1000.0 FROM puzzles WHERE level = 4",
    );
    assert!(low >= 11.0905, "{low}");
    check_percentiles(&conn);
    let (rows, code, err) = get_json(&db, &["--level", "extreme", "--count", "4"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["level"] == "extreme"));
    // Taking extreme away puts its puzzles back in expert's range, the cuts still the same.
    calibrate_levels("easy,medium,hard,expert");
    assert_eq!(setting("cuts"), cuts);
    assert_eq!(setting("layout:extreme"), None);
    assert_eq!(steps_of(3).len(), 24);
    check_percentiles(&conn);
    // Extreme must come last, after at least one level.
    let out = run_cli(&["calibrate", "--levels", "easy,extreme,hard", "--db", db_s]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("must be the last"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_spread_build_fills_each_level_below_the_top_as_the_reference_spreads() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    let out = run_cli(&[
        "build",
        "--per-level",
        "32",
        "--spread",
        "--threads",
        "2",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // One line per level, its parts summed.
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("32 of 32 stored").count(), 4, "{stdout}");
    let conn = Connection::open(&db).unwrap();
    let levels = pseudoku::levels::Levels::read(&bank_of(&conn)).unwrap();
    let pct = percentiles(&conn);
    let level: Vec<u32> = column(&conn, "SELECT level FROM puzzles ORDER BY id");
    for i in 0..3 {
        // Four equal slices of the level's reference percentiles, eight puzzles in each.
        let (lo, hi) = levels.set.bounds(i);
        let low = lo.map_or(0.0, |c| levels.reference.percentile(c));
        let high = hi.map_or(100.0, |c| levels.reference.percentile(c));
        let mut per_slice = [0u32; 4];
        for (p, _) in pct.iter().zip(&level).filter(|(_, &l)| l == i as u32) {
            let k = ((p - low) / (high - low) * 4.0).floor() as usize;
            per_slice[k.min(3)] += 1;
        }
        assert_eq!(per_slice, [8; 4], "level {i}");
    }
    // The top level is filled as one quota.
    assert_eq!(level.iter().filter(|&&l| l == 3).count(), 32);
}

/// A spread build large enough for a pilot eases seeds where the generators' puzzles rarely
/// land (medium's gentle parts, below every seed), fills every part exactly, and makes the
/// same bank on one thread as on two.
#[test]
fn a_spread_build_eases_seeds_below_every_seed_and_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let build = |name: &str, threads: &str| {
        let db = dir.path().join(name);
        let out = run_cli(&[
            "build",
            "--per-level",
            "1000",
            "--spread",
            "--threads",
            threads,
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        (db, text(&out.stdout))
    };
    let (db, stdout) = build("two.db", "2");
    let medium = stdout
        .lines()
        .find(|l| l.starts_with("level medium"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(medium.contains("seeds eased"), "{medium}");
    assert!(medium.contains("1000 of 1000 stored"), "{medium}");
    let rows = |db: &std::path::Path| -> Vec<String> {
        let conn = Connection::open(db).unwrap();
        column(
            &conn,
            "SELECT hex(puzzle) || ' ' || level || ' ' || difficulty FROM puzzles ORDER BY job",
        )
    };
    let (one, _) = build("one.db", "1");
    let both = rows(&db);
    assert_eq!(both.len(), 4000);
    assert_eq!(both, rows(&one));
}

#[test]
fn a_calibration_that_would_empty_a_level_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = small_bank(dir.path());
    let db_s = db.to_str().unwrap();
    let conn = Connection::open(&db).unwrap();
    let cuts_before: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'cuts'");
    // A reference of 1,000 copies of one puzzle (and its symmetries): one class.
    let one = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let copies = dir.path().join("copies.txt");
    std::fs::write(&copies, format!("{one}\n").repeat(1000)).unwrap();
    let out = run_cli(&[
        "calibrate",
        "--from",
        copies.to_str().unwrap(),
        "--levels",
        "a,b,c,d",
        "--db",
        db_s,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("1 distinct puzzles (classes) among 1000"),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    let after: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'cuts'");
    assert_eq!(after, cuts_before, "nothing changed");
    // Forced past the count of classes, the levels that would hold nothing still stop it...
    // unless forced too: --force is one flag for both.
    let out = run_cli(&[
        "calibrate",
        "--from",
        copies.to_str().unwrap(),
        "--levels",
        "a,b,c,d",
        "--force",
        "--db",
        db_s,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cuts: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'cuts'");
    let cuts: Vec<f64> = cuts.split(',').map(|c| c.parse().unwrap()).collect();
    assert!(cuts.windows(2).all(|w| w[0] == w[1]), "forced: {cuts:?}");
}

#[test]
fn a_labelled_file_with_one_puzzle_in_two_levels_is_refused_naming_both_lines() {
    let dir = tempfile::tempdir().unwrap();
    let db = small_bank(dir.path());
    let conn = Connection::open(&db).unwrap();
    let rated = rated_puzzles(&conn);
    let names = ["one", "two", "three", "four"];
    let mut lines: Vec<String> = rated
        .iter()
        .enumerate()
        .map(|(i, (p, _))| format!("{p}\t{}", names[i * 4 / rated.len()]))
        .collect();
    // The first puzzle again, transposed (the same class), under another level.
    let first: pseudoku::Puzzle = rated[0].0.parse().unwrap();
    let transposed: String = (0..81)
        .map(|i| first.to_line().as_bytes()[(i % 9) * 9 + i / 9] as char)
        .collect();
    lines.push(format!("{transposed}\tfour"));
    let file = dir.path().join("labelled.tsv");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = run_cli(&[
        "calibrate",
        "--labelled",
        "--from",
        file.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let last = lines.len();
    assert!(
        err.contains(&format!(
            "labelled.tsv:1 and {}:{last} label the same puzzle",
            file.display()
        )),
        "{err}"
    );
    assert!(err.contains("\"one\" and \"four\""), "{err}");
}

#[test]
fn a_level_model_learns_what_one_rating_cannot_and_every_command_follows_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_bands(&db, 40, 4, 2);
    let conn = Connection::open(&db).unwrap();
    // Levels by clue count, which no range of one rating draws: the model reads the clues.
    let rows: Vec<(String, i64)> = conn
        .prepare("SELECT puzzle, clues FROM puzzles_text ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut clues: Vec<i64> = rows.iter().map(|r| r.1).collect();
    clues.sort_unstable();
    let median = clues[clues.len() / 2];
    // (In a bank built by bands, puzzles with fewer clues rate easier: sparse first.)
    let label = |c: i64| usize::from(c >= median);
    let names = ["sparse", "dense"];
    let file = dir.path().join("by-clues.tsv");
    let lines: Vec<String> = rows
        .iter()
        .map(|(p, c)| format!("{p}\t{}", names[label(*c)]))
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    on_bank!(&db; "calibrate", "--labelled", "--levels", "sparse,dense", "--from", &file)
        .assert()
        .success()
        .stdout(predicates::str::contains("model on "))
        .stdout(predicates::str::contains("kept: the model"));
    let model: String = scalar(
        &conn,
        "SELECT value FROM settings WHERE key = 'level_model'",
    );
    assert!(model.contains("\"features\":"), "{model}");
    // Every stored puzzle is in the model's level, which is its label nearly always.
    let stored: Vec<(i64, u32)> = conn
        .prepare("SELECT clues, level FROM puzzles ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let agree = stored
        .iter()
        .filter(|(c, l)| label(*c) == *l as usize)
        .count();
    assert!(
        agree * 100 >= stored.len() * 95,
        "{agree} of {}",
        stored.len()
    );
    // `verify` recomputes each level with the model; `stats` says the levels were learned.
    on_bank!(&db; "verify", "--sample", "0").assert().success();
    on_bank!(&db; "stats")
        .assert()
        .success()
        .stdout(predicates::str::contains("\nsparse\tlearned\t"))
        .stdout(predicates::str::contains("learned from labelled puzzles"));
    // Its plot does not shade learned levels as ranges of the rating: they overlap.
    let plot = dir.path().join("bank.svg");
    on_bank!(&db; "stats", "--plot", &plot).assert().success();
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.contains("learned levels overlap"),
        "no note in the plot's title"
    );
    // `rate --db` names the level the model gives: the sparsest stored puzzle is sparse.
    let sparsest = &rows.iter().min_by_key(|r| r.1).unwrap().0;
    on_bank!(&db; "rate", "--json")
        .write_stdin(format!("{sparsest}\n"))
        .assert()
        .success()
        .stdout(predicates::str::contains("\"level\":\"sparse\""));
    // `get --level` draws the model's levels.
    let (got, code, _) = get_json(&db, &["--level", "sparse", "--count", "1000"]);
    assert_eq!(code, 1, "fewer than 1000");
    let sparse_ids: HashSet<i64> = column(&conn, "SELECT id FROM puzzles WHERE level = 0")
        .into_iter()
        .collect();
    assert_eq!(got.len(), sparse_ids.len());
    assert!(got
        .iter()
        .all(|r| r["level"] == "sparse" && sparse_ids.contains(&r["id"].as_i64().unwrap())));
    // A later build stores its puzzles in the model's levels (verify checks each).
    build(&db, 30, 2);
    on_bank!(&db; "verify", "--sample", "0").assert().success();
    // Back to cut points: the model is gone and the levels are ranges again.
    on_bank!(&db; "calibrate", "--default").assert().success();
    let left: i64 = scalar(
        &conn,
        "SELECT COUNT(*) FROM settings WHERE key = 'level_model'",
    );
    assert_eq!(left, 0);
    on_bank!(&db; "verify", "--sample", "0").assert().success();
}

#[test]
fn a_level_model_fitted_on_other_features_is_refused_with_its_version() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 5, 1);
    let conn = Connection::open(&db).unwrap();
    // The shape version 1 stored: one ordinal model, no kind.
    conn.execute(
        "INSERT INTO settings (key, value) VALUES ('level_model', \
         '{\"features\":1,\"ordinal\":{\"mean\":[],\"scale\":[],\"weights\":[],\"thresholds\":[0.0],\"lambda\":1.0}}')",
        [],
    )
    .unwrap();
    let out = run_cli(&["rate", "--db", db.to_str().unwrap(), "samples/puzzles.txt"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("was fitted on features version 1 and this program computes version 3"),
        "{err}"
    );
    assert!(err.contains("calibrate"), "{err}");
}

#[test]
fn a_publishers_numeric_scale_becomes_a_named_rating_every_command_knows() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 30, 2);
    let conn = Connection::open(&db).unwrap();
    // The publisher's scale: a monotone function of difficulty, one decimal.
    let rows = rated_puzzles(&conn);
    let scale = |d: f64| ((1.0 + d.sqrt() * 2.0) * 10.0).round() / 10.0;
    let file = dir.path().join("scale.tsv");
    let lines: Vec<String> = rows
        .iter()
        .map(|(p, d)| format!("{p}\t{}", scale(*d)))
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = on_bank!(&db; "calibrate", "--labelled", "--named", "SE", "--from", &file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = text(&out);
    assert!(out.contains("monotone regression on "), "{out}");
    assert!(
        out.contains("stored the named rating se (120 puzzles valued)"),
        "{out}"
    );
    // Held out, the regression ranks the puzzles as the scale does, nearly exactly.
    let spearman: f64 = out
        .lines()
        .find(|l| l.starts_with("monotone regression"))
        .and_then(|l| l.split("Spearman ").nth(1))
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .unwrap();
    assert!(spearman > 0.95, "{out}");
    // Every puzzle has a value; a range draws exactly the puzzles inside it.
    let values: Vec<(i64, f64)> = conn
        .prepare("SELECT puzzle_id, value FROM named_ratings ORDER BY value")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(values.len(), 120);
    let (low, high) = (values[30].1, values[89].1);
    let inside: HashSet<i64> = values
        .iter()
        .filter(|(_, v)| (low..=high).contains(v))
        .map(|(id, _)| *id)
        .collect();
    let range = format!("{low}..{high}");
    let (got, code, _) = get_json(
        &db,
        &["--rating", "se", "--range", &range, "--count", "1000"],
    );
    assert_eq!(code, 1, "fewer than 1000");
    let ids: HashSet<i64> = got.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, inside);
    // With a level too.
    let (got, _, _) = get_json(
        &db,
        &[
            "--rating", "se", "--range", &range, "--level", "hard", "--count", "1000",
        ],
    );
    assert!(got
        .iter()
        .all(|r| r["level"] == "hard" && inside.contains(&r["id"].as_i64().unwrap())));
    // Names and ranges that do not fit are refused, naming the bank's ratings.
    let (db_s, file_s) = (db.to_str().unwrap(), file.to_str().unwrap());
    for (args, reason) in [
        (
            vec!["get", "--rating", "hodoku", "--range", "1..2"],
            "no rating named \"hodoku\" (its named ratings: se)",
        ),
        (
            vec!["get", "--rating", "se", "--range", "2..1"],
            "bad range",
        ),
        (
            vec![
                "calibrate",
                "--labelled",
                "--named",
                "hsolve",
                "--from",
                file_s,
            ],
            "bad rating name",
        ),
    ] {
        let out = run_cli(&[&args[..], &["--db", db_s]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(reason),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // `stats` lists it; a later build values its puzzles; `verify` checks every value.
    on_bank!(&db; "stats")
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "named rating\tpuzzles\tlowest\tmedian\thighest\nse\t120\t",
        ));
    build_levels(&db, 35, 2);
    let valued: i64 = scalar(&conn, "SELECT COUNT(*) FROM named_ratings");
    assert_eq!(valued, 120 + 140);
    on_bank!(&db; "verify", "--sample", "0").assert().success();
    // A value changed by hand is a mismatch.
    conn.execute(
        "UPDATE named_ratings SET value = value + 1 WHERE puzzle_id = 1",
        [],
    )
    .unwrap();
    on_bank!(&db; "verify", "--sample", "0")
        .assert()
        .failure()
        .stdout(predicates::str::contains("named ratings"));
}

/// `calibrate --labelled --from FILE` (and `extra`) on `db`: its exit code, stdout and stderr.
fn calibrate_labelled(db: &Path, file: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let out = pseudoku()
        .args(["calibrate", "--labelled", "--from"])
        .arg(file)
        .args(extra)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// What a calibration may change: the settings, and every puzzle's level.
fn scale_of(conn: &Connection) -> (Vec<String>, Vec<Option<i64>>) {
    (
        column(
            conn,
            "SELECT key || '=' || value FROM settings ORDER BY key",
        ),
        column(conn, "SELECT level FROM puzzles ORDER BY id"),
    )
}

#[test]
fn hostile_labelled_files_are_clear_errors_that_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 25, 2);
    let conn = Connection::open(&db).unwrap();
    let names = ["easy", "medium", "hard", "expert"];
    // Listed level by level, so that the levels first appear easiest first (a file without
    // --levels names them in that order).
    let rows: Vec<(String, usize)> = conn
        .prepare("SELECT puzzle, level FROM puzzles_text ORDER BY level, id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let line = |(p, l): &(String, usize)| format!("{p}\t{}", names[*l]);
    let all: Vec<String> = rows.iter().map(line).collect();
    let of_level = |l: usize| rows.iter().find(|r| r.1 == l).unwrap().0.clone();
    let repeat = |p: &str, name: &str, n: usize| vec![format!("{p}\t{name}"); n];
    let write = |name: &str, lines: &[String], end: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, lines.join(end) + end).unwrap();
        path
    };
    let before = scale_of(&conn);
    let one_level: Vec<String> = rows.iter().map(|r| format!("{}\teasy", r.0)).collect();
    let two_repeated = [
        repeat(&of_level(0), "easy", 30),
        repeat(&of_level(3), "expert", 30),
    ]
    .concat();
    let four_repeated: Vec<String> = (0..4)
        .flat_map(|l| repeat(&of_level(l), names[l], 25))
        .collect();
    let no_hard: Vec<String> = rows.iter().filter(|r| r.1 != 2).map(line).collect();
    let value_empty = vec![format!("{}\t", rows[0].0); 50];
    for (file, lines, end, extra, said) in [
        (
            "one-level.tsv",
            one_level,
            "\n",
            vec![],
            "only one level (easy)",
        ),
        (
            "one-puzzle.tsv",
            repeat(&rows[0].0, "easy", 60),
            "\n",
            vec![],
            "only one level",
        ),
        (
            "one-puzzle-crlf.tsv",
            repeat(&rows[0].0, "hard", 60),
            "\r\n",
            vec![],
            "only one level",
        ),
        (
            "two-puzzles.tsv",
            two_repeated.clone(),
            "\n",
            vec![],
            "has 1 different puzzle",
        ),
        (
            "two-puzzles-crlf.tsv",
            two_repeated,
            "\r\n",
            vec![],
            "has 1 different puzzle",
        ),
        (
            "four-puzzles.tsv",
            four_repeated,
            "\n",
            vec![],
            "has 1 different puzzle",
        ),
        (
            "no-hard.tsv",
            no_hard.clone(),
            "\n",
            vec![],
            "would drop the bank's level hard",
        ),
        (
            "empty-value.tsv",
            value_empty,
            "\n",
            vec!["--named", "pub"],
            "the value is empty",
        ),
    ] {
        let path = write(file, &lines, end);
        let (code, _, err) = calibrate_labelled(&db, &path, &extra);
        assert_eq!(code, Some(2), "{file}: {err}");
        assert!(err.contains(said), "{file}: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert_eq!(scale_of(&conn), before, "{file} changed the bank");
    }
    // The whole file, its lines ended any way (CRLF, CR alone, a byte-order mark first), and
    // repeated lines: fitted on the 100 different puzzles.
    let mut repeated = all.clone();
    repeated.extend(all[..10].iter().cloned());
    for (file, lines, end) in [
        ("crlf.tsv", all.clone(), "\r\n"),
        ("cr.tsv", all.clone(), "\r"),
        ("repeated.tsv", repeated, "\n"),
    ] {
        let path = write(file, &lines, end);
        let (code, out, err) = calibrate_labelled(&db, &path, &[]);
        assert_eq!(code, Some(0), "{file}: {err}");
        assert!(out.starts_with("100 labelled puzzles"), "{file}: {out}");
    }
    let bom = dir.path().join("bom.tsv");
    std::fs::write(&bom, format!("\u{feff}{}\n", all.join("\n"))).unwrap();
    assert_eq!(calibrate_labelled(&db, &bom, &[]).0, Some(0));
    // Dropping a level is what --levels names: done, and said.
    let path = write("no-hard.tsv", &no_hard, "\n");
    let (code, out, err) = calibrate_labelled(&db, &path, &["--levels", "easy,medium,expert"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("hard 25 -> dropped"), "{out}");
    let names_now: String = scalar(&conn, "SELECT value FROM settings WHERE key = 'levels'");
    assert_eq!(names_now, "easy,medium,expert");

    // A bank of easy and expert puzzles only: levels fitted on puzzles of all four would leave
    // medium and hard empty; refused unless --force.
    let other = dir.path().join("ends.db");
    for level in ["easy", "expert"] {
        on_bank!(&other; "build", "--level", level, "--count", "20", "--threads", "2")
            .assert()
            .success();
    }
    let full = write("full.tsv", &all, "\n");
    let ends = Connection::open(&other).unwrap();
    let before = scale_of(&ends);
    let (code, _, err) = calibrate_labelled(&other, &full, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("without a single puzzle of the bank's 40"),
        "{err}"
    );
    assert_eq!(scale_of(&ends), before);
    let named = ["--levels", "easy,medium,hard,expert"];
    assert_eq!(calibrate_labelled(&other, &full, &named).0, Some(0));
    assert_eq!(calibrate_labelled(&other, &full, &["--force"]).0, Some(0));
}
