//! `import`: a user's puzzle file graded into a bank: the same rows a build stores for the same
//! puzzles, duplicates by class dropped (within the file and against the bank), bad lines and
//! puzzles without one solution named and skipped, provenance recorded and shown, the imported
//! puzzles served and exported, and an import killed mid-way resumed to the same rows.

use crate::common::{build, column, scalar, text};
use pseudoku::Transform;
use rusqlite::Connection;
use std::path::Path;

/// The puzzles of a bank, in row order, as lines of 81 characters.
fn puzzles_of(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    column::<String>(&conn, "SELECT hex(puzzle) FROM puzzles ORDER BY id")
        .into_iter()
        .map(|h| h[..81].replace('0', "."))
        .collect()
}

/// Every value a row stores but its id, build and job, by puzzle: what a rating and a level
/// made.
fn graded_rows(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    column(
        &conn,
        "SELECT hex(puzzle) || ' ' || hex(canon_key) || ' ' || clues || ' ' || difficulty
            || ' ' || hsolve || ' ' || hsolve_sd || ' ' || tier || ' ' || technique || ' '
            || level || ' ' || step || ' ' || step_count FROM puzzles ORDER BY hex(puzzle)",
    )
}

/// The rows an import stored, in row order: puzzle, level, difficulty and line.
fn imported_rows(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    column(
        &conn,
        "SELECT hex(puzzle) || ' ' || level || ' ' || difficulty || ' ' || job FROM puzzles
         ORDER BY id",
    )
}

/// `import FILE --db DB ARGS...`.
fn import(db: &Path, file: &Path, args: &[&str]) -> std::process::Output {
    on_bank!(db; "import", file).args(args).output().unwrap()
}

#[test]
fn an_imported_file_is_graded_as_a_build_grades_its_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("built.db");
    build(&built, 120, 2);
    let puzzles = puzzles_of(&built);
    // The built puzzles, then a bad line, a puzzle with two solutions, one without any (r1c9
    // can only be 9, which column 9 holds: no digit repeats, so it reads as a puzzle), and a
    // puzzle of the first one's class seen another way.
    let first: pseudoku::Puzzle = puzzles[0].parse().unwrap();
    let turned = Transform::from_rank(12_345)
        .unwrap()
        .apply(&first)
        .to_string();
    let mut lines: Vec<String> = puzzles.clone();
    lines.push("not a puzzle".into());
    lines.push(".".repeat(81));
    lines.push(format!("12345678.........9{}", ".".repeat(63)));
    lines.push(turned);
    let file = dir.path().join("mine.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();

    let db = dir.path().join("imported.db");
    let out = import(&db, &file, &["--threads", "2", "--batch", "50"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let n = puzzles.len();
    assert!(
        stdout.contains(&format!("imported {n} puzzles of {}", file.display()))
            && stdout.contains("(1 duplicates skipped, 3 lines skipped)"),
        "{stdout}"
    );
    let name = file.display();
    for (line, why) in [
        (n + 1, "wrong length"),
        (n + 2, "the puzzle has more than one solution"),
        (n + 3, "the puzzle has no solution"),
    ] {
        assert!(
            stderr.contains(&format!("{name}:{line}: {why}")),
            "line {line}: {stderr}"
        );
    }
    // The same rows as the build's: the same ratings, hardest steps and levels.
    assert_eq!(graded_rows(&db), graded_rows(&built));
    // Provenance: the import's row names the file (its name alone: the path lies outside the
    // working folder, and a server shows it to its clients), each puzzle its line.
    let conn = Connection::open(&db).unwrap();
    assert_eq!(
        scalar::<String>(&conn, "SELECT source FROM builds"),
        "mine.txt"
    );
    let jobs: Vec<i64> = column(&conn, "SELECT job FROM puzzles ORDER BY id");
    assert_eq!(jobs, (1..=n as i64).collect::<Vec<_>>());

    // Imported again: nothing to do, nothing changed.
    let again = import(&db, &file, &[]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).contains("was imported into")
            && text(&again.stdout).contains("nothing to do"),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(
        scalar::<i64>(&conn, "SELECT count(*) FROM puzzles"),
        n as i64
    );

    // `stats` counts the import apart from the builds: no build, no standard-generator puzzle.
    let stats = on_bank!(&db; "stats", "--json").output().unwrap();
    let stats: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(
        (
            &stats["imports"],
            &stats["imported"],
            &stats["import_duplicates"],
            &stats["import_skipped"]
        ),
        (
            &serde_json::json!(1),
            &serde_json::json!(n),
            &serde_json::json!(1),
            &serde_json::json!(3)
        )
    );
    assert_eq!(
        (&stats["builds"], &stats["standard"], &stats["rejected"]),
        (
            &serde_json::json!(0),
            &serde_json::json!(0),
            &serde_json::json!(0)
        )
    );
    let table = on_bank!(&db; "stats").output().unwrap();
    assert!(
        text(&table.stdout).contains(&format!(
            "imports 1: {n} puzzles stored, 1 duplicates, 3 lines skipped"
        )),
        "{}",
        text(&table.stdout)
    );

    // Served and exported like built puzzles.
    let got = on_bank!(&db; "get", "--level", "medium", "--count", "3", "--json", "--mark-served")
        .output()
        .unwrap();
    assert!(got.status.success(), "{}", text(&got.stderr));
    assert_eq!(text(&got.stdout).lines().count(), 3);
    let exported = dir.path().join("out");
    let ex = crate::common::run_out(
        "export",
        &db,
        &exported,
        &["--start", "2027-01-01", "--days", "2", "--mix", "medium:1"],
    );
    assert!(ex.status.success(), "{}", text(&ex.stderr));
    assert_eq!(
        scalar::<i64>(&conn, "SELECT count(*) FROM batches WHERE replaced = 0"),
        2
    );
    // A server shows where a puzzle came from.
    let id: i64 = scalar(&conn, "SELECT id FROM puzzles WHERE job = 7");
    let (mut child, base) = crate::common::serve(&db, &[]);
    let answer = ureq::get(&format!("{base}/v1/puzzles/{id}"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(answer["source"]["file"], "mine.txt");
    assert_eq!(answer["source"]["line"], 7);
    assert_eq!(answer["puzzle"], puzzles[6]);
}

#[test]
fn puzzles_whose_class_the_bank_holds_are_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 60, 2);
    // Every puzzle of the bank, each seen another way.
    let lines: Vec<String> = puzzles_of(&db)
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let p: pseudoku::Puzzle = p.parse().unwrap();
            Transform::from_rank(1 + 7919 * i as u64)
                .unwrap()
                .apply(&p)
                .to_string()
        })
        .collect();
    let file = dir.path().join("again.txt");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let out = import(&db, &file, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("imported 0 puzzles")
            && text(&out.stdout).contains("(60 duplicates skipped, 0 lines skipped)"),
        "{}",
        text(&out.stdout)
    );
    let conn = Connection::open(&db).unwrap();
    assert_eq!(scalar::<i64>(&conn, "SELECT count(*) FROM puzzles"), 60);
}

#[test]
fn an_import_killed_mid_way_resumes_to_the_rows_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("built.db");
    build(&built, 400, 2);
    let file = dir.path().join("mine.txt");
    std::fs::write(&file, puzzles_of(&built).join("\n") + "\n").unwrap();

    let whole = dir.path().join("whole.db");
    let out = import(&whole, &file, &["--threads", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Killed (SIGKILL) once its first batches are committed, then run again.
    let killed = dir.path().join("killed.db");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
        .args(["import", "--threads", "2", "--batch", "20", "--db"])
        .arg(&killed)
        .arg(&file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let committed = |db: &Path| -> i64 {
        Connection::open(db)
            .and_then(|c| c.query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0)))
            .unwrap_or(0)
    };
    let started = std::time::Instant::now();
    while committed(&killed) < 40 && started.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = committed(&killed);
    assert!(
        (40..400).contains(&before),
        "{before} rows committed before the kill"
    );
    let out = import(&killed, &file, &["--threads", "2", "--batch", "20"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(imported_rows(&killed), imported_rows(&whole));
}

#[test]
fn a_stream_is_imported_as_a_file_is_and_any_line_end_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("built.db");
    build(&built, 40, 2);
    let puzzles = puzzles_of(&built);
    let content = puzzles.join("\n") + "\n";
    let file = dir.path().join("mine.txt");
    std::fs::write(&file, &content).unwrap();
    let stored = |db: &Path| {
        scalar::<i64>(
            &Connection::open(db).unwrap(),
            "SELECT count(*) FROM puzzles",
        )
    };
    // A FIFO: its content stored (a copy beside the bank read), the import named by the
    // content's digest, so the file of the same content is the same import, done.
    let fifo = dir.path().join("pipe");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let writer = {
        let (fifo, content) = (fifo.clone(), content.clone());
        std::thread::spawn(move || std::fs::write(fifo, content).unwrap())
    };
    let piped = dir.path().join("piped.db");
    let out = import(&piped, &fifo, &[]);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(stored(&piped), 40);
    let again = import(&piped, &file, &[]);
    assert!(
        text(&again.stdout).contains("nothing to do"),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(stored(&piped), 40);
    // No copy of the stream is left beside the bank.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".pseudoku-import")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Standard input, `-`.
    let stdin = dir.path().join("stdin.db");
    let out = on_bank!(&stdin; "import", "-")
        .pipe_stdin(&file)
        .unwrap()
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(imported_rows(&stdin), imported_rows(&piped));
    // Lines ended by a lone CR (an old Mac's), and a byte-order mark before CRLF lines: every
    // puzzle read, the first one too, on the lines a plain file gives.
    for (name, text_of) in [
        ("cr.txt", puzzles.join("\r") + "\r"),
        ("bom.txt", format!("\u{feff}{}\r\n", puzzles.join("\r\n"))),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text_of).unwrap();
        let db = dir.path().join(format!("{name}.db"));
        let out = import(&db, &path, &[]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert_eq!(imported_rows(&db), imported_rows(&piped), "{name}");
    }
    // A line of 1 MiB: named and skipped without holding it whole, its text not echoed.
    let long = dir.path().join("long.txt");
    std::fs::write(
        &long,
        format!("{}\n{}\n{}\n", puzzles[0], "7".repeat(1 << 20), puzzles[1]),
    )
    .unwrap();
    let db = dir.path().join("long.db");
    let out = import(&db, &long, &[]);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(
        said.contains("long.txt:2: a line longer than 65536 bytes"),
        "{}",
        &said[..said.len().min(500)]
    );
    assert!(said.len() < 2_000, "{} bytes said", said.len());
    assert_eq!(stored(&db), 2);
}

#[test]
fn ctrl_c_stops_an_import_within_a_puzzles_rating_keeping_what_was_graded() {
    let hardest = match pseudoku::dev::refdata::file("hard/forum_hardest_1905_11plus.tsv") {
        Ok(f) => f,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    // Puzzles of a few seconds' rating each, one batch of them all.
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = std::fs::read_to_string(hardest)
        .unwrap()
        .lines()
        .take(60)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    let file = dir.path().join("hard.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let db = dir.path().join("bank.db");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
        .args(["import", "--threads", "2", "--db"])
        .arg(&db)
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(4));
    let asked = std::time::Instant::now();
    assert!(std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    eprintln!("stopped {:?} after Ctrl-C", asked.elapsed());
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("stopped:"),
        "{}",
        text(&out.stdout)
    );
    // What was committed is the lines before the first one not graded, each accounted for;
    // the batch (a minute or more of rating on two threads) was not waited for.
    let conn = Connection::open(&db).unwrap();
    let next: i64 = scalar(&conn, "SELECT next_job FROM builds");
    let stored: Vec<i64> = column(&conn, "SELECT job FROM puzzles ORDER BY job");
    assert!(stored.iter().all(|&j| j < next), "{stored:?} {next}");
    let accounted: i64 = scalar(&conn, "SELECT stored + duplicates + rejected FROM builds");
    assert_eq!(accounted, next - 1);
    assert!(next < 60, "the whole batch was graded: {next}");
}
