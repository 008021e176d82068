//! The command line's rough edges, each as a user meets it: completions and the manual page,
//! `get --id`, `unserve`, plurals, short floats in `stats --json`, a warning for a small
//! reference, "did you mean" for a mistyped level, and a note when a batch command waits for
//! a terminal.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> std::process::Output {
    pseudoku().args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn bank(dir: &Path) -> PathBuf {
    let db = dir.join("bank.db");
    build_levels(&db, 20, 2);
    db
}

#[test]
fn completions_for_every_shell_and_a_manual_page() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = run(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let script = text(&o.stdout);
        for word in ["pseudoku", "export", "unserve", "per-level", "paper"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["man"]);
    assert!(o.status.success());
    let man = text(&o.stdout);
    assert!(
        man.starts_with(".ie") || man.contains(".TH pseudoku"),
        "{man}"
    );
    assert!(man.contains("export") && man.contains("completions"));
    // Every exit status, 130 too.
    for code in [
        "0 on success",
        "1 if some input lines",
        "2 on a usage",
        "130 when",
    ] {
        assert!(man.contains(code), "{code}");
    }
    // Every page the main page lists is written with --dir.
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let o = pseudoku()
        .arg("man")
        .arg("--dir")
        .arg(&pages)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listed: Vec<String> = man
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|name| name.replace("\\-", "-") + ".1")
        .collect();
    assert!(listed.len() >= 15, "{listed:?}");
    for page in listed
        .iter()
        .chain(["pseudoku.1".to_string(), "pseudoku-seeds-mine.1".into()].iter())
    {
        let roff = std::fs::read_to_string(pages.join(page)).unwrap_or_else(|_| panic!("{page}"));
        assert!(roff.contains(".TH"), "{page}");
    }
}

#[test]
fn get_by_id_and_unserve() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let db_s = db.to_str().unwrap();
    // get --id: the row, served or not; marking it makes it served.
    let o = run(&["get", "--db", db_s, "--id", "5", "--mark-served"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let line = text(&o.stdout);
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 6);
    assert_eq!(fields[5], "5");
    assert_eq!(fields[0].len(), 81);
    let o = run(&["get", "--db", db_s, "--id", "999999"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("no puzzle with id 999999"));
    let o = run(&["get", "--db", db_s, "--id", "5", "--count", "2"]);
    assert_eq!(o.status.code(), Some(2), "--id takes no --count");
    // unserve puts it back, once.
    let o = run(&["unserve", "--db", db_s, "--id", "5"]);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout), "5\tunserved\n");
    let o = run(&["unserve", "--db", db_s, "--id", "5", "--id", "999999"]);
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
    let o = run(&["unserve", "--db", db_s, "--id", &id]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("is in the export of 2027-01-04, slot 1"));
    export(true);
    let o = run(&["unserve", "--db", db_s, "--id", &id]);
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
fn short_floats_small_references_and_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let db = bank(dir.path());
    let db_s = db.to_str().unwrap();
    // stats --json: no float with more than 6 decimals.
    let o = run(&["stats", "--db", db_s, "--json"]);
    assert!(o.status.success());
    let json = text(&o.stdout);
    let long = json
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|n| n.split_once('.'))
        .filter(|(_, decimals)| decimals.len() > 6)
        .count();
    assert_eq!(long, 0, "{json}");
    // A mistyped level.
    let o = run(&["get", "--db", db_s, "--level", "hrad"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("did you mean \"hard\"?"),
        "{}",
        text(&o.stderr)
    );
    let o = pseudoku()
        .args([
            "export",
            "--db",
            db_s,
            "--start",
            "2027-01-01",
            "--days",
            "1",
        ])
        .args(["--mix", "esay:1", "--out"])
        .arg(dir.path().join("x"))
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
    let o = pseudoku()
        .args(["calibrate", "--db", db_s, "--from"])
        .arg(&corpus)
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
    let o = run(&["calibrate", "--db", db_s, "--levels", "one,two,three,four"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&["calibrate", "--db", db_s, "--default"]);
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
         WHEN 2 THEN 'hard' ELSE 'expert' END FROM puzzles_text",
    );
    std::fs::write(&labelled, rows.join("\n")).unwrap();
    let o = pseudoku()
        .args(["calibrate", "--db", db_s, "--labelled", "--from"])
        .arg(&labelled)
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

#[test]
fn mining_a_full_library_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("library.tsv");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/library.tsv"),
        &lib,
    )
    .unwrap();
    let before = std::fs::read(&lib).unwrap();
    let o = pseudoku()
        .args(["seeds", "mine", "--count", "300", "--out"])
        .arg(&lib)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("nothing mined (write a new library with --out NEW.tsv"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read(&lib).unwrap(), before);
}

#[test]
fn help_texts_agree_with_the_output() {
    let o = run(&["explain", "--help"]);
    let help = text(&o.stdout);
    assert!(
        help.contains("[default: hsolve]") && !help.contains("(the default)"),
        "{help}"
    );
    let o = run(&["rate", "--help"]);
    let help = text(&o.stdout).replace(['\n', ' '], "");
    let columns = text(&run(&["rate", "samples/puzzles.txt"]).stdout)
        .lines()
        .next()
        .unwrap()
        .replace('\t', "");
    assert!(help.contains(&columns), "{help}\n{columns}");
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
