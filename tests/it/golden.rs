//! The ratings held byte for byte: `rate --json` on a fixed fixture (main-job puzzles of every
//! level, and when `../shared/data/` is present top1465, 17-clue, Sudoku Exchange and Berthier
//! samples), a small default build's rows, and `explain` (the walkthrough and one run of each
//! model) on a spread of the fixture. Each is compared with the digests in `tests/golden/`:
//! one short blake3 per output line, so a change names the puzzle it changed. A change of the
//! ratings that is meant is written there with `PSEUDOKU_BLESS=1` and reviewed as a diff.

use crate::common::{pseudoku, text};
use pseudoku::dev::refdata;
use pseudoku::explain;
use pseudoku::input::read_puzzle_file;
use pseudoku::levels::RatingKind;
use pseudoku::Puzzle;
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// The reference lists of the fixture and how many puzzles each gives (every `len / n`-th).
const LISTS: &[(&str, &str, usize)] = &[
    ("top1465", "hard/top1465.tsv", 1465),
    ("17-clue", "17-clue/puzzles.tsv", 200),
    ("se-sample", "se-rated/sudoku_exchange_sample500.tsv", 300),
    ("berthier", "berthier-cb000/puzzles.tsv", 300),
];

/// The small default build whose rows and puzzles the fixture holds.
const BUILD: &[&str] = &[
    "build",
    "--per-level",
    "150",
    "--seed",
    "7",
    "--threads",
    "2",
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn blessing() -> bool {
    std::env::var_os("PSEUDOKU_BLESS").is_some_and(|v| v == "1")
}

/// The first 16 hex digits of blake3 of `line`.
fn short(line: &str) -> String {
    blake3::hash(line.as_bytes()).to_hex()[..16].to_string()
}

/// Compares `lines` (labelled by `names`) with the golden file `name`, or writes it when
/// blessing. A difference names the first changed line and counts the others.
pub(crate) fn check(name: &str, names: &[String], lines: &[String]) {
    assert_eq!(names.len(), lines.len(), "{name}");
    let got: Vec<String> = names
        .iter()
        .zip(lines)
        .map(|(n, l)| format!("{} {n}", short(l)))
        .collect();
    let path = golden_dir().join(name);
    if blessing() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got.join("\n") + "\n").unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (PSEUDOKU_BLESS=1 writes it)", path.display()));
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(want.len(), got.len(), "{name}: line count");
    let changed: Vec<usize> = (0..got.len()).filter(|&i| want[i] != got[i]).collect();
    if let Some(&first) = changed.first() {
        panic!(
            "{name}: {} of {} lines changed; the first, line {}: {}\nnow: {}",
            changed.len(),
            got.len(),
            first + 1,
            names[first],
            lines[first]
        );
    }
}

/// `rate --json --threads 2` of `puzzles` (written to a file in `dir`): one line each.
fn rate_json(dir: &Path, puzzles: &[Puzzle]) -> Vec<String> {
    let input = dir.join("fixture.txt");
    let text_in: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&input, text_in).unwrap();
    let out = pseudoku()
        .args(["rate", "--json", "--threads", "2"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), puzzles.len());
    lines
}

/// Every `len / n`-th puzzle, `n` in all.
fn spread(puzzles: &[Puzzle], n: usize) -> Vec<Puzzle> {
    let step = (puzzles.len() / n).max(1);
    puzzles.iter().copied().step_by(step).take(n).collect()
}

/// The fixture's parts: name and puzzles (the build's, then the reference lists' when present).
fn fixture(bank: &Path) -> Vec<(String, Vec<Puzzle>)> {
    let conn = Connection::open(bank).unwrap();
    let mut st = conn
        .prepare("SELECT puzzle FROM puzzles_text ORDER BY id")
        .unwrap();
    let main: Vec<Puzzle> = st
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|s| s.unwrap().parse().unwrap())
        .collect();
    let mut parts = vec![("main-job".to_string(), main)];
    match refdata::dir() {
        Err(why) => crate::common::skipping("the tests on the shared reference data", why),
        Ok(_) => {
            for &(name, rel, n) in LISTS {
                let all = read_puzzle_file(&refdata::file(rel).unwrap()).unwrap();
                parts.push((name.to_string(), spread(&all, n)));
            }
        }
    }
    parts
}

/// The build's rows as text, one line a row: the puzzle, its level and ratings, seed,
/// transform and job.
fn rows(bank: &Path) -> (Vec<String>, Vec<String>) {
    let conn = Connection::open(bank).unwrap();
    let mut st = conn
        .prepare(
            "SELECT id, hex(puzzle), level, difficulty, hsolve, hsolve_sd, tier, technique, \
             step, step_count, clues, seed_id, transform, job FROM puzzles ORDER BY id",
        )
        .unwrap();
    let mut names = Vec::new();
    let mut lines = Vec::new();
    let rows = st
        .query_map([], |r| {
            let mut line = String::new();
            for i in 1..14 {
                let v: rusqlite::types::Value = r.get(i)?;
                line.push_str(&format!("{v:?}\t"));
            }
            Ok((r.get::<_, i64>(0)?, line))
        })
        .unwrap();
    for row in rows {
        let (id, line) = row.unwrap();
        names.push(format!("row {id}"));
        lines.push(line);
    }
    (names, lines)
}

#[test]
fn ratings_rows_and_explanations_are_held_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let bank = dir.path().join("bank.db");
    let out = pseudoku()
        .args(BUILD)
        .arg("--db")
        .arg(&bank)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (names, lines) = rows(&bank);
    assert_eq!(lines.len(), 600);
    check("build-rows.txt", &names, &lines);

    let parts = fixture(&bank);
    let total: usize = parts.iter().map(|(_, p)| p.len()).sum();
    eprintln!("the fixture: {total} puzzles in {} parts", parts.len());
    for (name, puzzles) in &parts {
        let lines = rate_json(dir.path(), puzzles);
        let names: Vec<String> = (1..=puzzles.len()).map(|i| format!("puzzle {i}")).collect();
        check(&format!("rate-{name}.txt"), &names, &lines);
    }

    // The words a player reads and one run of each model, on a spread of every part.
    for (name, puzzles) in &parts {
        let mut names = Vec::new();
        let mut lines = Vec::new();
        let step = (puzzles.len() / 24).max(1);
        for (i, p) in puzzles.iter().enumerate().step_by(step).take(24) {
            let steps = explain::steps_json(p, false).unwrap();
            let difficulty = explain::model(p, RatingKind::Difficulty).unwrap();
            let hsolve = explain::model(p, RatingKind::Hsolve).unwrap();
            for (what, out) in [
                ("steps", steps),
                ("difficulty", difficulty),
                ("hsolve", hsolve),
            ] {
                names.push(format!("{what} of puzzle {}", i + 1));
                lines.push(out);
            }
        }
        check(&format!("explain-{name}.txt"), &names, &lines);
    }
}
