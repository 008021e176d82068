//! ALS-XY-wing (no hsolve tier; for the rating beyond the paper): three disjoint almost
//! locked sets (see [`super::als`]) A, B and C, where A and B share a restricted common digit
//! x, and B and C another one y (y not x). For a digit z that A and C both hold (neither x
//! nor y), one of A and C holds z: were z in neither, A would be locked with x, so B could
//! not hold x and would be locked with y, so C could not hold y and would be locked with z.
//! Every cell seeing each z of A and C loses z.
//!
//! Possible applications: the triples of disjoint sets A, B, C where B (the pivot) is linked to
//! A and to C by restricted commons (each triple once, whatever its digits).

use super::als::{self, Als};
use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::Digit;

/// One ALS-XY-wing: the sets and the two restricted commons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The first wing, linked to the pivot by `x`.
    pub a: Als,
    /// The pivot.
    pub b: Als,
    /// The second wing, linked to the pivot by `y`.
    pub c: Als,
    /// The restricted common of `a` and `b`.
    pub x: Digit,
    /// The restricted common of `b` and `c`.
    pub y: Digit,
}

/// Pushes every valid ALS-XY-wing (one per triple and pair of linking digits, with all its
/// removals); returns p, the number of linked triples.
#[cfg(test)]
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_sets(&als::Sets::of(st), out)
}

/// [`search`] on the sets of a state (made once for the four ALS techniques).
pub(crate) fn search_sets(all: &als::Sets, out: &mut Vec<Application>) -> u64 {
    visit(all, |_, a| out.push(a))
}

/// The pattern of `app`, an ALS-XY-wing found on `st`.
pub(crate) fn pattern(st: &Candidates, app: &Application) -> Option<Pattern> {
    find_again(app, |f| visit(&als::Sets::of(st), f))
}

/// Calls `f` with every valid ALS-XY-wing and its application; returns p.
fn visit(all: &als::Sets, mut f: impl FnMut(&Pattern, Application)) -> u64 {
    let (sets, graph) = (&all.sets, &all.graph);
    let mut p = 0;
    let mut pushed: Vec<[CellSet; 9]> = Vec::new();
    let mut reaching = Vec::new();
    for (bi, b) in sets.iter().enumerate() {
        let edges = graph.of(bi);
        // The pivot's partners' cells (kept beside the edges) and digits some cell can lose,
        // in a row.
        let cells = graph.cells_of(bi);
        reaching.clear();
        reaching.extend(edges.iter().map(|&(i, _)| sets[i as usize].reaching));
        for (j, &(ai, rca)) in edges.iter().enumerate() {
            let a = &sets[ai as usize];
            let later = edges[j + 1..].iter().zip(&cells[j + 1..]);
            for ((&(ci, rcc), &c_cells), &c_reaching) in later.zip(&reaching[j + 1..]) {
                if a.cells.intersects(c_cells) {
                    continue;
                }
                p += 1;
                let both = a.reaching & c_reaching;
                if both.is_empty() {
                    continue;
                }
                let c = &sets[ci as usize];
                // The digits of both wings some cell sees in both (the only ones that can be
                // removed, whatever x and y are).
                let mut common = DigitSet::EMPTY;
                for z in both.iter() {
                    if a.seeing(z).intersects(c.seeing(z)) {
                        common.insert(z);
                    }
                }
                if common.is_empty() {
                    continue;
                }
                pushed.clear();
                for x in rca.iter() {
                    for y in rcc.iter() {
                        if x == y {
                            continue;
                        }
                        let mut r = [CellSet::EMPTY; 9];
                        let zs = common - DigitSet::single(x) - DigitSet::single(y);
                        for z in zs.iter() {
                            r[z.index()] = a.seeing(z) & c.seeing(z);
                        }
                        if r.iter().all(|s| s.is_empty()) || pushed.contains(&r) {
                            continue;
                        }
                        pushed.push(r);
                        let app = Application::new(
                            Strategy::AlsXyWing,
                            a.cells | b.cells | c.cells,
                            a.digits | b.digits | c.digits,
                            usize::from(b.house),
                            Effect::Remove(r),
                        );
                        f(
                            &Pattern {
                                a: *a,
                                b: *b,
                                c: *c,
                                x,
                                y,
                            },
                            app,
                        );
                    }
                }
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// A wing of three bivalue cells (an XY-wing seen as ALSs): A = r1c1 (1, 3), pivot B =
    /// r1c5 (1, 2), C = r5c5 (2, 3). x = 1, y = 2, z = 3: r5c1 sees both 3s.
    const WING: &str = "r1c1=13 r1c5=12 r5c5=23";

    #[test]
    fn finds_a_wing() {
        let st = board(WING);
        let (_, out) = run(search, &st);
        let mine = on_cells(&out, "r1c1 r1c5 r5c5");
        assert!(!mine.is_empty());
        assert!(mine
            .iter()
            .any(|a| removed(a, 3) == CellSet::single(rc(5, 1))));
        let p = pattern_of(&st, mine[0]);
        assert_eq!(p.b.cells, CellSet::single(rc(1, 5)));
    }

    fn pattern_of(st: &Candidates, a: &Application) -> Pattern {
        pattern(st, a).expect("the pattern of a found application")
    }

    #[test]
    fn counts_linked_triples() {
        // Brute force: every ordered (pivot, {A, C}) of pairwise disjoint sets with the pivot
        // linked to both.
        let st = board(WING);
        let sets = als::find(&st);
        let mut triples = 0;
        for b in &sets {
            for (i, a) in sets.iter().enumerate() {
                for c in &sets[i + 1..] {
                    if !a.restricted_commons(b).is_empty()
                        && !c.restricted_commons(b).is_empty()
                        && !a.cells.intersects(c.cells)
                    {
                        triples += 1;
                    }
                }
            }
        }
        let (p, _) = run(search, &st);
        assert_eq!(p, triples);
    }

    #[test]
    fn none_when_both_links_use_one_digit() {
        // A = r1c1 (1, 3) and C = r2c5 (1, 3) are both linked to B = r1c5 (1, 2) by 1 only
        // (row 1; column 5 and box 2): two links on one digit prove nothing, and indeed
        // r2c1 = 3 with r1c1 = r2c5 = 1 and r1c5 = 2 breaks no rule.
        let st = board("r1c1=13 r1c5=12 r2c5=13");
        let (_, out) = run(search, &st);
        assert!(!on_cells(&out, "r1c1 r1c5 r2c5")
            .iter()
            .any(|a| removed(a, 3).contains(rc(2, 1))));
    }

}
