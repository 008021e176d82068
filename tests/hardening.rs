//! The failures adversarial testing found (issue 16), each reproduced: bad input is a bad line
//! and the rest goes on, output that cannot be written never panics, one writer per bank, banks
//! from newer versions and foreign files are refused, and the limits of the options.

mod common;
use common::*;

use rusqlite::Connection;
use std::process::Stdio;

const P: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const Q: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// `p` in the nine-line grid form.
fn grid(p: &str) -> String {
    (0..9)
        .map(|r| {
            let row: Vec<String> = p[9 * r..9 * r + 9].chars().map(String::from).collect();
            row.join(" ") + "\n"
        })
        .collect()
}

#[test]
fn invalid_utf8_is_a_bad_line_and_the_rest_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.txt");
    let mut bytes = format!("{P}\n").into_bytes();
    bytes.extend_from_slice(b"\xff");
    bytes.extend_from_slice(format!("{P}\n{Q}\n").as_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let name = path.display().to_string();
    for (cmd, header) in [("solve", 0), ("rate", 1), ("canon", 0)] {
        let out = pseudoku().arg(cmd).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("{name}:2: not valid UTF-8 text\n"),
            "{cmd}: the line named once, with its reason"
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            text.lines().count(),
            header + 2,
            "{cmd}: lines 1 and 3 handled"
        );
        assert!(text.contains(Q), "{cmd}");
    }
    // calibrate --from reads it the same way.
    let db = dir.path().join("bank.db");
    build(&db, 5, 2);
    pseudoku()
        .args(["calibrate", "--from"])
        .arg(&path)
        .arg("--db")
        .arg(&db)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(format!(
            "{name}:2: not valid UTF-8 text"
        )))
        .stdout(predicates::str::contains("2 puzzles"));
    // seeds import names the line and imports the others.
    pseudoku()
        .args(["seeds", "import"])
        .arg(&path)
        .arg("--db")
        .arg(&db)
        .assert()
        .stderr(predicates::str::contains(format!(
            "{name}:2: not valid UTF-8 text"
        )));
}

#[test]
fn a_missing_file_is_named_once() {
    let out = pseudoku()
        .args(["solve", "/no/such/file"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn output_that_cannot_be_written_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, format!("x\n{P}\n")).unwrap();
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("skipping: no /dev/full here");
        return;
    };
    // Standard error full: the bad line cannot be reported; no panic, exit 1.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
        .arg("solve")
        .arg(&bad)
        .stderr(Stdio::from(full.try_clone().unwrap()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // Standard output full: exit 2 with one line.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
        .arg("rate")
        .arg(&bad)
        .stdout(Stdio::from(full))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.ends_with("pseudoku: writing the output: No space left on device (os error 28)\n"),
        "{err}"
    );
    // A closed pipe is success, however fast the reader goes away.
    for _ in 0..6 {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
            .arg("rate")
            .arg(&bad)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let code = child.wait().unwrap().code();
        assert!(matches!(code, Some(0) | Some(1)), "{code:?}");
    }
}

#[test]
fn a_broken_grid_does_not_lose_the_next_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    let broken = grid(P).replacen('4', "x", 1);
    std::fs::write(&path, format!("{broken}{}{Q}\n", grid(P))).unwrap();
    let out = pseudoku().arg("solve").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!("{}:1: bad grid: row 1: bad character 'x'\n", path.display())
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let solved: Vec<&str> = text.lines().map(|l| &l[..81]).collect();
    assert_eq!(solved, [P, Q]);
}

#[test]
fn a_second_writer_is_refused_naming_the_first_and_serving_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 20, 2);
    let first = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
        .args(["build", "--count", "100000000", "--threads", "1", "--db"])
        .arg(&db)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until it holds the lock and says which build it is.
    let lock = pseudoku::store::lock::path_of(&db);
    let t = std::time::Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|s| s.starts_with("build 2 ")) {
        assert!(t.elapsed().as_secs() < 60, "the first build never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for args in [
        vec!["build", "--count", "5"],
        vec!["calibrate", "--rating", "difficulty"],
    ] {
        pseudoku()
            .args(&args)
            .arg("--db")
            .arg(&db)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "another process is writing to this bank: build 2 (pid",
            ))
            .stderr(predicates::str::contains(format!("pid {}", first.id())));
    }
    // Reading and serving go on.
    pseudoku()
        .args(["get", "--level", "expert", "--mark-served", "--db"])
        .arg(&db)
        .assert()
        .success();
    pseudoku()
        .args(["stats", "--db"])
        .arg(&db)
        .assert()
        .success();
    // A waiting build starts when the first is stopped by Ctrl-C, which exits 130 and says how
    // to resume.
    let waiting = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
        .args(["build", "--count", "5", "--wait", "--threads", "1", "--db"])
        .arg(&db)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::process::Command::new("kill")
        .args(["-INT", &first.id().to_string()])
        .status()
        .unwrap();
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("run the same command to continue"));
    let out = waiting.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The stopped build is marked interrupted, not running.
    let conn = Connection::open(&db).unwrap();
    let status: String = scalar(&conn, "SELECT status FROM builds WHERE id = 2");
    assert_eq!(status, "interrupted");
    pseudoku()
        .args(["stats", "--db"])
        .arg(&db)
        .assert()
        .success()
        .stdout(predicates::str::contains("builds 3 (1 unfinished"));
}

#[test]
fn a_newer_bank_or_a_foreign_file_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 5, 2);
    Connection::open(&db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    for args in [
        vec!["build", "--count", "5"],
        vec!["get", "--level", "easy", "--mark-served"],
        vec!["calibrate", "--rating", "hsolve"],
    ] {
        let out = pseudoku()
            .args(&args)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("schema is version 99, newer than this program's"),
            "{err}"
        );
    }
    let conn = Connection::open(&db).unwrap();
    let n: i64 = scalar(&conn, "SELECT COUNT(*) FROM puzzles_text");
    assert_eq!(n, 5, "nothing written");
    // Version 0 with tables, or somebody else's database.
    conn.pragma_update(None, "user_version", 0).unwrap();
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x)")
        .unwrap();
    for path in [&db, &other] {
        let out = pseudoku()
            .args(["stats", "--db"])
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("not a pseudoku bank"), "{err}");
    }
}

#[test]
fn limits_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    pseudoku()
        .args(["build", "--threads", "100000", "--db"])
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("100000 threads is too many"));
    pseudoku()
        .args(["rate", "--threads", "100000"])
        .write_stdin(format!("{P}\n"))
        .assert()
        .code(2);
    pseudoku()
        .args([
            "build",
            "--per-band",
            "18446744073709551615",
            "--bands",
            "4",
            "--db",
        ])
        .arg(&db)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("too many puzzles"));
    build(&db, 5, 2);
    let long = "a".repeat(100_000);
    let out = pseudoku()
        .args(["calibrate", "--levels", &format!("easy,{long}"), "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("1 to 40 letters"),
        "{}",
        &err[err.len().saturating_sub(300)..]
    );
}

#[test]
fn batch_output_keeps_the_input_order_whatever_the_threads() {
    // More than one chunk, with bad lines among them.
    let mut text = String::new();
    for i in 0..9_000 {
        text.push_str(if i % 3 == 0 { P } else { Q });
        text.push('\n');
        if i % 997 == 0 {
            text.push_str("bad line\n");
        }
    }
    let outputs: Vec<(Vec<u8>, Vec<u8>)> = ["1", "2", "3"]
        .iter()
        .map(|t| {
            let out = pseudoku()
                .args(["canon", "--threads", t])
                .write_stdin(text.clone())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1));
            (out.stdout, out.stderr)
        })
        .collect();
    assert_eq!(
        String::from_utf8_lossy(&outputs[0].0).lines().count(),
        9_000
    );
    assert_eq!(String::from_utf8_lossy(&outputs[0].1).lines().count(), 10);
    assert!(outputs.iter().all(|o| *o == outputs[0]));
}
