//! Multi-colouring (no hsolve tier; for the rating beyond the paper), HoDoKu's "multi
//! colors". For one digit, the strong links (houses where it has exactly two places) join
//! places into clusters; each cluster is coloured alternately, and in each cluster one colour
//! holds the digit in all its cells and the other in none. Simple colouring (`colouring`)
//! reads one cluster at a time; this reads two clusters A (colours A1, A2) and B (B1, B2):
//!
//! - if a cell of A1 sees a cell of B1, A1 and B1 are not both true, so A2 or B2 is: every
//!   cell seeing both an A2 cell and a B2 cell loses the digit;
//! - if A1's cells see cells of both B1 and B2, A1 would leave cluster B without the digit:
//!   A1 is false, and all its cells lose it.
//!
//! Only removals that simple colouring of the digit would not make are kept.
//!
//! Possible applications: per digit, the pairs of clusters.

use super::links::{seen_by, Graph};
use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::Digit;

/// The most clusters a digit can have (each has two cells at least).
const MAX_CLUSTERS: usize = 40;

/// The clusters of a digit's strong links, each as its two colours; and how many.
pub(crate) fn clusters(g: &Graph) -> ([[CellSet; 2]; MAX_CLUSTERS], usize) {
    let mut out = [[CellSet::EMPTY; 2]; MAX_CLUSTERS];
    let mut n = 0;
    let mut left = g.linked;
    while let Some(start) = left.first() {
        let mut colours = [CellSet::single(start), CellSet::EMPTY];
        let mut frontier = colours[0];
        let mut seen = frontier;
        let mut k = 0;
        while !frontier.is_empty() {
            let next = g.partners_of(frontier) - seen;
            k ^= 1;
            colours[k] |= next;
            seen |= next;
            frontier = next;
        }
        left -= seen;
        out[n] = colours;
        n += 1;
    }
    (out, n)
}

/// What simple colouring removes for a digit: the colours that see themselves, and the
/// places outside a cluster that see both its colours.
fn simple_removals(g: &Graph, clusters: &[[CellSet; 2]]) -> CellSet {
    let mut hit = CellSet::EMPTY;
    for &[one, two] in clusters {
        for s in [one, two] {
            if s.iter().any(|c| CellSet::peers(c).intersects(s)) {
                hit |= s;
            }
        }
        hit |= (g.places - one - two) & seen_by(one) & seen_by(two);
    }
    hit
}

/// The removals of clusters `a` and `b` together (before leaving out simple colouring's), on
/// a digit with places `places`.
pub(crate) fn removals(places: CellSet, a: [CellSet; 2], b: [CellSet; 2]) -> CellSet {
    let sa = [seen_by(a[0]), seen_by(a[1])];
    let sb = [seen_by(b[0]), seen_by(b[1])];
    let mut hit = CellSet::EMPTY;
    for i in 0..2 {
        for j in 0..2 {
            // A cell of colour a[i] sees one of b[j]: a[1 - i] or b[1 - j] is true.
            if sa[i].intersects(b[j]) {
                hit |= places & sa[1 - i] & sb[1 - j];
            }
        }
        // A colour seeing both colours of the other cluster is false.
        if sa[i].intersects(b[0]) && sa[i].intersects(b[1]) {
            hit |= a[i];
        }
        if sb[i].intersects(a[0]) && sb[i].intersects(a[1]) {
            hit |= b[i];
        }
    }
    hit & places
}

/// Pushes every valid multi-colouring (one application per pair of clusters, with all its
/// removals beyond simple colouring's); returns p, the number of pairs of clusters.
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let g = Graph::new(st, d);
        let (all, n) = clusters(&g);
        let all = &all[..n];
        p += (n * n.saturating_sub(1) / 2) as u64;
        let simple = simple_removals(&g, all);
        for (i, &a) in all.iter().enumerate() {
            for &b in &all[i + 1..] {
                let hit = removals(g.places, a, b) - simple;
                if !hit.is_empty() {
                    let cells = a[0] | a[1] | b[0] | b[1];
                    out.push(Application::of_digit(
                        Strategy::MultiColouring,
                        d,
                        cells,
                        Effect::remove_digit(d, hit),
                    ));
                }
            }
        }
    }
    p
}

/// The two clusters of a multi-colouring application, recomputed from its cells.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<[[CellSet; 2]; 2]> {
    let d = a.digits.first()?;
    let g = Graph::new(st, d);
    let (all, n) = clusters(&g);
    let mine: Vec<[CellSet; 2]> = all[..n]
        .iter()
        .copied()
        .filter(|c| (c[0] | c[1]).is_subset(a.cells))
        .collect();
    (mine.len() == 2).then(|| [mine[0], mine[1]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Two clusters on 2: row 1 (r1c1 = r1c5) and column 2 (r2c2 = r7c2). r1c1 sees r2c2, so
    /// r1c5 or r7c2 holds 2, and r7c5 sees both. r7c8, r4c5 and r3c3 keep row 7, column 5 and
    /// box 1 from being strong links.
    const TWO_CLUSTERS: &str = "r1c1 r1c5 r2c2 r7c2 r7c5 r7c8 r4c5 r3c3";

    #[test]
    fn a_weak_link_between_two_clusters() {
        let st = only(2, TWO_CLUSTERS);
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(removed(&out[0], 2), set("r7c5"));
        assert_eq!(out[0].cells, set("r1c1 r1c5 r2c2 r7c2"));
        // Simple colouring finds nothing here.
        let (_, simple) = run(super::super::colouring::search, &st);
        assert!(simple.iter().all(|a| !a.digits.contains(dg(2))));
        let [x, y] = pattern(&st, &out[0]).expect("two clusters");
        assert_eq!(x[0] | x[1] | y[0] | y[1], out[0].cells);
    }

    #[test]
    fn a_colour_seeing_both_colours_of_the_other_cluster() {
        // Cluster A: r1c1 = r1c5 (row 1) = r6c5 (column 5), colours {r1c1, r6c5} and {r1c5};
        // cluster B: r2c2 = r6c2 (column 2). r1c1 sees r2c2 and r6c5 sees r6c2: the colour
        // {r1c1, r6c5} would leave column 2 without a 7.
        let st = only(7, "r1c1 r1c5 r6c5 r2c2 r6c2 r6c8 r3c3");
        let (p, out) = run(search, &st);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(removed(&out[0], 7), set("r1c1 r6c5"));
    }

    #[test]
    fn nothing_when_the_clusters_do_not_see_each_other() {
        let (p, out) = run(search, &only(2, "r1c1 r1c5 r5c2 r7c2 r7c5 r7c8 r4c5"));
        assert_eq!((p, out.len()), (1, 0));
    }

    /// Known answers from HoDoKu's regression library (`reglib-1.3.txt`, sections 0502
    /// "Multi-Colors 1" and 0503 "Multi-Colors 2"). HoDoKu's multi-colours also make some
    /// removals of simple colouring (the third line's all are), which this leaves to it.
    #[test]
    fn hodoku_library_multi_colours() {
        let cases = [
            (
                "......58779..52..15.41..932.......2.2.6.3.1.5.5.......947.182.....76..1961.......",
                8,
                "824 832 843 845 863 865",
            ),
            (
                ".9..4187678.3..15441.8..329..91...6.1...6.9..674..851.967485231.4..12.95521......",
                2,
                "245",
            ),
            (
                ".9..4187678.3..15441.8..329..91...6.1...6.9..674..851.967485231.4..12.95521......",
                3,
                "341 353",
            ),
        ];
        for (givens, d, want) in cases {
            let st = library(givens, "");
            let (multi, of_d) = digit_removals(search, &st, d);
            let (_, simple) = run(super::super::colouring::search, &st);
            let simple = removed_all(&simple, d);
            assert!(
                cells_of(want, d).is_subset(multi | simple),
                "{givens}: {of_d:?}"
            );
            assert!(!multi.intersects(simple));
        }
        // The first two lines are multi-colouring's alone.
        let st = library(cases[0].0, "");
        let (_, out) = run(search, &st);
        assert_eq!(removed_all(&out, 8), cells_of(cases[0].2, 8));
    }
}
