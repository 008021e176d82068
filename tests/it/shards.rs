//! Shards and merge (issue 21): N shard banks merged hold, row for row, what one machine
//! builds with the same arguments (N = 1, 2, 3; level, band and count builds; any margins); a
//! merge keeps each row's provenance, resumes after an interruption, and refuses inputs that
//! are not the N shards of one build, or a shard that stopped short, naming it.

use crate::common::*;

use pseudoku::bank::merge::{merge, MergeOptions};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Every row as the bank stores it, by id, with the seed as its class key (ids may differ
/// between banks) and without the build row (provenance differs by design).
fn rows(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    column(
        &conn,
        "SELECT printf('%d|%s|%s|%d|%d|%d|%d|%d|%d|%d|%s|%s|%d', p.id, hex(p.puzzle),
             hex(p.canon_key), p.clues, p.difficulty, p.hsolve, p.hsolve_sd, p.tier,
             p.technique, p.level, COALESCE(s.canon_key, '-'), COALESCE(p.transform, '-'), p.job)
         FROM puzzles p LEFT JOIN seeds s ON s.id = p.seed_id ORDER BY p.id",
    )
}

/// `pseudoku build ARGS --db DB` (two threads), which must succeed.
fn build(db: &Path, args: &[&str]) {
    pseudoku()
        .arg("build")
        .args(args)
        .args(["--threads", "2", "--db"])
        .arg(db)
        .assert()
        .success();
}

/// Shard k of n of `args` (blocks of 16 jobs, so that every shard runs a share of a small
/// build) into `dir/s{k}of{n}.db`.
fn shard(dir: &Path, args: &[&str], k: u64, n: u64, margin: &str) -> PathBuf {
    let db = dir.join(format!("s{k}of{n}.db"));
    let spec = format!("{k}/{n}");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--batch", "16", "--shard", &spec, "--margin", margin]);
    build(&db, &all);
    db
}

/// `pseudoku merge OUT IN...`.
fn merge_cli(out: &Path, inputs: &[PathBuf]) -> assert_cmd::assert::Assert {
    pseudoku().arg("merge").arg(out).args(inputs).assert()
}

#[test]
fn shards_merged_are_the_single_build_row_for_row() {
    let dir = tempfile::tempdir().unwrap();
    // Level quotas; band quotas; a count; a layout rule whose fit depends on the puzzle, not
    // only its class.
    let cases: [&[&str]; 4] = [
        &["--per-level", "300"],
        &["--per-band", "60", "--bands", "3"],
        &["--count", "200"],
        &["--per-level", "25", "--symmetry", "rotate180"],
    ];
    for (c, args) in cases.iter().enumerate() {
        let single = dir.path().join(format!("single{c}.db"));
        build(&single, args);
        let want = rows(&single);
        let quota: usize = match c {
            0 => 1200,
            1 => 180,
            2 => 200,
            _ => 100,
        };
        assert_eq!(want.len(), quota);
        for n in 1..=3u64 {
            let sub = dir.path().join(format!("case{c}-{n}"));
            std::fs::create_dir(&sub).unwrap();
            // Margins need not agree: what a shard stores beyond its share is never wrong.
            let inputs: Vec<PathBuf> = (1..=n)
                .map(|k| shard(&sub, args, k, n, if k == 1 { "0" } else { "40" }))
                .collect();
            let out = sub.join("merged.db");
            // Any order of the inputs.
            let mut reversed = inputs.clone();
            reversed.reverse();
            let first = pseudoku()
                .arg("merge")
                .arg(&out)
                .args(&reversed)
                .output()
                .unwrap();
            if !first.status.success() {
                // A shard stopped at its share without a margin may not have run a job the
                // merged bank needs: the merge names it, and that shard resumed with a larger
                // margin completes it.
                let why = text(&first.stderr);
                assert!(
                    why.contains("shard 1/") && why.contains("did not run job"),
                    "case {c}, {n} shards: {why}"
                );
                shard(&sub, args, 1, n, "100");
                merge_cli(&out, &reversed).success();
            }
            assert_eq!(rows(&out), want, "case {c}, {n} shards");

            // Provenance: a build row per shard, and each row under its job's shard.
            let conn = Connection::open(&out).unwrap();
            let builds: Vec<String> = column(&conn, "SELECT arguments FROM builds ORDER BY id");
            assert_eq!(builds.len(), n as usize);
            for (k, b) in (1..=n).zip(&builds) {
                assert!(b.starts_with(&format!("merge of shard {k}/{n} ")), "{b}");
            }
            let misplaced: i64 = scalar(
                &conn,
                &format!("SELECT COUNT(*) FROM puzzles WHERE build_id != (job / 16) % {n} + 1"),
            );
            assert_eq!(misplaced, 0);
            let unique: i64 = scalar(&conn, "SELECT COUNT(DISTINCT canon_key) FROM puzzles");
            assert_eq!(unique as usize, quota);
            // The merged bank is a bank: the key index is unique again, and a build adds to it.
            let indexes: Vec<String> = column(
                &conn,
                "SELECT sql FROM sqlite_master WHERE name = 'puzzles_key'",
            );
            assert!(indexes[0].starts_with("CREATE UNIQUE INDEX"), "{indexes:?}");
        }
    }
}

#[test]
fn an_interrupted_merge_resumes_and_a_stopped_shard_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let args: &[&str] = &["--per-level", "100"];
    let single = dir.path().join("single.db");
    build(&single, args);
    let want = rows(&single);

    // Shard 2 of 2 stops after its first block (as a killed job of an array would).
    let s1 = shard(dir.path(), args, 1, 2, "15");
    let s2 = dir.path().join("s2of2.db");
    let mut opts = pseudoku::bank::BuildOptions::per_level(s2.clone(), 100, 2026);
    opts.threads = 2;
    opts.batch = 16;
    opts.shard = Some("2/2".parse().unwrap());
    let stop = AtomicBool::new(false);
    let lib = pseudoku::seeds::Library::shipped();
    pseudoku::bank::build(&opts, &lib, &stop, |_| stop.store(true, Ordering::Relaxed)).unwrap();
    let out = dir.path().join("merged.db");
    let inputs = vec![s1.clone(), s2.clone()];
    merge_cli(&out, &inputs)
        .failure()
        .stderr(predicates::str::contains("shard 2/2 did not run job"))
        .stderr(predicates::str::contains("s2of2.db"))
        .stderr(predicates::str::contains("larger --margin"));
    // The same command finishes the shard; the merge then completes.
    build(
        &s2,
        &["--per-level", "100", "--batch", "16", "--shard", "2/2"],
    );

    // A merge stopped after its first commit keeps it, and the same merge resumes.
    let opts = MergeOptions {
        out: out.clone(),
        inputs: inputs.clone(),
        wait: false,
        commit_rows: 64,
    };
    let stop = AtomicBool::new(false);
    let first = merge(&opts, &stop, |_| stop.store(true, Ordering::Relaxed)).unwrap();
    assert!(!first.complete);
    assert_eq!(rows(&out).len(), 64);
    // Resumed with the shards' paths spelled otherwise: the same merge.
    let opts = MergeOptions {
        inputs: inputs
            .iter()
            .map(|p| p.parent().unwrap().join(".").join(p.file_name().unwrap()))
            .collect(),
        ..opts
    };
    let stop = AtomicBool::new(false);
    let second = merge(&opts, &stop, |_| {}).unwrap();
    assert!(second.complete);
    assert_eq!((second.stored, second.at_start), (400, 64));
    assert_eq!(rows(&out), want);
    let conn = Connection::open(&out).unwrap();
    let builds: i64 = scalar(&conn, "SELECT COUNT(*) FROM builds WHERE status = 'done'");
    assert_eq!(builds, 2);

    // A shard extended with a larger margin stores more; the merge is the same.
    build(
        &s1,
        &[
            "--per-level",
            "100",
            "--batch",
            "16",
            "--shard",
            "1/2",
            "--margin",
            "60",
        ],
    );
    let again = dir.path().join("again.db");
    merge_cli(&again, &inputs).success();
    assert_eq!(rows(&again), want);
}

#[test]
fn merge_refuses_what_is_not_the_shards_of_one_build() {
    let dir = tempfile::tempdir().unwrap();
    let args: &[&str] = &["--count", "40"];
    let a1 = shard(dir.path(), args, 1, 2, "15");
    let a2 = shard(dir.path(), args, 2, 2, "15");
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let b2 = shard(&other, &["--count", "40", "--seed", "7"], 2, 2, "15");
    let plain = dir.path().join("plain.db");
    build(&plain, args);
    let out = dir.path().join("out.db");
    let refuse = |inputs: Vec<PathBuf>, says: &str| {
        merge_cli(&out, &inputs)
            .failure()
            .stderr(predicates::str::contains(says.to_string()));
    };
    refuse(vec![a1.clone()], "each of the 2 shards once");
    refuse(vec![a1.clone(), a1.clone()], "each of the 2 shards once");
    refuse(vec![a1.clone(), b2.clone()], "a shard of another build");
    refuse(vec![a1.clone(), plain.clone()], "not a shard's bank");
    assert!(!out.exists() || rows(&out).is_empty());

    // A plain build does not write into a shard's bank, nor a shard into a bank with rows.
    on_bank!(&a1; "build", "--count", "40")
        .assert()
        .failure()
        .stderr(predicates::str::contains("holds shard 1/2"));
    on_bank!(&plain; "build", "--count", "40", "--shard", "1/2")
        .assert()
        .failure()
        .stderr(predicates::str::contains("already holds puzzles"));
    pseudoku()
        .args(["build", "--count", "40", "--shard", "3/2"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("K must be between 1 and N"));
    merge_cli(&out, &[a1.clone(), a2.clone()]).success();
    assert_eq!(rows(&out).len(), 40);
    // The same merge again changes nothing.
    merge_cli(&out, &[a2, a1])
        .success()
        .stderr(predicates::str::contains(
            "already holds this merge of 2 shards (40 puzzles)",
        ));
    assert_eq!(rows(&out).len(), 40);
}
