//! `stats --plot`: SVG or PNG by the file's extension, the levels, axis names and legends on
//! the page, the same bytes for the same bank, and a wrong extension refused before any work;
//! `stats --json` carries the technique families and clue counts per level the plot draws.

use crate::common::*;

use std::path::Path;

/// `stats --plot FILE` on `db`: its exit code and standard error.
fn plot(db: &Path, file: &Path) -> (i32, String) {
    let out = on_bank!(db; "stats", "--plot", file).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A PNG's width and height, from its IHDR chunk (which follows the 8 magic bytes).
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "PNG magic bytes");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn plots_are_svg_or_png_by_extension_and_the_same_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 8, 2);
    let out = on_bank!(&db; "stats", "--json").output().unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let levels: Vec<String> = s["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["level"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(levels.len(), 4);
    // Every family, easiest first, and every clue count, each with one count per level,
    // adding up to the level's puzzles.
    let families: Vec<&str> = s["techniques"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["technique"].as_str().unwrap())
        .collect();
    assert_eq!(
        families,
        pseudoku::technique::Technique::ALL.map(|t| t.name())
    );
    for (key, rows) in [("techniques", &s["techniques"]), ("clues", &s["clues"])] {
        for (i, l) in s["levels"].as_array().unwrap().iter().enumerate() {
            let sum: u64 = rows
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["per_level"][i].as_u64().unwrap())
                .sum();
            assert_eq!(sum, l["puzzles"].as_u64().unwrap(), "{key}, level {i}");
        }
    }
    let clues: Vec<u64> = s["clues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["clues"].as_u64().unwrap())
        .collect();
    assert!(clues.windows(2).all(|w| w[1] == w[0] + 1) && clues[0] >= 17);
    // The text form has the same tables.
    let text = on_bank!(&db; "stats").output().unwrap().stdout;
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains(&format!("\nhardest technique\t{}\n", levels.join("\t"))));
    assert!(text.contains(&format!("\nclues\t{}\n", levels.join("\t"))));

    // SVG: the level names, the axis names and the legends are text on it.
    let (a, b) = (dir.path().join("a.svg"), dir.path().join("b.SVG"));
    for f in [&a, &b] {
        assert_eq!(plot(&db, f), (0, String::new()), "{}", f.display());
    }
    let svg = std::fs::read_to_string(&a).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let line = |t: &str| svg.contains(&format!("\n{t}\n"));
    for l in &levels {
        assert!(line(l), "level {l}");
    }
    for t in [
        "difficulty",
        "share of puzzles (%)",
        "share of the level (%)",
        "level (puzzles)",
        "clues",
        "bank (32 puzzles)",
        "reference (10,000 puzzles)",
        "locked-candidates",
        "x-wing-or-xy-wing",
    ] {
        assert!(line(t), "{t}");
    }
    assert_eq!(svg.as_bytes(), std::fs::read(&b).unwrap(), "same bytes");

    // PNG: the page's size, the same bytes twice.
    let (a, b) = (dir.path().join("a.png"), dir.path().join("b.PNG"));
    for f in [&a, &b] {
        assert_eq!(plot(&db, f), (0, String::new()), "{}", f.display());
    }
    let png = std::fs::read(&a).unwrap();
    assert_eq!(png_size(&png), pseudoku::inventory::plot::SIZE);
    assert_eq!(png, std::fs::read(&b).unwrap(), "same bytes");
}

#[test]
fn an_unknown_extension_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    // No bank: the extension is refused before the bank is looked for.
    let db = dir.path().join("missing.db");
    for (name, why) in [
        ("bank.jpg", "unknown extension \".jpg\""),
        ("bank.svg.gz", "unknown extension \".gz\""),
        ("bank", "no extension"),
    ] {
        let file = dir.path().join(name);
        let out = on_bank!(&db; "stats", "--plot", &file).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&file.display().to_string())
                && err.contains(why)
                && err.contains("FILE.svg")
                && err.contains("FILE.png"),
            "{name}: {err}"
        );
        assert!(out.stdout.is_empty(), "{name}");
        assert!(!file.exists() && !db.exists(), "{name}");
    }
}

#[test]
fn a_plot_is_what_is_printed_and_a_missing_folder_is_said_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 5, 2);
    let file = dir.path().join("bank.svg");
    let out = on_bank!(&db; "stats", "--plot", &file).output().unwrap();
    assert!(out.status.success());
    let said = text(&out.stdout);
    assert_eq!(said.lines().count(), 1, "no table beside the plot: {said}");
    assert!(said.contains("bank.svg"), "{said}");
    let missing = dir.path().join("no/such/folder/bank.png");
    let (code, err) = plot(&db, &missing);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot write the plot: No such file or directory"),
        "{err}"
    );
    assert!(!err.contains("Os {"), "no debug text: {err}");
}

#[test]
fn the_solution_grids_of_each_level_are_counted_as_solving_its_puzzles_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    crate::common::build_levels(&db, 40, 2);
    let out = crate::common::run_cli(&["stats", "--json", "--db", db.to_str().unwrap()]);
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut stmt = conn
        .prepare("SELECT level, puzzle FROM puzzles_text")
        .unwrap();
    let rows: Vec<(i64, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (i, level) in stats["levels"].as_array().unwrap().iter().enumerate() {
        let mut per_grid = std::collections::HashMap::new();
        for (_, line) in rows.iter().filter(|(l, _)| *l == i as i64) {
            let puzzle = pseudoku::Puzzle::parse_line(line).unwrap();
            let grid = pseudoku::solve(&puzzle).unique().unwrap();
            *per_grid
                .entry(pseudoku::canon::canonical_grid(&grid).key())
                .or_insert(0u64) += 1;
        }
        assert_eq!(level["grids"], per_grid.len() as u64, "{level}");
        assert_eq!(
            level["most_of_a_grid"],
            *per_grid.values().max().unwrap(),
            "{level}"
        );
    }
    let text = crate::common::run_cli(&["stats", "--db", db.to_str().unwrap()]);
    assert!(crate::common::text(&text.stdout).contains("grids (puzzles a grid: mean, most)"));
}
