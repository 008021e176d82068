//! Retrieval latency at 1,000,000 puzzles (or `PSEUDOKU_BENCH_ROWS`, e.g. 10,000,000):
//! `store::retrieval::take` (one random unserved puzzle of a band or a level, without and with
//! marking it served) and the `pseudoku get` command end to end; and the per-user draw of
//! `serve` on a bank of 25,000 puzzles, for a new user and for one who has had all but ten.
//! Reports p50, p90, p99 and the maximum over many queries (a latency target is about the
//! tail, which a mean hides).
//!
//! Draws by hardest step (`get --technique`) and by a range of a named rating (`get --rating
//! se --range A..B`: every row has a value from 1 to 9 rising with its difficulty) are timed
//! too, alone and with a level.
//!
//! Matched draws (`match=skill`: a puzzle near a player's learned rating) are timed beside
//! per-user draws of a level, on the same bank with 20,000 of its puzzles played; `cargo bench
//! --bench retrieval -- matched` times only those.
//!
//! Run: `cargo bench --bench retrieval`. The first run fills `bench-retrieval-ROWS-v5.db` in the target folder's `tmp/`
//! (compact rows with uniform percentiles: `difficulty` 2 to 12 against a reference spread
//! evenly over that range, and the default levels, which hold 7%, 31%, 43% and 19% of them;
//! each row's hardest step drawn from its level's shares in a built bank of 10,000
//! ([`STEPS`]); the query cost does not depend on the puzzles' text, so every row holds the
//! same real puzzle under its own key) and later runs reuse it.

use pseudoku::levels::{Band, LevelSet, Levels, RatingKind};
use pseudoku::store::retrieval::Within;
use pseudoku::{store, Rng};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Per level (easy to expert), the hardest steps of a built bank's puzzles: (technique code,
/// puzzles) in `build --per-level 2500` (2026-11-26).
const STEPS: [&[(u8, u32)]; 4] = [
    &[(1, 2500)],
    &[(0, 189), (1, 1007), (2, 434), (3, 535), (4, 335)],
    &[
        (2, 114),
        (3, 457),
        (4, 91),
        (5, 209),
        (6, 469),
        (7, 108),
        (10, 734),
        (14, 55),
        (15, 32),
        (16, 181),
        (17, 50),
    ],
    &[
        (8, 223),
        (9, 398),
        (11, 129),
        (12, 1170),
        (13, 41),
        (16, 2),
        (18, 61),
        (19, 476),
    ],
];

/// A hardest step of `level`, drawn by its shares in [`STEPS`].
fn step_of(level: usize, rng: &mut Rng) -> u8 {
    let steps = STEPS[level];
    let total: u32 = steps.iter().map(|s| s.1).sum();
    let mut at = rng.below(total);
    for &(code, n) in steps {
        if at < n {
            return code;
        }
        at -= n;
    }
    unreachable!("within the total")
}

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// The bank's size: `PSEUDOKU_BENCH_ROWS`, or 1,000,000.
fn rows() -> u64 {
    std::env::var("PSEUDOKU_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

fn database(rows: u64) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("bench-retrieval-{rows}-v5.db"));
    let ready = path.is_file()
        && store::open(&path)
            .and_then(|c| store::puzzles::count(&c))
            .is_ok_and(|n| n == rows);
    if ready {
        return path;
    }
    let _ = std::fs::remove_file(&path);
    let t = Instant::now();
    let bank = store::open(&path).expect("create the bench bank");
    // Rows written as they are, through a connection of their own.
    let mut conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "INSERT INTO seeds (id, puzzle, solution, canon_key, tier, hsolve, reserved, provenance)
         VALUES (1, 'p', 's', 'bench', 5, 1.0, 'r', 'bench');
         INSERT INTO settings VALUES ('rating', 'difficulty'), ('levels', 'easy,medium,hard,expert'),
             ('reference', 'bench');
         WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 999)
         INSERT INTO reference (puzzle, difficulty, hsolve, source)
             SELECT 'p', 2.0 + i / 100.0, 1000.0, 'bench' FROM k;",
    )
    .unwrap();
    let cells: Vec<u8> = PUZZLE
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let packed = store::puzzles::pack(&cells.try_into().unwrap());
    // A bulk load: rows first, then the indexes, packed (as a bulk build does).
    store::puzzles::defer_indexes(&bank).unwrap();
    let tx = conn.transaction().unwrap();
    {
        let mut stmt = tx
            .prepare(
                "INSERT INTO puzzles (puzzle, canon_key, clues, difficulty, hsolve, hsolve_sd,
                    tier, technique, level, seed_id, transform, build_id, job, step, step_count)
                 VALUES (?1, ?2, 23, ?3, ?4, 0, 5, 5, ?5, 1, NULL, 1, ?6, ?7, 1)",
            )
            .unwrap();
        let mut rng = Rng::new(1);
        let levels = LevelSet::default_for(RatingKind::Difficulty);
        for i in 0..rows {
            let mut key = [0u8; 32];
            key[..8].copy_from_slice(&pseudoku::rng::splitmix64(i).to_be_bytes());
            key[24..].copy_from_slice(&i.to_be_bytes());
            let difficulty = 2.0 + (rng.next_f64() * 10_000.0).floor() / 1000.0;
            let level = levels.of(difficulty, pseudoku::rate::Strategy::NakedSingle); // no extreme level: the step decides nothing
            let step = step_of(level, &mut rng);
            stmt.execute(rusqlite::params![
                &packed[..],
                &key[..],
                store::puzzles::to_units(difficulty, RatingKind::Difficulty),
                100_000 + i as i64 % 1000,
                level as u32,
                i as i64,
                step,
            ])
            .unwrap();
        }
    }
    tx.commit().unwrap();
    // A named rating `se` on every row: a value from 1 to 9, rising with the difficulty.
    conn.execute_batch(
        "INSERT INTO rating_names (id, name) VALUES (1, 'se');
         INSERT INTO named_ratings (rating_id, puzzle_id, value)
             SELECT 1, id, 1.0 + (difficulty - 2000) * 0.0008 FROM puzzles;",
    )
    .unwrap();
    store::puzzles::ensure_indexes(&bank, RatingKind::Difficulty).unwrap();
    eprintln!(
        "filled {} with {rows} rows in {:.1?}",
        path.display(),
        t.elapsed()
    );
    path
}

/// Times 20,000 library draws of one unserved puzzle, each of the selection `selection`
/// draws, and reports them under `label`.
fn time_takes(
    bank: &store::Bank,
    levels: &Levels,
    rng: &mut Rng,
    label: &str,
    mut selection: impl FnMut(&mut Rng) -> store::retrieval::Selection,
) {
    let mut times = Vec::with_capacity(20_000);
    for _ in 0..20_000 {
        let within = selection(rng);
        let t = Instant::now();
        let got = store::retrieval::take(bank, levels.measure(), within, 1, false, rng).unwrap();
        times.push(t.elapsed());
        assert_eq!(got.len(), 1);
    }
    report(label, times);
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

/// The per-user draw (`serve`'s) among the 25,000 puzzles of a bank, for a user who has had
/// `had` of them: a new user's draws hit at random, a nearly finished one's list what is left.
fn user_draws() {
    let path = database(25_000);
    let bank = store::open(&path).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let levels = Levels::read(&bank).unwrap();
    let everything = Within::Percentiles("0..100".parse().unwrap());
    let mut rng = Rng::new(7);
    for (user, had) in [("fresh", 0), ("nearly-done", 24_990)] {
        conn.execute("DELETE FROM user_history WHERE user = ?1", [user])
            .unwrap();
        conn.execute(
            "INSERT INTO user_history (user, canon_key, puzzle_id)
             SELECT ?1, canon_key, id FROM puzzles ORDER BY id LIMIT ?2",
            rusqlite::params![user, had],
        )
        .unwrap();
        let mut times = Vec::new();
        for _ in 0..500 {
            let t = Instant::now();
            let got =
                store::history::draw(&bank, levels.measure(), everything, user, &mut rng).unwrap();
            times.push(t.elapsed());
            assert!(got.is_some());
        }
        report(&format!("per-user draw of 25,000, had {had}"), times);
    }
}

/// Matched draws (`match=skill`) against per-user draws of a level, on the bank of `rows()`
/// with 20,000 of its puzzles played (learned ratings about their priors) and a user who has
/// had 200: 2,000 of each, the matched draw as `serve` makes it (the windows from the
/// player's rating, a random rating from 1000 to 2000 each time), the level a random one of
/// four. On a copy of the bank, removed after.
fn matched_draws(path: &Path) {
    let copy = path.with_extension("matched.db");
    let remove = || {
        for end in ["", "-wal", "-shm"] {
            let mut name = copy.clone().into_os_string();
            name.push(end);
            let _ = std::fs::remove_file(name);
        }
    };
    remove();
    std::fs::copy(path, &copy).unwrap();
    let bank = &store::open(&copy).unwrap();
    let conn = rusqlite::Connection::open(&copy).unwrap();
    let levels = &Levels::read(bank).unwrap();
    let mut rng = Rng::new(11);
    let (lo, span): (i64, i64) = conn
        .query_row(
            "SELECT min(id), max(id) - min(id) + 1 FROM puzzles",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    {
        let mut rate = conn
            .prepare(
                "INSERT OR IGNORE INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, \
                 results) VALUES (?1, ?2, 90.0, 0.06, 8)",
            )
            .unwrap();
        let mut given = conn
            .prepare(
                "INSERT OR IGNORE INTO user_history (user, canon_key, puzzle_id) \
                 SELECT 'player', canon_key, id FROM puzzles WHERE id = ?1",
            )
            .unwrap();
        for i in 0..20_000 {
            let id = lo + rng.below(span as u32) as i64;
            let prior = pseudoku::play::prior(rng.next_f64() * 100.0).rating;
            rate.execute(rusqlite::params![
                id,
                prior + (rng.next_f64() - 0.5) * 300.0
            ])
            .unwrap();
            if i < 200 {
                given.execute([id]).unwrap();
            }
        }
    }
    let mut level_times = Vec::new();
    let mut matched_times = Vec::new();
    for _ in 0..2_000 {
        let t = Instant::now();
        let got = store::history::draw(
            bank,
            levels.measure(),
            Within::Level(rng.below(4)),
            "player",
            &mut rng,
        )
        .unwrap();
        level_times.push(t.elapsed());
        assert!(got.is_some());
        let rating = 1000.0 + rng.next_f64() * 1000.0;
        let t = Instant::now();
        let got = pseudoku::play::windows(rating).find_map(|w| {
            pseudoku::retrieve::matched(bank, levels, "player", w, &mut rng).unwrap()
        });
        matched_times.push(t.elapsed());
        assert!(got.is_some());
    }
    report("per-user draw of a random level of 4", level_times);
    report("matched draw (match=skill), 20,000 played", matched_times);
    remove();
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo bench -- --list` and test harness probes
    }
    let matched_only = std::env::args().any(|a| a == "matched");
    if !matched_only {
        user_draws();
    }
    let path = database(rows());
    matched_draws(&path);
    if matched_only {
        return;
    }
    let conn = store::open(&path).unwrap();
    let levels = Levels::read(&conn).unwrap();
    // Start every run from an unserved bank.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
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
                store::retrieval::take(&conn, levels.measure(), within, 1, mark, &mut rng).unwrap();
            times.push(t.elapsed());
            assert_eq!(got.len(), 1);
        }
        report(label, times);
    }
    // Draws by hardest step: a technique drawn uniformly among the 20 (rare ones included:
    // X-wing is about 1% of the rows), alone or with a level that has it.
    let techniques: Vec<(u32, u8)> = STEPS
        .iter()
        .enumerate()
        .flat_map(|(l, steps)| steps.iter().map(move |&(code, _)| (l as u32, code)))
        .collect();
    for (label, with_level) in [
        ("library take, 1 puzzle of a random technique", false),
        ("library take, 1 of a random level and technique", true),
    ] {
        time_takes(&conn, &levels, &mut rng, label, |rng| {
            let (level, code) = techniques[rng.index(techniques.len())];
            store::retrieval::Selection {
                within: if with_level {
                    Within::Level(level)
                } else {
                    Within::All
                },
                step: pseudoku::rate::Strategy::from_code(code),
                named: None,
            }
        });
    }
    // Draws by a named rating: a range one unit wide drawn uniformly on 1..9, alone or with
    // the level that holds the range's middle.
    let default_levels = LevelSet::default_for(RatingKind::Difficulty);
    for (label, with_level) in [
        ("library take, 1 puzzle of a random se range", false),
        ("library take, 1 of a random level and se range", true),
    ] {
        time_takes(&conn, &levels, &mut rng, label, |rng| {
            let low = 1.0 + rng.next_f64() * 7.0;
            let middle = 2.0 + (low + 0.5 - 1.0) / 0.8;
            store::retrieval::Selection {
                within: if with_level {
                    Within::Level(
                        default_levels.of(middle, pseudoku::rate::Strategy::NakedSingle) as u32,
                    )
                } else {
                    Within::All
                },
                step: None,
                named: Some(store::retrieval::NamedRange {
                    id: 1,
                    low,
                    high: low + 1.0,
                }),
            }
        });
    }
    let mut times = Vec::new();
    for i in 0..200 {
        let (_, code) = techniques[i % techniques.len()];
        let name = pseudoku::rate::Strategy::from_code(code).unwrap().name();
        let t = Instant::now();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
            .args(["get", "--technique", name, "--db"])
            .arg(&path)
            .output()
            .unwrap();
        times.push(t.elapsed());
        assert!(out.status.success());
    }
    report("CLI: pseudoku get --technique NAME", times);
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
    let mut times = Vec::new();
    for i in 0..200 {
        let level = ["easy", "medium", "hard", "expert"][i % 4];
        let t = Instant::now();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
            .args(["get", "--level", level, "--db"])
            .arg(&path)
            .output()
            .unwrap();
        times.push(t.elapsed());
        assert!(out.status.success());
    }
    report("CLI: pseudoku get --level NAME", times);
    // The whole-bank commands: `stats` reads every row; `verify --sample 100000` re-rates
    // 100,000 rows (on this synthetic bank every row's stored ratings are made up, so it
    // reports them all as mismatches: the time is what is measured).
    for (label, args, runs) in [
        ("CLI: pseudoku stats", vec!["stats"], 3),
        (
            "CLI: pseudoku verify --sample 100000",
            vec!["verify", "--sample", "100000"],
            1,
        ),
    ] {
        let mut times = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_pseudoku"))
                .args(&args)
                .arg("--db")
                .arg(&path)
                .output()
                .unwrap();
            times.push(t.elapsed());
            assert!(out.status.code().is_some_and(|c| c <= 1), "{label}");
        }
        report(label, times);
    }
}
