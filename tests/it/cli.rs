//! The `pseudoku` command line: output formats, bad input, exit codes, help, pipes.

use crate::common::*;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command as StdCommand, Stdio};

use predicates::prelude::*;

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// `HARD` less its first clue: several solutions.
fn multi() -> String {
    format!(".{}", &HARD[1..])
}

/// Consistent clues without a solution.
fn none() -> String {
    "12345678.........9".to_string() + &".".repeat(63)
}

#[test]
fn solve_prints_solution_multiple_or_none() {
    let input = format!("{HARD}\n{}\n{}\n", multi(), none());
    pseudoku()
        .arg("solve")
        .write_stdin(input)
        .assert()
        .success()
        .stdout(format!(
            "{HARD}\t{HARD_SOLUTION}\n{}\tmultiple\n{}\tnone\n",
            multi(),
            none()
        ));
}

#[test]
fn solve_count_and_file_argument() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::write(
        &path,
        format!(
            "# a comment\n{HARD}\textra\tcolumns\n\n{}\n{}\n",
            multi(),
            none()
        ),
    )
    .unwrap();
    pseudoku()
        .args(["solve", "--count"])
        .arg(&path)
        .assert()
        .success()
        .stdout(format!("{HARD}\t1\n{}\t2\n{}\t0\n", multi(), none()));
}

#[test]
fn solve_reads_the_grid_form() {
    let grid = pseudoku::Puzzle::parse_line(HARD).unwrap().to_grid_string();
    pseudoku()
        .args(["solve", "-"])
        .write_stdin(grid)
        .assert()
        .success()
        .stdout(format!("{HARD}\t{HARD_SOLUTION}\n"));
}

#[test]
fn bad_lines_are_reported_and_the_rest_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.txt");
    let mut repeated = HARD.to_string();
    repeated.replace_range(1..2, "4");
    let mut bad_char = HARD.to_string();
    bad_char.replace_range(4..5, "z");
    std::fs::write(
        &path,
        format!("{HARD}\n{}\n{repeated}\n{bad_char}\n{HARD}\n", &HARD[..30]),
    )
    .unwrap();
    let name = path.display().to_string();
    pseudoku()
        .args(["solve", "--count"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout(format!("{HARD}\t1\n{HARD}\t1\n"))
        .stderr(format!(
            "{name}:2: wrong length: expected 81 cells, found 30\n\
             {name}:3: digit 4 repeated in row 1\n\
             {name}:4: bad character 'z' at position 5\n"
        ));
}

#[test]
fn stdin_errors_are_named_dash() {
    pseudoku()
        .arg("solve")
        .write_stdin("123\n")
        .assert()
        .code(1)
        .stderr("-:1: wrong length: expected 81 cells, found 3\n");
}

#[test]
fn missing_file_is_a_fatal_error() {
    pseudoku()
        .args(["solve", "/nonexistent/puzzles.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "pseudoku: /nonexistent/puzzles.txt:",
        ));
}

#[test]
fn usage_errors_exit_2() {
    pseudoku().arg("frobnicate").assert().code(2);
    pseudoku()
        .args(["solve", "--no-such-flag"])
        .assert()
        .code(2);
}

#[test]
fn help_explains_program_and_subcommands() {
    pseudoku()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("graded Sudoku puzzle banks"))
        .stdout(predicate::str::contains("Exit status"))
        .stdout(predicate::str::contains("solve"));
    pseudoku()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("multiple"))
        .stdout(predicate::str::contains("--count"));
}

#[test]
fn a_closed_output_pipe_is_not_an_error() {
    // Like `pseudoku solve big.txt | head -1`: the reader goes away early.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let mut f = std::fs::File::create(&path).unwrap();
    for _ in 0..50_000 {
        writeln!(f, "{HARD}").unwrap();
    }
    drop(f);
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("pseudoku"))
        .arg("solve")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, format!("{HARD}\t{HARD_SOLUTION}\n"));
    // The read end is dropped here.
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

const RATE_COLUMNS: [&str; 16] = [
    "puzzle",
    "level",
    "difficulty",
    "hsolve",
    "hsolve_sd",
    "tier",
    "steps",
    "wnef",
    "wnef_class",
    "box_norm",
    "box_class",
    "technique",
    "clues",
    "hardest_step",
    "hardest_steps",
    "hsolve_family",
];

#[test]
fn rate_prints_a_header_and_one_line_per_puzzle() {
    let out = pseudoku()
        .arg("rate")
        .write_stdin(format!("{EASY}\n{HARD}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].split('\t').collect::<Vec<_>>(), RATE_COLUMNS);
    let easy: Vec<&str> = lines[1].split('\t').collect();
    let hard: Vec<&str> = lines[2].split('\t').collect();
    assert_eq!(easy.len(), 16);
    assert_eq!(easy[0], EASY);
    assert_eq!(easy[1], "easy");
    assert_eq!(
        hard[1], "hard",
        "difficulty 6.5: pairs and locked candidates"
    );
    assert_eq!(easy[5], "0", "singles solve the easy puzzle");
    // The technique is the ladder's hardest step; hsolve's family is the last column.
    assert_eq!(easy[11], easy[13]);
    assert_eq!(hard[11], hard[13]);
    assert_eq!(easy[15], "singles");
    assert_eq!(easy[12], "32");
    assert!(
        easy[13] == "hidden single" || easy[13] == "naked single",
        "singles alone: {}",
        easy[13]
    );
    assert_ne!(hard[13], "hidden single");
    // Both ratings: difficulty, then hsolve.
    for col in [2, 3] {
        let (e, h): (f64, f64) = (easy[col].parse().unwrap(), hard[col].parse().unwrap());
        assert!(h > e, "{} {h} <= {e}", RATE_COLUMNS[col]);
    }
    assert_ne!(hard[5], "0", "singles alone do not solve the hard puzzle");
    assert_ne!(hard[15], "singles");
    // The same input rates the same.
    pseudoku()
        .arg("rate")
        .write_stdin(format!("{EASY}\n{HARD}\n"))
        .assert()
        .success()
        .stdout(text);
}

#[test]
fn rate_json_has_the_same_keys_and_values() {
    let tsv = pseudoku()
        .args(["rate", "--runs", "5"])
        .write_stdin(format!("{EASY}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json = pseudoku()
        .args(["rate", "--runs", "5", "--json"])
        .write_stdin(format!("{EASY}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let tsv = String::from_utf8(tsv).unwrap();
    let values: Vec<&str> = tsv.lines().nth(1).unwrap().split('\t').collect();
    let json = String::from_utf8(json).unwrap();
    assert_eq!(json.lines().count(), 1);
    let obj: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    for (key, value) in RATE_COLUMNS.iter().zip(values) {
        match &obj[key] {
            serde_json::Value::String(s) => assert_eq!(s, value),
            serde_json::Value::Number(n) => {
                assert_eq!(n.as_f64().unwrap(), value.parse::<f64>().unwrap(), "{key}")
            }
            other => panic!("{key}: {other}"),
        }
    }
}

#[test]
fn rate_reports_bad_and_unrateable_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.txt");
    std::fs::write(
        &path,
        format!("{EASY}\n{}\nxyz\n{}\n{EASY}\n", multi(), none()),
    )
    .unwrap();
    let name = path.display().to_string();
    let assert = pseudoku()
        .args(["rate", "--runs", "2"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(format!(
            "{name}:2: the puzzle has more than one solution\n\
             {name}:3: wrong length: expected 81 cells, found 3\n\
             {name}:4: the puzzle has no solution\n"
        ));
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert_eq!(out.lines().count(), 3, "header and the two good lines");
}

#[test]
fn rate_rejects_zero_runs() {
    pseudoku()
        .args(["rate", "--runs", "0"])
        .write_stdin(EASY)
        .assert()
        .code(2);
}

#[test]
fn explain_shows_every_search_and_the_difficulty() {
    let assert = pseudoku()
        .args(["explain", "--model", HARD])
        .assert()
        .success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(out.contains("step  tier  strategy"), "{out}");
    assert!(out.contains("hidden single") || out.contains("naked single"));
    assert!(out.contains("(none found)"));
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("hsolve of this run: "), "{last}");
    // Steps are numbered 1, 2, 3, ... and d never decreases.
    let mut step = 0;
    let mut d = 0.0;
    for line in out
        .lines()
        .filter(|l| l.len() > 50 && !l.contains("strategy"))
    {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols[0] != "-" {
            step += 1;
            assert_eq!(cols[0], step.to_string());
        }
    }
    assert!(step > 0);
    for line in out
        .lines()
        .filter(|l| l.len() > 50 && !l.contains("strategy"))
    {
        // Columns: step 5, tier 4, strategy 20, p 10, v 6, d 11, with separators.
        let x: f64 = line[52..63].trim().parse().unwrap();
        assert!(x >= d, "{line}");
        d = x;
    }
}

#[test]
fn explain_shows_a_run_of_the_difficulty_model() {
    let assert = pseudoku()
        .args(["explain", "--model", "--rating", "difficulty", HARD])
        .assert()
        .success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(out.contains("step  rung  strategy"), "{out}");
    // The run's total is on the rating's own scale: near the rating (a mean of 10 runs).
    let last = out.lines().last().unwrap();
    let run: f64 = last
        .strip_prefix("difficulty of this run: ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{last}"));
    let rated = pseudoku::rate::rate(&HARD.parse().unwrap(), None).unwrap();
    assert!(
        (run - rated.difficulty).abs() < 1.5,
        "run {run}, rating {}",
        rated.difficulty
    );
}

#[test]
fn explain_walks_a_player_through_the_puzzle() {
    let out = pseudoku().args(["explain", HARD]).assert().success();
    let out = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let steps: Vec<&str> = out
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            t.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .collect();
    // Numbered 1, 2, 3, ...; the last line counts them.
    for (i, l) in steps.iter().enumerate() {
        assert!(l.trim_start().starts_with(&format!("{}. ", i + 1)), "{l}");
    }
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with(&format!("solved in {} steps: ", steps.len())),
        "{last}"
    );
    // The same from standard input, as JSON lines with the candidates before each step.
    let json = pseudoku()
        .args(["explain", "--json", "--grid", "-"])
        .write_stdin(format!("{HARD}\n"))
        .assert()
        .success();
    let json = String::from_utf8(json.get_output().stdout.clone()).unwrap();
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), steps.len());
    assert_eq!(lines[0]["step"], 1);
    assert_eq!(lines[0]["candidates"].as_array().unwrap().len(), 81);
    // Every step places a digit or removes candidates.
    for l in &lines {
        let n =
            l["placements"].as_array().unwrap().len() + l["eliminations"].as_array().unwrap().len();
        assert!(n > 0, "{l}");
    }
    // --grid prints a candidate grid before each step.
    let grid = pseudoku()
        .args(["explain", "--grid", HARD])
        .assert()
        .success();
    let grid = String::from_utf8(grid.get_output().stdout.clone()).unwrap();
    let rules = grid
        .lines()
        .filter(|l| l.starts_with("---") && l.contains('+'))
        .count();
    assert_eq!(rules, 2 * (steps.len() + 1));
}

#[test]
fn explain_rejects_bad_puzzles() {
    pseudoku()
        .args(["explain", "123"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad puzzle: wrong length"));
    pseudoku()
        .args(["explain", &multi()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than one solution"));
}

#[test]
fn canon_prints_form_key_and_automorphisms() {
    // Two symmetries of the same puzzle, and the puzzle itself: one key.
    let p: pseudoku::Puzzle = HARD.parse().unwrap();
    let t = pseudoku::Transform::random(&mut pseudoku::Rng::new(3));
    let q = t.apply(&p).to_line();
    let out = pseudoku()
        .arg("canon")
        .write_stdin(format!("{HARD}\n{q}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0][0], HARD);
    assert_eq!(lines[1][0], q);
    assert_eq!(lines[0][1], lines[1][1]);
    assert_eq!(lines[0][1].len(), 81);
    assert!(lines[0][1].chars().all(|c| c.is_ascii_digit()));
    assert_eq!(lines[0][2], lines[1][2]);
    assert_eq!(lines[0][2].len(), 64);
    assert_eq!(lines[0][3], "1");
    let key = pseudoku::canon::canonical(&p).key().to_hex();
    assert_eq!(lines[0][2], key);
}

#[test]
fn canon_grid_and_json() {
    let out = pseudoku()
        .args(["canon", "--grid", "--json"])
        .write_stdin(format!("{HARD}\n{}\n{}\n", multi(), none()))
        .assert()
        .code(1)
        .stderr("-:2: the puzzle has more than one solution\n-:3: the puzzle has no solution\n")
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("{\"input\":"), "{text}");
    let obj: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    let form = obj["canonical"].as_str().unwrap();
    assert!(
        form.starts_with("123456789"),
        "a grid's form starts with its first row"
    );
    assert_eq!(obj["input"], HARD);
    assert_eq!(obj["key"].as_str().unwrap().len(), 64);
    assert_eq!(obj["automorphisms"], 1);
}

#[test]
fn seeds_import_and_list() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.tsv");
    let input = dir.path().join("in.txt");
    let top = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let twin = pseudoku::Transform::random(&mut pseudoku::Rng::new(9))
        .apply(&top.parse::<pseudoku::Puzzle>().unwrap())
        .to_line();
    std::fs::write(
        &input,
        format!("# seeds\n{top}\n{HARD}\nxyz\n{}\n{twin}\n", multi()),
    )
    .unwrap();
    let name = input.display().to_string();
    pseudoku()
        .args(["seeds", "import"])
        .arg(&input)
        .arg("--library")
        .arg(&lib)
        .assert()
        .code(1)
        .stderr(format!(
            "{name}:4: wrong length: expected 81 cells, found 3\n\
             {name}:5: the puzzle has more than one solution\n"
        ))
        .stdout("imported 2, already in the library 1, bad lines 2; library: 2 seeds\n");
    // The library is in the seed format, and importing it again adds nothing.
    let text = std::fs::read_to_string(&lib).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.split('\t').count() == 6));
    pseudoku()
        .args(["seeds", "import"])
        .arg(&lib)
        .arg("--library")
        .arg(&lib)
        .assert()
        .success()
        .stdout("imported 0, already in the library 2, bad lines 0; library: 2 seeds\n");
    pseudoku()
        .args(["seeds", "list", "--library"])
        .arg(&lib)
        .assert()
        .success()
        .stdout(predicate::str::contains("tier\tseeds"))
        .stdout(predicate::str::contains("all\t2"));
}

#[test]
fn mining_gives_the_same_library_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("lib{threads}.tsv"));
        pseudoku()
            .args([
                "seeds",
                "mine",
                "--count",
                "3",
                "--max-jobs",
                "3000",
                "--seed",
                "5",
            ])
            .args(["--threads", threads, "--out"])
            .arg(&out)
            .assert()
            .success();
        texts.push(std::fs::read_to_string(&out).unwrap());
    }
    assert_eq!(texts[0], texts[1]);
    assert!(texts[0].lines().count() > 3, "{}", texts[0]);
}

#[test]
fn build_reports_bad_seed_libraries() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    on_bank!(&db; "build", "--count", "5", "--seeds", "/nonexistent/seeds.tsv")
        .assert()
        .code(2)
        .stderr("pseudoku: /nonexistent/seeds.tsv: no such seed library file\n");
    let bad = dir.path().join("seeds.tsv");
    std::fs::write(&bad, "abc\n").unwrap();
    on_bank!(&db; "build", "--count", "5", "--seeds", &bad)
        .assert()
        .code(2)
        .stderr(format!(
            "pseudoku: {}:1: wrong length: expected 81 cells, found 3\n",
            bad.display()
        ));
}

#[test]
fn imported_seeds_are_the_seeds_a_build_uses() {
    // From a folder outside the repository, as a user would: no `seeds/` folder there.
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| pseudoku().current_dir(dir.path()).args(args).assert();
    // Two tier-1 seeds of the shipped library: small reserved cores, many puzzles each.
    let (a, b) = (
        ".8..72......4.6.....6..8...1.4..52....8294.7.......8..2.......1...357.9.54......8",
        "4......2...7......23....1....5.1..9...94...53...5..8.2...6.39....4..27855..7.....",
    );
    std::fs::write(dir.path().join("base.tsv"), format!("{a}\n")).unwrap();
    std::fs::write(dir.path().join("mine.txt"), format!("{b}\n{a}\n")).unwrap();
    // Before any import: the shipped library, nothing imported, and no bank created.
    run(&["seeds", "list"])
        .success()
        .stdout(predicate::str::contains("all\t1230\n"))
        .stdout(predicate::str::contains(
            "library 1230 + imported into pseudoku.db 0",
        ));
    assert!(!dir.path().join("pseudoku.db").exists());
    // `a` is in the base library: one new seed.
    run(&["seeds", "import", "mine.txt", "--seeds", "base.tsv"])
        .success()
        .stdout("imported 1, already in the library 1, bad lines 0; library 1 + imported into pseudoku.db 1\n");
    run(&["seeds", "list", "--seeds", "base.tsv"])
        .success()
        .stdout(predicate::str::contains("all\t2\n"))
        .stdout(predicate::str::contains(
            "library 1 + imported into pseudoku.db 1",
        ));
    // Both are shipped seeds too: with the shipped library, the import adds nothing new.
    run(&["seeds", "list"])
        .success()
        .stdout(predicate::str::contains("all\t1230\n"))
        .stdout(predicate::str::contains(
            "library 1230 + imported into pseudoku.db 0",
        ));
    // A build with that library draws from both seeds.
    run(&["build", "--count", "40", "--seeds", "base.tsv"]).success();
    let conn = rusqlite::Connection::open(dir.path().join("pseudoku.db")).unwrap();
    let provenances: Vec<String> = column(
        &conn,
        "SELECT DISTINCT s.provenance FROM puzzles_text p JOIN seeds s ON s.id = p.seed_id
         ORDER BY s.provenance",
    );
    assert_eq!(
        provenances,
        ["import:mine.txt:1", "library"],
        "{provenances:?}"
    );
}

#[test]
fn completions_for_every_shell_and_a_manual_page() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = run_cli(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let script = text(&o.stdout);
        for word in ["pseudoku", "export", "unserve", "per-level", "per-puzzle"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let o = run_cli(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run_cli(&["man"]);
    assert!(o.status.success());
    let man = text(&o.stdout);
    assert!(
        man.starts_with(".ie") || man.contains(".TH pseudoku"),
        "{man}"
    );
    assert!(man.contains("export") && man.contains("completions"));
    // Every exit status, 130 too.
    for code in [
        "0 on success",
        "1 if some input lines",
        "2 on a usage",
        "130 when",
    ] {
        assert!(man.contains(code), "{code}");
    }
    // Every page the main page lists is written with --dir.
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let o = pseudoku()
        .arg("man")
        .arg("--dir")
        .arg(&pages)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listed: Vec<String> = man
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|name| name.replace("\\-", "-") + ".1")
        .collect();
    assert!(listed.len() >= 15, "{listed:?}");
    for page in listed
        .iter()
        .chain(["pseudoku.1".to_string(), "pseudoku-seeds-mine.1".into()].iter())
    {
        let roff = std::fs::read_to_string(pages.join(page)).unwrap_or_else(|_| panic!("{page}"));
        assert!(roff.contains(".TH"), "{page}");
    }
}

#[test]
fn help_texts_agree_with_the_output() {
    let o = run_cli(&["explain", "--help"]);
    let help = text(&o.stdout);
    assert!(
        help.contains("[default: hsolve]") && !help.contains("(the default)"),
        "{help}"
    );
    let o = run_cli(&["rate", "--help"]);
    let help = text(&o.stdout).replace(['\n', ' '], "");
    let columns = text(&run_cli(&["rate", "samples/puzzles.txt"]).stdout)
        .lines()
        .next()
        .unwrap()
        .replace('\t', "");
    assert!(help.contains(&columns), "{help}\n{columns}");
}

#[test]
fn limits_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    on_bank!(&db; "build", "--threads", "100000")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("100000 threads is too many"));
    pseudoku()
        .args(["rate", "--threads", "100000"])
        .write_stdin(format!("{P}\n"))
        .assert()
        .code(2);
    on_bank!(&db; "build", "--per-band", "18446744073709551615", "--bands", "4")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("too many puzzles"));
    build(&db, 5, 2);
    let long = "a".repeat(100_000);
    let out = on_bank!(&db; "calibrate", "--levels", &format!("easy,{long}"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("1 to 40 letters"),
        "{}",
        &err[err.len().saturating_sub(300)..]
    );
}

#[test]
fn help_takes_help_and_names_a_missing_command() {
    let o = run_cli(&["help", "--help"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("Usage: pseudoku help"));
    let o = run_cli(&["help", "seeds", "mine"]);
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("--max-jobs"));
    let o = run_cli(&["help", "nothing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no command \"nothing\""));
}

#[test]
fn a_build_says_what_it_stored_on_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.db");
    let o = run_cli(&["build", "--per-level", "10", "--db", db.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("stored 40 of 40 puzzles in"), "{out}");
    assert!(out.contains("level easy"), "{out}");
    // A level build names levels, not bands; the stage times say what they are.
    assert!(out.contains("fell outside the levels still open"), "{out}");
    assert!(
        out.contains("the workers' CPU time for generation"),
        "{out}"
    );
    let o = run_cli(&[
        "build",
        "--per-band",
        "5",
        "--bands",
        "2",
        "--db",
        dir.path().join("bands.db").to_str().unwrap(),
    ]);
    assert!(text(&o.stdout).contains("fell outside the bands still open"));
}

/// `pseudoku ARGS` as a user who cannot write the folder a test made read-only (`nobody`
/// when the tests run as root, whom permissions do not stop; else this user), run from `/`.
fn as_reader(args: &[&str]) -> StdCommand {
    let bin = env!("CARGO_BIN_EXE_pseudoku");
    let mut cmd = if is_root() {
        let mut c = StdCommand::new("runuser");
        c.args(["-u", "nobody", "--", bin]);
        c
    } else {
        StdCommand::new(bin)
    };
    cmd.args(args).current_dir("/");
    cmd
}

#[test]
fn a_bank_in_a_folder_that_cannot_be_written_is_read() {
    use std::os::unix::fs::PermissionsExt as _;
    let top = tempfile::tempdir().unwrap();
    let dir = top.path().join("ro");
    std::fs::create_dir(&dir).unwrap();
    let db = dir.join("bank.db");
    build_levels(&db, 5, 2);
    let files = |d: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let before = files(&dir);
    std::fs::set_permissions(top.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let db_s = db.to_str().unwrap();
    for args in [
        vec!["stats", "--db", db_s],
        vec!["verify", "--db", db_s],
        vec!["get", "--level", "easy", "--db", db_s],
        vec!["get", "--id", "3", "--db", db_s],
    ] {
        let out = as_reader(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(!text(&out.stdout).is_empty(), "{args:?}");
    }
    // A write is refused with the reason, and nothing is made beside the bank.
    let out = as_reader(&["get", "--level", "easy", "--mark-served", "--db", db_s])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("readonly"),
        "{}",
        text(&out.stderr)
    );
    // serve --read-only answers reads.
    let serve = as_reader(&[
        "serve",
        "--read-only",
        "--listen",
        "127.0.0.1:0",
        "--db",
        db_s,
    ]);
    let (mut child, base) = started(serve);
    for path in ["/healthz", "/v1/levels", "/v1/puzzles/2"] {
        let r = ureq::get(&format!("{base}{path}")).call();
        assert_eq!(r.map(|r| r.status()).ok(), Some(200), "{path}");
    }
    let _ = StdCommand::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    child.wait().unwrap();
    assert_eq!(files(&dir), before);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}
