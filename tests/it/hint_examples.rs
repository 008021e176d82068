//! `hint` on published examples: for the techniques of the ladder up to the XY-chain and for
//! trials, a position from a published description of it (the page or file is cited with each
//! case), on which `hint` names that technique and proves the published placement or
//! eliminations. The techniques between the XY-chain and a trial have their published examples
//! in their own tests (`src/strategies/`); HoDoKu's forcing chain verity (fcv03) is there too,
//! in `forcing_chain.rs`, since `hint` takes a shorter chain on that position first.
//!
//! `hint` gives the easiest step first, and the published position sometimes holds an easier
//! one (a hidden single beside the naked single, a wing beside the quad) or another instance of
//! the same technique. Then the test takes the steps `hint` gives, checking that none is
//! harder than the published technique, until `hint` names it: it must then prove every
//! published placement or elimination still open (at least one is).
//!
//! Sources: HoDoKu's technique example pages (`hodoku.sourceforge.net/en/show_example.php`,
//! each with a "load" line of givens, placed digits and deleted candidates) and, where no
//! example page exists, HoDoKu's regression test library (`reglib-1.3.txt` of the HoDoKu
//! project, github.com/zh3305/HoDoKu at 0a4acb1b; line numbers count a section's data lines), whose lines give a position and the
//! eliminations the technique must find.

use pseudoku::hint::{hint, Board, HintKind};
use pseudoku::strategies::Strategy;
use pseudoku::Puzzle;

/// One published example.
struct Case {
    /// Where it is published.
    source: &'static str,
    /// What `hint` must name.
    kind: HintKind,
    /// The givens.
    givens: &'static str,
    /// The givens with the digits placed before the step.
    position: &'static str,
    /// The candidates, when the example relies on earlier eliminations: 81 tokens, a filled
    /// cell's digit or an empty cell's candidates.
    candidates: Option<&'static str>,
    /// The step: `r5c8=1` placements and `r3c7<>5` eliminations.
    proves: &'static [&'static str],
}

fn kind(s: Strategy) -> HintKind {
    HintKind::Technique(s)
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=fh02&tech=Full+House",
            kind: HintKind::FullHouse,
            givens: "2.7.......8..9.....3.6..8....8.649..6.27853.4..132.5....9..1.2.....4..9.......4.8",
            position: "2.7.......8..9.....3.6..8....8.649..6927853.4..132.5....9..1.2.....4..9.......4.8",
            candidates: None,
            proves: &["r5c8=1"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=h101&tech=Hidden+Single",
            kind: kind(Strategy::HiddenSingle),
            givens: "..8..7....16.83..........511.729.................463.729..........86.14....3..7..",
            position: ".28..7....16.83.7.....2.85113729.......73........463.729..7.......86.14....3..7..",
            candidates: None,
            proves: &["r3c4=6"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=n101&tech=Naked+Single",
            kind: kind(Strategy::NakedSingle),
            givens: "4.27.6...........656..1..7.....5.21.1.......8.87.9.....3..7..658...........9.84.1",
            position: "412736589......1.6568.1.37....85.21.1.......8.87.9.....3..7.8658...........9.84.1",
            candidates: Some("4 1 2 7 3 6 5 8 9 379 79 39 245 248 2459 1 24 6 5 6 8 24 1 249 3 7 24 369 49 3469 8 5 347 2 1 347 1 2459 3459 2346 246 2347 679 349 8 23 8 7 12346 9 1234 6 345 34 29 3 149 124 7 124 8 6 5 8 24 146 123456 246 12345 79 239 237 267 257 56 9 26 8 4 23 1"),
            proves: &["r6c7=6"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=lc101&tech=Locked+Candidates+Type+1+%28Pointing%29",
            kind: kind(Strategy::LockedCandidates),
            givens: "984.........5...4.........2..6.972....3..2..........1...5.6...34.7.5189..3...97..",
            position: "984........25...4...19.4..2..6.9723...36.2...2.9.3561.195768423427351896638..9751",
            candidates: None,
            proves: &["r3c7<>5"],
        },
        Case {
            source: "reglib-1.3.txt #0101 (Locked Candidates Type 2, claiming)",
            kind: kind(Strategy::LockedCandidates),
            givens: "15.4.62.3..6..3.....2.5.....7..3...94.......16...1..7.....7.8.....8..1..7.83.1.62",
            position: "1574.62.3..6..3.....2.5...6.71.346.94...6.3.16...1.47..1.67.8.4.648..1.7798341562",
            candidates: None,
            proves: &["r1c8<>9", "r2c8<>9", "r3c8<>9"],
        },
        Case {
            source: "reglib-1.3.txt #0200 (Naked Pair): its position holds the pair of HoDoKu's \
                     hodoku.sourceforge.net/en/tech_naked.php (r8c3 and r8c4 with only 3 and 9, \
                     so r8c2 is not 3)",
            kind: kind(Strategy::NakedPair),
            givens: "7....9.3....1.5..64..26...9..2.83951..7........56.............31......6......4.1.",
            position: "7..849.3.928135..64..267.896427839513974516288156923..2.4516.931....8.6.5....4.1.",
            candidates: None,
            proves: &["r8c2<>3"],
        },
        Case {
            source: "reglib-1.3.txt #0211 (Hidden Triple), line 13: HoDoKu's hidden triple 2, 4, 8 \
                     in column 4 (r4c4, r7c4 lose 6) is the complement of the naked triple 3, 6, 9 \
                     in r2c4, r5c4, r8c4, the same deduction (every naked triple published in \
                     #0201 with basic candidates is the complement of an easier hidden pair)",
            kind: kind(Strategy::NakedTriple),
            givens: "4....83.5....6.1.4..7....6.97...14..5...9...1..85...93.9....5..8.2.3....3.67....8",
            position: "469178325285.6.174137.5.869973..145.524.9..816185...93791...53.842.35.1735671..48",
            candidates: None,
            proves: &["r4c4<>6", "r7c4<>6"],
        },
        Case {
            source: "reglib-1.3.txt #0202 (Naked Quadruple), line 2",
            kind: kind(Strategy::NakedQuad),
            givens: "...........5.2....9.7...1.....94.5.........6....5.78.16....5..2..43...163.9.1..8.",
            position: "...........5.2....9.7...1.....94.5.........6....5.78.16....5..2..43...163.9.1..85",
            candidates: None,
            proves: &["r5c1<>1", "r5c1<>2", "r5c1<>8", "r5c2<>1", "r5c2<>2", "r5c2<>3", "r5c2<>8", "r5c7<>2", "r5c7<>3", "r5c9<>3"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=h202&tech=Hidden+Pair",
            kind: kind(Strategy::HiddenPair),
            givens: ".............4273...67...4..94..........96.....7....231......85.6..8.27...5.1....",
            position: "....6........42736..673..4..94....68....964.76.7.5.9231......85.6..8.271..5.1..94",
            candidates: None,
            proves: &["r1c2<>1", "r1c1<>2", "r1c2<>2", "r1c1<>3", "r1c2<>3", "r1c1<>5", "r1c2<>5", "r1c1<>8", "r1c2<>8", "r1c1<>9"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=h301&tech=Hidden+Triple",
            kind: kind(Strategy::HiddenTriple),
            givens: "2.....4..5.......6..1.34.8....5...4...........6.79.....9.2..6....3..9..1....8..37",
            position: "28....473534827196.71.34.8.3..5...4....34..6.46.79.31..9.2.3654..3..9821....8.937",
            candidates: None,
            proves: &["r9c2<>1", "r9c3<>6"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=h402&tech=Hidden+Quadruple",
            kind: kind(Strategy::HiddenQuad),
            givens: ".3.....1...8.9....4..6.8.......7694.......52....124...2.6...19....7......95...47.",
            position: ".3.....1...8.9....4..6.8......57694....98352....124...276..519....7.9....95...47.",
            candidates: Some("5679 3 279 24 45 27 2678 1 2456789 567 1256 8 234 9 127 2367 356 234567 4 125 1279 6 135 8 237 35 23579 138 128 123 5 7 6 9 4 138 67 146 147 9 8 3 5 2 167 5679 568 379 1 2 4 3678 368 3678 2 7 6 348 34 5 1 9 38 138 148 134 7 136 9 2368 3568 23568 138 9 5 238 136 12 4 7 368"),
            proves: &["r2c9<>3", "r3c9<>3", "r8c9<>3", "r1c9<>6", "r2c9<>6", "r8c9<>6", "r1c9<>7", "r2c9<>7", "r3c9<>7", "r1c9<>8", "r8c9<>8"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=bf202&tech=X-Wing",
            kind: kind(Strategy::XWing),
            givens: "9...627....5..3...........67...3.........9...8.2.45..9..35.1.28.4......5.1.......",
            position: "98..62753.65..3...327.5...679..3.5...5...9...832.45..9673591428249.87..5518.2...7",
            candidates: None,
            proves: &["r2c4<>1", "r2c7<>1", "r2c8<>1", "r2c9<>1", "r5c3<>1", "r5c4<>1", "r5c7<>1", "r5c8<>1", "r5c9<>1"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=bf301&tech=Swordfish",
            kind: kind(Strategy::Swordfish),
            givens: "16.54..7...8..1.3..3.8.....7...5..696..9.2.57.............3..4........16...1645..",
            position: "16.543.7..786.14354358.76.172.458.696..912.57...376..4.16.3..4.3...8..16..71645.3",
            candidates: None,
            proves: &["r6c8<>2", "r7c1<>2"],
        },
        Case {
            source: "reglib-1.3.txt #0302 (Jellyfish)",
            kind: kind(Strategy::Jellyfish),
            givens: "2.......3.8..3..5...34.21....12.54......9......93.86....25.69...9..2..7.4.......1",
            position: "2.......3.8..3..5...34.21....12.54......9......93.86....25.69...9..2..7.4.......1",
            candidates: None,
            proves: &["r1c2<>7", "r1c5<>7", "r2c1<>7", "r2c9<>7", "r5c1<>7", "r5c2<>7", "r5c9<>7", "r9c2<>7", "r9c5<>7"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=xy01&tech=XY-Wing",
            kind: kind(Strategy::XyWing),
            givens: "....6........1.863..3..9...9.4......3.....7.457.82.........658.69...7.......4..3.",
            position: "8..36.9....9.1.863.63.89..5924673158386951724571824396432196587698537......248639",
            candidates: None,
            proves: &["r2c6<>2"],
        },
        Case {
            source: "reglib-1.3.txt #0801 (XYZ-Wing); HoDoKu's tech_wings page: 4/7/6 in r23c4,r3c7 => r3c56<>6",
            kind: kind(Strategy::XyzWing),
            givens: ".73.....9514.92.....2.......67.59..28...1.53.............14.9.......835.......1.7",
            position: "673.8.2.9514.92..3982.....5167359..28.9.1.536..58..791..614.928..1..8354..8...167",
            candidates: None,
            proves: &["r3c5<>6", "r3c6<>6"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=w02&tech=W-Wing",
            kind: kind(Strategy::WWing),
            givens: "6......7.....2.....58..1.....4.....2...1..9.6597.4...892.4..6.....5.......68.3...",
            position: "6..95..7...9.2.....58.31...164389752...175946597246..8925417683...562.....6893...",
            candidates: None,
            proves: &["r1c7<>4", "r2c7<>4", "r3c7<>4", "r8c9<>4", "r9c9<>4"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=u101&tech=Unique+Rectangle+Type+1",
            kind: kind(Strategy::UniqueRectangle),
            givens: ".....896.1..7......675..3..21...78....489...37....4..5.219....4................26",
            position: "5.2..89671..7..452.675..3812136578496548912737....46158219...343.6....98..5.83.26",
            candidates: None,
            proves: &["r2c2<>8", "r2c2<>9"],
        },
        Case {
            source: "hodoku.sourceforge.net/en/show_example.php?file=sc01&tech=Simple+Colors",
            kind: kind(Strategy::Colouring),
            givens: "21..........9....4...4.7.......7..32...6......48.21..642...986...91.8...1.6.....9",
            position: "214..6.....79.2..4...4.7.....187..32..269.....48.21..642.7.9861..9168...18624...9",
            candidates: Some("2 1 4 35 358 6 3579 5789 3578 3568 356 7 9 1358 2 1356 158 4 35689 3569 35 4 1358 7 12356 1258 358 569 569 1 8 7 45 459 3 2 357 357 2 6 9 345 1457 14578 578 3579 4 8 35 2 1 579 579 6 4 2 35 7 35 9 8 6 1 357 357 9 1 6 8 24 24 35 1 8 6 2 4 35 357 57 9"),
            proves: &["r1c9<>3", "r3c9<>3", "r8c1<>3"],
        },
        Case {
            source: "reglib-1.3.txt #0702 (XY-Chain), line 3 (a chain of 13 links)",
            kind: kind(Strategy::XyChain),
            givens: ".7.4..69...82...536................4....9.5..3.......12..367.........2.51.6..84..",
            position: "57.4.169.9482761536.....74...9...3.44...935.63.5...9.1254367819......265196528437",
            candidates: None,
            proves: &["r1c9<>2", "r3c2<>2", "r3c3<>2"],
        },
        Case {
            source: "Sudoku Explainer's first step on Arto Inkala's 2012 puzzle, as recorded in \
                     github.com/gil/SudokuExplainer-ts test/fixtures/puzzles/hard-monster-2.json \
                     (commit 13a91fd3): Dynamic Contradiction Forcing Chains (+), r1c4.3 on ==> \
                     r6c2.8 both on & off, so r1c4<>3",
            kind: kind(Strategy::TrialAndError),
            givens: "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            position: "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            candidates: None,
            proves: &["r1c4<>3"],
        },
    ]
}

/// The candidates of an example as pencil marks (bit d - 1 for digit d).
fn marks(text: &str) -> [u16; 81] {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(tokens.len(), 81);
    std::array::from_fn(|i| tokens[i].bytes().fold(0, |m, b| m | 1 << (b - b'1')))
}

/// A placement `r5c8=1` or elimination `r3c7<>5`, as (cell index, digit, is a placement).
fn parse_step(text: &str) -> (usize, u8, bool) {
    let b = text.as_bytes();
    let (r, c) = ((b[1] - b'1') as usize, (b[3] - b'1') as usize);
    let place = b[4] == b'=';
    (9 * r + c, *b.last().unwrap() - b'0', place)
}

#[test]
fn hint_names_each_published_example_and_proves_its_step() {
    let mut failures = Vec::new();
    for case in cases() {
        let clues: Puzzle = case.givens.parse().unwrap();
        let mut board = Board::new(clues).with_entries(case.position).unwrap();
        let mut marks = case.candidates.map_or([0x1FF; 81], marks);
        board.marks = Some(marks);
        let mut hardest_before = 0;
        let mut outcome = Err("no step named the technique within 40 steps".to_string());
        for _ in 0..40 {
            let h = hint(&board).unwrap();
            let mut proved: Vec<String> = h
                .placements
                .iter()
                .map(|(c, d)| format!("{c}={d}"))
                .collect();
            proved.extend(h.eliminations.iter().map(|(c, d)| format!("{c}<>{d}")));
            // The published items still open here.
            let mut filled = *board.clues.as_bytes();
            for (f, &e) in filled.iter_mut().zip(&board.entries) {
                if e != 0 {
                    *f = e;
                }
            }
            let now = pseudoku::candidates::Candidates::new(&Puzzle::from_bytes(filled).unwrap());
            let open: Vec<&str> = case
                .proves
                .iter()
                .copied()
                .filter(|p| {
                    let (i, d, _) = parse_step(p);
                    let cell = pseudoku::Cell::new(i as u8).unwrap();
                    let digit = pseudoku::Digit::new(d).unwrap();
                    filled[i] == 0
                        && now.candidates(cell).contains(digit)
                        && marks[i] >> (d - 1) & 1 != 0
                })
                .collect();
            if open.is_empty() {
                outcome = Err(format!(
                    "the published step was taken by easier ones: {}",
                    h.step
                ));
                break;
            }
            if h.kind == case.kind && open.iter().all(|p| proved.contains(&p.to_string())) {
                outcome = if hardest_before <= h.rung {
                    Ok(())
                } else {
                    Err(format!(
                        "a harder step came first (rung {hardest_before} > {})",
                        h.rung
                    ))
                };
                break;
            }
            hardest_before = hardest_before.max(h.rung);
            for &(c, d) in &h.placements {
                board.entries[c.index()] = d.get();
            }
            for &(c, d) in &h.eliminations {
                marks[c.index()] &= !(1 << d.index());
            }
            board.marks = Some(marks);
        }
        if let Err(why) = outcome {
            failures.push(format!(
                "{}: {:?} {:?}: {why}",
                case.source, case.kind, case.proves
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
