//! `dataset`: train, validation and test files that never split a solution grid (checked by
//! an invariant of grids computed here, apart from the program's canonical form), the same
//! files again from the same bank and command, a puzzle's split unchanged when the bank grows,
//! the three formats holding the same rows (Parquet read back), levels and counts.

use crate::common::{build, text};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// `dataset --out OUT --db DB ARGS...`, which must succeed.
fn dataset(db: &Path, out: &Path, args: &[&str]) {
    let o = on_bank!(db; "dataset", "--out", out)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
}

/// The rows of a CSV file of a dataset: header name -> value, per row.
fn csv_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let body = std::fs::read_to_string(path).unwrap();
    let mut lines = body.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

/// The six orders of three things.
const PERMS3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// An invariant of a solution grid under the symmetries of Sudoku (line moves inside bands
/// and stacks, band and stack moves, the transpose, relabelling the digits): the canonical
/// forms of its three bands and of its three stacks, each as the least of its 7,776
/// arrangements with digits numbered by first appearance, sorted, and the two lists in order.
/// Grids of one class have the same invariant, so two grids with different invariants are of
/// different classes.
fn grid_invariant(grid: &str) -> Vec<Vec<u8>> {
    let g: Vec<u8> = grid.bytes().map(|b| b - b'0').collect();
    let cell = |r: usize, c: usize, transposed: bool| {
        if transposed {
            g[c * 9 + r]
        } else {
            g[r * 9 + c]
        }
    };
    let mut sides = Vec::new();
    for transposed in [false, true] {
        let mut bands: Vec<Vec<u8>> = (0..3)
            .map(|b| {
                let mut least: Option<Vec<u8>> = None;
                for rows in PERMS3 {
                    for stacks in PERMS3 {
                        for c0 in PERMS3 {
                            for c1 in PERMS3 {
                                for c2 in PERMS3 {
                                    let cols: Vec<usize> = stacks
                                        .iter()
                                        .zip([c0, c1, c2])
                                        .flat_map(|(&s, p)| p.map(|c| s * 3 + c))
                                        .collect();
                                    let mut label = [0u8; 10];
                                    let mut next = 1;
                                    let mut form = Vec::with_capacity(27);
                                    for &r in &rows {
                                        for &c in &cols {
                                            let d = cell(b * 3 + r, c, transposed) as usize;
                                            if label[d] == 0 {
                                                label[d] = next;
                                                next += 1;
                                            }
                                            form.push(label[d]);
                                        }
                                    }
                                    if least.as_ref().is_none_or(|l| form < *l) {
                                        least = Some(form);
                                    }
                                }
                            }
                        }
                    }
                }
                least.unwrap()
            })
            .collect();
        bands.sort();
        sides.push(bands.concat());
    }
    sides.sort();
    sides
}

/// True when `b` is `a` (two grids, or two puzzles with `.` for empty) under some symmetry of
/// Sudoku: a transpose or not, an order of the bands and of the rows inside each, of the
/// stacks and of the columns inside each, and a relabelling of the digits (an empty cell stays
/// empty). Tried one by one (3,359,232 maps, each left at its first clash): the program's
/// canonical form plays no part.
fn same_class(a: &str, b: &str) -> bool {
    let cells = |s: &str| -> Vec<u8> {
        s.bytes()
            .map(|x| if x == b'.' { 0 } else { x - b'0' })
            .collect()
    };
    let (a, b) = (cells(a), cells(b));
    // Every order of 9 lines that keeps bands together: 6 band orders x 6^3 inner orders.
    let mut lines: Vec<[usize; 9]> = Vec::new();
    for bands in PERMS3 {
        for p0 in PERMS3 {
            for p1 in PERMS3 {
                for p2 in PERMS3 {
                    let mut order = [0; 9];
                    for (i, (band, inner)) in bands.iter().zip([p0, p1, p2]).enumerate() {
                        for (j, r) in inner.iter().enumerate() {
                            order[i * 3 + j] = band * 3 + r;
                        }
                    }
                    lines.push(order);
                }
            }
        }
    }
    for transposed in [false, true] {
        let cell = |r: usize, c: usize| {
            if transposed {
                a[c * 9 + r]
            } else {
                a[r * 9 + c]
            }
        };
        for rows in &lines {
            for cols in &lines {
                // map[d]: what digit d of a becomes (10: not yet known); empty stays empty.
                let mut map = [10u8; 10];
                map[0] = 0;
                let mut taken = [false; 10];
                let mut ok = true;
                'cells: for (r, &sr) in rows.iter().enumerate() {
                    for (c, &sc) in cols.iter().enumerate() {
                        let (x, y) = (cell(sr, sc), b[r * 9 + c]);
                        if map[x as usize] == 10 && y != 0 && !taken[y as usize] {
                            map[x as usize] = y;
                            taken[y as usize] = true;
                        } else if map[x as usize] != y {
                            ok = false;
                            break 'cells;
                        }
                    }
                }
                if ok {
                    return true;
                }
            }
        }
    }
    false
}

#[test]
fn splits_by_grid_never_share_a_grid_and_the_same_command_makes_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 400, 2);
    let out = dir.path().join("set");
    dataset(&db, &out, &["--group", "grid", "--split", "0.6,0.2,0.2"]);
    // No two puzzles of one grid in two splits: grids whose invariants differ are of different
    // classes; where two of different splits have the same invariant, the maps decide.
    let mut split_of: HashMap<Vec<Vec<u8>>, (&str, String)> = HashMap::new();
    let mut invariants: HashMap<String, Vec<Vec<u8>>> = HashMap::new();
    let mut counts = HashMap::new();
    let mut keys = HashSet::new();
    for split in ["train", "validation", "test"] {
        let rows = csv_rows(&out.join(format!("{split}.csv")));
        counts.insert(split, rows.len());
        for row in rows {
            assert!(keys.insert(row["class_key"].clone()), "a class twice");
            let inv = invariants
                .entry(row["solution"].clone())
                .or_insert_with(|| grid_invariant(&row["solution"]))
                .clone();
            let (first, grid) = split_of
                .entry(inv)
                .or_insert((split, row["solution"].clone()))
                .clone();
            assert!(
                first == split || !same_class(&grid, &row["solution"]),
                "the grid of {} is in {first} and {split}",
                row["puzzle"]
            );
        }
    }
    assert_eq!(keys.len(), 400);
    // The shares, roughly (groups of several puzzles move together).
    assert!(
        counts["train"] > counts["validation"] && counts["train"] > counts["test"],
        "{counts:?}"
    );
    assert!(counts["validation"] > 0 && counts["test"] > 0, "{counts:?}");
    // Several puzzles of one grid: the grouping had something to keep together.
    assert!(split_of.len() < 400, "{} grids", split_of.len());
    // The maps agree with the program's grid keys on a few pairs: equal keys, one grid.
    let rows = csv_rows(&out.join("train.csv"));
    let mut by_key: HashMap<&str, Vec<&str>> = HashMap::new();
    for r in &rows {
        by_key
            .entry(&r["grid_key"])
            .or_default()
            .push(&r["solution"]);
    }
    let shared: Vec<&Vec<&str>> = by_key.values().filter(|v| v.len() > 1).take(3).collect();
    assert!(!shared.is_empty());
    for grids in shared {
        assert!(same_class(grids[0], grids[1]));
    }
    let keys: Vec<&&str> = by_key.keys().take(2).collect();
    assert!(!same_class(by_key[*keys[0]][0], by_key[*keys[1]][0]));

    // The same command again: the same files, byte for byte (the manifest names the folder).
    let again = dir.path().join("again");
    dataset(&db, &again, &["--group", "grid", "--split", "0.6,0.2,0.2"]);
    for split in ["train", "validation", "test"] {
        for ext in ["csv", "jsonl", "parquet"] {
            let name = format!("{split}.{ext}");
            assert_eq!(
                std::fs::read(out.join(&name)).unwrap(),
                std::fs::read(again.join(&name)).unwrap(),
                "{name}"
            );
        }
    }
    // Only the set's files: the temporary names they were written under are gone.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 10, "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["group"], "grid");
    assert_eq!(manifest["rows"]["train"], counts["train"]);
    assert_eq!(manifest["files"].as_array().unwrap().len(), 9);
    let digest = blake3::hash(&std::fs::read(out.join("test.parquet")).unwrap());
    assert!(manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["name"] == "test.parquet" && f["blake3"] == digest.to_hex().as_str()));
}

#[test]
fn splits_by_class_never_share_a_class() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 300, 2);
    let out = dir.path().join("set");
    dataset(&db, &out, &["--format", "csv", "--split", "0.5,0.25,0.25"]);
    // Two puzzles of one class have the same clues and grids of one class: only such pairs of
    // different splits need the search of the maps.
    // (puzzle, solution, split, the grid's invariant and the clue count)
    type Seen = (String, String, &'static str, (Vec<Vec<u8>>, usize));
    let mut rows: Vec<Seen> = Vec::new();
    for split in ["train", "validation", "test"] {
        for row in csv_rows(&out.join(format!("{split}.csv"))) {
            let clues = row["puzzle"].bytes().filter(|&b| b != b'.').count();
            let inv = (grid_invariant(&row["solution"]), clues);
            rows.push((row["puzzle"].clone(), row["solution"].clone(), split, inv));
        }
    }
    assert_eq!(rows.len(), 300);
    let mut compared = 0;
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            if a.2 != b.2 && a.3 == b.3 && same_class(&a.1, &b.1) {
                compared += 1;
                assert!(
                    !same_class(&a.0, &b.0),
                    "{} ({}) and {} ({}) are one class",
                    a.0,
                    a.2,
                    b.0,
                    b.2
                );
            }
        }
    }
    // The check met puzzles of one grid in different splits (the default keeps classes, not
    // grids, together), and a puzzle is its own class under the maps.
    assert!(compared > 0);
    assert!(same_class(&rows[0].0, &rows[0].0));
}

#[test]
fn the_formats_hold_the_same_rows_and_levels_and_counts_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 300, 2);
    let out = dir.path().join("set");
    dataset(
        &db,
        &out,
        &["--level", "medium", "--level", "hard", "--per-level", "40"],
    );
    let mut levels: HashMap<String, usize> = HashMap::new();
    for split in ["train", "validation", "test"] {
        let csv = csv_rows(&out.join(format!("{split}.csv")));
        for row in &csv {
            *levels.entry(row["level"].clone()).or_default() += 1;
            // A row's solution solves its puzzle.
            assert!(row["puzzle"]
                .bytes()
                .zip(row["solution"].bytes())
                .all(|(p, s)| p == b'.' || p == s));
        }
        // JSON lines: the same rows.
        let jsonl = std::fs::read_to_string(out.join(format!("{split}.jsonl"))).unwrap();
        let json: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(json.len(), csv.len());
        for (j, c) in json.iter().zip(&csv) {
            assert_eq!(j["puzzle"], c["puzzle"].as_str());
            assert_eq!(j["id"].to_string(), c["id"]);
            assert_eq!(j["hardest_step"], c["hardest_step"].as_str());
        }
        // Parquet, read back: the same ids, puzzles and levels.
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::RowAccessor;
        let file = std::fs::File::open(out.join(format!("{split}.parquet"))).unwrap();
        let reader = SerializedFileReader::new(file).unwrap();
        let rows: Vec<(i64, String, String)> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| {
                let r = r.unwrap();
                (
                    r.get_long(0).unwrap(),
                    r.get_string(1).unwrap().clone(),
                    r.get_string(3).unwrap().clone(),
                )
            })
            .collect();
        let from_csv: Vec<(i64, String, String)> = csv
            .iter()
            .map(|c| {
                (
                    c["id"].parse().unwrap(),
                    c["puzzle"].clone(),
                    c["level"].clone(),
                )
            })
            .collect();
        assert_eq!(rows, from_csv, "{split}");
    }
    // 40 of each level, or all it has.
    let conn = rusqlite::Connection::open(&db).unwrap();
    for (name, index) in [("medium", 1), ("hard", 2)] {
        let held: usize = conn
            .query_row(
                "SELECT count(*) FROM puzzles WHERE level = ?1",
                [index],
                |r| r.get(0),
            )
            .unwrap();
        assert!(held > 0, "{name}");
        assert_eq!(levels[name], held.min(40), "{name}");
    }
    assert_eq!(levels.len(), 2, "{levels:?}");
    // A level the bank does not have is named with the bank's levels.
    let o = on_bank!(&db; "dataset", "--out", &out, "--level", "brutal")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("no level \"brutal\"")
            && text(&o.stderr).contains("easy, medium, hard, expert"),
        "{}",
        text(&o.stderr)
    );
    // Shares that do not sum to 1 are refused by the parser.
    let o = on_bank!(&db; "dataset", "--out", &out, "--split", "0.8,0.3,0.1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

#[test]
fn a_puzzle_keeps_its_split_when_the_bank_grows() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 150, 2);
    let small = dir.path().join("small");
    dataset(&db, &small, &["--format", "csv"]);
    build(&db, 300, 2);
    let large = dir.path().join("large");
    dataset(&db, &large, &["--format", "csv"]);
    let split_of = |dir: &Path| -> HashMap<String, &'static str> {
        ["train", "validation", "test"]
            .into_iter()
            .flat_map(|s| {
                csv_rows(&dir.join(format!("{s}.csv")))
                    .into_iter()
                    .map(move |r| (r["class_key"].clone(), s))
            })
            .collect()
    };
    let (before, after) = (split_of(&small), split_of(&large));
    assert_eq!(before.len(), 150);
    assert!(after.len() > 150);
    for (key, split) in &before {
        assert_eq!(after.get(key), Some(split), "{key}");
    }
    assert!(!large.join("train.parquet").exists());
}

#[test]
fn a_new_set_takes_the_old_ones_place_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    build(&db, 200, 2);
    let out = dir.path().join("s");
    dataset(&db, &out, &["--seed", "1"]);
    // A second set of another seed, one format named twice: the folder holds that set alone,
    // no file of the first (formats not asked for again included), nothing left beside it.
    dataset(&db, &out, &["--seed", "2", "--format", "csv,csv"]);
    let names = |folder: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        names(&out),
        ["manifest.json", "test.csv", "train.csv", "validation.csv"]
    );
    let beside = |dir: &Path| -> Vec<String> {
        names(dir)
            .into_iter()
            .filter(|n| !n.starts_with("bank.db"))
            .collect()
    };
    assert_eq!(beside(dir.path()), ["s"]);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["seed"], 2);
    for f in manifest["files"].as_array().unwrap() {
        let name = f["name"].as_str().unwrap();
        let digest = blake3::hash(&std::fs::read(out.join(name)).unwrap());
        assert_eq!(f["blake3"], digest.to_hex().as_str(), "{name}");
    }
    // One set: no class in two splits.
    let mut seen = HashMap::new();
    for split in ["train", "validation", "test"] {
        for row in csv_rows(&out.join(format!("{split}.csv"))) {
            let first = seen.insert(row["class_key"].clone(), split);
            assert!(
                first.is_none(),
                "{} in {first:?} and {split}",
                row["class_key"]
            );
        }
    }
    assert_eq!(seen.len(), 200);
    // A folder holding what no dataset writes is refused, and left as it was.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let before: Vec<Vec<u8>> = names(&out)
        .iter()
        .map(|n| std::fs::read(out.join(n)).unwrap())
        .collect();
    let o = on_bank!(&db; "dataset", "--out", &out, "--seed", "3")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let said = text(&o.stderr);
    assert!(
        said.contains("notes.txt") && said.contains("no dataset writes"),
        "{said}"
    );
    let after: Vec<Vec<u8>> = names(&out)
        .iter()
        .map(|n| std::fs::read(out.join(n)).unwrap())
        .collect();
    assert_eq!(before, after);
    assert_eq!(beside(dir.path()), ["s"]);
}
