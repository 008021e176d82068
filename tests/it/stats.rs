//! `stats --plot`: SVG or PNG by the file's extension, the levels, axis names and legends on
//! the page, the same bytes for the same bank, and a wrong extension refused before any work;
//! `stats --json` carries the technique families and clue counts per level the plot draws, and
//! each level's quartiles of `difficulty` and clues as its rows have them and the shares of its
//! quarters; no label (`rate`, `stats`, the plot) says trial where the hardest step is none.

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
    assert!(text.contains(&format!("\nhsolve family\t{}\n", levels.join("\t"))));
    assert!(text.contains(&format!(
        "\ntechnique needed (hardest step)\t{}\n",
        levels.join("\t")
    )));
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
        "beyond-wings",
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

/// The p-quantile of `sorted` as a spreadsheet's `QUARTILE.INC` computes it: at rank
/// h = (n - 1) p, interpolated between the two nearest values.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let k = h.floor() as usize;
    match sorted.get(k + 1) {
        Some(&next) => sorted[k] + (h - k as f64) * (next - sorted[k]),
        None => sorted[k],
    }
}

#[test]
fn stats_gives_each_levels_quartiles_as_its_rows_have_them_and_quarters_summing_to_100() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 6, 2);
    let out = on_bank!(&db; "stats", "--json").output().unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = text(&on_bank!(&db; "stats").output().unwrap().stdout);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let levels = s["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 4);
    // The table's two-line header, then a line a level.
    let at = text
        .lines()
        .position(|l| {
            l.split_whitespace()
                .eq(["difficulty", "clues", "quarters", "of", "the", "range"])
        })
        .expect(&text);
    let lines: Vec<&str> = text.lines().skip(at + 1).collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["level", "Q1", "median", "Q3", "Q1", "median", "Q3", "1st", "2nd", "3rd", "4th"]
    );
    let mut with_quarters = 0;
    for (i, l) in levels.iter().enumerate() {
        let name = l["level"].as_str().unwrap();
        let values = |sql: &str| -> Vec<f64> {
            let mut v: Vec<f64> = conn
                .prepare(sql)
                .unwrap()
                .query_map([i as i64], |r| r.get::<_, f64>(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let difficulty = values("SELECT difficulty FROM puzzles_text WHERE level = ?1");
        let clues = values("SELECT clues FROM puzzles_text WHERE level = ?1");
        assert_eq!(
            difficulty.len() as u64,
            l["puzzles"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(clues.len(), difficulty.len(), "{name}");
        let mut cells = vec![name.to_string()];
        for (key, sorted, decimals) in [
            ("difficulty_quartiles", &difficulty, 3),
            ("clue_quartiles", &clues, 2),
        ] {
            for (p, q) in [(0.25, "q1"), (0.5, "median"), (0.75, "q3")] {
                let want = quantile(sorted, p);
                let got = l[key][q].as_f64().unwrap();
                assert!(
                    (got - want).abs() < 1e-6,
                    "{name} {key} {q}: {got} != {want}"
                );
                // The text shows the JSON's value.
                let shown = format!("{got:.decimals$}");
                cells.push(if decimals == 2 {
                    shown
                        .trim_end_matches('0')
                        .trim_end_matches('.')
                        .to_string()
                } else {
                    shown
                });
            }
        }
        // The quarters: four shares in percent, summing to exactly 100 (none for the levels
        // without a spread).
        match l["quarters"].as_array() {
            Some(q) => {
                with_quarters += 1;
                let shares: Vec<f64> = q.iter().map(|x| x.as_f64().unwrap()).collect();
                assert_eq!(shares.len(), 4, "{name}");
                assert!(shares.iter().all(|x| (0.0..=100.0).contains(x)), "{name}");
                assert!(
                    (shares.iter().sum::<f64>() - 100.0).abs() < 1e-9,
                    "{name}: {shares:?}"
                );
                cells.extend(shares.iter().map(|x| format!("{x:.1}%")));
            }
            None => cells.extend(["-"; 4].map(str::to_string)),
        }
        assert_eq!(
            lines[1 + i].split_whitespace().collect::<Vec<_>>(),
            cells,
            "{name}"
        );
    }
    assert!(with_quarters >= 3, "{s}");
}

#[test]
fn no_label_says_trial_where_the_hardest_step_is_no_trial() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build_levels(&db, 6, 2);
    let conn = rusqlite::Connection::open(&db).unwrap();
    // Expert and hard puzzles: most are past hsolve's X-wing and XY-wing.
    let puzzles: Vec<String> = column(
        &conn,
        "SELECT puzzle FROM puzzles_text WHERE level >= 2 ORDER BY id",
    );
    let out = pseudoku()
        .args(["rate", "--json", "--db"])
        .arg(&db)
        .write_stdin(puzzles.join("\n") + "\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let trials = ["backtracking", "trial and error"];
    let mut beyond = 0;
    for line in text(&out.stdout).lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        // `technique` is the ladder's hardest step; hsolve's family has its own key.
        assert_eq!(r["technique"], r["hardest_step"], "{line}");
        let family = r["hsolve_family"].as_str().unwrap();
        assert!(
            pseudoku::technique::Technique::from_name(family).is_some() && family != "trial",
            "{line}"
        );
        beyond += usize::from(family == "beyond-wings");
        let step = r["technique"].as_str().unwrap();
        if r["level"] == "expert" {
            assert!(
                !trials.contains(&step),
                "expert needs no assumption: {line}"
            );
        }
        assert!(trials.contains(&step) || !step.contains("trial"), "{line}");
    }
    assert!(beyond > 0, "some puzzles are past X-wing and XY-wing");
    // `stats`: the hardest steps are the technique needed; hsolve's families name none trial.
    let stats = text(&on_bank!(&db; "stats").output().unwrap().stdout);
    assert!(
        stats.contains("\ntechnique needed (hardest step)\t"),
        "{stats}"
    );
    assert!(stats.contains("\nhsolve family\t"), "{stats}");
    assert!(stats.contains("\nbeyond-wings\t"), "{stats}");
    assert!(!stats.contains("\ntrial\t"), "{stats}");
    // And the plot's legend.
    let svg = dir.path().join("bank.svg");
    assert_eq!(plot(&db, &svg), (0, String::new()));
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("\nbeyond-wings\n") && !svg.contains("\ntrial\n"));
    assert!(svg.contains("technique family, per level\n"));
    assert!(!svg.contains("Hardest technique"));
}
