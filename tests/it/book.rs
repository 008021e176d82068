//! Books without dates: recorded under a name and written again byte for byte, never a class
//! an earlier book or export used, refused under another mix, drawn anew by `--replace`.

use crate::common::*;
use rusqlite::Connection;
use std::collections::HashSet;
use std::path::Path;

fn book(db: &Path, out: &Path, args: &[&str]) -> std::process::Output {
    run_out("book", db, out, args)
}

/// The ids of a book's CSV file (its `id` column).
fn ids(csv: &Path) -> Vec<i64> {
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    let column = lines
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == "id")
        .unwrap();
    lines
        .map(|l| l.split(',').nth(column).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn a_book_is_written_again_identical_and_never_repeats_a_class() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 40, 2);
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    // A week of daily files first: a book never takes their puzzles.
    let o = on_bank!(
        &db;
        "export",
        "--start",
        "2028-01-01",
        "--days",
        "7",
        "--mix",
        "easy:1,hard:1",
        "--format",
        "csv",
        "--out",
        dir.path().join("week"),
    )
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.path().join("books");
    let one = [
        "--name",
        "volume-1",
        "--mix",
        "easy:10,hard:5",
        "--format",
        "csv",
    ];
    let o = book(&db, &out, &one);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("wrote the book volume-1: 15 puzzles (15 new, 0 as recorded before)")
    );
    let file = out.join("volume-1.csv");
    let first = std::fs::read(&file).unwrap();
    let first_ids = ids(&file);
    assert_eq!(first_ids.len(), 15);
    // Numbered from 1 in the order of the mix, no dates.
    let text = String::from_utf8(first.clone()).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert!(
        rows[0].starts_with(",1,easy,") && rows[14].starts_with(",15,hard,"),
        "{text}"
    );
    // The same command: the same bytes, nothing new drawn.
    let o = book(&db, &out, &one);
    assert!(o.status.success());
    assert!(
        stderr(&o).contains("(0 new, 15 as recorded before)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&file).unwrap(), first);
    // Another mix under the name is refused, the recorded one named; nothing changes.
    let o = book(
        &db,
        &out,
        &[
            "--name",
            "volume-1",
            "--mix",
            "easy:10,hard:6",
            "--format",
            "csv",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the book volume-1 was recorded with the mix easy:10,hard:5;"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&file).unwrap(), first);
    // A second book: no class of the first, nor of the week's exports.
    let o = book(
        &db,
        &out,
        &[
            "--name",
            "volume-2",
            "--mix",
            "easy:10,hard:5",
            "--format",
            "csv",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let second_ids = ids(&out.join("volume-2.csv"));
    let conn = Connection::open(&db).unwrap();
    let week: HashSet<i64> = column::<i64>(
        &conn,
        "SELECT puzzle_id FROM batches WHERE date NOT LIKE 'book:%'",
    )
    .into_iter()
    .collect();
    assert_eq!(week.len(), 14);
    let mut all: HashSet<i64> = week.clone();
    for id in first_ids.iter().chain(&second_ids) {
        assert!(all.insert(*id), "puzzle {id} used twice");
    }
    // Every puzzle of a book is served: neither `get` nor an export hands it out.
    let unserved: i64 = scalar(
        &conn,
        "SELECT COUNT(*) FROM batches b JOIN puzzles p ON p.id = b.puzzle_id \
         WHERE b.date LIKE 'book:%' AND p.served_at IS NULL",
    );
    assert_eq!(unserved, 0);
    // A book's puzzle is not put back while the book holds it.
    let o = on_bank!(&db; "unserve", "--id", &first_ids[0].to_string())
        .output()
        .unwrap();
    assert!(
        stderr(&o).contains(&format!(
            "puzzle {} is number 1 of the book volume-1: left served",
            first_ids[0]
        )),
        "{}",
        stderr(&o)
    );
    // --replace draws the book anew and says what it replaced; its old puzzles stay used.
    let o = book(
        &db,
        &out,
        &[
            "--name",
            "volume-1",
            "--mix",
            "hard:3",
            "--format",
            "csv",
            "--replace",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "replaced the book volume-1 recorded with the mix easy:10,hard:5: 15 puzzles retired"
        ),
        "{}",
        stderr(&o)
    );
    let third = ids(&file);
    assert_eq!(third.len(), 3);
    assert!(third.iter().all(|id| !all.contains(id)));
}

#[test]
fn a_short_or_misnamed_book_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 10, 2);
    let out = dir.path().join("books");
    // More than the bank holds: which level and how many, exit 1, nothing recorded or made.
    let o = book(&db, &out, &["--name", "big", "--mix", "easy:5,expert:50"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("level expert: 40 puzzles missing"));
    assert!(!out.exists());
    let conn = Connection::open(&db).unwrap();
    assert_eq!(scalar::<i64>(&conn, "SELECT COUNT(*) FROM batches"), 0);
    assert_eq!(
        scalar::<i64>(
            &conn,
            "SELECT COUNT(*) FROM puzzles WHERE served_at IS NOT NULL"
        ),
        0
    );
    // A name that cannot name a file is a usage error.
    for name in ["", "../up", "a b", ".hidden"] {
        let o = book(&db, &out, &["--name", name, "--mix", "easy:1"]);
        assert_eq!(o.status.code(), Some(2), "{name:?}");
        assert!(!out.exists());
    }
}

/// The ids of a daily CSV export's files.
fn exported_ids(dir: &Path) -> HashSet<i64> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .flat_map(|p| ids(&p))
        .collect()
}

#[test]
fn a_reprint_takes_published_puzzles_only_when_told_to() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 20, 2);
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let export = |start: &str, days: &str, out: &Path| {
        let o = on_bank!(
            &db;
            "export",
            "--start",
            start,
            "--days",
            days,
            "--mix",
            "easy:1",
            "--format",
            "csv",
            "--out",
            out,
        )
        .output()
        .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        exported_ids(out)
    };
    // Two weeks of one easy puzzle a day, published; one more scheduled for a day to come.
    let published = export("2025-01-01", "14", &dir.path().join("past"));
    let scheduled = export("2099-01-01", "1", &dir.path().join("future"));
    assert_eq!((published.len(), scheduled.len()), (14, 1));
    let out = dir.path().join("books");
    // Without being told: 5 unserved easy puzzles are left, a book of 19 runs short.
    let all = ["--name", "best-of", "--mix", "easy:19", "--format", "csv"];
    let o = book(&db, &out, &all);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("easy: 14 puzzles missing"),
        "{}",
        stderr(&o)
    );
    // Told to: every easy puzzle once, the 14 published included, not the one to come.
    let mut told = all.to_vec();
    told.push("--reprint");
    let o = book(&db, &out, &told);
    assert!(o.status.success(), "{}", stderr(&o));
    let file = out.join("best-of.csv");
    let bytes = std::fs::read(&file).unwrap();
    let drawn: Vec<i64> = ids(&file);
    let distinct: HashSet<i64> = drawn.iter().copied().collect();
    assert_eq!((drawn.len(), distinct.len()), (19, 19));
    assert!(published.is_subset(&distinct));
    assert!(scheduled.is_disjoint(&distinct));
    // Written again from its record, with or without the flag: the same bytes.
    for args in [&told[..], &all[..]] {
        let o = book(&db, &out, args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(std::fs::read(&file).unwrap(), bytes);
    }
    // Drawn anew, a reprint never takes a puzzle of the book's earlier versions: 19 reprintable
    // puzzles hold three versions of 5, not a fourth.
    let mut seen: HashSet<i64> = HashSet::new();
    let again = [
        "--name",
        "five",
        "--mix",
        "easy:5",
        "--format",
        "csv",
        "--reprint",
    ];
    for version in 0..4 {
        let mut args = again.to_vec();
        if version > 0 {
            args.push("--replace");
        }
        let o = book(&db, &out, &args);
        if version == 3 {
            assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
            assert!(
                stderr(&o).contains("easy: 1 puzzles missing"),
                "{}",
                stderr(&o)
            );
            break;
        }
        assert!(o.status.success(), "{}", stderr(&o));
        let v: HashSet<i64> = ids(&out.join("five.csv")).into_iter().collect();
        assert_eq!(v.len(), 5);
        assert!(
            v.is_disjoint(&seen),
            "version {version} reuses an earlier one"
        );
        assert!(v.is_disjoint(&scheduled));
        seen.extend(v);
    }
    // The reprint marked the 5 left served: no book without --reprint draws an easy puzzle.
    let o = book(
        &db,
        &out,
        &["--name", "more", "--mix", "easy:1", "--format", "csv"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let conn = Connection::open(&db).unwrap();
    let reprints: i64 = conn
        .query_row("SELECT count(*) FROM batches WHERE reprint = 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(reprints, 19 + 15);
    let o = on_bank!(&db; "verify").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_long_title_wraps_on_the_title_page_and_cover_and_one_too_long_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 3, 2);
    let out = dir.path().join("books");
    // Too long for three lines of 16 pt on a 6 in page: refused, naming the limit; nothing
    // written.
    let long = "A Very Long Title ".repeat(20);
    let o = book(
        &db,
        &out,
        &[
            "--name", "long", "--mix", "easy:2", "--page", "6x9", "--cover", "--title", &long,
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("the title is too long") && err.contains("16 pt"),
        "{err}"
    );
    assert!(!out.exists());
    // A title of two lines is printed whole, at a size a reader sees: both lines in the PDF.
    let title = "The Complete Weekend Collection of Hand-Graded Sudoku Puzzles";
    let o = book(
        &db,
        &out,
        &[
            "--name", "weekend", "--mix", "easy:2", "--page", "6x9", "--cover", "--title", title,
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.join("weekend.pdf").exists() && out.join("weekend-cover.pdf").exists());
    // A margin too wide for the page says the page's size once, in inches.
    let o = book(
        &db,
        &out,
        &[
            "--name", "narrow", "--mix", "easy:1", "--page", "6x9", "--margin", "2in",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("(6 in by 9 in)") && !err.contains("in in"),
        "{err}"
    );
}

#[test]
fn a_books_check_lists_the_printers_rules_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 30, 2);
    let out = dir.path().join("books");
    let recorded = || -> i64 {
        scalar(
            &Connection::open(&db).unwrap(),
            "SELECT COUNT(*) FROM batches",
        )
    };
    let rules = [
        "trim size",
        "bleed",
        "margins",
        "safe zone",
        "gutter",
        "page count",
        "spine text",
        "barcode area",
        "fonts embedded",
        "type size",
    ];
    // A 6x9 book of 60 with its cover: every rule passes; nothing recorded or written.
    let o = book(
        &db,
        &out,
        &[
            "--name",
            "trade",
            "--mix",
            "easy:20,medium:20,hard:20",
            "--page",
            "6x9",
            "--bleed",
            "--cover",
            "--check",
        ],
    );
    let report = text(&o.stdout);
    assert!(o.status.success(), "{report}{}", text(&o.stderr));
    assert!(
        report.contains("interior trade.pdf") && report.contains("cover trade-cover.pdf"),
        "{report}"
    );
    for r in rules {
        assert!(report.contains(&format!("pass  {r}")), "{r}: {report}");
    }
    assert!(!report.contains("FAIL"));
    assert!(text(&o.stderr).contains("every rule passes"));
    assert!(!out.exists());
    assert_eq!(recorded(), 0);
    // Written for real, the same book: its files are what the check checked.
    let o = book(
        &db,
        &out,
        &[
            "--name",
            "trade",
            "--mix",
            "easy:20,medium:20,hard:20",
            "--page",
            "6x9",
            "--bleed",
            "--cover",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(recorded(), 60);
    // A book of 6 puzzles is under KDP's 24 pages, and its spine too thin for text: the page
    // count fails (exit 1), the spine text is none and says why.
    let o = book(
        &db,
        &out,
        &[
            "--name", "thin", "--mix", "easy:6", "--page", "6x9", "--cover", "--check",
        ],
    );
    let report = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{report}");
    assert!(report.contains("FAIL  page count"), "{report}");
    assert!(report.contains("pass  spine text      none: "), "{report}");
    assert!(text(&o.stderr).contains("rule(s) fail"));
    // A wrong ISBN is refused before anything is drawn.
    let o = book(
        &db,
        &out,
        &[
            "--name",
            "isbn",
            "--mix",
            "easy:2",
            "--isbn",
            "978-0-306-40615-8",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("is not an ISBN"),
        "{}",
        text(&o.stderr)
    );
    // A daily export's check preflights its PDFs too, the page count said, not held to.
    let o = on_bank!(
        &db;
        "export", "--start", "2028-03-06", "--days", "2", "--mix", "easy:2", "--format", "pdf",
        "--out", dir.path().join("days"), "--check",
    )
    .output()
    .unwrap();
    let report = text(&o.stdout);
    assert!(o.status.success(), "{report}{}", text(&o.stderr));
    assert_eq!(report.matches("interior 2028-03-0").count(), 2, "{report}");
    assert!(
        report.contains("note  page count") && !report.contains("FAIL"),
        "{report}"
    );
    assert!(!dir.path().join("days").exists());
    // A check needs no folder (this book of 2 is under 24 pages: exit 1, not a usage error).
    let o = on_bank!(&db; "book", "--name", "nofolder", "--mix", "easy:2", "--check")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("interior nofolder.pdf"));
    // 5 of a level at 2 a page on a 6x9 page: one grid alone on its level's last page,
    // named in a warning.
    let o = book(
        &db,
        &out,
        &["--name", "odd", "--mix", "easy:5,hard:5", "--page", "6x9"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("odd.pdf: pages 7, 10 hold a lone grid"),
        "{err}"
    );
}

#[test]
fn a_book_holds_no_solution_grid_twice_until_a_level_runs_out_of_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 40, 2);
    let out = run_cli(&["stats", "--json", "--db", db.to_str().unwrap()]);
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let levels = stats["levels"].as_array().unwrap();
    let grids = |name: &str| -> u64 {
        let l = levels.iter().find(|l| l["level"] == name).unwrap();
        assert_eq!(l["puzzles"], 40);
        l["grids"].as_u64().unwrap()
    };
    let conn = Connection::open(&db).unwrap();
    let in_book = |name: &str| -> (i64, i64) {
        conn.query_row(
            "SELECT count(*), count(DISTINCT grid_key) FROM batches WHERE date = ?1",
            [format!("book:{name}")],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    };
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    // Two levels with grids to spare: every puzzle of its own grid, nothing said.
    let o = book(
        &db,
        &dir.path().join("one"),
        &[
            "--name",
            "one",
            "--mix",
            "easy:10,medium:10",
            "--format",
            "csv",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(in_book("one"), (20, 20));
    assert!(!stderr(&o).contains("solution grid"), "{}", stderr(&o));
    // Every puzzle of the level with the fewest grids: each grid once, then the repeats the
    // level cannot avoid, said.
    let fewest = ["hard", "expert"]
        .into_iter()
        .min_by_key(|l| grids(l))
        .unwrap();
    let g = grids(fewest);
    assert!(
        g < 40,
        "every puzzle of {fewest} of its own grid: nothing to repeat"
    );
    let mix = format!("{fewest}:40");
    let o = book(
        &db,
        &dir.path().join("two"),
        &["--name", "two", "--mix", &mix, "--format", "csv"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(in_book("two"), (40, g as i64));
    let repeats = 40 - g;
    assert!(
        stderr(&o).contains(&format!(
            "the book holds {repeats} puzzle{} with a solution grid already in it",
            if repeats == 1 { "" } else { "s" }
        )),
        "{}",
        stderr(&o)
    );
}
