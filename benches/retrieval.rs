//! Retrieval latency at 1,000,000 puzzles: `store::retrieval::take` (one random unserved puzzle of a
//! band or a level, without and with marking it served) and the `pseudoku get` command end to
//! end.
//! Reports p50, p90, p99 and the maximum over many queries (a latency target is about the
//! tail, which a mean hides).
//!
//! Run: `cargo bench --bench retrieval`. The first run fills `target/bench-retrieval-1m-v2.db`
//! (1,000,000 rows with uniform percentiles, `difficulty` 2 to 12 and the default levels, which
//! hold 7%, 31%, 43% and 19% of them; the query cost does not depend on the puzzles' text, so
//! every row holds the same real puzzle under its own key) and later runs reuse it.

use pseudoku::levels::{Band, LevelSet, RatingKind};
use pseudoku::store::retrieval::Within;
use pseudoku::{store, Rng};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const ROWS: u64 = 1_000_000;
const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

fn database() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let path = dir.join("bench-retrieval-1m-v2.db");
    let ready = path.is_file()
        && store::open(&path)
            .and_then(|c| store::puzzles::count(&c))
            .is_ok_and(|n| n == ROWS);
    if ready {
        return path;
    }
    let _ = std::fs::remove_file(&path);
    let t = Instant::now();
    let mut conn = store::open(&path).expect("create the bench bank");
    conn.execute_batch(
        "INSERT INTO seeds (id, puzzle, solution, canon_key, tier, hsolve, reserved, provenance)
         VALUES (1, 'p', 's', 'bench', 5, 1.0, 'r', 'bench');
         INSERT INTO settings VALUES ('rating', 'difficulty'), ('levels', 'easy,medium,hard,expert'),
             ('reference', 'bench');",
    )
    .unwrap();
    let tx = conn.transaction().unwrap();
    {
        let mut stmt = tx
            .prepare(
                "INSERT INTO puzzles (puzzle, solution, canon, canon_key, clues, hsolve, hsolve_sd,
                    tier, percentile, wnef, wnef_class, box_norm, box_class, technique, seed_id,
                    transform, build_id, job, difficulty, pick, level)
                 VALUES (?1, ?2, ?1, ?3, 17, ?4, 0, 5, ?5, 0, 1, 0, 1, 'trial', 1, '', 1, ?6, ?7, ?8,
                    ?9)",
            )
            .unwrap();
        let mut rng = Rng::new(1);
        let levels = LevelSet::default_for(RatingKind::Difficulty);
        for i in 0..ROWS {
            let key = format!("{:016x}{:048x}", pseudoku::rng::splitmix64(i), i);
            let pct = rng.next_f64() * 100.0;
            stmt.execute(rusqlite::params![
                PUZZLE,
                SOLUTION,
                key,
                1000.0 + pct,
                pct,
                i as i64,
                2.0 + pct / 10.0,
                store::pick_of(&key),
                levels.of(2.0 + pct / 10.0) as u32
            ])
            .unwrap();
        }
    }
    tx.commit().unwrap();
    eprintln!(
        "filled {} with {ROWS} rows in {:.1?}",
        path.display(),
        t.elapsed()
    );
    path
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{label:<44} n={:<6} p50 {:>9.1?}  p90 {:>9.1?}  p99 {:>9.1?}  max {:>9.1?}",
        times.len(),
        at(0.50),
        at(0.90),
        at(0.99),
        times[times.len() - 1]
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo bench -- --list` and test harness probes
    }
    let path = database();
    let conn = store::open(&path).unwrap();
    // Start every run from an unserved bank.
    conn.execute(
        "UPDATE puzzles SET served_at = NULL WHERE served_at IS NOT NULL",
        [],
    )
    .unwrap();
    let mut rng = Rng::new(2026);
    for (label, mark, by_level, n) in [
        (
            "library take, 1 puzzle of a random band of 4",
            false,
            false,
            20_000,
        ),
        (
            "library take, 1 puzzle of a random level of 4",
            false,
            true,
            20_000,
        ),
        (
            "library take + mark served (one transaction)",
            true,
            false,
            20_000,
        ),
    ] {
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            let k = rng.below(4);
            let within = if by_level {
                Within::Level(k)
            } else {
                Within::Percentiles(Band::new(1 + k, 4).unwrap().range())
            };
            let t = Instant::now();
            let got =
                store::retrieval::take(&conn, RatingKind::Difficulty, within, 1, mark, &mut rng)
                    .unwrap();
            times.push(t.elapsed());
            assert_eq!(got.len(), 1);
        }
        report(label, times);
    }
    let mut times = Vec::new();
    for i in 0..200 {
        let band = format!("{}/4", 1 + i % 4);
        let t = Instant::now();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
            .args(["get", "--band", &band, "--mark-served", "--db"])
            .arg(&path)
            .output()
            .unwrap();
        times.push(t.elapsed());
        assert!(out.status.success());
    }
    report("CLI: pseudoku get --band K/4 --mark-served", times);
}
