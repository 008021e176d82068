//! Puzzle model: parsing, formatting, round trips and every parse error.

use pseudoku::{Cell, Digit, Grid, House, ParseError, Puzzle};

/// A well-known 17-clue puzzle and its solution.
const P17: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

#[test]
fn line_round_trip() {
    let p = Puzzle::parse_line(HARD).unwrap();
    assert_eq!(p.to_line(), HARD);
    assert_eq!(p.to_string(), HARD);
    assert_eq!(p.clues(), 17);
    assert_eq!(p.get(Cell::new(0).unwrap()), Digit::new(4));
    assert_eq!(p.get(Cell::new(1).unwrap()), None);
}

#[test]
fn zeros_whitespace_and_trailing_columns() {
    let zeros = HARD.replace('.', "0");
    let p = Puzzle::parse_line(&format!("  {zeros}\t9.1\tsome-id  ")).unwrap();
    assert_eq!(p.to_line(), HARD);
    // Anything right after the 81st character is ignored too.
    assert_eq!(
        Puzzle::parse_line(&format!("{HARD}xyz")).unwrap().to_line(),
        HARD
    );
}

#[test]
fn grid_round_trip() {
    let p = Puzzle::parse_line(HARD).unwrap();
    let grid = p.to_grid_string();
    assert_eq!(grid.lines().count(), 11);
    assert_eq!(grid.lines().next().unwrap(), "4 . . | . . . | 8 . 5");
    assert_eq!(grid.lines().nth(3).unwrap(), "------+-------+------");
    assert_eq!(Puzzle::parse_grid(&grid).unwrap(), p);
    assert_eq!(grid.parse::<Puzzle>().unwrap(), p);
    assert_eq!(format!("{p:#}"), grid);
}

#[test]
fn grid_without_separators_and_with_zeros() {
    let p = Puzzle::parse_line(P17).unwrap();
    let plain: String = P17
        .replace('.', "0")
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    assert_eq!(Puzzle::parse_grid(&plain).unwrap(), p);
    let fancy = "+-------+-------+-------+\n".to_string()
        + &plain
            .lines()
            .map(|l| format!("| {} | {} | {} |\n", &l[..3], &l[3..6], &l[6..]))
            .collect::<String>()
        + "+-------+-------+-------+\n";
    assert_eq!(Puzzle::parse_grid(&fancy).unwrap(), p);
}

#[test]
fn wrong_length() {
    assert_eq!(
        Puzzle::parse_line(&HARD[..80]),
        Err(ParseError::WrongLength { found: 80 })
    );
    assert_eq!(
        Puzzle::parse_line(""),
        Err(ParseError::WrongLength { found: 0 })
    );
    // A tab inside the first 81 characters ends the puzzle field early.
    let e = Puzzle::parse_line(&format!("{}\t{}", &HARD[..40], &HARD[40..])).unwrap_err();
    assert_eq!(e, ParseError::WrongLength { found: 40 });
    assert_eq!(e.to_string(), "wrong length: expected 81 cells, found 40");
}

#[test]
fn bad_character() {
    let mut s = HARD.to_string();
    s.replace_range(9..10, "x");
    let e = Puzzle::parse_line(&s).unwrap_err();
    assert_eq!(
        e,
        ParseError::BadChar {
            position: 10,
            ch: 'x'
        }
    );
    assert_eq!(e.to_string(), "bad character 'x' at position 10");
}

#[test]
fn repeated_digit_names_the_house() {
    // Two 4s in row 1.
    let mut s = HARD.to_string();
    s.replace_range(1..2, "4");
    let e = Puzzle::parse_line(&s).unwrap_err();
    assert_eq!(
        e,
        ParseError::Repeated {
            digit: Digit::new(4).unwrap(),
            house: House::Row(0)
        }
    );
    assert_eq!(e.to_string(), "digit 4 repeated in row 1");
    // Two 3s in column 2 (rows 2 and 9), not sharing a row or box.
    let mut s = ".".repeat(81);
    s.replace_range(10..11, "3");
    s.replace_range(73..74, "3");
    assert_eq!(
        Puzzle::parse_line(&s).unwrap_err().to_string(),
        "digit 3 repeated in column 2"
    );
    // Two 7s in box 5 (r4c4 and r6c6).
    let mut s = ".".repeat(81);
    s.replace_range(30..31, "7");
    s.replace_range(50..51, "7");
    assert_eq!(
        Puzzle::parse_line(&s).unwrap_err().to_string(),
        "digit 7 repeated in box 5"
    );
}

#[test]
fn bad_grids() {
    let grid = Puzzle::parse_line(HARD).unwrap().to_grid_string();
    let eight: String = grid.lines().take(10).map(|l| format!("{l}\n")).collect();
    assert_eq!(
        Puzzle::parse_grid(&eight).unwrap_err().to_string(),
        "bad grid: expected 9 rows, found 8"
    );
    let short_row = grid.replacen("4 . . | . . . | 8 . 5", "4 . . | . . . | 8 .", 1);
    assert_eq!(
        Puzzle::parse_grid(&short_row).unwrap_err().to_string(),
        "bad grid: row 1: expected 9 cells, found 8"
    );
    let bad_char = grid.replacen("4 . .", "4 . x", 1);
    assert_eq!(
        Puzzle::parse_grid(&bad_char).unwrap_err().to_string(),
        "bad grid: row 1: bad character 'x'"
    );
}

#[test]
fn grids_must_be_full() {
    let g: Grid = HARD_SOLUTION.parse().unwrap();
    assert_eq!(g.to_line(), HARD_SOLUTION);
    assert_eq!(g.as_puzzle().clues(), 81);
    assert_eq!(
        HARD.parse::<Grid>().unwrap_err(),
        ParseError::NotFull { empty: 64 }
    );
}

#[test]
fn cells_and_houses() {
    let c = Cell::at(4, 7).unwrap();
    assert_eq!((c.index(), c.row(), c.col(), c.box_index()), (43, 4, 7, 5));
    assert_eq!(c.to_string(), "r5c8");
    assert!(Cell::new(81).is_none());
    assert!(Digit::new(0).is_none() && Digit::new(10).is_none());
    assert_eq!(House::all().count(), 27);
    // Every cell lies in exactly three houses.
    for cell in Cell::all() {
        let n = House::all().filter(|h| h.cells().contains(&cell)).count();
        assert_eq!(n, 3, "{cell}");
    }
    let b = House::Box(4).cells().map(|c| c.index());
    assert_eq!(b, [30, 31, 32, 39, 40, 41, 48, 49, 50]);
}
