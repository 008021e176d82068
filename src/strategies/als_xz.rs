//! ALS-XZ (no hsolve tier; for the rating beyond the paper): two disjoint almost locked sets
//! A and B (see [`super::als`]) with a restricted common digit x, one that both hold and
//! where every x of A sees every x of B. At most one of them holds x, so the other is locked
//! on its remaining digits. For any other digit z both hold, one of the two sets holds z,
//! and every cell seeing each z of both loses z.
//!
//! Doubly linked, when A and B share two restricted commons x and y: the two sets' cells
//! need all their digits but one each, and x and y can each be placed once in them at most,
//! so each set holds every digit other than x and y, and x and y each go in one of them.
//! Then each set's other digits leave every cell seeing all their places in it, and x and y
//! leave every cell seeing all their places in both (as in HoDoKu's doubly linked ALS-XZ).
//!
//! Possible applications: the pairs of disjoint almost locked sets linked by a restricted
//! common digit (one per pair, singly or doubly linked).

use super::als::{self, Als};
use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};

/// One ALS-XZ: the two sets and their restricted common digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The first set.
    pub a: Als,
    /// The second set.
    pub b: Als,
    /// Their restricted common digits (one, or two when doubly linked).
    pub rc: DigitSet,
}

/// Pushes every valid ALS-XZ (one per linked pair, with all its removals); returns p, the
/// number of linked pairs.
#[cfg(test)]
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_sets(&als::Sets::of(st), out)
}

/// [`search`] on the sets of a state (made once for the four ALS techniques).
pub(crate) fn search_sets(all: &als::Sets, out: &mut Vec<Application>) -> u64 {
    visit(all, |_, a| out.push(a))
}

/// The pattern of `app`, an ALS-XZ found on `st`.
pub(crate) fn pattern(st: &Candidates, app: &Application) -> Option<Pattern> {
    find_again(app, |f| visit(&als::Sets::of(st), f))
}

/// The removals of sets `a` and `b` linked by the restricted commons `rc`.
fn removals(a: &Als, b: &Als, rc: DigitSet) -> [CellSet; 9] {
    let mut r = [CellSet::EMPTY; 9];
    if rc.len() == 1 {
        // Singly linked: each other common digit is in one of the sets.
        for z in ((a.reaching & b.reaching) - rc).iter() {
            r[z.index()] = a.seeing(z) & b.seeing(z);
        }
    } else {
        // Doubly linked: the restricted commons are in one of the sets, every other digit is
        // in its own set.
        for x in rc.iter() {
            r[x.index()] = a.seeing(x) & b.seeing(x);
        }
        for s in [a, b] {
            for d in (s.reaching - rc).iter() {
                r[d.index()] |= s.seeing(d);
            }
        }
    }
    r
}

/// Calls `f` with every valid ALS-XZ and its application; returns p.
fn visit(all: &als::Sets, mut f: impl FnMut(&Pattern, Application)) -> u64 {
    let sets = &all.sets;
    for l in &all.links {
        let (a, b) = (&sets[l.a as usize], &sets[l.b as usize]);
        let r = removals(a, b, l.rc);
        if r.iter().all(|s| s.is_empty()) {
            continue;
        }
        let app = Application::new(
            Strategy::AlsXz,
            a.cells | b.cells,
            a.digits | b.digits,
            usize::from(a.house),
            Effect::Remove(r),
        );
        f(
            &Pattern {
                a: *a,
                b: *b,
                rc: l.rc,
            },
            app,
        );
    }
    all.links.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn finds_a_singly_linked_pair() {
        // A = r1c1 (1 or 2); B = r1c5 and r2c5 (1, 3 and 2, 3). x = 1 links them along row 1
        // (B's only 1 is r1c5); B's 2 (r2c5) does not see A's, so z = 2 is in A or in B,
        // and the cells seeing r1c1 and r2c5 lose 2.
        let st = board("r1c1=12 r1c5=13 r2c5=23");
        let (p, out) = run(search, &st);
        let mine = on_cells(&out, "r1c1 r1c5 r2c5");
        // The same cells also split as A' = r1c1, r1c5 (1, 2, 3) and B' = r2c5, linked by 3,
        // with the same removals.
        assert_eq!(mine.len(), 2);
        let want = set("r1c4 r1c6 r2c1 r2c2 r2c3");
        for a in &mine {
            assert_eq!(removed(a, 2), want);
            assert!(removed(a, 1).is_empty() && removed(a, 3).is_empty());
        }
        assert!(p >= 2);
        assert!(out.iter().all(|a| st.changes(&a.effect)));
    }

    #[test]
    fn counts_linked_pairs() {
        // Only two bivalue cells in the grid's cells with few digits: r1c1 = 12, r1c9 = 13
        // (linked by 1 in row 1). Every other ALS is eight cells of a house; count them all
        // by brute force instead.
        let st = board("r1c1=12 r1c9=13");
        let sets = als::find(&st);
        let mut linked = 0;
        for i in 0..sets.len() {
            for j in i + 1..sets.len() {
                if !sets[i].restricted_commons(&sets[j]).is_empty() {
                    linked += 1;
                }
            }
        }
        let (p, _) = run(search, &st);
        assert_eq!(p, linked);
    }

    #[test]
    fn none_without_a_restricted_common() {
        // r1c1 = 12 and r5c5 = 12 share digits but do not see each other.
        let st = board("r1c1=12 r5c5=12");
        let (_, out) = run(search, &st);
        assert!(on_cells(&out, "r1c1 r5c5").is_empty());
    }

    #[test]
    fn doubly_linked_locks_both_sets() {
        // A = r1c1, r1c2 (1, 2, 3); B = r1c8, r1c9 (1, 2, 4), both in row 1, 1 and 2 in every
        // cell: both restricted commons. Then 3 is in A and 4 in B, and 1 and 2 are in the
        // four cells: the rest of row 1 loses 1, 2, 3 and 4; box 1 loses 3, box 3 loses 4.
        let st = board("r1c1=123 r1c2=123 r1c8=124 r1c9=124");
        let (_, out) = run(search, &st);
        let a = *on_cells(&out, "r1c1 r1c2 r1c8 r1c9")
            .first()
            .expect("a doubly linked pair");
        let rest = cells("r1c3 r1c4 r1c5 r1c6 r1c7");
        for d in [1, 2] {
            assert_eq!(removed(a, d), rest.iter().copied().collect());
        }
        let box1 = cells("r1c3 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3");
        let box3 = cells("r1c7 r2c7 r2c8 r2c9 r3c7 r3c8 r3c9");
        let mut three: Vec<_> = rest.clone();
        three.extend(&box1);
        let mut four: Vec<_> = rest.clone();
        four.extend(&box3);
        assert_eq!(removed(a, 3), three.into_iter().collect());
        assert_eq!(removed(a, 4), four.into_iter().collect());
    }


}
