//! The printed pages of an export (`--format pdf` and `--format html`): which puzzles go on
//! which page and where every grid and line of text sits, in points (1/72 inch) from the
//! sheet's top-left corner. The PDF and HTML writers draw the same [`Pages`], so both formats
//! follow the same layout rules. The sheet itself (trim size, margins, gutter, bleed) is
//! [`super::paper`]'s.
//!
//! ```text
//!  inside the margins (the gutter on the binding side of facing pages)
//! +---------------------------------------------+
//! | Sudoku                 Monday 4 January 2027|  running heading: the title; the day when
//! |---------------------------------------------|  the page holds one, else "Puzzles 5-8"
//! | Fill the grid so that ... (first page,      |  the instruction, unless there is a
//! |  without a title page)                      |  title page
//! | No. 1                              Easy     |  label: number (1..N across the export),
//! | +-----------+                               |  the date when the heading does not say
//! | |  9 x 9    |   ... up to 1, 2, 4 or 6      |  it (once per day on a page), level
//! | +-----------+       grids, balanced         |
//! | id 12 - ...          Solution on page 9     |  ids (--show-ids), where the solution is
//! |                                          3  |  the page number, at the outer corner
//! +---------------------------------------------+
//! ```
//!
//! Order: a book's title page and contents, the puzzle pages (each day on a new page with
//! `--page-per-day`; each level on a new page in a book), then the solutions: compact (small
//! grids, as many columns as stay legible), full (the puzzle pages' layout) or none. A run of
//! puzzles is spread evenly over the fewest pages that hold it, so no page holds a lone grid
//! unless one grid a page is asked for (5 puzzles at up to 4 a page: 3 + 2).
//!
//! - `options`: what is asked for ([`PrintOptions`]) and the names printed;
//! - `display`: the display list ([`Pages`], [`Mark`]) and text fitting;
//! - `pagination`: puzzles onto pages ([`lay_out`]).

mod display;
mod options;
mod pagination;

pub use display::*;
pub use options::*;
pub use pagination::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::paper::BLEED;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn puzzle(date: &str, slot: u32, level: &str) -> Exported {
        Exported {
            date: Some(date.parse().unwrap()),
            slot,
            level: level.into(),
            puzzle: PUZZLE.parse().unwrap(),
            solution: SOLUTION.parse().unwrap(),
            difficulty: Some(2.5),
            hsolve: 100.0,
            percentile: 50.0,
            id: 7,
        }
    }

    fn week() -> Vec<Exported> {
        let mut v = Vec::new();
        for d in 4..=10 {
            for (slot, level) in [(1, "easy"), (2, "easy"), (3, "medium"), (4, "medium")] {
                v.push(puzzle(&format!("2027-01-{d:02}"), slot, level));
            }
            v.push(puzzle(&format!("2027-01-{d:02}"), 5, "hard"));
        }
        v
    }

    fn texts(pages: &Pages) -> Vec<Vec<String>> {
        pages
            .pages
            .iter()
            .map(|p| {
                p.marks
                    .iter()
                    .filter_map(|m| match m {
                        Mark::Text { text, .. } => Some(text.clone()),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    fn grids(page: &Page) -> Vec<(f32, Option<Grid>)> {
        page.marks
            .iter()
            .filter_map(|m| match m {
                Mark::Grid { cell, solution, .. } => Some((*cell, *solution)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_week_numbered_across_with_compact_solutions() {
        let week = week();
        let opts = PrintOptions::default();
        let p = lay_out(&opts, &week, 1);
        assert_eq!(p.title, "Sudoku, 4-10 January 2027");
        // 35 puzzles at up to 4 a page on A4: 9 pages (8 of 4, one of 3); 35 solutions at up
        // to 20 a page: 2 pages.
        assert_eq!(p.pages.len(), 11);
        let counts: Vec<usize> = p.pages[..9].iter().map(|p| grids(p).len()).collect();
        assert_eq!(counts, [4, 4, 4, 4, 4, 4, 4, 4, 3]);
        let t = texts(&p);
        assert!(t[0].contains(&INSTRUCTION.to_string()));
        assert!(t[0].contains(&"Sudoku".to_string()));
        // Page 1 holds one day: its date once, in the heading; page 2 two days: the heading
        // says the numbers and each day's first label its date.
        assert!(t[0].contains(&"Monday 4 January 2027".to_string()));
        assert!(t[1].contains(&"Puzzles 5-8".to_string()));
        assert!(t[1].contains(&"Monday 4 January 2027".to_string()));
        assert!(t[1].contains(&"Tuesday 5 January 2027".to_string()));
        assert!(t[8].contains(&"No. 35".to_string()));
        assert!(t[9].contains(&"Solutions 1-18".to_string()));
        for (i, page) in t.iter().enumerate() {
            assert!(page.contains(&format!("{}", i + 1)), "a bare page number");
            assert!(!page.iter().any(|s| s.contains("percentile") || s.contains(" of ")));
        }
        // Up to 20 compact solutions a page, spread evenly: 18 + 17.
        assert_eq!(grids(&p.pages[9]).len(), 18);
        assert_eq!(grids(&p.pages[10]).len(), 17);
        // Letter: up to 16 a page, 12 + 12 + 11.
        let letter = PrintOptions {
            page: PageSize::LETTER,
            ..opts.clone()
        };
        let p = lay_out(&letter, &week, 1);
        assert_eq!(grids(&p.pages[9]).len(), 12);
        assert_eq!(grids(&p.pages[11]).len(), 11);
        assert_eq!(p.pages.len(), 9 + 3);
    }

    #[test]
    fn runs_are_spread_evenly_so_no_page_holds_a_lone_grid() {
        for n in 1..60 {
            for most in 1..=6 {
                let b = balanced(n, most);
                assert_eq!(b.iter().sum::<usize>(), n);
                assert_eq!(b.len(), n.div_ceil(most));
                assert!(b.iter().all(|&c| c <= most && c >= n / b.len()));
                assert!(b.windows(2).all(|w| w[0] >= w[1] && w[0] - w[1] <= 1));
                if most >= 2 && n >= 2 && n.div_ceil(most) * 2 <= n {
                    assert!(b.iter().all(|&c| c >= 2), "{n} at {most}: {b:?}");
                }
            }
        }
        // A day of 5 a page: 3 + 2 at up to 4; all 5 on one page at up to 6.
        let week = week();
        for (per_page, counts) in [(Some(4), vec![3, 2]), (Some(6), vec![5]), (None, vec![3, 2])] {
            let opts = PrintOptions {
                per_page,
                page_per_day: true,
                solutions: SolutionLayout::None,
                ..Default::default()
            };
            let p = lay_out(&opts, &week, 1);
            let got: Vec<usize> = p.pages.iter().map(|p| grids(p).len()).collect();
            let want: Vec<usize> = (0..7).flat_map(|_| counts.clone()).collect();
            assert_eq!(got, want, "{per_page:?}");
        }
    }

    #[test]
    fn the_date_is_printed_once_a_page() {
        let week = week();
        for page_per_day in [false, true] {
            for per_page in [2, 4, 6] {
                let opts = PrintOptions {
                    per_page: Some(per_page),
                    page_per_day,
                    ..Default::default()
                };
                let p = lay_out(&opts, &week, 1);
                for page in texts(&p) {
                    for d in 4..=10 {
                        let day = super::super::parse_date(&format!("2027-01-{d:02}")).unwrap();
                        let n = page
                            .iter()
                            .filter(|s| **s == day.long() || **s == day.short() || s.ends_with(&day.long()))
                            .count();
                        assert!(n <= 1, "{page:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_puzzle_names_the_page_of_its_solution() {
        let week = week();
        for solutions in [SolutionLayout::Compact, SolutionLayout::Full] {
            for book in [false, true] {
                let opts = PrintOptions {
                    solutions,
                    book,
                    show_ids: true,
                    ..Default::default()
                };
                let p = lay_out(&opts, &week, 1);
                let t = texts(&p);
                let mut seen = 0;
                for page in &p.pages {
                    for m in &page.marks {
                        let Mark::Text { x, y, text, .. } = m else {
                            continue;
                        };
                        let Some(n) = text.strip_prefix("Solution on page ") else {
                            continue;
                        };
                        seen += 1;
                        // Its grid ends at its right end just above it; the grid's label is
                        // the "No. K" at the grid's left just above the grid.
                        let (gx, gy) = page
                            .marks
                            .iter()
                            .find_map(|g| match g {
                                Mark::Grid { x: gx, y: gy, cell, .. }
                                    if (gx + 9.0 * cell - x).abs() < 0.01
                                        && *y > gy + 9.0 * cell
                                        && *y < gy + 9.0 * cell + 30.0 =>
                                {
                                    Some((*gx, *gy))
                                }
                                _ => None,
                            })
                            .unwrap();
                        let k = page
                            .marks
                            .iter()
                            .find_map(|l| match l {
                                Mark::Text { x, y, text, .. }
                                    if *x == gx && *y < gy && *y > gy - 30.0 =>
                                {
                                    text.starts_with("No. ").then_some(text.clone())
                                }
                                _ => None,
                            })
                            .unwrap();
                        let target: usize = n.parse().unwrap();
                        let on = &p.pages[target - 1];
                        assert_eq!(on.number, Some(target));
                        assert!(t[target - 1].contains(&k), "{k} says page {target}");
                        assert!(grids(on).iter().all(|g| g.1.is_some()));
                    }
                }
                assert_eq!(seen, 35, "{solutions:?} book {book}");
            }
        }
        let none = PrintOptions {
            solutions: SolutionLayout::None,
            ..Default::default()
        };
        let t = texts(&lay_out(&none, &week, 1));
        assert!(!t.iter().flatten().any(|s| s.starts_with("Solution on")));
    }

    #[test]
    fn every_mark_is_inside_the_margins_on_every_sheet() {
        let week = week();
        let mut sizes: Vec<PageSize> = PageSize::NAMED.iter().map(|n| n.1).collect();
        for small in ["5x8in", "4x6in", "4.25x6.87in"] {
            sizes.push(small.parse().unwrap());
        }
        for page in sizes {
            for per_page in [None, Some(1), Some(2), Some(4), Some(6)] {
                for (book, large_print, bleed) in
                    [(false, false, false), (true, false, true), (true, true, false), (false, true, true)]
                {
                    if large_print && per_page.is_some_and(|n| n > 2) {
                        continue;
                    }
                    for solutions in [SolutionLayout::Compact, SolutionLayout::Full] {
                        let opts = PrintOptions {
                            page,
                            per_page,
                            book,
                            large_print,
                            bleed,
                            solutions,
                            show_ids: true,
                            ..Default::default()
                        };
                        if unfit(&opts).is_some() {
                            // Refused before anything is laid out.
                            assert!(per_page.is_some(), "{opts:?}");
                            continue;
                        }
                        let p = lay_out(&opts, &week, 1);
                        let (w, h) = p.media;
                        let b = if bleed { BLEED } else { 0.0 };
                        let sides = if book { 1.0 } else { 2.0 };
                        assert_eq!((w, h), (page.width + sides * b, page.height + 2.0 * b));
                        for (i, pg) in p.pages.iter().enumerate() {
                            assert_eq!(pg.trim.width(), page.width);
                            for m in &pg.marks {
                                assert!(pg.inside.holds(&m.extent(), 0.5), "{page:?} {per_page:?} {m:?}");
                            }
                            if book {
                                // The gutter alternates: the wider margin is on the binding side.
                                let left = pg.inside.left - pg.trim.left;
                                let right = pg.trim.right - pg.inside.right;
                                if i % 2 == 0 {
                                    assert!(left > right, "recto {i}");
                                } else {
                                    assert!(right > left, "verso {i}");
                                }
                            }
                            if large_print {
                                assert!(grids(pg).len() <= 2 || grids(pg)[0].1.is_some());
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn page_numbers_are_bare_at_the_outer_corner() {
        let week = week();
        let opts = PrintOptions {
            book: true,
            page: PageSize::TRADE,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 1);
        assert_eq!(p.pages[0].number, None, "the title page is not numbered");
        for (i, page) in p.pages.iter().enumerate().skip(1) {
            let n = (i + 1).to_string();
            let mark = page
                .marks
                .iter()
                .rev()
                .find_map(|m| match m {
                    Mark::Text { x, align, text, .. } if *text == n => Some((*x, *align)),
                    _ => None,
                })
                .unwrap();
            if i % 2 == 0 {
                assert_eq!(mark, (page.inside.right, Align::Right));
            } else {
                assert_eq!(mark, (page.inside.left, Align::Left));
            }
        }
        // A 6x9 book fits two grids a page, in large print one.
        assert!(p.pages.iter().all(|p| grids(p).len() <= 2 || grids(p)[0].1.is_some()));
        let large = lay_out(&PrintOptions { large_print: true, ..opts }, &week, 1);
        let cells: Vec<f32> = large
            .pages
            .iter()
            .flat_map(grids)
            .filter(|g| g.1.is_none())
            .map(|g| g.0)
            .collect();
        assert_eq!(cells.len(), 35);
        assert!(cells.iter().all(|&c| c >= 28.0), "{cells:?}");
    }

    #[test]
    fn a_book_has_a_title_page_contents_and_levels_in_order() {
        let week = week();
        let opts = PrintOptions {
            book: true,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 1);
        let t = texts(&p);
        // Title page, contents, easy 14 (4 pages), medium 14 (4), hard 7 (2), solutions 2.
        assert_eq!(p.pages.len(), 1 + 1 + 4 + 4 + 2 + 2);
        assert!(t[0].contains(&INSTRUCTION.to_string()));
        assert!(t[0].contains(&"35 puzzles: 14 easy, 14 medium, 7 hard".to_string()));
        assert!(t[1].contains(&"Puzzles 1-14".to_string()));
        assert!(t[1].contains(&"page 3".to_string()));
        assert!(t[1].contains(&"Puzzles 29-35".to_string()));
        assert!(t[1].contains(&"page 11".to_string()));
        assert!(t[1].contains(&"page 13".to_string()), "solutions");
        assert!(t[2].contains(&"Easy".to_string()) && t[2].contains(&"No. 1".to_string()));
        assert!(t[10].contains(&"Hard".to_string()) && t[10].contains(&"No. 29".to_string()));
        // No dates in a book's labels.
        assert!(!t[2]
            .iter()
            .any(|s| s.contains("Monday") || s.contains("Mon ")));
        let titles: Vec<&str> = p.bookmarks.iter().map(|b| b.title.as_str()).collect();
        assert_eq!(titles, ["Easy", "Medium", "Hard", "Solutions"]);
    }

    #[test]
    fn page_per_day_starts_each_day_on_a_new_page() {
        let week = week();
        let opts = PrintOptions {
            per_page: Some(6),
            page_per_day: true,
            solutions: SolutionLayout::None,
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 36);
        assert_eq!(p.pages.len(), 7);
        let t = texts(&p);
        assert!(t[0].contains(&"Monday 4 January 2027".to_string()));
        assert!(t[6].contains(&"Sunday 10 January 2027".to_string()));
        assert!(t[6].contains(&"No. 70".to_string()));
        assert!(t[0].contains(&"No. 36".to_string()));
        assert!(t[0].contains(&INSTRUCTION.to_string()));
        assert!(!t[1].contains(&INSTRUCTION.to_string()));
        assert!(t
            .iter()
            .all(|p| p.iter().filter(|s| s.starts_with("No.")).count() == 5));
        assert_eq!(p.bookmarks.len(), 7);
    }

    #[test]
    fn ids_only_when_asked_and_a_given_title() {
        let week = week();
        let opts = PrintOptions {
            show_ids: true,
            title: Some("The Daily Grid".into()),
            ..Default::default()
        };
        let p = lay_out(&opts, &week, 1);
        let t = texts(&p);
        assert_eq!(p.title, "The Daily Grid");
        assert!(t[0].contains(&"The Daily Grid".to_string()));
        assert!(t[0].contains(&"id 7 - difficulty 2.5 - percentile 50".to_string()));
    }

    #[test]
    fn one_grid_fills_its_page() {
        let p = one_grid("x", PUZZLE.parse().unwrap(), None, 144.0);
        assert_eq!(p.media, (144.0, 144.0));
        let e = p.pages[0].marks[0].extent();
        assert!((e.left).abs() < 1e-4 && (e.right - 144.0).abs() < 1e-3);
    }
}
