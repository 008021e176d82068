//! Publisher exports end to end: a year of five puzzles a day with no repeated class and the
//! variety rule kept, byte-identical re-exports, `--replace`, every format, a short bank, and
//! an interrupted export's leftovers.

use crate::common::*;
use pseudoku::levels::{LevelSet, RatingKind};

use rusqlite::Connection;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn export(db: &Path, out: &Path, args: &[&str]) -> std::process::Output {
    run_out("export", db, out, args)
}

/// Every file of `dir` (name, bytes), sorted, but the export's lock file.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name() != ".pseudoku-export.lock")
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// A bank shared by the tests that only read it or export disjoint dates: 900 puzzles per
/// quarter.
fn bank(dir: &Path) -> PathBuf {
    let db = dir.join("bank.db");
    build_levels(&db, 900, 2);
    db
}

#[test]
fn a_year_of_five_a_day_never_repeats_and_keeps_the_variety_rule() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let out = dir.path().join("year");
    let year = [
        "--start",
        "2027-01-01",
        "--days",
        "365",
        "--mix",
        "easy:2,medium:2,hard:1",
        "--format",
        "csv",
    ];
    let o = export(&db, &out, &year);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = files(&out);
    assert_eq!(written.len(), 365);
    // Read every row back from the files.
    let conn = Connection::open(&db).unwrap();
    let mut by_day: HashMap<String, Vec<(u32, String, String, i64)>> = HashMap::new();
    for (name, bytes) in &written {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next().unwrap(),
            "date,slot,level,puzzle,solution,difficulty,hsolve,percentile,id,number"
        );
        for l in lines {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(name, &format!("{}.csv", f[0]));
            by_day.entry(f[0].to_string()).or_default().push((
                f[1].parse().unwrap(),
                f[2].to_string(),
                f[3].to_string(),
                f[8].parse().unwrap(),
            ));
        }
    }
    assert_eq!(by_day.len(), 365);
    let mut classes = HashSet::new();
    // Per puzzle: its day number, seed and solution-grid class.
    let mut facts: Vec<(i64, Option<i64>, String)> = Vec::new();
    for (date, rows) in &by_day {
        let levels: Vec<(u32, &str)> = rows.iter().map(|r| (r.0, r.1.as_str())).collect();
        assert_eq!(
            levels,
            [
                (1, "easy"),
                (2, "easy"),
                (3, "medium"),
                (4, "medium"),
                (5, "hard")
            ],
            "{date}"
        );
        let day = date.parse::<pseudoku::export::Date>().unwrap().days();
        for (_, level, puzzle, id) in rows {
            let p: pseudoku::Puzzle = puzzle.parse().unwrap();
            assert!(classes.insert(pseudoku::canon::key(&p)), "class repeated");
            let (difficulty, seed): (f64, Option<i64>) = conn
                .query_row(
                    "SELECT difficulty, seed_id FROM puzzles_text WHERE id = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            let solution = pseudoku::solve::solve(&p).unique().unwrap().to_line();
            // The puzzle's rating lies in its level's range.
            let levels = LevelSet::default_for(RatingKind::Difficulty);
            assert_eq!(
                levels.name(level_by_rating(&levels, difficulty)),
                Some(level.as_str())
            );
            let grid = pseudoku::Grid::from_puzzle(solution.parse().unwrap()).unwrap();
            facts.push((
                day,
                seed,
                pseudoku::canon::canonical_grid(&grid).key().to_hex(),
            ));
        }
    }
    assert_eq!(classes.len(), 365 * 5);
    // Variety: no two puzzles within 7 days share a seed or a solution-grid class.
    for (i, a) in facts.iter().enumerate() {
        for b in &facts[i + 1..] {
            if (a.0 - b.0).abs() <= 6 {
                assert!(a.1.is_none() || a.1 != b.1, "same seed within a week");
                assert_ne!(a.2, b.2, "same solution grid within a week");
            }
        }
    }
    // Exported puzzles are used up: `get` never hands them out.
    let served: i64 = scalar(
        &conn,
        "SELECT COUNT(*) FROM batches b JOIN puzzles p ON p.id = b.puzzle_id
             WHERE p.served_at IS NOT NULL",
    );
    assert_eq!(served, 365 * 5);
    // Exporting a day again, alone, gives the byte-identical file.
    let again = dir.path().join("again");
    let one_day = [
        "--start",
        "2027-03-15",
        "--days",
        "1",
        "--mix",
        "easy:2,medium:2,hard:1",
        "--format",
        "csv",
    ];
    let o = export(&db, &again, &one_day);
    assert!(o.status.success());
    let day = files(&again);
    let original = written.iter().find(|f| f.0 == "2027-03-15.csv").unwrap();
    assert_eq!(&day[0], original);
    // The whole year again: every file identical, nothing new drawn.
    let o = export(&db, &out, &year);
    assert!(String::from_utf8_lossy(&o.stderr).contains("(0 new, 1825 as exported before)"));
    assert_eq!(files(&out), written);
    // Recalibrating the bank does not change what was exported.
    on_bank!(&db; "calibrate", "--rating", "hsolve")
        .assert()
        .success();
    let o = export(&db, &again, &one_day);
    assert!(o.status.success());
    assert_eq!(&files(&again)[0], original);
    // A different mix for an exported date is refused.
    let o = export(
        &db,
        &again,
        &["--start", "2027-03-15", "--days", "1", "--mix", "easy:5"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("was exported with the mix easy:2,medium:2,hard:1"));
}

#[test]
fn replace_draws_new_puzzles_and_retires_the_old() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 60, 2);
    let out = dir.path().join("out");
    let args = [
        "--start",
        "2027-06-01",
        "--days",
        "2",
        "--mix",
        "1/4:2,4/4:1",
        "--format",
        "json",
    ];
    assert!(export(&db, &out, &args).status.success());
    let first = files(&out);
    let ids = |files: &[(String, Vec<u8>)]| -> HashSet<i64> {
        files
            .iter()
            .flat_map(|(_, b)| {
                let v: serde_json::Value = serde_json::from_slice(b).unwrap();
                v["puzzles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["id"].as_i64().unwrap())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let old = ids(&first);
    assert_eq!(old.len(), 6);
    let mut with_replace = args.to_vec();
    with_replace.push("--replace");
    assert!(export(&db, &out, &with_replace).status.success());
    let new = ids(&files(&out));
    assert_eq!(new.len(), 6);
    assert!(
        old.is_disjoint(&new),
        "replaced puzzles are never used again"
    );
    // Both sets stay recorded, the old ones as replaced.
    let conn = Connection::open(&db).unwrap();
    let (all, replaced): (i64, i64) = conn
        .query_row("SELECT COUNT(*), SUM(replaced) FROM batches", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((all, replaced), (12, 6));
    // Replaced in another format: the dates' earlier files go (those unchanged since they
    // were written); a file someone changed stays.
    std::fs::write(out.join("2027-06-02.json"), "edited by hand").unwrap();
    let mut as_text = with_replace.clone();
    let format_at = as_text.len() - 2;
    as_text[format_at] = "txt";
    let o = export(&db, &out, &as_text);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("removed 1 file"),
        "{}",
        text(&o.stderr)
    );
    let names: Vec<String> = files(&out).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        ["2027-06-01.txt", "2027-06-02.json", "2027-06-02.txt"]
    );
}

#[test]
fn every_format_holds_the_puzzles_and_their_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 40, 2);
    let common = [
        "--start",
        "2028-02-28",
        "--days",
        "2",
        "--mix",
        "easy:2,expert:1",
    ];
    for format in ["txt", "csv", "json", "sdk", "html", "pdf"] {
        let out = dir.path().join(format);
        let mut args = common.to_vec();
        args.extend(["--format", format]);
        let o = export(&db, &out, &args);
        assert!(
            o.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let f = files(&out);
        let names: Vec<&str> = f.iter().map(|x| x.0.as_str()).collect();
        match format {
            "sdk" => assert_eq!(
                names,
                [
                    "2028-02-28-solutions.sdk",
                    "2028-02-28.sdk",
                    "2028-02-29-solutions.sdk",
                    "2028-02-29.sdk"
                ]
            ),
            _ => assert_eq!(
                names,
                [
                    format!("2028-02-28.{format}"),
                    format!("2028-02-29.{format}")
                ]
            ),
        }
        match format {
            "sdk" => {
                let text = String::from_utf8(f[1].1.clone()).unwrap();
                let blocks: Vec<&str> = text.split("\n\n").collect();
                assert_eq!(blocks.len(), 3);
                for b in blocks {
                    let lines: Vec<&str> = b.lines().collect();
                    assert_eq!(lines[0], "#S pseudoku");
                    assert_eq!(lines[1], "#B 2028-02-28");
                    assert!(lines[2].starts_with("#L "));
                    let grid: Vec<&str> = lines
                        .iter()
                        .filter(|l| !l.starts_with('#'))
                        .copied()
                        .collect();
                    assert_eq!(grid.len(), 9);
                    assert!(grid.iter().all(|r| r.len() == 9));
                    let p: pseudoku::Puzzle = grid.concat().parse().unwrap();
                    assert!(pseudoku::solve::is_unique(&p));
                }
            }
            "pdf" => {
                // 3 puzzles a day at 4 per page: one page, the solutions in a strip under them.
                let doc = lopdf::Document::load_mem(&f[0].1).unwrap();
                assert_eq!(doc.get_pages().len(), 1);
            }
            "html" => {
                let text = String::from_utf8(f[0].1.clone()).unwrap();
                assert_eq!(
                    text.matches("<table class=\"grid\"").count(),
                    6,
                    "3 puzzles, 3 solutions"
                );
                assert!(text.contains("@page"));
            }
            "json" => {
                let v: serde_json::Value = serde_json::from_slice(&f[0].1).unwrap();
                let p = &v["puzzles"].as_array().unwrap()[2];
                assert_eq!(p["level"], "expert");
                assert_eq!(p["solution"].as_str().unwrap().len(), 81);
            }
            _ => {
                let text = String::from_utf8(f[0].1.clone()).unwrap();
                assert!(text.contains("2028-02-28"));
            }
        }
    }
    // One file for the whole range, six puzzles a page.
    let out = dir.path().join("single");
    let mut args = common.to_vec();
    args.extend(["--format", "pdf", "--single-file", "--per-page", "6"]);
    assert!(export(&db, &out, &args).status.success());
    let f = files(&out);
    assert_eq!(f[0].0, "2028-02-28_to_2028-02-29.pdf");
    assert_eq!(
        lopdf::Document::load_mem(&f[0].1)
            .unwrap()
            .get_pages()
            .len(),
        2
    );
}

#[test]
fn a_short_bank_says_what_is_missing_and_exports_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 10, 2);
    let out = dir.path().join("out");
    let args = [
        "--start",
        "2027-01-01",
        "--days",
        "7",
        "--mix",
        "easy:1,hard:2",
    ];
    let o = export(&db, &out, &args);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    // 14 hard puzzles asked, 10 in the bank: from the sixth day on.
    assert!(
        err.contains("level hard: 4 puzzles missing, from 2027-01-06"),
        "{err}"
    );
    assert!(!err.contains("level easy"), "{err}");
    assert!(!err.contains("variety rule"), "{err}");
    assert!(!out.exists(), "nothing written, not even the folder");
    let conn = Connection::open(&db).unwrap();
    let n: i64 = scalar(&conn, "SELECT COUNT(*) FROM batches");
    assert_eq!(n, 0, "nothing recorded");
    // --allow-partial exports what there is.
    let mut partial = args.to_vec();
    partial.push("--allow-partial");
    let o = export(&db, &out, &partial);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(files(&out).len(), 7);
    let n: i64 = scalar(&conn, "SELECT COUNT(*) FROM batches");
    assert_eq!(n, 7 + 10);
    // With more hard puzzles in the bank, the same export fills the empty slots only.
    on_bank!(&db; "build", "--band", "3/4", "--count", "20")
        .assert()
        .success();
    let o = export(&db, &out, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("(4 new, 17 as exported before)"));
    let n: i64 = scalar(&conn, "SELECT COUNT(*) FROM batches");
    assert_eq!(n, 21);
}

#[test]
fn leftovers_of_an_interrupted_export_are_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 20, 2);
    let out = dir.path().join("out");
    let args = [
        "--start",
        "2027-01-01",
        "--days",
        "3",
        "--mix",
        "medium:2",
        "--format",
        "txt",
    ];
    // A crash between the commit and the renames: recorded files under temporary names.
    let o = pseudoku()
        .env(pseudoku::export::CRASH_AFTER_COMMIT, "1")
        .arg("export")
        .args(args)
        .arg("--db")
        .arg(&db)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    // Aborted (a signal, no exit code), as a crash would end it.
    assert_eq!(o.status.code(), None, "{o:?}");
    let names: Vec<String> = files(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(
        names,
        [
            ".pseudoku-2027-01-01.txt.tmp",
            ".pseudoku-2027-01-02.txt.tmp",
            ".pseudoku-2027-01-03.txt.tmp",
        ]
    );
    // And a temporary file of an export that never committed, and someone else's file.
    std::fs::write(out.join(".pseudoku-2027-01-09.txt.tmp"), "partial").unwrap();
    std::fs::write(out.join(".notes.tmp"), "mine").unwrap();
    // The next export into the folder, of other dates, completes the first and drops the
    // stray file.
    let later = [
        "--start",
        "2027-02-01",
        "--days",
        "1",
        "--mix",
        "medium:2",
        "--format",
        "txt",
    ];
    assert!(export(&db, &out, &later).status.success());
    let names: Vec<String> = files(&out).into_iter().map(|f| f.0).collect();
    assert_eq!(
        names,
        [
            ".notes.tmp",
            "2027-01-01.txt",
            "2027-01-02.txt",
            "2027-01-03.txt",
            "2027-02-01.txt"
        ]
    );
    let settled = files(&out);
    // They are the files the recorded dates give: exporting them again changes nothing.
    assert!(export(&db, &out, &args).status.success());
    assert_eq!(files(&out), settled);
    // A lost file of a recorded date is written again, identical.
    std::fs::remove_file(out.join("2027-01-02.txt")).unwrap();
    assert!(export(&db, &out, &args).status.success());
    assert_eq!(files(&out), settled);
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 5, 2);
    let out = dir.path().join("out");
    for (args, message) in [
        (
            vec!["--start", "2027-02-30", "--days", "1", "--mix", "easy:1"],
            "\"2027-02-30\" is not a day of the calendar: February 2027 has 28 days",
        ),
        (
            vec!["--start", "2028-02-30", "--days", "1", "--mix", "easy:1"],
            "February 2028 has 29 days",
        ),
        (
            vec!["--start", "2027-1-30", "--days", "1", "--mix", "easy:1"],
            "bad date \"2027-1-30\": expected YYYY-MM-DD",
        ),
        (
            vec!["--start", "2027-01-01", "--days", "1", "--mix", "insane:1"],
            "no level \"insane\"",
        ),
        (
            vec!["--start", "2027-01-01", "--days", "1", "--mix", "easy"],
            "expected LEVEL:COUNT",
        ),
        (
            vec!["--start", "2027-01-01", "--days", "1", "--mix", "5/4:1"],
            "bad band",
        ),
    ] {
        let o = export(&db, &out, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(message),
            "{args:?}"
        );
    }
}

/// Every entry of `dir`, sorted (the lock file included): what an export left there.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_recorded_date_never_changes_under_another_mix() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 40, 2);
    let out = dir.path().join("out");
    let day = |mix: &'static str| {
        [
            "--start",
            "2028-01-01",
            "--days",
            "1",
            "--mix",
            mix,
            "--format",
            "csv",
        ]
    };
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let records = |db: &Path| -> i64 {
        scalar(
            &Connection::open(db).unwrap(),
            "SELECT COUNT(*) FROM batches",
        )
    };
    let o = export(&db, &out, &day("easy:1"));
    assert!(o.status.success(), "{}", stderr(&o));
    let first = files(&out);
    // A wider mix for the recorded date is refused, the recorded mix named, nothing written.
    let o = export(&db, &out, &day("easy:1,hard:1"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2028-01-01 was exported with the mix easy:1;"),
        "{}",
        stderr(&o)
    );
    assert_eq!(files(&out), first);
    assert_eq!(records(&db), 1);
    // The first command again: the same bytes.
    let o = export(&db, &out, &day("easy:1"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("(0 new, 1 as exported before)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(files(&out), first);
    // A range over the recorded date with one more level is refused the same way.
    let o = export(
        &db,
        &out,
        &[
            "--start",
            "2027-12-30",
            "--days",
            "30",
            "--mix",
            "easy:1,medium:1",
            "--format",
            "csv",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("2028-01-01 was exported with the mix easy:1;"),
        "{}",
        stderr(&o)
    );
    assert_eq!(records(&db), 1);
    // --replace says what it replaces; the new mix is then the recorded one.
    let o = export(
        &db,
        &out,
        &[&day("easy:1,hard:1")[..], &["--replace"]].concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "replaced 1 date recorded with the mix easy:1 (2028-01-01): 1 puzzle retired"
        ),
        "{}",
        stderr(&o)
    );
    let second = files(&out);
    assert_ne!(second, first);
    let o = export(&db, &out, &day("easy:1,hard:1"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&out), second);
    let o = export(&db, &out, &day("easy:1"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("was exported with the mix easy:1,hard:1;"),
        "{}",
        stderr(&o)
    );
    // The order of the slots is part of the mix.
    let o = export(&db, &out, &day("hard:1,easy:1"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(files(&out), second);
}

#[test]
fn an_export_leaves_nothing_but_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 10, 2);
    let out = dir.path().join("out");
    let o = export(
        &db,
        &out,
        &[
            "--start",
            "2028-03-01",
            "--days",
            "2",
            "--mix",
            "easy:1",
            "--format",
            "csv",
        ],
    );
    assert!(o.status.success());
    // The files and nothing else: no lock file.
    assert_eq!(entries(&out), ["2028-03-01.csv", "2028-03-02.csv"]);
    // Usage errors into a new folder leave no folder behind.
    for (args, code) in [
        (
            &[
                "--start",
                "2028-03-01",
                "--days",
                "1",
                "--mix",
                "easy:1,medium:1",
            ][..],
            2,
        ),
        (
            &["--start", "9999-12-31", "--days", "2", "--mix", "easy:1"][..],
            2,
        ),
        (
            &[
                "--start",
                "2028-03-01",
                "--days",
                "1",
                "--mix",
                "nosuchlevel:1",
            ][..],
            2,
        ),
        // A bank too small: exit 1, nothing written.
        (
            &["--start", "2029-01-01", "--days", "30", "--mix", "expert:1"][..],
            1,
        ),
    ] {
        let fresh = dir.path().join("fresh");
        let o = export(&db, &fresh, args);
        assert_eq!(
            o.status.code(),
            Some(code),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!fresh.exists(), "{args:?} left {:?}", entries(&fresh));
        // Into an existing folder: what was there stays, and nothing is added.
        let o = export(&db, &out, args);
        assert_eq!(o.status.code(), Some(code));
        assert_eq!(
            entries(&out),
            ["2028-03-01.csv", "2028-03-02.csv"],
            "{args:?}"
        );
    }
}

#[test]
fn a_level_the_variety_rule_runs_short_says_so_and_a_check_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    on_bank!(&db; "build", "--level", "expert", "--count", "800")
        .assert()
        .success();
    let conn = Connection::open(&db).unwrap();
    let served = |conn: &Connection| -> i64 {
        scalar(
            conn,
            "SELECT COUNT(*) FROM puzzles WHERE served_at IS NOT NULL",
        )
    };
    let out = dir.path().join("out");
    let range = [
        "--start",
        "2028-01-01",
        "--days",
        "3",
        "--mix",
        "expert:100",
        "--format",
        "csv",
    ];
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    // 300 asked of 800 unserved, but from fewer seeds than 7 days of 100 need.
    let seeds: i64 = scalar(&conn, "SELECT COUNT(DISTINCT seed_id) FROM puzzles");
    assert!(seeds < 300, "{seeds} seeds");
    for check in [true, false] {
        let args = [&range[..], if check { &["--check"][..] } else { &[][..] }].concat();
        let o = export(&db, &out, &args);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("the variety rule runs it short, not the bank"),
            "{err}"
        );
        assert!(
            err.contains(" seeds, and no seed or solution grid may appear twice"),
            "{err}"
        );
        assert!(
            err.contains("within 7 days (100 a day of it needs 700 seeds)"),
            "{err}"
        );
        assert!(err.contains("--variety-days N"), "{err}");
        if check {
            assert!(
                err.contains("check: the mix expert:100 over 3 days cannot be met"),
                "{err}"
            );
        }
        // Nothing recorded, served or written.
        assert_eq!(scalar::<i64>(&conn, "SELECT COUNT(*) FROM batches"), 0);
        assert_eq!(served(&conn), 0);
        assert!(!out.exists());
    }
    // A window of one day lifts the limit: the check says so, and the export then succeeds.
    let one_day = [&range[..], &["--variety-days", "1"][..]].concat();
    let o = export(&db, &out, &[&one_day[..], &["--check"][..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("can be met: 300 of 300 puzzles (300 new"),
        "{}",
        stderr(&o)
    );
    assert_eq!(served(&conn), 0);
    assert!(!out.exists());
    let o = export(&db, &out, &one_day);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(served(&conn), 300);
    // A window out of range is a usage error.
    let o = export(
        &db,
        &out,
        &[&range[..], &["--variety-days", "0"][..]].concat(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--variety-days must be between 1 and 366"),
        "{}",
        stderr(&o)
    );
}
