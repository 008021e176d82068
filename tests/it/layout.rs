//! Per-level layout rules end to end: symmetry (every kind, pseudo-generated puzzles
//! included), clue range, minimality and techniques hold for every puzzle a level's quota
//! stores; the rules are stored with the bank, shown by `stats`, used by later builds; the
//! bank does not depend on the thread count; `trial`, the old name of the `beyond-wings`
//! family, still reads.

use crate::common::*;

use pseudoku::bank::layout::{has_empty_house, is_minimal, parse_symmetry};
use pseudoku::Puzzle;
use rusqlite::Connection;

/// (puzzle, level, clues, technique, build) of every stored puzzle.
fn rows(conn: &Connection) -> Vec<(Puzzle, u32, u32, String, i64)> {
    conn.prepare("SELECT puzzle, level, clues, technique, build_id FROM puzzles_text ORDER BY id")
        .unwrap()
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?.parse().unwrap(),
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The default level names, easiest first.
const LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// `dir/labelled.tsv`: each of `rows` as `puzzle<TAB>its level's name`.
fn labelled_file(
    dir: &std::path::Path,
    rows: &[(Puzzle, u32, u32, String, i64)],
) -> std::path::PathBuf {
    let lines: Vec<String> = rows
        .iter()
        .map(|(p, level, ..)| format!("{p}\t{}", LEVELS[*level as usize]))
        .collect();
    let file = dir.join("labelled.tsv");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    file
}

#[test]
fn every_symmetry_holds_for_every_puzzle_of_the_level() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["rotate180", "rotate90", "mirror", "diagonal"] {
        let db = dir.path().join(format!("{name}.db"));
        on_bank!(&db; "build", "--per-level", "6", "--symmetry", name, "--replace-rules", "--threads", "2")
            .assert()
            .success()
            .stdout(predicates::str::contains(format!(
                "layout symmetry={name} clued-houses: 6 of 6 stored"
            )));
        let s = parse_symmetry(name).unwrap();
        let conn = Connection::open(&db).unwrap();
        let all = rows(&conn);
        assert_eq!(all.len(), 24);
        for (p, level, ..) in &all {
            assert!(s.holds_for(p), "{name}, level {level}: {p}");
            assert!(!has_empty_house(p), "{name}, level {level}: {p}");
        }
        // Pseudo-generated (from a seed) puzzles are among them.
        let seeded: u32 = scalar(
            &conn,
            "SELECT COUNT(*) FROM puzzles_text WHERE seed_id IS NOT NULL",
        );
        assert!(seeded >= 12, "{name}: {seeded}");
        on_bank!(&db; "stats")
            .assert()
            .success()
            .stdout(predicates::str::contains(format!(
                "\tsymmetry={name} clued-houses\n"
            )));
    }
}

#[test]
fn clue_range_minimality_and_techniques_are_kept_and_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 5, 2);
    on_bank!(
        &db;
        "build",
        "--level",
        "hard",
        "--count",
        "12",
        "--symmetry",
        "rotate180",
        "--clues",
        "22..30",
        "--minimal",
        "--techniques",
        "pairs..x-wing-or-xy-wing",
        "--threads",
        "2",
    )
    .assert()
    .success()
    .stdout(predicates::str::contains("12 of 12 stored"));
    let conn = Connection::open(&db).unwrap();
    let new: Vec<_> = rows(&conn).into_iter().filter(|r| r.4 == 2).collect();
    assert_eq!(new.len(), 12);
    let s = parse_symmetry("rotate180").unwrap();
    for (p, level, clues, technique, _) in &new {
        assert_eq!(*level, 2, "hard");
        assert!((22..=30).contains(clues), "{clues}");
        assert!(s.holds_for(p) && is_minimal(p, s), "{p}");
        assert!(
            ["pairs", "locked-candidates", "x-wing-or-xy-wing"].contains(&technique.as_str()),
            "{technique}"
        );
    }
    // Stored: the next build of the level uses them without the options.
    let stored: String = scalar(
        &conn,
        "SELECT value FROM settings WHERE key = 'layout:hard'",
    );
    assert_eq!(
        stored,
        "symmetry=rotate180 clues=22..30 minimal techniques=pairs..x-wing-or-xy-wing clued-houses"
    );
    on_bank!(&db; "build", "--level", "hard", "--count", "4", "--threads", "2")
        .assert()
        .success();
    for (p, _, clues, ..) in rows(&conn).into_iter().filter(|r| r.4 == 3) {
        assert!((22..=30).contains(&clues) && s.holds_for(&p) && is_minimal(&p, s));
    }
    // Layout rules belong to levels.
    on_bank!(&db; "build", "--count", "5", "--minimal")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("layout rules belong to levels"));
    on_bank!(&db; "build", "--level", "hard", "--clues", "5..30")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("17 <= A <= B <= 81"));
}

#[test]
fn a_bank_with_layout_rules_does_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut banks = Vec::new();
    for threads in ["1", "2"] {
        let db = dir.path().join(format!("t{threads}.db"));
        on_bank!(
            &db;
            "build",
            "--per-level",
            "5",
            "--symmetry",
            "rotate90",
            "--minimal",
            "--threads",
            threads,
        )
        .assert()
        .success();
        let conn = Connection::open(&db).unwrap();
        banks.push(
            rows(&conn)
                .into_iter()
                .map(|r| (r.0.to_string(), r.1))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(banks[0].len(), 20);
    assert_eq!(banks[0], banks[1]);
}

#[test]
fn layouts_learned_from_a_publishers_puzzles_bind_the_next_builds() {
    let dir = tempfile::tempdir().unwrap();
    // The "publisher": every puzzle symmetric under a half turn, 24 to 32 clues.
    let theirs = dir.path().join("theirs.db");
    on_bank!(&theirs; "build", "--per-level", "20", "--symmetry", "rotate180", "--clues", "24..32")
        .assert()
        .success();
    let conn = Connection::open(&theirs).unwrap();
    let names = LEVELS;
    let file = labelled_file(dir.path(), &rows(&conn));

    let ours = dir.path().join("ours.db");
    build_levels(&ours, 5, 2);
    let calibrate = |layouts: bool| {
        let mut cmd = pseudoku();
        cmd.args([
            "calibrate",
            "--labelled",
            "--levels",
            "easy,medium,hard,expert",
        ])
        .arg("--from")
        .arg(&file)
        .arg("--db")
        .arg(&ours);
        if layouts {
            cmd.arg("--layouts");
        }
        cmd.assert().success().get_output().stdout.clone()
    };
    // Without --layouts: the profile is printed, nothing is stored.
    let out = text(&calibrate(false));
    assert!(
        out.contains("\nlayout\tpuzzles\tclues p10/median/p90\trotate180"),
        "{out}"
    );
    assert!(out.contains("\neasy\t20\t"), "{out}");
    assert!(
        out.contains("(the rules are stored with --layouts)"),
        "{out}"
    );
    // (The default levels' clue ranges went with the default levels.)
    let stored: i64 = scalar(
        &Connection::open(&ours).unwrap(),
        "SELECT COUNT(*) FROM settings WHERE key LIKE 'layout:%'",
    );
    assert_eq!(stored, 0);
    // With it: each level's rules are the publisher's symmetry and clue range.
    calibrate(true);
    let ours_conn = Connection::open(&ours).unwrap();
    for name in names {
        let rules: String = scalar(
            &ours_conn,
            &format!("SELECT value FROM settings WHERE key = 'layout:{name}'"),
        );
        assert!(
            rules.starts_with("symmetry=rotate180 clues="),
            "{name}: {rules}"
        );
        let (a, b) = rules["symmetry=rotate180 clues=".len()..]
            .split(' ')
            .next()
            .unwrap()
            .split_once("..")
            .unwrap();
        let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
        assert!(24 <= a && a <= b && b <= 32, "{name}: {rules}");
    }
    // The next level build keeps them.
    build_levels(&ours, 5, 2);
    let last: i64 = scalar(&ours_conn, "SELECT MAX(id) FROM builds");
    let rotate180 = parse_symmetry("rotate180").unwrap();
    let new: Vec<_> = rows(&ours_conn)
        .into_iter()
        .filter(|r| r.4 == last)
        .collect();
    assert_eq!(new.len(), 20);
    for (p, _, clues, ..) in &new {
        assert!(rotate180.holds_for(p), "{p}");
        assert!((24..=32).contains(clues), "{clues}");
    }
    // A build of a count stores by rating alone, and says so.
    on_bank!(&ours; "build", "--count", "5")
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "have layout rules, which bind builds of levels only",
        ))
        .stderr(predicates::str::contains("easy (symmetry=rotate180 clues="));
}

#[test]
fn the_default_levels_come_with_clue_ranges_that_fall_as_levels_rise() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 40, 2);
    let conn = Connection::open(&db).unwrap();
    let ranges = [(32, 36), (29, 34), (27, 32), (24, 30)];
    for (level, name) in LEVELS.iter().enumerate() {
        let (a, b) = ranges[level];
        let stored: String = scalar(
            &conn,
            &format!("SELECT value FROM settings WHERE key = 'layout:{name}'"),
        );
        // Expert needs no assumption (no forcing chain, no trial).
        let logic = if *name == "expert" {
            " no-assumptions"
        } else {
            ""
        };
        assert_eq!(
            stored,
            format!("symmetry=rotate180 clues={a}..{b} clued-houses{logic}")
        );
    }
    let rows = rows(&conn);
    assert_eq!(rows.len(), 160);
    let mut medians = Vec::new();
    for level in 0..4u32 {
        let (a, b) = ranges[level as usize];
        let mut clues: Vec<u32> = rows.iter().filter(|r| r.1 == level).map(|r| r.2).collect();
        assert_eq!(clues.len(), 40);
        assert!(
            clues.iter().all(|c| (a..=b).contains(c)),
            "{level}: {clues:?}"
        );
        // Every row, column and box of every puzzle holds a clue.
        let empty: Vec<_> = rows
            .iter()
            .filter(|r| r.1 == level && has_empty_house(&r.0))
            .collect();
        assert!(empty.is_empty(), "{level}: {empty:?}");
        // Every clue pattern is half-turn symmetric.
        let rotate180 = parse_symmetry("rotate180").unwrap();
        let asymmetric: Vec<_> = rows
            .iter()
            .filter(|r| r.1 == level && !rotate180.holds_for(&r.0))
            .collect();
        assert!(asymmetric.is_empty(), "{level}: {asymmetric:?}");
        clues.sort_unstable();
        medians.push(clues[20]);
    }
    assert!(medians[0] >= 32, "{medians:?}");
    // `stats` gives each level's spread against the reference's puzzles in its range: a
    // Kolmogorov-Smirnov distance, between 0 and 1.
    let out = on_bank!(&db; "stats").output().unwrap();
    let out = text(&out.stdout);
    let header = out.lines().find(|l| l.starts_with("level\t")).unwrap();
    let column = header.split('\t').position(|c| c == "spread (KS)").unwrap();
    for name in LEVELS {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .unwrap();
        let d: f64 = line.split('\t').nth(column).unwrap().parse().unwrap();
        assert!((0.0..=1.0).contains(&d), "{line}");
        // And, in the table of quartiles below, the shares of its puzzles in the four quarters
        // of its range (its last four columns), summing to 100%.
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name) && !l.contains('\t'))
            .unwrap();
        let cells: Vec<&str> = line.split_whitespace().collect();
        let shares: Vec<f64> = cells[cells.len() - 4..]
            .iter()
            .map(|q| q.trim_end_matches('%').parse().unwrap())
            .collect();
        assert!((shares.iter().sum::<f64>() - 100.0).abs() < 1e-9, "{line}");
    }
    assert!(medians.windows(2).all(|m| m[0] > m[1]), "{medians:?}");
    // Other level names drop the default rules; the default levels bring them back.
    let layouts = || -> i64 {
        scalar(
            &conn,
            "SELECT COUNT(*) FROM settings WHERE key LIKE 'layout:%'",
        )
    };
    let calibrate = |args: &[&str]| {
        pseudoku()
            .arg("calibrate")
            .args(args)
            .arg("--db")
            .arg(&db)
            .assert()
            .success();
    };
    calibrate(&["--levels", "gentle,middling,tough"]);
    assert_eq!(layouts(), 0);
    calibrate(&["--default"]);
    assert_eq!(layouts(), 4);
}

/// A layout option changes its own rule of the default levels and keeps the others;
/// `--replace-rules` makes the options the whole rules.
#[test]
fn a_layout_option_changes_one_rule_of_the_default_levels() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    on_bank!(&db; "build", "--per-level", "8", "--symmetry", "none", "--threads", "2")
        .assert()
        .success();
    let conn = Connection::open(&db).unwrap();
    let layout = |name: &str| -> String {
        scalar(
            &conn,
            &format!("SELECT value FROM settings WHERE key = 'layout:{name}'"),
        )
    };
    assert_eq!(layout("easy"), "clues=32..36 clued-houses");
    assert_eq!(layout("expert"), "clues=24..30 clued-houses no-assumptions");
    let rows = rows(&conn);
    assert_eq!(rows.len(), 32);
    let ranges = [(32, 36), (29, 34), (27, 32), (24, 30)];
    for (p, level, clues, ..) in &rows {
        let (a, b) = ranges[*level as usize];
        assert!(
            (a..=b).contains(clues) && !has_empty_house(p),
            "{level}: {p}"
        );
    }
    on_bank!(&db; "build", "--level", "hard", "--count", "4", "--clues", "26..31", "--threads", "2")
        .assert()
        .success();
    assert_eq!(layout("hard"), "clues=26..31 clued-houses");
    on_bank!(&db; "build", "--level", "hard", "--count", "4", "--symmetry", "mirror",
             "--replace-rules", "--threads", "2")
    .assert()
    .success();
    assert_eq!(layout("hard"), "symmetry=mirror clued-houses");
}

#[test]
fn a_share_of_symmetric_puzzles_is_kept_exactly_and_learned_from_a_publisher() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    on_bank!(
        &db;
        "build",
        "--per-level",
        "25",
        "--symmetry",
        "rotate180",
        "--share",
        "40%",
        "--threads",
        "2",
    )
    .assert()
    .success()
    .stdout(predicates::str::contains(
        "layout symmetry=rotate180 clues=29..34 clued-houses: 10 of 10 stored",
    ))
    .stdout(predicates::str::contains(
        "layout symmetry=rotate180 share=0% clues=29..34 clued-houses: 15 of 15 stored",
    ));
    let conn = Connection::open(&db).unwrap();
    let rotate180 = parse_symmetry("rotate180").unwrap();
    let rows = rows(&conn);
    assert_eq!(rows.len(), 100);
    for level in 0..4 {
        let of_level: Vec<_> = rows.iter().filter(|r| r.1 == level).collect();
        let symmetric = of_level
            .iter()
            .filter(|r| rotate180.holds_for(&r.0))
            .count();
        assert_eq!((of_level.len(), symmetric), (25, 10), "level {level}");
    }
    let stored: String = scalar(
        &conn,
        "SELECT value FROM settings WHERE key = 'layout:hard'",
    );
    assert_eq!(
        stored,
        "symmetry=rotate180 share=40% clues=27..32 clued-houses"
    );
    // A publisher's levels with 40% symmetric puzzles give the rule back.
    let names = LEVELS;
    let file = labelled_file(dir.path(), &rows);
    let ours = dir.path().join("ours.db");
    build_levels(&ours, 5, 2);
    let out = on_bank!(
        &ours;
        "calibrate",
        "--labelled",
        "--layouts",
        "--levels",
        names.join(","),
        "--from",
        &file,
    )
    .assert()
    .success()
    .get_output()
    .stdout
    .clone();
    let out = text(&out);
    assert!(
        out.contains("\tsymmetry=rotate180 share=40% clues="),
        "{out}"
    );
}

/// A half-turn build on the shipped library also draws on the shipped symmetric seeds, one
/// for every 32 puzzles of its half-turn quotas (stored after the main library's, and among
/// expert's sources), and some of its puzzles come from them; a build without the symmetry
/// neither stores nor uses them.
#[test]
fn a_half_turn_build_draws_on_the_symmetric_seeds_too() {
    let dir = tempfile::tempdir().unwrap();
    let build = |name: &str, extra: &[&str]| {
        let db = dir.path().join(name);
        let mut args = vec!["build", "--level", "expert", "--count", "640", "--db"];
        args.push(db.to_str().unwrap());
        args.extend(extra);
        let out = run_cli(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        (Connection::open(&db).unwrap(), text(&out.stdout))
    };
    let main = pseudoku::seeds::Library::shipped().seeds.len() as i64;
    let (conn, stdout) = build("half-turn.db", &["--symmetry", "rotate180"]);
    assert_eq!(
        scalar::<i64>(&conn, "SELECT COUNT(*) FROM seeds"),
        main + 640 / 32
    );
    assert!(stdout.contains("from 275 seeds"), "{stdout}");
    let from_symmetric: i64 = scalar(
        &conn,
        &format!("SELECT COUNT(*) FROM puzzles WHERE seed_id > {main}"),
    );
    assert!(from_symmetric > 0, "{stdout}");
    let (conn, stdout) = build("free.db", &["--symmetry", "none"]);
    assert_eq!(scalar::<i64>(&conn, "SELECT COUNT(*) FROM seeds"), main);
    assert!(stdout.contains("from 255 seeds"), "{stdout}");
}

#[test]
fn trial_the_old_name_of_beyond_wings_is_still_read() {
    use pseudoku::bank::{parse_techniques, Technique};
    assert_eq!(Technique::BeyondWings.name(), "beyond-wings");
    for name in ["beyond-wings", "trial", " trial "] {
        assert_eq!(
            Technique::from_name(name),
            Some(Technique::BeyondWings),
            "{name}"
        );
    }
    assert_eq!(
        parse_techniques("pairs..trial"),
        Ok((Technique::Pairs, Technique::BeyondWings))
    );
    assert_eq!(
        parse_techniques("pairs..trial"),
        parse_techniques("pairs..beyond-wings")
    );
    // A stored layout with the old name reads, and is shown by the new one.
    let layout: pseudoku::bank::Layout = "minimal techniques=locked-candidates..trial"
        .parse()
        .unwrap();
    assert_eq!(
        layout.to_string(),
        "minimal techniques=locked-candidates..beyond-wings"
    );
    // The bank stores the rank, unchanged.
    assert_eq!(Technique::BeyondWings.rank(), 5);
    assert_eq!(Technique::from_rank(5), Some(Technique::BeyondWings));
}
