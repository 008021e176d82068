//! Are hints sound, and fast? Random positions (a random share of the solution entered, one
//! position in five with a wrong entry, one in three with pencil marks, some of those missing
//! a solution digit) on the puzzles of `hard/top1465.tsv`, the Sudoku Explainer sample and a
//! bank built for the purpose (`--per-level 250`, seed 2026, in a temporary folder). Every
//! hint is checked (`pseudoku::hint::boards::check`: mistakes first, placements on the solution,
//! no elimination of the solution's digit, progress) and timed, single thread.
//!
//! ```text
//! cargo run --release --example hint_soundness [POSITIONS]   # default 100000
//! ```
//!
//! With `HINT_DUMP=FILE` every hint is also written to FILE in full (`{:?}`, one line each,
//! after its board), with for a board with notes the hint of the same board without them
//! (not timed): two runs compare byte for byte with `cmp`.

use pseudoku::bank::{self, BuildOptions};
use pseudoku::hint::hint;
use pseudoku::{dev::refdata, hint::boards};
use pseudoku::{Puzzle, Rng};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn bank_puzzles() -> Vec<Puzzle> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("bank.db");
    let opts = BuildOptions::per_level(db.clone(), 250, 2026);
    bank::build(
        &opts,
        &pseudoku::seeds::Library::shipped(),
        &AtomicBool::new(false),
        |_| {},
    )
    .expect("a bank");
    let conn = rusqlite::Connection::open(&db).expect("the bank");
    let mut stmt = conn
        .prepare("SELECT puzzle FROM puzzles_text")
        .expect("a query");
    let rows = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .expect("rows")
        .map(|r| r.expect("a row").parse().expect("a puzzle"))
        .collect();
    rows
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(100_000, |a| a.parse().expect("a number of positions"));
    let mut sources: Vec<(&str, Vec<Puzzle>)> = Vec::new();
    for (name, rel) in [
        ("top1465", "hard/top1465.tsv"),
        ("SE sample", "se-rated/sudoku_exchange_sample500.tsv"),
    ] {
        match refdata::puzzles(rel) {
            Ok(list) => sources.push((name, list)),
            Err(why) => eprintln!("{name} skipped: {why}"),
        }
    }
    sources.push(("bank", bank_puzzles()));
    let mut dump = std::env::var_os("HINT_DUMP")
        .map(|path| std::io::BufWriter::new(std::fs::File::create(path).expect("the dump file")));
    let mut rng = Rng::new(2026);
    let mut times: Vec<f64> = Vec::with_capacity(n);
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    let mut sample: BTreeMap<&str, String> = BTreeMap::new();
    let mut failures = 0u64;
    let mut slowest = (0.0, String::new());
    for i in 0..n {
        let (_, list) = &sources[i % sources.len()];
        let p = &list[rng.index(list.len())];
        let Some(pos) = boards::position(p, &mut rng) else {
            continue;
        };
        let t = Instant::now();
        let h = hint(&pos.board).expect("a hint");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        times.push(ms);
        if ms > slowest.0 {
            slowest = (ms, p.to_line());
        }
        if let Some(out) = dump.as_mut() {
            writeln!(out, "{:?}\n{h:?}", pos.board).expect("the dump file");
            if pos.board.marks.is_some() {
                let mut bare = pos.board.clone();
                bare.marks = None;
                let h = hint(&bare).expect("a hint");
                writeln!(out, "{bare:?}\n{h:?}").expect("the dump file");
            }
        }
        *kinds.entry(h.kind.name()).or_default() += 1;
        sample
            .entry(h.kind.name())
            .or_insert_with(|| format!("{} | {} | {}", h.nudge, h.hint, h.step));
        if let Err(why) = boards::check(&pos, &h) {
            failures += 1;
            eprintln!("UNSOUND: {p}: {why}");
        }
    }
    if let Some(mut out) = dump {
        out.flush().expect("the dump file");
    }
    times.sort_by(f64::total_cmp);
    let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
    println!(
        "positions: {} ({} sources: {})",
        times.len(),
        sources.len(),
        sources
            .iter()
            .map(|(name, l)| format!("{name} {}", l.len()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("unsound hints: {failures}");
    println!(
        "time per hint (ms): median {:.3}, p90 {:.3}, p99 {:.3}, max {:.1} ({})",
        q(0.5),
        q(0.9),
        q(0.99),
        slowest.0,
        slowest.1
    );
    println!("hints by technique:");
    for (k, v) in &kinds {
        println!("  {k:<20} {v:>7}");
    }
    println!("one hint of each (nudge | hint | move):");
    for (k, v) in &sample {
        println!("  {k}: {v}");
    }
    assert_eq!(failures, 0, "every hint must be sound");
}
