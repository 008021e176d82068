//! Death blossom (no hsolve tier; for the rating beyond the paper): a stem cell with candidates
//! d1, ..., dk and, for each di, a petal: an almost locked set (see [`super::als`]) holding di,
//! every di of which sees the stem; the petals are disjoint and none holds the stem. Whichever
//! di the stem holds, its petal loses di and is locked with all its other digits. So a digit
//! z held by every petal is placed in one of them, whatever the stem holds, and every cell
//! seeing each z of every petal loses z.
//!
//! z may be a candidate of the stem too (the usual definition excludes it; this extension is
//! sound): if the stem is z, z is in the stem, and otherwise a petal holds z; the cells
//! losing z must then see the stem as well.
//!
//! Possible applications: the empty cells with two candidates or more (each a possible stem).

use super::als::{self, Als};
use super::{find_again, Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit};

/// The most petal choices tried in one search, over all stems: a bound on the time a search
/// takes on states dense with sets. The search stops there, keeping what it found.
const BUDGET: u32 = 100_000;

/// One death blossom: the stem and, per candidate of it, the petal for that candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The stem cell.
    pub stem: Cell,
    /// Per candidate of the stem, in increasing order, that candidate and its petal.
    pub petals: Vec<(Digit, Als)>,
}

/// Pushes every valid death blossom (one per stem and choice of petals, petal choices with
/// the same removals at one stem counted once); returns p, the number of possible stems.
#[cfg(test)]
pub fn search(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    search_sets(st, &als::Sets::of(st), out)
}

/// [`search`] on `st` with its sets `all` (made once for the four ALS techniques).
pub(crate) fn search_sets(st: &Candidates, all: &als::Sets, out: &mut Vec<Application>) -> u64 {
    visit(st, all, |_, a| out.push(a))
}

/// The pattern of `app`, a death blossom found on `st`.
pub(crate) fn pattern(st: &Candidates, app: &Application) -> Option<Pattern> {
    find_again(app, |f| visit(st, &als::Sets::of(st), f))
}

/// The choice of petals for one stem, depth first.
struct Blossom<'a> {
    sets: &'a [Als],
    stem: Cell,
    /// Per stem candidate, in the order they are chosen: the digit and its possible petals.
    options: Vec<(Digit, Vec<u32>)>,
    /// The petals chosen so far (set indexes, in the order of `options`).
    chosen: Vec<u32>,
    /// Removal sets already reported for this stem.
    reported: Vec<[CellSet; 9]>,
    budget: &'a mut u32,
}

impl Blossom<'_> {
    /// Chooses the petal of option `k` on, the petals so far covering `used`, with the digits
    /// they all hold `common` and, per such digit, the cells seeing every place of it so far.
    fn choose(
        &mut self,
        k: usize,
        used: CellSet,
        common: DigitSet,
        targets: [CellSet; 9],
        f: &mut impl FnMut(&Pattern, Application),
    ) {
        if k == self.options.len() {
            let mut r = [CellSet::EMPTY; 9];
            for z in common.iter() {
                r[z.index()] = targets[z.index()];
            }
            if self.reported.contains(&r) {
                return;
            }
            self.reported.push(r);
            let mut petals: Vec<(Digit, Als)> = self
                .options
                .iter()
                .zip(&self.chosen)
                .map(|((d, _), &i)| (*d, self.sets[i as usize]))
                .collect();
            petals.sort_by_key(|(d, _)| *d);
            let removed: DigitSet = common.iter().filter(|z| !r[z.index()].is_empty()).collect();
            let digits = petals
                .iter()
                .fold(removed, |u, (d, _)| u | DigitSet::single(*d));
            let app = Application::new(
                Strategy::DeathBlossom,
                used | CellSet::single(self.stem),
                digits,
                self.stem.index(),
                Effect::Remove(r),
            );
            f(
                &Pattern {
                    stem: self.stem,
                    petals,
                },
                app,
            );
            return;
        }
        for j in 0..self.options[k].1.len() {
            if *self.budget == 0 {
                return;
            }
            *self.budget -= 1;
            let petal = &self.sets[self.options[k].1[j] as usize];
            if petal.cells.intersects(used) {
                continue;
            }
            let common = common & petal.digits;
            let mut next = targets;
            let mut any = false;
            for z in common.iter() {
                next[z.index()] &= petal.seeing(z);
                any |= !next[z.index()].is_empty();
            }
            if !any {
                continue;
            }
            self.chosen.push(self.options[k].1[j]);
            self.choose(k + 1, used | petal.cells, common, next, f);
            self.chosen.pop();
        }
    }
}

/// Calls `f` with every valid death blossom and its application; returns p.
fn visit(
    st: &Candidates,
    all: &als::Sets,
    mut f: impl FnMut(&Pattern, Application),
) -> u64 {
    let sets = &all.sets;
    let mut p = 0;
    let mut budget = BUDGET;
    for stem in st.empty() {
        let candidates = st.candidates(stem);
        if candidates.len() < 2 {
            continue;
        }
        p += 1;
        let peers = CellSet::peers(stem);
        let mut options: Vec<(Digit, Vec<u32>)> = candidates
            .iter()
            .map(|d| {
                let petals = sets
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        s.digits.contains(d)
                            && !s.cells.contains(stem)
                            && s.places(d).is_subset(peers)
                    })
                    .map(|(i, _)| i as u32)
                    .collect();
                (d, petals)
            })
            .collect();
        if options.iter().any(|(_, petals)| petals.is_empty()) {
            continue;
        }
        // Fewest petals first: the choices narrow soonest.
        options.sort_by_key(|(_, petals)| petals.len());
        // Per digit z, the cells that may lose it: those holding z (seeing the stem when z is
        // a candidate of the stem).
        let targets: [CellSet; 9] = std::array::from_fn(|z| {
            let d = Digit::from_index(z);
            if candidates.contains(d) {
                st.cells_with(d) & peers
            } else {
                st.cells_with(d)
            }
        });
        let mut blossom = Blossom {
            sets,
            stem,
            options,
            chosen: Vec::new(),
            reported: Vec::new(),
            budget: &mut budget,
        };
        blossom.choose(0, CellSet::EMPTY, DigitSet::ALL, targets, &mut f);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// Stem r1c1 (1, 2). Petal for 1: r1c5 (1, 3), in row 1. Petal for 2: r5c1 (2, 3), in
    /// column 1. Both hold 3: one of them is 3 whatever the stem holds, and r5c5 sees both.
    const BLOSSOM: &str = "r1c1=12 r1c5=13 r5c1=23";

    #[test]
    fn finds_a_blossom() {
        let st = board(BLOSSOM);
        let (p, out) = run(search, &st);
        assert_eq!(p, 81);
        let shape = set("r1c1 r1c5 r5c1");
        let mine: Vec<_> = out
            .iter()
            .filter(|a| a.cells == shape && a.unit == 0)
            .collect();
        assert_eq!(mine.len(), 1);
        assert_eq!(removed(mine[0], 3), CellSet::single(rc(5, 5)));
        let p = pattern(&st, mine[0]).expect("its pattern");
        assert_eq!(p.stem, rc(1, 1));
        assert_eq!(p.petals.len(), 2);
    }

    #[test]
    fn none_when_a_petal_misses_the_stem() {
        // The petal for 2 is now r5c2 (2, 3), which does not see r1c1.
        let st = board("r1c1=12 r1c5=13 r5c2=23");
        let (_, out) = run(search, &st);
        let shape = set("r1c1 r1c5 r5c2");
        assert!(!out.iter().any(|a| a.cells == shape && a.unit == 0));
    }

    #[test]
    fn a_digit_of_the_stem_needs_targets_seeing_it() {
        // Stem r1c1 (1, 2); petal for 1: r1c5 (1, 2), petal for 2: r5c1 (1, 2). Both petals
        // hold 1 and 2, candidates of the stem, so a cell losing them must see the stem too.
        // r5c5 sees both petals but not the stem, and indeed r1c1 = r5c5 = 1 with r1c5 =
        // r5c1 = 2 breaks no rule.
        let st = board("r1c1=12 r1c5=12 r5c1=12");
        let (_, out) = run(search, &st);
        let shape = set("r1c1 r1c5 r5c1");
        for a in out.iter().filter(|a| a.cells == shape && a.unit == 0) {
            assert!(!removed(a, 1).contains(rc(5, 5)));
            assert!(!removed(a, 2).contains(rc(5, 5)));
        }
    }

    /// HoDoKu's XY-wing example (hodoku.sourceforge.net, "Solving Technique Example" for
    /// XY-Wing, file xy01: "5/7/2 in r1c36,r2c1 => r2c6<>2"). An XY-wing is the smallest death
    /// blossom: the pivot r1c3 (5, 7) is the stem, the pincers r1c6 (2, 5) and r2c1 (2, 7)
    /// its one-cell petals for 5 and 7, and z = 2.
    const XY01: &str = ":0800:2:+8..+36.+9....+9.1.863.+63.+89..+59+24+6+7+3+1+5+83+8+6+9+5+17+2457+182+4+3+9+6+4+3+2+1+9658+769+8+5+37......+24+8+63+9::226:";

    #[test]
    fn hodoku_xy_wing_example() {
        let (st, want) = library_line(XY01);
        let (_, out) = run(search, &st);
        let a = out
            .iter()
            .find(|a| a.unit as usize == rc(1, 3).index())
            .expect("a blossom with its stem in r1c3");
        assert_eq!(a.effect, Effect::Remove(want));
        assert_eq!(a.cells, set("r1c3 r1c6 r2c1"));
    }
}
