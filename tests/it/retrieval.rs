//! Handing out puzzles by id and putting them back: `get --id` and `unserve`.

use crate::common::*;
use std::path::{Path, PathBuf};

fn bank(dir: &Path) -> PathBuf {
    let db = dir.join("bank.db");
    build_levels(&db, 20, 2);
    db
}

#[test]
fn get_by_id_and_unserve() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let db_s = db.to_str().unwrap();
    // get --id: the row, served or not; marking it makes it served.
    let o = run_cli(&["get", "--db", db_s, "--id", "5", "--mark-served"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let line = text(&o.stdout);
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 6);
    assert_eq!(fields[5], "5");
    assert_eq!(fields[0].len(), 81);
    let o = run_cli(&["get", "--db", db_s, "--id", "999999"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("no puzzle with id 999999"));
    let o = run_cli(&["get", "--db", db_s, "--id", "5", "--count", "2"]);
    assert_eq!(o.status.code(), Some(2), "--id takes no --count");
    // unserve puts it back, once.
    let o = run_cli(&["unserve", "--db", db_s, "--id", "5"]);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout), "5\tunserved\n");
    let o = run_cli(&["unserve", "--db", db_s, "--id", "5", "--id", "999999"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), "5\tnot served\n");
    assert!(text(&o.stderr).contains("no puzzle with id 999999"));
    // An exported puzzle stays served until its date is replaced; then it comes back.
    let out = dir.path().join("out");
    let export = |replace: bool| {
        let mut c = pseudoku();
        c.args([
            "export",
            "--db",
            db_s,
            "--start",
            "2027-01-04",
            "--days",
            "1",
        ])
        .args(["--mix", "easy:1", "--out"])
        .arg(&out);
        if replace {
            c.arg("--replace");
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    assert!(export(false).contains("exported 1 puzzle (1 new, 0 as exported before) in 1 file"));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let exported: i64 = scalar(&conn, "SELECT puzzle_id FROM batches");
    let id = exported.to_string();
    let o = run_cli(&["unserve", "--db", db_s, "--id", &id]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("is in the export of 2027-01-04, slot 1"));
    export(true);
    let o = run_cli(&["unserve", "--db", db_s, "--id", &id]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), format!("{id}\tunserved\n"));
    let left: i64 = scalar(
        &conn,
        &format!("SELECT COUNT(*) FROM batches WHERE puzzle_id = {id}"),
    );
    assert_eq!(left, 0);
    let served: Option<String> = scalar(
        &conn,
        &format!("SELECT served_at FROM puzzles_text WHERE id = {id}"),
    );
    assert_eq!(served, None);
}

#[test]
fn a_row_that_cannot_be_read_is_an_error_never_an_empty_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let db_s = db.to_str().unwrap();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        // Cells that do not unpack (a byte above 9 in its high half) and a puzzle that repeats
        // a digit in its first row.
        conn.execute("UPDATE puzzles SET puzzle = x'FF' WHERE id = 3", [])
            .unwrap();
        let mut cells: Vec<u8> = conn
            .query_row("SELECT puzzle FROM puzzles WHERE id = 4", [], |r| r.get(0))
            .unwrap();
        cells[0] = 0x11;
        conn.execute("UPDATE puzzles SET puzzle = ?1 WHERE id = 4", [cells])
            .unwrap();
        // Text where the cells should be.
        conn.execute("UPDATE puzzles SET puzzle = 'abc' WHERE id = 5", [])
            .unwrap();
    }
    for (id, what) in [
        ("3", "stored cells do not unpack"),
        ("4", "puzzle is not a puzzle"),
        ("5", "stored cells do not unpack"),
    ] {
        let o = run_cli(&["get", "--db", db_s, "--id", id, "--json"]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
        assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
        let err = text(&o.stderr);
        assert!(
            err.contains(&format!("row {id} of the bank is damaged: {what}")),
            "{err}"
        );
    }
    // `verify` names them both; the other rows are fine.
    let o = run_cli(&["verify", "--db", db_s, "--sample", "0"]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(out.contains("row 3: stored cells do not unpack"), "{out}");
    assert!(out.contains("row 4: puzzle is not a puzzle"), "{out}");
    assert!(out.contains("row 5: stored cells do not unpack"), "{out}");
    assert!(out.contains(": 3 mismatches"), "{out}");
    // The server answers 503 with the reason, never a puzzle of "".
    let (mut child, base) = serve(&db, &[]);
    let r = ureq::get(&format!("{base}/v1/puzzles/3")).call();
    let _ = child.kill();
    let _ = child.wait();
    match r {
        Err(ureq::Error::Status(503, resp)) => {
            let body: serde_json::Value =
                serde_json::from_str(&resp.into_string().unwrap()).unwrap();
            let reason = body["error"].as_str().unwrap();
            assert!(reason.contains("row 3 of the bank is damaged"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

/// How many puzzles of the bank at `db` are marked served.
fn served(db: &Path) -> i64 {
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM puzzles WHERE served_at IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn get_marks_served_only_what_it_has_written() {
    let dir = tempfile::tempdir().unwrap();
    // Levels larger than a pipe holds of `get`'s lines (64 KiB, about 600 lines).
    let db = dir.path().join("bank.db");
    build_levels(&db, 1200, 2);
    let bin = env!("CARGO_BIN_EXE_pseudoku");
    // Into a full disk: nothing written, nothing marked, exit 2.
    let full = std::fs::File::create("/dev/full");
    if let Ok(full) = full {
        let out = std::process::Command::new(bin)
            .args([
                "get",
                "--level",
                "easy",
                "--count",
                "5",
                "--mark-served",
                "--db",
            ])
            .arg(&db)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert_eq!(served(&db), 0);
    }
    // Into a pipe whose reader is slow, then reads one line and leaves: that line is marked,
    // none of those that sat in the pipe unread.
    let script = format!(
        "{bin} get --level medium --count 1200 --mark-served --db '{}' | (sleep 0.5; head -1)",
        db.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).lines().count(), 1);
    let marked = served(&db);
    assert_eq!(marked, 1, "{marked} of 1200 marked, 1 read");
    // Into a reader that reads them all: all marked.
    let script = format!(
        "{bin} get --level expert --count 1200 --mark-served --db '{}' | wc -l",
        db.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout).trim(), "1200");
    assert_eq!(served(&db), 1201);
    let marked = served(&db);
    // Without --mark-served nothing is marked, whatever the output.
    let script = format!(
        "{bin} get --level hard --count 1200 --db '{}' | head -1",
        db.display()
    );
    std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(served(&db), marked);
}

/// The hardest step of each stored puzzle, by id, as `(code, level)`.
fn steps(db: &Path) -> std::collections::HashMap<i64, (u8, u32)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare("SELECT id, step, level FROM puzzles").unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows
}

#[test]
fn draws_by_technique_give_only_puzzles_whose_hardest_step_it_is() {
    use pseudoku::rate::Strategy;
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let steps = steps(&db);
    // Every puzzle has a hardest step; draw the commonest one beyond the singles.
    let mut count = std::collections::HashMap::<u8, usize>::new();
    for (code, _) in steps.values() {
        *count.entry(*code).or_default() += 1;
    }
    let (&code, &n) = count
        .iter()
        .filter(|(&c, _)| c > Strategy::HiddenSingle.code())
        .max_by_key(|(&c, &n)| (n, c))
        .expect("some puzzle needs more than singles");
    let technique = Strategy::from_code(code).unwrap();
    let name = technique.name();
    let out = run_cli(&[
        "get",
        "--technique",
        &name.to_uppercase().replace(' ', "_"),
        "--count",
        "1000",
        "--json",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "fewer than asked");
    assert!(text(&out.stderr).contains(&format!("whose hardest step is {name}")));
    let got: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), n);
    let ids: std::collections::HashSet<i64> =
        got.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), n, "no puzzle twice");
    for r in &got {
        assert_eq!(r["hardest_step"], name);
        assert!(r["hardest_steps"].as_u64().unwrap() >= 1);
        assert_eq!(steps[&r["id"].as_i64().unwrap()].0, code);
    }
    // With a level: exactly that level's puzzles of that step.
    let (level, _) = steps
        .values()
        .find(|(c, _)| *c == code)
        .map(|(_, l)| (*l, 0))
        .unwrap();
    let names = ["easy", "medium", "hard", "expert"];
    let out = run_cli(&[
        "get",
        "--level",
        names[level as usize],
        "--technique",
        name,
        "--count",
        "1000",
        "--db",
        db.to_str().unwrap(),
    ]);
    let want = steps
        .values()
        .filter(|&&(c, l)| c == code && l == level)
        .count();
    assert_eq!(text(&out.stdout).lines().count(), want);
    // Names that are not techniques, and a technique with an id, are refused.
    let out = run_cli(&["get", "--technique", "x-wung", "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no technique is called \"x-wung\""));
    assert!(text(&out.stderr).contains("x-wing"));
    let out = run_cli(&[
        "get",
        "--technique",
        "x-wing",
        "--id",
        "1",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    // `stats` counts each level's puzzles by hardest step.
    let out = run_cli(&["stats", "--json", "--db", db.to_str().unwrap()]);
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = stats["steps"].as_array().unwrap();
    for (i, l) in stats["levels"].as_array().unwrap().iter().enumerate() {
        let sum: u64 = rows
            .iter()
            .map(|r| r["per_level"][i].as_u64().unwrap())
            .sum();
        assert_eq!(sum, l["puzzles"].as_u64().unwrap());
    }
    let row = rows.iter().find(|r| r["step"] == name).unwrap();
    let per: u64 = row["per_level"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(per as usize, n);
}

#[test]
fn rows_stored_before_hardest_steps_get_theirs_on_the_next_build() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let before = steps(&db);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE puzzles SET step = NULL, step_count = NULL WHERE id % 2 = 0",
        [],
    )
    .unwrap();
    build(&db, 1, 1);
    let after = steps(&db);
    for (id, s) in &before {
        assert_eq!(after[id], *s, "row {id}");
    }
    let missing: i64 = conn
        .query_row("SELECT COUNT(*) FROM puzzles WHERE step IS NULL", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(missing, 0);
}

#[test]
fn a_rare_technique_is_drawn_uniformly() {
    use pseudoku::dev::stats::{chi_square, chi_square_p};
    use pseudoku::rate::Strategy;
    use pseudoku::store::retrieval::{take, Selection, Within};
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let bank = pseudoku::store::open(&db).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    // 2,560 rows (copies under other keys), 8 of them the only hidden quads: probing by
    // random ids often misses them, and the draw goes on by rank.
    for _ in 0..5 {
        conn.execute(
            "INSERT INTO puzzles (puzzle, canon_key, clues, difficulty, hsolve, hsolve_sd, tier,
                technique, level, seed_id, transform, build_id, job, step, step_count)
             SELECT puzzle, randomblob(32), clues, difficulty, hsolve, hsolve_sd, tier,
                technique, level, seed_id, transform, build_id, job, step, step_count
             FROM puzzles",
            [],
        )
        .unwrap();
    }
    let quad = Strategy::HiddenQuad.code();
    conn.execute("UPDATE puzzles SET step = ?1 WHERE step = ?2", [0, quad])
        .unwrap();
    conn.execute(
        "UPDATE puzzles SET step = ?1 WHERE id IN (SELECT id FROM puzzles ORDER BY id LIMIT 8 OFFSET 1000)",
        [quad],
    )
    .unwrap();
    let rare: Vec<i64> = column(
        &conn,
        &format!("SELECT id FROM puzzles WHERE step = {quad} ORDER BY id"),
    );
    assert_eq!(rare.len(), 8);
    let levels = pseudoku::levels::Levels::read(&bank).unwrap();
    let selection = Selection {
        within: Within::All,
        step: Some(Strategy::HiddenQuad),
        named: None,
    };
    let mut rng = pseudoku::Rng::new(3);
    let mut counts = vec![0u64; 8];
    for _ in 0..4000 {
        let got = take(&bank, levels.measure(), selection, 1, false, &mut rng).unwrap();
        let at = rare
            .iter()
            .position(|&id| id == got[0].id)
            .expect("a hidden quad");
        counts[at] += 1;
    }
    let (stat, df) = chi_square(&counts, &[1.0 / 8.0; 8]);
    let p = chi_square_p(stat, df);
    assert!(
        p > 0.01,
        "chi-square {stat:.1} on {df} df, p = {p:.4}: {counts:?}"
    );
    // Without replacement, the eight and nothing more.
    let all = take(&bank, levels.measure(), selection, 100, false, &mut rng).unwrap();
    let mut ids: Vec<i64> = all.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, rare);
}

/// The bank's counts by hardest step and level, and what its rows hold, as
/// `(step, level or -1, puzzles, unserved)` with zero counts left out.
fn step_counts(conn: &rusqlite::Connection) -> (Vec<[i64; 4]>, Vec<[i64; 4]>) {
    let read = |sql: &str| -> Vec<[i64; 4]> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?]))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    (
        read(
            "SELECT step, level, puzzles, unserved FROM step_counts WHERE puzzles > 0 \
             ORDER BY step, level",
        ),
        read(
            "SELECT step, IFNULL(level, -1), COUNT(*), SUM(served_at IS NULL) FROM puzzles \
             WHERE step IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2",
        ),
    )
}

#[test]
fn counts_by_hardest_step_follow_every_change_of_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let db_s = db.to_str().unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let same = |when: &str| {
        let (counted, held) = step_counts(&conn);
        assert!(!held.is_empty(), "{when}: the bank has hardest steps");
        assert_eq!(counted, held, "{when}");
    };
    same("after the build");
    let o = run_cli(&[
        "get",
        "--db",
        db_s,
        "--level",
        "medium",
        "--count",
        "7",
        "--mark-served",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    same("after serving 7");
    let served: Vec<i64> = column(&conn, "SELECT id FROM puzzles WHERE served_at IS NOT NULL");
    assert_eq!(served.len(), 7);
    let o = run_cli(&["unserve", "--db", db_s, "--id", &served[0].to_string()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    same("after putting one back");
    conn.execute_batch(
        "UPDATE puzzles SET level = (level + 1) % 4 WHERE id % 3 = 0;
         UPDATE puzzles SET level = NULL WHERE id % 7 = 0;
         UPDATE puzzles SET step = NULL, step_count = NULL WHERE id % 5 = 0;
         DELETE FROM puzzles WHERE id % 11 = 0;",
    )
    .unwrap();
    same("after levels, steps and rows changed");
    build(&db, 10, 2);
    same("after a second build re-rated and added rows");
    // Calibrating measures every level again (the scrambled ones too).
    let o = run_cli(&["calibrate", "--db", db_s, "--default"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    same("after calibrating");
    let verify = |db: &str| run_cli(&["verify", "--sample", "0", "--db", db]);
    let o = verify(db_s);
    assert!(o.status.success(), "{}", text(&o.stdout));
    // A count that no longer matches its rows is a problem of the bank.
    conn.execute(
        "UPDATE step_counts SET unserved = unserved + 1 \
         WHERE (step, level) = (SELECT step, level FROM step_counts WHERE puzzles > 0 LIMIT 1)",
        [],
    )
    .unwrap();
    let o = verify(db_s);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    assert!(
        text(&o.stdout).contains("bank: hardest step"),
        "{}",
        text(&o.stdout)
    );
}
