//! Fitting level cut points to labelled puzzles, exactly.
//!
//! Given puzzles rated on one scale and labelled with ordered levels 0..k, the cut points
//! c_1 <= ... <= c_(k-1) split the ratings into k contiguous ranges, level j being
//! [c_j, c_(j+1)). [`fit`] finds the cuts that put the most puzzles in their own level, by
//! dynamic programming over the ratings in order (puzzles with equal ratings always share a
//! level): with `n_j(i)` the number of the first i puzzles labelled j,
//!
//! ```text
//! best_j(i) = n_j(i) + max over i' <= i of (best_(j-1)(i') - n_j(i'))
//! ```
//!
//! is the most agreement the first i puzzles can reach with levels 0..=j, and the answer is
//! `best_(k-1)(n)`, found in O(k n) after sorting. A cut is placed halfway between the two
//! distinct ratings it separates.

/// Cut points between k ordered levels: `cuts[j]` is where level j + 1 starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Cuts(pub Vec<f64>);

impl Cuts {
    /// The level (0-based) of `rating`: the number of cuts at or below it.
    pub fn level(&self, rating: f64) -> usize {
        self.0.partition_point(|&c| c <= rating)
    }

    /// The number of levels.
    pub fn levels(&self) -> usize {
        self.0.len() + 1
    }
}

/// The cuts of `k` levels that put the most of `samples` (rating, level) in their own level
/// (ties broken towards cuts placed at the earliest boundaries). Levels of samples are below
/// `k`; `k >= 1`.
pub fn fit(samples: &[(f64, usize)], k: usize) -> Cuts {
    assert!(k >= 1, "at least one level");
    let mut s: Vec<(f64, usize)> = samples.to_vec();
    s.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Boundaries: positions b (0..=n) between s[b-1] and s[b] where the ratings differ, plus
    // 0 and n.
    let n = s.len();
    let bounds: Vec<usize> = (0..=n)
        .filter(|&b| b == 0 || b == n || s[b - 1].0 != s[b].0)
        .collect();
    let m = bounds.len();
    // count[j][t]: samples labelled j among the first bounds[t].
    let mut count = vec![vec![0u32; m]; k];
    for (j, cj) in count.iter_mut().enumerate() {
        let mut c = 0;
        let mut t = 0;
        for (i, &(_, l)) in s.iter().enumerate() {
            while bounds[t] <= i {
                cj[t] = c;
                t += 1;
            }
            c += u32::from(l == j);
        }
        cj[t..].fill(c);
    }
    // best[j][t] and the argmax of its inner maximum (where level j starts).
    let mut best = vec![vec![0i64; m]; k];
    let mut from = vec![vec![0usize; m]; k];
    for t in 0..m {
        best[0][t] = i64::from(count[0][t]);
    }
    for j in 1..k {
        let (mut run, mut arg) = (i64::MIN, 0);
        for t in 0..m {
            let v = best[j - 1][t] - i64::from(count[j][t]);
            if v > run {
                run = v;
                arg = t;
            }
            best[j][t] = i64::from(count[j][t]) + run;
            from[j][t] = arg;
        }
    }
    // Walk back from the end: level j starts at boundary from[j][t].
    let mut starts = vec![0usize; k];
    let mut t = m - 1;
    for j in (1..k).rev() {
        t = from[j][t];
        starts[j] = t;
    }
    let cut_at = |t: usize| -> f64 {
        let b = bounds[t];
        match (b, n) {
            (_, 0) => 0.0,
            (0, _) => s[0].0 - 1.0,
            (b, n) if b == n => s[n - 1].0 + 1.0,
            (b, _) => midpoint(s[b - 1].0, s[b].0),
        }
    };
    Cuts(starts[1..].iter().map(|&t| cut_at(t)).collect())
}

/// The midpoint of two neighbouring ratings, written with the fewest decimals that stay within
/// float noise of it (and still between them): a cut prints as `10.063`, not as the sum's
/// `10.062999999999999`.
fn midpoint(lo: f64, hi: f64) -> f64 {
    let mid = (lo + hi) / 2.0;
    let noise = 1e-9 * mid.abs().max(1.0);
    (0..=12)
        .map(|d| {
            let scale = 10f64.powi(d);
            (mid * scale).round() / scale
        })
        .find(|&c| (c - mid).abs() <= noise && lo < c && c <= hi)
        .unwrap_or(mid)
}

/// The confusion matrix of `cuts` on `samples`: `m[label][level]` counts.
pub fn confusion(samples: &[(f64, usize)], cuts: &Cuts) -> Vec<Vec<u64>> {
    let k = cuts.levels();
    let mut m = vec![vec![0u64; k]; k];
    for &(r, l) in samples {
        m[l.min(k - 1)][cuts.level(r)] += 1;
    }
    m
}

/// The share of samples on the diagonal of a confusion matrix.
pub fn agreement(m: &[Vec<u64>]) -> f64 {
    let total: u64 = m.iter().flatten().sum();
    let diag: u64 = (0..m.len()).map(|i| m[i][i]).sum();
    diag as f64 / total.max(1) as f64
}

/// The held-out result of fitting on one half of labelled samples and measuring on the other,
/// both ways round (2-fold cross-validation).
#[derive(Clone, Debug, PartialEq)]
pub struct CrossValidation {
    /// Per fold: the cuts fitted on half `f` and their confusion matrix on half `1 - f`.
    pub folds: [(Cuts, Vec<Vec<u64>>); 2],
}

impl CrossValidation {
    /// The two held-out confusion matrices added up.
    pub fn confusion(&self) -> Vec<Vec<u64>> {
        let mut m = self.folds[0].1.clone();
        for (row, other) in m.iter_mut().zip(&self.folds[1].1) {
            for (a, b) in row.iter_mut().zip(other) {
                *a += b;
            }
        }
        m
    }

    /// The held-out share of samples in their own level.
    pub fn agreement(&self) -> f64 {
        agreement(&self.confusion())
    }
}

/// Fits `k` levels on each half of `samples` (rating, level, half 0 or 1) and measures the
/// cuts on the other half.
pub fn cross_validate(samples: &[(f64, usize, usize)], k: usize) -> CrossValidation {
    let half = |h: usize| -> Vec<(f64, usize)> {
        samples
            .iter()
            .filter(|s| s.2 == h)
            .map(|s| (s.0, s.1))
            .collect()
    };
    let fold = |f: usize| {
        let cuts = fit(&half(f), k);
        let m = confusion(&half(1 - f), &cuts);
        (cuts, m)
    };
    CrossValidation {
        folds: [fold(0), fold(1)],
    }
}

/// A confusion matrix as a Markdown table: rows the labels, columns the levels given, then
/// each label's share in its own level.
#[cfg(feature = "dev")]
pub fn markdown(m: &[Vec<u64>], names: &[String]) -> String {
    use std::fmt::Write as _;
    let mut t = String::from("| labelled \\ given |");
    for n in names {
        let _ = write!(t, " {n} |");
    }
    t.push_str(" in its level |\n|---|");
    t.push_str(&"---:|".repeat(names.len() + 1));
    t.push('\n');
    for (i, row) in m.iter().enumerate() {
        let n: u64 = row.iter().sum();
        let _ = write!(t, "| {} |", names[i]);
        for v in row {
            let _ = write!(t, " {v} |");
        }
        let share = 100.0 * row[i] as f64 / n.max(1) as f64;
        let _ = writeln!(t, " {share:.1}% |");
    }
    t
}

/// A confusion matrix as aligned text for a terminal (same layout as [`markdown`]).
pub fn text(m: &[Vec<u64>], names: &[String]) -> String {
    use std::fmt::Write as _;
    let w = names.iter().map(|n| n.len()).max().unwrap_or(0).max(8);
    let mut t = format!("{:<w$}", "labelled");
    for n in names {
        let _ = write!(t, " {n:>w$}");
    }
    let _ = writeln!(t, " {:>w$}", "in level");
    for (i, row) in m.iter().enumerate() {
        let n: u64 = row.iter().sum();
        let _ = write!(t, "{:<w$}", names[i]);
        for v in row {
            let _ = write!(t, " {v:>w$}");
        }
        let share = 100.0 * row[i] as f64 / n.max(1) as f64;
        let _ = writeln!(t, " {:>w$}", format!("{share:.1}%"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The most agreement any cuts reach, by trying every placement (small inputs only).
    fn brute(samples: &[(f64, usize)], k: usize) -> u64 {
        let mut values: Vec<f64> = samples.iter().map(|s| s.0).collect();
        values.sort_by(f64::total_cmp);
        values.dedup();
        let mut candidates = vec![values[0] - 1.0];
        candidates.extend(values.windows(2).map(|w| (w[0] + w[1]) / 2.0));
        candidates.push(values[values.len() - 1] + 1.0);
        let mut best = 0;
        let mut cuts = vec![0usize; k - 1];
        loop {
            let c = Cuts(cuts.iter().map(|&i| candidates[i]).collect());
            let m = confusion(samples, &c);
            best = best.max((0..k).map(|i| m[i][i]).sum());
            // Next non-decreasing index tuple.
            let mut i = k - 1;
            loop {
                if i == 0 {
                    return best;
                }
                i -= 1;
                if cuts[i] + 1 < candidates.len() {
                    cuts[i] += 1;
                    let v = cuts[i];
                    for x in cuts.iter_mut().skip(i + 1) {
                        *x = v;
                    }
                    break;
                }
            }
        }
    }

    #[test]
    fn separable_levels_are_found_exactly() {
        let s = [(1.0, 0), (2.0, 0), (3.0, 1), (4.0, 1), (5.0, 2), (9.0, 2)];
        let c = fit(&s, 3);
        assert_eq!(c, Cuts(vec![2.5, 4.5]));
        assert_eq!(agreement(&confusion(&s, &c)), 1.0);
        assert_eq!(c.level(2.5), 1);
        assert_eq!(c.level(2.49), 0);
    }

    #[test]
    fn cuts_print_without_float_noise() {
        assert_eq!(format!("{}", midpoint(10.062, 10.064)), "10.063");
        assert_eq!(format!("{}", midpoint(3.1, 3.2)), "3.15");
        assert_eq!(midpoint(2.0, 3.0), 2.5);
        let c = midpoint(1.0, 1.0 + 1e-12);
        assert!(c > 1.0 && c <= 1.0 + 1e-12);
    }

    #[test]
    fn cross_validation_measures_each_half_with_the_other() {
        // Half 0 separable at 2.5; half 1 has one sample on the wrong side of it.
        let s = [
            (1.0, 0, 0),
            (2.0, 0, 0),
            (3.0, 1, 0),
            (4.0, 1, 0),
            (1.5, 0, 1),
            (2.6, 0, 1),
            (3.5, 1, 1),
            (4.5, 1, 1),
        ];
        let cv = cross_validate(&s, 2);
        assert_eq!(cv.folds[0].0, Cuts(vec![2.5]));
        assert_eq!(cv.folds[0].1, vec![vec![1, 1], vec![0, 2]]);
        assert_eq!(cv.confusion().iter().flatten().sum::<u64>(), 8);
        // Fold 1 cuts at 3.05, which puts (3.0, hard) in easy.
        assert_eq!(cv.folds[1].1, vec![vec![2, 0], vec![1, 1]]);
        assert_eq!(cv.agreement(), 0.75);
        let names: Vec<String> = vec!["easy".into(), "hard".into()];
        let md = markdown(&cv.folds[0].1, &names);
        assert!(md.contains("| easy | 1 | 1 | 50.0% |"), "{md}");
    }

    #[test]
    fn a_level_nobody_needs_can_be_empty() {
        let s = [(1.0, 0), (2.0, 0), (3.0, 2), (4.0, 2)];
        let c = fit(&s, 3);
        assert_eq!(agreement(&confusion(&s, &c)), 1.0);
    }

    proptest! {
        #[test]
        fn the_fit_is_optimal(
            raw in proptest::collection::vec((0u8..12, 0usize..3), 1..14),
            k in 1usize..4,
        ) {
            let s: Vec<(f64, usize)> = raw.iter().map(|&(r, l)| (f64::from(r), l.min(k - 1))).collect();
            let c = fit(&s, k);
            let m = confusion(&s, &c);
            let got: u64 = (0..k).map(|i| m[i][i]).sum();
            prop_assert_eq!(got, brute(&s, k));
            prop_assert!(c.0.windows(2).all(|w| w[0] <= w[1]));
        }
    }
}
