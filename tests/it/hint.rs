//! `hint`: mistakes first, known answers for the singles, refusals, soundness on random
//! positions, and the command line (files, entries, JSON, bad lines, bank ids).

use crate::common::pseudoku;
use predicates::str::contains;
use pseudoku::dev::refdata;
use pseudoku::hint::boards;
use pseudoku::hint::{hint, Board, HintError, HintKind};
use pseudoku::strategies::Strategy;
use pseudoku::{Puzzle, Rng};

/// A hard puzzle with one solution, and that solution.
const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

fn board(entries: &str) -> Board {
    Board::new(HARD.parse().unwrap())
        .with_entries(entries)
        .unwrap()
}

/// The solution with cell `i` (0-80) replaced by `v`.
fn solution_with(i: usize, v: char) -> String {
    let mut s: Vec<char> = SOLUTION.chars().collect();
    s[i] = v;
    s.into_iter().collect()
}

#[test]
fn a_wrong_entry_is_reported_before_any_technique() {
    // r4c4 is 4 in the solution; the player wrote 9 there.
    let h = hint(&board(&solution_with(30, '9'))).unwrap();
    assert_eq!(h.kind, HintKind::WrongEntry);
    assert_eq!(h.step, "r4c4 is not 9.");
    assert_eq!(h.nudge, "One of your entries is wrong: check box 5.");
    let errors: Vec<String> = h.errors.iter().map(|(c, d)| format!("{c}={d}")).collect();
    assert_eq!(errors, ["r4c4=9"]);
    assert!(h.placements.is_empty() && h.eliminations.is_empty());
}

#[test]
fn a_removed_solution_candidate_is_reported() {
    // No entries; marks keep every digit except 4 in r6c2, whose solution is 4.
    let mut b = Board::new(HARD.parse().unwrap());
    let mut marks = [0x1FF; 81];
    marks[5 * 9 + 1] &= !(1 << 3);
    b.marks = Some(marks);
    let h = hint(&b).unwrap();
    assert_eq!(h.kind, HintKind::MissingCandidate);
    assert_eq!(h.step, "r6c2 can still be 4.");
}

#[test]
fn singles_known_answers() {
    // One empty cell: a full house, in its row (rows are looked at first).
    let h = hint(&board(&solution_with(20, '.'))).unwrap();
    assert_eq!(h.kind, HintKind::FullHouse);
    assert_eq!(h.nudge, "row 3");
    assert_eq!(
        h.step,
        "Row 3 has one empty cell left, r3c3, and one digit is missing: r3c3 is 8."
    );
    // The bare puzzle: the first hidden single in a box, 4 in box 4.
    let h = hint(&Board::new(HARD.parse().unwrap())).unwrap();
    assert_eq!(h.kind, HintKind::Technique(Strategy::HiddenSingle));
    assert_eq!(h.nudge, "box 4, digit 4");
    assert_eq!(h.step, "In box 4, 4 can only go in r6c2: r6c2 is 4.");
    let json = h.to_json();
    assert!(json.starts_with(r#"{"technique":"hidden single","nudge":"box 4, digit 4","#));
    // Where to look: box 4's nine cells; the pattern: the cell it fills.
    assert!(json.contains(
        r#""placements":[[6,2,4]],"eliminations":[],"focus":[[4,1],[4,2],[4,3],[5,1],[5,2],[5,3],[6,1],[6,2],[6,3]],"pattern":[[6,2]],"errors":[]"#
    ));
    // The full house's row, all nine cells.
    let h = hint(&board(&solution_with(20, '.'))).unwrap();
    assert_eq!(h.focus.iter().map(|c| c.row()).collect::<Vec<_>>(), [2; 9]);
}

#[test]
fn puzzles_without_one_solution_are_refused() {
    let empty = Board::new(Puzzle::EMPTY);
    assert_eq!(hint(&empty), Err(HintError::Multiple));
    assert!(HintError::Multiple
        .to_string()
        .contains("more than one solution"));
    // Row 1 holds 1-8, so r1c9 must be 9, but column 9 already has a 9 (r2c9).
    let none: Puzzle = format!("12345678.........9{}", ".".repeat(63))
        .parse()
        .unwrap();
    assert_eq!(hint(&Board::new(none)), Err(HintError::NoSolution));
}

/// Where a hint sends the player to look agrees with its nudge: a single's house holds the
/// cell it fills, a naked single looks at that cell alone, one mistake at its box; a
/// technique's pattern is never empty, a mistake's is its cells.
fn check_focus(h: &pseudoku::hint::Hint) {
    let pattern = h.pattern();
    match h.kind {
        HintKind::WrongEntry | HintKind::MissingCandidate => {
            assert!(
                h.errors.iter().all(|&(c, _)| pattern.contains(c)),
                "{}",
                h.nudge
            );
            if h.errors.len() == 1 || h.kind == HintKind::MissingCandidate {
                assert_eq!(h.focus.len(), 9, "{}", h.nudge);
                assert!(h.focus.contains(h.errors[0].0), "{}", h.nudge);
            }
        }
        HintKind::Solved => assert!(h.focus.is_empty()),
        HintKind::FullHouse | HintKind::Technique(Strategy::HiddenSingle) => {
            assert_eq!(h.focus.len(), 9, "{}", h.nudge);
            assert!(h.focus.contains(h.placements[0].0), "{}", h.nudge);
        }
        HintKind::Technique(Strategy::NakedSingle) => {
            assert_eq!(h.focus.iter().collect::<Vec<_>>(), vec![h.placements[0].0]);
        }
        HintKind::Technique(_) => {
            assert!(!h.focus.is_empty() && !pattern.is_empty(), "{}", h.nudge);
        }
    }
}

#[test]
fn hints_are_sound_on_random_positions() {
    // Puzzles from the standard generator always; the hard list when the data is there.
    let mut rng = Rng::new(17);
    let mut puzzles: Vec<Puzzle> = (0..40)
        .map(|_| pseudoku::generate::standard(&mut rng))
        .collect();
    match refdata::puzzles("hard/top1465.tsv") {
        Ok(list) => puzzles.extend(list.into_iter().step_by(15)),
        Err(why) => eprintln!("hard list skipped: {why}"),
    }
    let (mut checked, mut wrong, mut missing, mut techniques) = (0, 0, 0, 0);
    for (i, p) in puzzles.iter().enumerate() {
        for _ in 0..12 {
            let pos = boards::position(p, &mut rng).expect("one solution");
            let h = hint(&pos.board).unwrap_or_else(|e| panic!("puzzle {i}: {e}"));
            if let Err(why) = boards::check(&pos, &h) {
                panic!("puzzle {i} ({p}): {why}");
            }
            checked += 1;
            check_focus(&h);
            match h.kind {
                HintKind::WrongEntry => wrong += 1,
                HintKind::MissingCandidate => missing += 1,
                _ => techniques += 1,
            }
        }
    }
    assert!(checked >= 480, "{checked}");
    assert!(wrong > 0 && missing > 0 && techniques > checked / 2);
}

#[test]
fn the_command_reads_entries_reports_bad_lines_and_writes_json() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.txt");
    let text = format!(
        "{HARD}\n{HARD}\t{}\nnot a puzzle\n{HARD}\t123\n",
        solution_with(30, '9')
    );
    std::fs::write(&file, text).unwrap();
    let out = pseudoku()
        .arg("hint")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(contains("boards.txt:3: "))
        .stderr(contains(
            "boards.txt:4: entries: expected 81 cells, found 3",
        ))
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "puzzle\ttechnique\tnudge\thint\tmove");
    assert_eq!(lines.len(), 3);
    assert!(lines[1].starts_with(&format!("{HARD}\thidden single\tbox 4, digit 4\t")));
    assert!(lines[2].ends_with("\tr4c4 is not 9."));
    let json = pseudoku()
        .args(["hint", "--json", "-"])
        .write_stdin(format!("{HARD}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(json).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["technique"], "hidden single");
    assert_eq!(v["placements"], serde_json::json!([[6, 2, 4]]));
    // The keys in the documented order.
    let at: Vec<usize> = [
        "technique",
        "nudge",
        "hint",
        "move",
        "placements",
        "eliminations",
        "errors",
    ]
    .iter()
    .map(|k| text.find(&format!("\"{k}\":")).expect("key"))
    .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[test]
fn the_command_hints_a_bank_puzzle_by_id() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    crate::common::build(&db, 10, 2);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (id, puzzle): (i64, String) = conn
        .query_row(
            "SELECT id, puzzle FROM puzzles_text ORDER BY id LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    on_bank!(&db; "hint", "--id", &id.to_string())
        .assert()
        .success()
        .stdout(contains(format!("{puzzle}\t")));
    on_bank!(&db; "hint", "--id", "999999")
        .assert()
        .code(2)
        .stderr(contains("no puzzle with id 999999"));
}

#[test]
fn a_walkthrough_ends_on_the_solution() {
    let mut rng = Rng::new(5);
    let mut puzzles: Vec<Puzzle> = vec![HARD.parse().unwrap()];
    puzzles.extend((0..10).map(|_| pseudoku::generate::standard(&mut rng)));
    if let Ok(list) = refdata::puzzles("hard/top1465.tsv") {
        puzzles.extend(list.into_iter().step_by(150));
    }
    for p in &puzzles {
        let solution = match pseudoku::solve::solve(p) {
            pseudoku::solve::Solutions::Unique(g) => g,
            other => panic!("{p}: {other:?}"),
        };
        let walk = pseudoku::hint::walkthrough(p).unwrap();
        let mut cells = *p.as_bytes();
        for w in &walk {
            assert!(!w.hint.placements.is_empty() || !w.hint.eliminations.is_empty());
            for &(c, d) in &w.hint.placements {
                assert_eq!(solution.get(c), d, "{p}: {}", w.hint.step);
                cells[c.index()] = d.get();
            }
            for &(c, d) in &w.hint.eliminations {
                assert_ne!(solution.get(c), d, "{p}: {}", w.hint.step);
            }
        }
        assert_eq!(&cells, solution.as_bytes(), "{p}");
    }
}

/// Whether cells `i` and `j` (0-80) share a row, a column or a box.
fn peers(i: usize, j: usize) -> bool {
    i / 9 == j / 9 || i % 9 == j % 9 || (i / 27, i % 9 / 3) == (j / 27, j % 9 / 3)
}

/// A player who follows every hint to the letter, on a board of a puzzle whose solution is
/// `solution`: clears the wrong entries it names, puts back the candidates it says are still
/// possible, enters its placements (clearing that digit from the notes of the cell's row,
/// column and box, as the play page does) and removes its eliminations from the notes.
/// `ask` gives the hint for a board as JSON shows it (`POST /v1/hint`'s answer). Returns how
/// many hints it took to solve the puzzle, or why the player got stuck: a hint that leaves
/// the board as it was (an elimination for a player without notes among them), or more
/// hints than a puzzle has cells to fill and candidates to remove.
pub(crate) fn follow_hints(
    mut board: Board,
    solution: &str,
    mut ask: impl FnMut(&Board) -> serde_json::Value,
) -> Result<usize, String> {
    let solution: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
    let clues = *board.clues.as_bytes();
    let index = |t: &serde_json::Value| {
        let n = |k: usize| t[k].as_u64().expect("a number") as usize;
        ((n(0) - 1) * 9 + n(1) - 1, n(2) as u8)
    };
    for asked in 1..=81 * 10 {
        let h = ask(&board);
        let before = board.clone();
        let list = |key: &str| -> Vec<(usize, u8)> {
            h[key]
                .as_array()
                .map(|a| a.iter().map(index).collect())
                .unwrap_or_default()
        };
        match h["technique"].as_str().expect("a technique") {
            "solved" => {
                let filled: Vec<u8> = (0..81).map(|i| clues[i].max(board.entries[i])).collect();
                return match filled == solution {
                    true => Ok(asked - 1),
                    false => Err(format!("\"solved\" on an unsolved board: {board:?}")),
                };
            }
            "wrong entry" => list("errors")
                .into_iter()
                .for_each(|(i, _)| board.entries[i] = 0),
            "missing candidate" => {
                let marks = board
                    .marks
                    .as_mut()
                    .ok_or("a missing candidate without notes")?;
                for (i, d) in list("errors") {
                    marks[i] |= 1 << (d - 1);
                }
            }
            _ => {
                for (i, d) in list("placements") {
                    board.entries[i] = d;
                    if let Some(marks) = board.marks.as_mut() {
                        for (j, m) in marks.iter_mut().enumerate() {
                            if peers(i, j) {
                                *m &= !(1 << (d - 1));
                            }
                        }
                    }
                }
                if let Some(marks) = board.marks.as_mut() {
                    for (i, d) in list("eliminations") {
                        marks[i] &= !(1 << (d - 1));
                    }
                }
            }
        }
        if board == before {
            return Err(format!(
                "hint {asked} leaves the board as it was (notes kept: {}): {h}",
                board.marks.is_some()
            ));
        }
    }
    Err("more hints than a puzzle can need".into())
}

/// The boards a player may ask from: random positions (some with a wrong entry, some with
/// notes, some with a solution digit removed from them) on `puzzle`, each as it is, without
/// its notes, and with every candidate noted (auto notes). With the solution as digits.
pub(crate) fn starting_boards(puzzle: &str, n: usize, rng: &mut Rng) -> (Vec<Board>, String) {
    let p: Puzzle = puzzle.parse().unwrap();
    let mut out = Vec::new();
    let mut solution = String::new();
    for _ in 0..n {
        let pos = boards::position(&p, rng).expect("one solution");
        solution = pos.solution.to_string();
        let mut bare = pos.board.clone();
        bare.marks = None;
        let mut noted = bare.clone();
        let mut filled = *p.as_bytes();
        for (i, &e) in noted.entries.iter().enumerate() {
            if e != 0 && pos.wrong.is_none_or(|(w, _)| w.index() != i) {
                filled[i] = e;
            }
        }
        let mut marks = [0u16; 81];
        for i in (0..81).filter(|&i| filled[i] == 0) {
            marks[i] = (0..81)
                .filter(|&j| filled[j] != 0 && peers(i, j))
                .fold(0x1ff, |m, j| m & !(1 << (filled[j] - 1)));
        }
        noted.marks = Some(marks);
        out.extend([pos.board, bare, noted]);
    }
    (out, solution)
}

/// The hard and expert puzzles of a small bank with the default levels, built in `dir`.
pub(crate) fn hard_and_expert(
    dir: &std::path::Path,
    per_level: u64,
) -> (std::path::PathBuf, Vec<String>) {
    let db = dir.join("levels.db");
    crate::common::build_levels(&db, per_level, 2);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let puzzles = crate::common::column(
        &conn,
        "SELECT puzzle FROM puzzles_text WHERE level >= 2 ORDER BY level, id",
    );
    assert_eq!(puzzles.len() as u64, 2 * per_level);
    (db, puzzles)
}

#[test]
fn following_hints_solves_hard_and_expert_puzzles_with_and_without_notes() {
    let dir = tempfile::tempdir().unwrap();
    let (_, mut puzzles) = hard_and_expert(dir.path(), 6);
    puzzles.push(HARD.into());
    let mut rng = Rng::new(31);
    let (mut games, mut hints, mut aimed) = (0, 0, 0);
    for p in &puzzles {
        let (boards, solution) = starting_boards(p, 3, &mut rng);
        for board in boards {
            let notes = board.marks.is_some();
            let taken = follow_hints(board, &solution, |b| {
                let h = hint(b).unwrap_or_else(|e| panic!("{p}: {e}"));
                if !notes
                    && h.placements.len() == 1
                    && h.kind != HintKind::Technique(Strategy::HiddenSingle)
                    && h.kind != HintKind::Technique(Strategy::NakedSingle)
                    && h.kind != HintKind::FullHouse
                {
                    aimed += 1;
                }
                serde_json::to_value(h.view()).unwrap()
            })
            .unwrap_or_else(|why| panic!("{p}: {why}"));
            games += 1;
            hints += taken;
        }
    }
    assert_eq!(games, puzzles.len() * 9);
    eprintln!("{games} games, {hints} hints, {aimed} aimed at a placement");
    assert!(aimed > 0, "no hint without notes needed eliminations first");
}

/// Hints on boards without notes (each aimed at the next placement, or that placement) on the
/// hard and expert puzzles of a small bank and on `HARD`, held byte for byte: one digest of
/// each hint in full (`{:?}`) in `tests/golden/hints-without-notes.txt`, written with
/// `PSEUDOKU_BLESS=1`.
#[test]
fn hints_without_notes_are_held_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (_, mut puzzles) = hard_and_expert(dir.path(), 6);
    puzzles.push(HARD.into());
    let mut rng = Rng::new(2026);
    let (mut names, mut lines) = (Vec::new(), Vec::new());
    for p in &puzzles {
        let (boards, _) = starting_boards(p, 25, &mut rng);
        // Each position as it is, without its notes and with auto notes: the one without.
        for (i, board) in boards.iter().skip(1).step_by(3).enumerate() {
            let h = hint(board).unwrap_or_else(|e| panic!("{p}: {e}"));
            names.push(format!("{p} {i}"));
            lines.push(format!("{h:?}"));
        }
    }
    assert_eq!(lines.len(), puzzles.len() * 25);
    crate::golden::check("hints-without-notes.txt", &names, &lines);
}
