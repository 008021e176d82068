//! The batch commands over puzzle files (`solve`, `rate`, `canon`, `hint`): a bad line is reported
//! and the rest goes on, a missing file is named once, output that cannot be written never
//! panics, a broken grid does not lose the next puzzles, the output keeps the input order, and
//! a command waiting on a terminal says so.

use crate::common::*;
use std::process::Stdio;

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
    on_bank!(&db; "calibrate", "--force", "--from", &path)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(format!(
            "{name}:2: not valid UTF-8 text"
        )))
        .stdout(predicates::str::contains("2 puzzles"));
    // seeds import names the line and imports the others.
    on_bank!(&db; "seeds", "import", &path)
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
        crate::common::skipping("a write to a full disk", "no /dev/full here");
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

#[test]
fn a_batch_command_on_a_terminal_says_it_reads_standard_input() {
    // `script` runs the command on a pseudo-terminal; its own input at end, the command sees
    // end of input after the note.
    let bin = env!("CARGO_BIN_EXE_pseudoku");
    let Ok(o) = std::process::Command::new("script")
        .args(["-qec", &format!("{bin} rate"), "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
    else {
        eprintln!("skipped: no `script` to make a terminal");
        return;
    };
    let all = text(&o.stdout) + &text(&o.stderr);
    assert!(
        all.contains("reading puzzles from standard input") && all.contains("Ctrl-D"),
        "{all}"
    );
    // Not on a terminal: no note.
    let o = pseudoku().arg("rate").write_stdin("").output().unwrap();
    assert!(!text(&o.stderr).contains("standard input"));
}

#[test]
fn hint_reads_a_get_line_and_ignores_its_other_columns() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 5, 2);
    let got = on_bank!(&db; "get", "--level", "easy").output().unwrap();
    assert!(got.status.success());
    let line = text(&got.stdout);
    assert!(line.contains("\teasy\t"), "{line}");
    let o = pseudoku()
        .args(["hint", "-"])
        .write_stdin(line.clone())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout).lines().count(),
        2,
        "the header and one hint"
    );
    // A column that is a board (81 digits and dots) is the player's entries: a digit its row
    // already holds, entered in the row's first empty cell, is the mistake hinted at first.
    let puzzle = line.split('\t').next().unwrap().as_bytes();
    let empty = puzzle.iter().position(|&b| b == b'.').unwrap();
    let row = &puzzle[empty / 9 * 9..empty / 9 * 9 + 9];
    let twice = *row.iter().find(|b| b.is_ascii_digit()).unwrap();
    let mut entries = vec![b'.'; 81];
    entries[empty] = twice;
    let with_entries = format!(
        "{}\t{}\n",
        String::from_utf8_lossy(puzzle),
        String::from_utf8_lossy(&entries)
    );
    let o = pseudoku()
        .args(["hint", "--json", "-"])
        .write_stdin(with_entries)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let hint: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert!(!hint["errors"].as_array().unwrap().is_empty(), "{hint}");
}
