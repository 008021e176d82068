//! The `pseudoku` command line: output formats, bad input, exit codes, help, pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

fn pseudoku() -> Command {
    Command::cargo_bin("pseudoku").unwrap()
}

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
