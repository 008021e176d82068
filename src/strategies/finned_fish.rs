//! Finned fish (no hsolve tier; for the rating beyond the paper): the finned X-wing, swordfish
//! and jellyfish, sashimi ones included. For one digit, k base rows hold it only in k cover
//! columns, except for a few extra places, the fins, which all lie in one box. If no fin holds
//! the digit, the base rows form a plain fish and the cover columns lose it outside the base
//! rows; if a fin holds it, the rest of the fin's box loses it. Either way the cells of the
//! cover columns inside the fin's box, outside the base rows, lose the digit. The fish is
//! sashimi when a base row keeps a single place in the cover columns. The same holds with rows
//! and columns swapped. A fish without fins is a plain fish (`fish`), not reported here.
//!
//! Possible applications: for each digit and direction, C(m, k), where m counts the lines that
//! hold the digit in 2 to k + 3 places (at most k in the cover lines and 3 fins in a box): the
//! sets of k base lines a player checks.

use super::{choose, find_again, per_digit, sized, Application, DigitMemo, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;
use crate::grid::Digit;

/// Finned X-wing, swordfish and jellyfish, by size.
const FINNED: [Strategy; 3] = [
    Strategy::FinnedXWing,
    Strategy::FinnedSwordfish,
    Strategy::FinnedJellyfish,
];

/// One finned fish: its digit, lines, fins and removals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FinnedFish {
    /// The fish's size k (2-4).
    pub size: u32,
    /// The digit.
    pub digit: Digit,
    /// True when the base lines are rows (and the cover lines columns).
    pub by_rows: bool,
    /// The base lines, bit i = row (or column) i.
    pub base: u16,
    /// The cover lines, bit i = column (or row) i.
    pub cover: u16,
    /// The base lines' places for the digit, fins included.
    pub cells: CellSet,
    /// The fins: the places outside the cover lines, all in one box.
    pub fins: CellSet,
    /// The cells that lose the digit.
    pub targets: CellSet,
    /// True when some base line has a single place in the cover lines.
    pub sashimi: bool,
}

impl FinnedFish {
    /// The application this fish makes.
    pub fn application(&self) -> Application {
        Application::of_digit(
            sized(FINNED, self.size),
            self.digit,
            self.cells,
            Effect::remove_digit(self.digit, self.targets),
        )
    }
}

/// Pushes every valid finned fish of size `k` (2-4); returns p.
#[cfg(test)]
pub fn search(st: &Candidates, k: u32, out: &mut Vec<Application>) -> u64 {
    search_kept(st, k, &mut DigitMemo::default(), out)
}

/// [`search`], each digit's fish kept in `memo` by its places (see [`scan`]).
pub(crate) fn search_kept(
    st: &Candidates,
    k: u32,
    memo: &mut DigitMemo<Kept>,
    out: &mut Vec<Application>,
) -> u64 {
    scan(st, k, memo, |f| out.push(f.application()))
}

/// The finned fish behind an application of [`search`] on `st`, for its words.
pub(crate) fn pattern(st: &Candidates, a: &Application) -> Option<FinnedFish> {
    let k = FINNED.iter().position(|&s| s == a.strategy)? as u32 + 2;
    find_again(a, |f| {
        scan(st, k, &mut DigitMemo::default(), |fish| {
            f(fish, fish.application())
        })
    })
}

/// The rows (bit i = row i) of a mask, as cells.
fn rows_of(mask: u16) -> CellSet {
    (0..9)
        .filter(|i| mask >> i & 1 != 0)
        .fold(CellSet::EMPTY, |s, i| s | CellSet::house_at(i))
}

/// The columns (bit i = column i) of a mask, as cells.
fn cols_of(mask: u16) -> CellSet {
    (0..9)
        .filter(|i| mask >> i & 1 != 0)
        .fold(CellSet::EMPTY, |s, i| s | CellSet::house_at(9 + i))
}

/// Calls `f` with every `k`-subset of `items` (k <= 4), in lexicographic order.
fn for_each_k_subset(items: &[usize], k: usize, mut f: impl FnMut(&[usize])) {
    let n = items.len();
    if k == 0 || k > n {
        return;
    }
    let mut idx = [0usize; 4];
    for (i, x) in idx.iter_mut().enumerate().take(k) {
        *x = i;
    }
    let mut chosen = [0usize; 4];
    loop {
        for i in 0..k {
            chosen[i] = items[idx[i]];
        }
        f(&chosen[..k]);
        // Advance the rightmost index that can move.
        let mut i = k;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if idx[i] < n - k + i {
                idx[i] += 1;
                for j in i + 1..k {
                    idx[j] = idx[j - 1] + 1;
                }
                break;
            }
        }
    }
}

/// Calls `f` with every finned fish of size `k`; returns p.
///
/// The search runs in the frame of rows: for the column direction the digit's places are
/// transposed first, and each fish found is transposed back. For each set of k base rows and
/// each box the fins may lie in (a box of a base row's band), the places outside the box fix
/// the cover columns; the missing ones are chosen among the box's columns, and what the box
/// then keeps outside the cover columns are the fins.
///
/// A digit's fish depend on its places alone, so each digit's are kept in `memo` by its
/// places (a rating meets the same places again and again as other digits move).
fn scan(
    st: &Candidates,
    k: u32,
    memo: &mut DigitMemo<Kept>,
    mut f: impl FnMut(&FinnedFish),
) -> u64 {
    let mut p = 0;
    for d in Digit::all() {
        let places = st.cells_with(d);
        if places.is_empty() {
            continue;
        }
        let (q, fish) = per_digit(memo, places, d, k as u8, || {
            let mut fish = Vec::new();
            let q = scan_digit(places, d, k, &mut |x| fish.push(*x));
            (q, fish)
        });
        p += q;
        fish.iter().for_each(&mut f);
    }
    p
}

/// One digit's finned fish of one size, as kept: p and the fish.
pub(crate) type Kept = (u64, Vec<FinnedFish>);

/// [`scan`] for one digit on its places; returns p.
fn scan_digit(places: CellSet, d: Digit, k: u32, f: &mut impl FnMut(&FinnedFish)) -> u64 {
    let mut p = 0;
    for by_rows in [true, false] {
        let pl = if by_rows { places } else { places.transpose() };
        let bits = pl.bits();
        let lines: [u16; 9] = std::array::from_fn(|r| (bits >> (9 * r)) as u16 & 0x1FF);
        let mut eligible = [0usize; 9];
        let mut n = 0;
        for (r, m) in lines.iter().enumerate() {
            if (2..=k + 3).contains(&m.count_ones()) {
                eligible[n] = r;
                n += 1;
            }
        }
        p += choose(n as u32, k);
        for_each_k_subset(&eligible[..n], k as usize, |base_rows| {
            let base = base_rows.iter().fold(0u16, |m, &r| m | 1 << r);
            // k cover columns and the fins' at most three: no more columns than k + 3.
            let all = base_rows.iter().fold(0u16, |m, &r| m | lines[r]);
            if all.count_ones() > k + 3 {
                return;
            }
            for band in 0..3 {
                let band_rows = 0b111u16 << (3 * band);
                if base & band_rows == 0 {
                    continue;
                }
                for stack in 0..3 {
                    let stack_cols = 0b111u16 << (3 * stack);
                    fish_in_box(
                        &lines, pl, base_rows, base, band_rows, stack_cols, k, d, by_rows, f,
                    );
                }
            }
        });
    }
    p
}

/// The finned fish of the base rows `base_rows` (mask `base`) whose fins lie in the box of
/// `band_rows` and `stack_cols`, in the rows' frame (`lines`, `pl`: the digit's places).
#[allow(clippy::too_many_arguments)]
fn fish_in_box(
    lines: &[u16; 9],
    pl: CellSet,
    base_rows: &[usize],
    base: u16,
    band_rows: u16,
    stack_cols: u16,
    k: u32,
    d: Digit,
    by_rows: bool,
    f: &mut impl FnMut(&FinnedFish),
) {
    // Columns of the places outside the box, and of those inside it.
    let (mut outside, mut inside) = (0u16, 0u16);
    for &r in base_rows {
        if band_rows >> r & 1 != 0 {
            outside |= lines[r] & !stack_cols;
            inside |= lines[r] & stack_cols;
        } else {
            outside |= lines[r];
        }
    }
    if inside == 0 || outside.count_ones() > k {
        return;
    }
    let extra = k - outside.count_ones();
    let choices = inside & !outside;
    let mut seen = [CellSet::EMPTY; 4];
    let mut n_seen = 0;
    // Every subset of the box's free columns with `extra` columns completes the cover.
    let mut t = choices;
    loop {
        if t.count_ones() == extra {
            let cover = outside | t;
            let fin_cols = inside & !cover;
            let mut covered = 0u16;
            let mut each_line = true;
            let mut sashimi = false;
            for &r in base_rows {
                let c = lines[r] & cover;
                each_line &= c != 0;
                sashimi |= c.count_ones() == 1;
                covered |= c;
            }
            let target_cols = cover & stack_cols;
            if fin_cols != 0 && each_line && covered == cover && target_cols != 0 {
                let targets = pl & rows_of(band_rows & !base) & cols_of(target_cols);
                if !targets.is_empty() && !seen[..n_seen].contains(&targets) {
                    if n_seen < seen.len() {
                        seen[n_seen] = targets;
                        n_seen += 1;
                    }
                    let cells = pl & rows_of(base);
                    let fins = cells & rows_of(band_rows) & cols_of(fin_cols);
                    let back = |s: CellSet| if by_rows { s } else { s.transpose() };
                    f(&FinnedFish {
                        size: k,
                        digit: d,
                        by_rows,
                        base,
                        cover,
                        cells: back(cells),
                        fins: back(fins),
                        targets: back(targets),
                        sashimi,
                    });
                }
            }
        }
        if t == 0 {
            break;
        }
        t = (t - 1) & choices;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testing::*;

    /// What the finned X-wing search finds on an empty board where 5 stays in row 2 only in
    /// columns 3 and 8, and in row 7 only in the columns `row7`: the board, p and the
    /// applications.
    fn rows_2_and_7(row7: &[u8]) -> (Candidates, u64, Vec<Application>) {
        let mut st = empty();
        confine(&mut st, 5, &[2], &[3, 8]);
        confine(&mut st, 5, &[7], row7);
        let (p, out) = run(|st, out| search(st, 2, out), &st);
        (st, p, out)
    }

    #[test]
    fn finds_a_finned_x_wing() {
        // Row 2: 5 in c3 and c8; row 7: c3, c8 and the fin r7c9 (box 9).
        let (st, p, out) = rows_2_and_7(&[3, 8, 9]);
        // Only rows 2 and 7 have 2 to 5 places; every column has 7 or more.
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(removed(&out[0], 5), set("r8c8 r9c8"));
        assert_eq!(out[0].cells, set("r2c3 r2c8 r7c3 r7c8 r7c9"));
        let fish = pattern(&st, &out[0]).expect("the pattern");
        assert_eq!(fish.fins, CellSet::single(rc(7, 9)));
        assert!(!fish.sashimi);
    }

    #[test]
    fn finds_a_sashimi_x_wing() {
        // Row 7 lost r7c3: it keeps one place (r7c8) in the cover columns 3 and 8.
        let (st, p, out) = rows_2_and_7(&[8, 9]);
        assert_eq!(p, 1);
        assert_eq!(out.len(), 1);
        assert_eq!(removed(&out[0], 5), set("r8c8 r9c8"));
        assert!(pattern(&st, &out[0]).expect("the pattern").sashimi);
    }

    #[test]
    fn no_fish_when_the_fin_is_far_or_split() {
        // A fin in box 8 meets no cover column; fins in boxes 8 and 9 are not in one box.
        for fins in [&[3u8, 5, 8][..], &[3, 5, 8, 9]] {
            let (_, p, out) = rows_2_and_7(fins);
            assert_eq!(p, 1);
            assert!(out.is_empty(), "{out:?}");
        }
    }

    #[test]
    fn a_plain_x_wing_is_not_finned() {
        let (_, _, out) = rows_2_and_7(&[3, 8]);
        assert!(out.is_empty());
    }
}
