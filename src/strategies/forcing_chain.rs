//! Forcing chains (no hsolve tier; for the rating beyond the paper): follow an assumption with
//! singles, wave by wave, up to [`MAX_WAVES`] waves, and keep what every possible case forces.
//!
//! A **branch** assumes one candidate true (or false) and pencils in its consequences the way a
//! person does: each wave places every naked and hidden single of the state at once. A branch
//! that breaks (a cell with no candidate, a digit with no place in a house, one digit twice in
//! a house) was impossible. Then:
//!
//! - **digit forcing**: a candidate whose branch breaks is removed; a candidate whose removal
//!   breaks is placed; what both of its branches (true and false) force is true;
//! - **cell forcing**: what every candidate of one cell forces (its impossible branches left
//!   out) is true;
//! - **house forcing**: what every place of one digit in one house forces is true.
//!
//! A conclusion is a candidate placed or removed in every branch kept. The chain's **length**
//! is the number of waves the slowest branch needs to reach it (or to break); an application
//! records it in [`Application::depth`]. The words of a hint show each branch as the chain of
//! singles that leads to the conclusion ([`branch_log`]).
//!
//! Possible applications: digit forcing, the candidates; cell forcing, the cells with two or
//! more candidates; house forcing, the digits of the houses with two or more places.

use super::{Application, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::{CellSet, DigitSet};
use crate::grid::{Cell, Digit, House};

/// The most waves a branch is followed.
pub const MAX_WAVES: u8 = 12;

/// What a forcing chain starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Every candidate of one cell.
    Cell,
    /// Every place of one digit in one house.
    House,
    /// One candidate, true and false.
    Digit,
}

/// One branch followed: the candidates of the start it made false (removed, or their cell
/// given another digit), per digit; per candidate (cell * 9 + digit), the wave at which it
/// became false, 0 when it did not; and the wave at which the branch broke.
struct Branch {
    off: [CellSet; 9],
    off_at: [u8; 729],
    broke_at: Option<u8>,
}

/// Why a single was placed in a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The assumption itself.
    Assumed,
    /// The cell's only candidate left.
    Naked,
    /// The digit's only place left in the house.
    Hidden(House),
}

/// One placement of a logged branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The cell.
    pub cell: Cell,
    /// The digit.
    pub digit: Digit,
    /// Why.
    pub reason: Reason,
    /// The wave (0 for the assumption).
    pub wave: u8,
}

/// How a logged branch ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A cell was left with no candidate.
    NoCandidate(Cell),
    /// A digit was left with no place in a house.
    NoPlace(Digit, House),
    /// A digit was placed twice in a house (two singles at once).
    Twice(Digit, House),
    /// Nothing more followed within the waves allowed.
    Stalled,
}

/// The singles of `s`: the cells of each digit's naked and hidden singles, or `None` when two
/// singles of one wave clash (two digits for one cell).
fn singles(s: &Candidates) -> Option<[CellSet; 9]> {
    let mut out = [CellSet::EMPTY; 9];
    let naked = s.naked_single_cells();
    for c in naked {
        let d = s.candidates(c).first().expect("one candidate");
        out[d.index()].insert(c);
    }
    for d in Digit::all() {
        out[d.index()] |= crate::candidates::alone_in_a_house(s.cells_with(d));
    }
    let mut seen = CellSet::EMPTY;
    for set in &out {
        if seen.intersects(*set) {
            return None;
        }
        seen |= *set;
    }
    Some(out)
}

/// Follows `s`, where the assumption was just made, for up to [`MAX_WAVES`] waves, filling
/// `b` with the wave at which each candidate of `base` changed.
fn follow(base: &Candidates, mut s: Candidates, b: &mut Branch) {
    let mark = |s: &Candidates, b: &mut Branch, wave: u8| {
        for d in Digit::all() {
            let now_off = base.cells_with(d) - s.cells_with(d) - (s.placed(d) - base.placed(d));
            for c in now_off - b.off[d.index()] {
                b.off_at[c.index() * 9 + d.index()] = wave;
            }
            b.off[d.index()] = now_off;
        }
    };
    // The assumption counts as wave 1 of the chain.
    mark(&s, b, 1);
    if s.is_broken() {
        b.broke_at = Some(1);
        return;
    }
    for wave in 2..=MAX_WAVES + 1 {
        let Some(found) = singles(&s) else {
            b.broke_at = Some(wave);
            return;
        };
        if found.iter().all(|x| x.is_empty()) {
            return;
        }
        for (di, cells) in found.iter().enumerate() {
            for c in *cells {
                if s.place(c, Digit::from_index(di)).is_none() {
                    b.broke_at = Some(wave);
                    return;
                }
            }
        }
        mark(&s, b, wave);
        if s.is_broken() {
            b.broke_at = Some(wave);
            return;
        }
        if s.is_solved() {
            return;
        }
    }
}

/// The branch of `st` with `d` in `c` (`on`) or `d` removed from `c`.
fn branch(st: &Candidates, c: Cell, d: Digit, on: bool) -> Branch {
    let mut b = Branch {
        off: [CellSet::EMPTY; 9],
        off_at: [0; 729],
        broke_at: None,
    };
    let mut s = st.clone();
    if on {
        s.place(c, d).expect("a candidate");
    } else {
        s.remove(d, CellSet::single(c));
    }
    follow(st, s, &mut b);
    b
}

/// What every branch of `branches` forces in `st` (the broken ones left out), as removals, and
/// the length (waves) of the chains: `None` when nothing is forced or every branch breaks.
fn common(st: &Candidates, branches: &[&Branch]) -> Option<(Effect, u8)> {
    let alive: Vec<&&Branch> = branches.iter().filter(|b| b.broke_at.is_none()).collect();
    if alive.is_empty() {
        return None;
    }
    let broke = branches
        .iter()
        .filter_map(|b| b.broke_at)
        .max()
        .unwrap_or(0);
    // False in every live branch: removed, or the cell holds another digit in every one (a
    // digit placed in a cell in every branch makes its other candidates false in each).
    let mut r = [CellSet::EMPTY; 9];
    let mut length = 0u8;
    for (d, gone) in r.iter_mut().enumerate() {
        *gone = alive
            .iter()
            .fold(st.cells_with(Digit::from_index(d)), |acc, b| acc & b.off[d]);
        for c in *gone {
            let i = c.index() * 9 + d;
            length = length.max(alive.iter().map(|b| b.off_at[i]).max().unwrap_or(0));
        }
    }
    let effect = Effect::Remove(r);
    st.changes(&effect).then_some((effect, length.max(broke)))
}

/// What the branches `ids` of `on` (made by [`ensure`]) all force, as [`common`] says.
fn common_of(st: &Candidates, on: &[Option<Box<Branch>>], ids: &[usize]) -> Option<(Effect, u8)> {
    let branches: Vec<&Branch> = ids
        .iter()
        .map(|&i| on[i].as_deref().expect("made"))
        .collect();
    common(st, &branches)
}

/// The index of the branch of `d` set in `c`, made on first use.
fn ensure(on: &mut [Option<Box<Branch>>], st: &Candidates, c: Cell, d: Digit) -> usize {
    let i = c.index() * 9 + d.index();
    if on[i].is_none() {
        on[i] = Some(Box::new(branch(st, c, d, true)));
    }
    i
}

/// Pushes every valid forcing chain of kind `start`; returns p (see the module docs).
pub fn search(st: &Candidates, start: Start, out: &mut Vec<Application>) -> u64 {
    let mut on: Vec<Option<Box<Branch>>> = (0..729).map(|_| None).collect();
    search_with(st, start, &mut on, out)
}

/// Pushes every valid forcing chain of the three kinds (digit, cell, house, in that order),
/// following each candidate's branch once for all three; returns their summed p.
pub fn search_all(st: &Candidates, out: &mut Vec<Application>) -> u64 {
    let mut on: Vec<Option<Box<Branch>>> = (0..729).map(|_| None).collect();
    [Start::Digit, Start::Cell, Start::House]
        .into_iter()
        .map(|start| search_with(st, start, &mut on, out))
        .sum()
}

/// [`search`], with the branches of the candidates set true made so far (`on`, by candidate).
fn search_with(
    st: &Candidates,
    start: Start,
    on: &mut [Option<Box<Branch>>],
    out: &mut Vec<Application>,
) -> u64 {
    let mut found: Vec<(Application, Vec<usize>)> = Vec::new();
    let mut p = 0;
    match start {
        Start::Digit => {
            for c in st.empty() {
                for d in st.candidates(c).iter() {
                    p += 1;
                    let i = ensure(on, st, c, d);
                    let b_on = on[i].as_deref().expect("made");
                    // The chain from d in c making `effect`, `w` waves long.
                    let chain = |effect: Effect, w: u8| {
                        let a = Application::at_cell(Strategy::DigitForcingChain, c, d, effect);
                        (a.at_depth(w), vec![i])
                    };
                    if let Some(w) = b_on.broke_at {
                        found.push(chain(Effect::remove_digit(d, CellSet::single(c)), w));
                        continue;
                    }
                    let b_off = branch(st, c, d, false);
                    if let Some(w) = b_off.broke_at {
                        found.push(chain(Effect::Place(c, d), w));
                        continue;
                    }
                    if let Some((effect, w)) = common(st, &[b_on, &b_off]) {
                        found.push(chain(effect, w));
                    }
                }
            }
        }
        Start::Cell => {
            for c in st.empty() {
                let ds = st.candidates(c);
                if ds.len() < 2 {
                    continue;
                }
                p += 1;
                let ids: Vec<usize> = ds.iter().map(|d| ensure(on, st, c, d)).collect();
                if let Some((effect, w)) = common_of(st, on, &ids) {
                    let a = Application::new(
                        Strategy::CellForcingChain,
                        CellSet::single(c),
                        ds,
                        c.index(),
                        effect,
                    )
                    .at_depth(w);
                    found.push((a, ids));
                }
            }
        }
        Start::House => {
            for h in 0..27 {
                for d in Digit::all() {
                    let places = st.cells_with(d) & CellSet::house_at(h);
                    if places.len() < 2 {
                        continue;
                    }
                    p += 1;
                    let ids: Vec<usize> =
                        places.iter().map(|c| ensure(on, st, c, d)).collect();
                    if let Some((effect, w)) = common_of(st, on, &ids) {
                        let a = Application::of_house(
                            Strategy::HouseForcingChain,
                            h,
                            places,
                            DigitSet::single(d),
                            effect,
                        )
                        .at_depth(w);
                        found.push((a, ids));
                    }
                }
            }
        }
    }
    out.extend(found.into_iter().map(|(a, _)| a));
    p
}

/// The placements of one branch, in order, up to the wave where it ends, and how it ends: the
/// chain of singles that a hint shows (`on`: `d` assumed in `c`; else `d` removed from `c`).
pub fn branch_log(st: &Candidates, c: Cell, d: Digit, on: bool, waves: u8) -> (Vec<Placed>, End) {
    let mut s = st.clone();
    let mut log = Vec::new();
    if on {
        s.place(c, d).expect("a candidate");
        log.push(Placed {
            cell: c,
            digit: d,
            reason: Reason::Assumed,
            wave: 0,
        });
    } else {
        s.remove(d, CellSet::single(c));
    }
    for wave in 1..=waves {
        if let Some(end) = broken(&s) {
            return (log, end);
        }
        let mut placed_now = Vec::new();
        for x in s.naked_single_cells() {
            let e = s.candidates(x).first().expect("one candidate");
            placed_now.push((x, e, Reason::Naked));
        }
        for e in Digit::all() {
            for h in 0..27 {
                let x = s.cells_with(e) & CellSet::house_at(h);
                if x.len() == 1 {
                    let cell = x.first().expect("one");
                    if !placed_now.iter().any(|&(y, f, _)| y == cell && f == e) {
                        let house = House::from_index(h).expect("house < 27");
                        placed_now.push((cell, e, Reason::Hidden(house)));
                    }
                }
            }
        }
        if placed_now.is_empty() {
            return (log, End::Stalled);
        }
        for (x, e, reason) in placed_now {
            if s.place(x, e).is_none() {
                // Placed earlier in this wave: another digit took the cell, or the digit is
                // already in one of its houses.
                let h = crate::cellset::HOUSES_OF_CELL[x.index()]
                    .iter()
                    .map(|&h| h as usize)
                    .find(|&h| s.placed(e).intersects(CellSet::house_at(h)))
                    .and_then(House::from_index);
                log.push(Placed {
                    cell: x,
                    digit: e,
                    reason,
                    wave,
                });
                return (
                    log,
                    match h {
                        Some(h) => End::Twice(e, h),
                        None => End::NoCandidate(x),
                    },
                );
            }
            log.push(Placed {
                cell: x,
                digit: e,
                reason,
                wave,
            });
        }
    }
    (log, broken(&s).unwrap_or(End::Stalled))
}

/// How `s` is broken, if it is.
fn broken(s: &Candidates) -> Option<End> {
    let any = Digit::all().fold(CellSet::EMPTY, |a, d| a | s.cells_with(d));
    if let Some(c) = (s.empty() - any).first() {
        return Some(End::NoCandidate(c));
    }
    for d in Digit::all() {
        let cover = s.cells_with(d) | s.placed(d);
        for h in 0..27 {
            if !cover.intersects(CellSet::house_at(h)) {
                return Some(End::NoPlace(d, House::from_index(h).expect("house < 27")));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    #[test]
    fn a_candidate_whose_singles_clash_is_removed() {
        // Row 1 misses 8 and 9 and column 8 has its 9 in row 5: 9 in r1c9 leaves 8 for
        // r1c8... and 8 in r1c9 leaves r1c8 with nothing.
        let st = state(ROW_ONE_MISSES_8_9);
        let mut out = Vec::new();
        search(&st, Start::Digit, &mut out);
        let a = out
            .iter()
            .find(|a| a.cells == CellSet::single(rc(1, 9)) && a.digits == DigitSet::single(dg(8)))
            .expect("r1c9=8 breaks");
        assert_eq!(
            a.effect,
            Effect::remove_digit(dg(8), CellSet::single(rc(1, 9)))
        );
        let (log, end) = branch_log(&st, rc(1, 9), dg(8), true, MAX_WAVES);
        assert_eq!(log[0].reason, Reason::Assumed);
        assert_ne!(end, End::Stalled);
    }

    #[test]
    fn a_published_forcing_chain_verity_is_found() {
        // HoDoKu's example of a forcing chain verity (hodoku.sourceforge.net/en/
        // show_example.php?file=fcv03): every case proves r1c7 is 4.
        let st =
            state("271896...94352768185631479248.....2.63.......51.......395....7.724.385.9168...243");
        let (_, out) = run(search_all, &st);
        assert!(
            out.iter()
                .any(|a| a.effect == Effect::Place(rc(1, 7), dg(4))
                    || removed(a, 3).contains(rc(1, 7)) && removed(a, 5).contains(rc(1, 7))),
            "{out:?}"
        );
    }

    #[test]
    fn forcing_chains_are_sound_on_hard_states() {
        let Some(found) = crate::strategies::soundness::check(
            &[
                Strategy::DigitForcingChain,
                Strategy::CellForcingChain,
                Strategy::HouseForcingChain,
            ],
            10,
            2,
        ) else {
            return;
        };
        assert!(found.iter().all(|&n| n > 0), "{found:?}");
    }
}
