//! A publisher's numeric scale (e.g. Sudoku Explainer's rating) learned from the same features
//! as the levels ([`super::features`]): a monotone regression, deterministic.
//!
//! The fit is in two parts. A ridge regression of the label on the standardised features
//! gives each puzzle a score `s = w . z` (one direction of difficulty, as in the ordinal
//! model); then the label is fitted as a non-decreasing function of the score by isotonic
//! regression (pool adjacent violators), read between its blocks by linear interpolation. The
//! value is monotone in the score, so the scale keeps the order the features agree on, and the
//! isotonic part bends the straight line to the publisher's steps (Sudoku Explainer's ratings
//! bunch at its techniques' values). The ridge penalty is chosen from [`LAMBDAS`] by two-fold
//! cross-validation on mean absolute error inside the training data.

use super::ordinal::{solve_spd, standardise, weighted};

/// The ridge penalties the fit chooses from (on standardised features, summed squares).
pub const LAMBDAS: [f64; 5] = [0.1, 1.0, 10.0, 100.0, 1000.0];

/// A fitted monotone regression.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Regression {
    /// The training features' means, one per feature.
    pub mean: Vec<f64>,
    /// The training features' spreads (1 where a feature is constant).
    pub scale: Vec<f64>,
    /// The ridge weights of the standardised features (the score).
    pub weights: Vec<f64>,
    /// The isotonic fit of the label on the score: (score, value) knots, both increasing.
    pub knots: Vec<(f64, f64)>,
    /// The ridge penalty it was fitted with.
    pub lambda: f64,
}

impl Regression {
    /// The score `w . z` of raw features `x`.
    pub fn score(&self, x: &[f64]) -> f64 {
        weighted(x, &self.mean, &self.scale, &self.weights)
    }

    /// The value on the publisher's scale of raw features `x`.
    pub fn value(&self, x: &[f64]) -> f64 {
        interpolate(&self.knots, self.score(x))
    }
}

/// The piecewise-linear function through `knots` (increasing in both coordinates) at `s`,
/// constant beyond the first and the last.
fn interpolate(knots: &[(f64, f64)], s: f64) -> f64 {
    let Some(&(first_s, first_v)) = knots.first() else {
        return 0.0;
    };
    if s <= first_s {
        return first_v;
    }
    let at = knots.partition_point(|&(k, _)| k <= s);
    if at >= knots.len() {
        return knots[knots.len() - 1].1;
    }
    let (s0, v0) = knots[at - 1];
    let (s1, v1) = knots[at];
    v0 + (v1 - v0) * (s - s0) / (s1 - s0)
}

/// The isotonic (non-decreasing) least-squares fit of `y` on `s`: each block of pooled
/// samples is flat from its lowest score to its highest (two knots), and the fit rises
/// linearly across the gaps between blocks.
fn isotonic(s: &[f64], y: &[f64]) -> Vec<(f64, f64)> {
    let mut order: Vec<usize> = (0..s.len()).collect();
    order.sort_by(|&a, &b| s[a].total_cmp(&s[b]).then(y[a].total_cmp(&y[b])));
    // Blocks: (lowest score, highest score, sum of labels, count).
    let mut blocks: Vec<(f64, f64, f64, f64)> = Vec::new();
    for i in order {
        blocks.push((s[i], s[i], y[i], 1.0));
        while blocks.len() > 1 {
            let (_, hi1, y1, n1) = blocks[blocks.len() - 1];
            let (lo0, _, y0, n0) = blocks[blocks.len() - 2];
            if y0 / n0 < y1 / n1 {
                break;
            }
            blocks.pop();
            *blocks.last_mut().expect("two blocks") = (lo0, hi1, y0 + y1, n0 + n1);
        }
    }
    let mut knots: Vec<(f64, f64)> = Vec::with_capacity(2 * blocks.len());
    for (lo, hi, y, n) in blocks {
        knots.push((lo, y / n));
        if hi > lo {
            knots.push((hi, y / n));
        }
    }
    // Blocks that meet at one score (tied scores, other labels) are one knot: the higher.
    knots.dedup_by(|b, a| {
        if b.0 <= a.0 {
            a.1 = a.1.max(b.1);
            true
        } else {
            false
        }
    });
    knots
}

/// Fits the regression of labels `y` on raw features `x` with the ridge penalty `lambda`.
/// Panics unless there are samples, all with the same number of features.
pub fn fit(x: &[Vec<f64>], y: &[f64], lambda: f64) -> Regression {
    assert!(!x.is_empty() && x.len() == y.len());
    let (mean, scale, z) = standardise(x);
    let d = mean.len();
    let n = y.len() as f64;
    let ybar = y.iter().sum::<f64>() / n;
    let mut a = vec![vec![0.0; d]; d];
    let mut b = vec![0.0; d];
    for (zi, &yi) in z.iter().zip(y) {
        for f in 0..d {
            b[f] += zi[f] * (yi - ybar);
            for g in 0..=f {
                a[f][g] += zi[f] * zi[g];
            }
        }
    }
    // The lower triangle was filled: mirror it, and add the penalty on the diagonal.
    let lower = a.clone();
    for (f, row) in a.iter_mut().enumerate() {
        for (g, v) in row.iter_mut().enumerate().skip(f + 1) {
            *v = lower[g][f];
        }
        row[f] += lambda + 1e-9;
    }
    let weights = solve_spd(&a, &b).unwrap_or_else(|| vec![0.0; d]);
    let scores: Vec<f64> = z
        .iter()
        .map(|zi| zi.iter().zip(&weights).map(|(v, w)| v * w).sum())
        .collect();
    Regression {
        mean,
        scale,
        weights,
        knots: isotonic(&scores, y),
        lambda,
    }
}

/// How well values agree with labels: Spearman's rank correlation and the mean absolute error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    /// Spearman's rank correlation (ties ranked by their mean rank).
    pub spearman: f64,
    /// The mean absolute error, in the label's units.
    pub mae: f64,
}

/// Ranks of `v` from 1, ties given their mean rank.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Spearman's correlation and the mean absolute error of `values` against `labels`.
pub fn agreement(values: &[f64], labels: &[f64]) -> Agreement {
    let (a, b) = (ranks(values), ranks(labels));
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    let spearman = if va > 0.0 && vb > 0.0 {
        cov / (va * vb).sqrt()
    } else {
        0.0
    };
    let mae = values
        .iter()
        .zip(labels)
        .map(|(v, l)| (v - l).abs())
        .sum::<f64>()
        / n.max(1.0);
    Agreement { spearman, mae }
}

/// Two-fold cross-validation: each half (`half[i]`, 0 or 1) valued by the regression `fit`
/// makes from the other (its features, labels and sample indices). Returns each sample's
/// held-out value.
pub fn held_out(
    x: &[Vec<f64>],
    y: &[f64],
    half: &[usize],
    fit: impl Fn(&[Vec<f64>], &[f64], &[usize]) -> Regression,
) -> Vec<f64> {
    let mut values = vec![f64::NAN; x.len()];
    for fold in 0..2 {
        let train: Vec<usize> = (0..x.len()).filter(|&i| half[i] != fold).collect();
        if train.is_empty() {
            continue;
        }
        let tx: Vec<Vec<f64>> = train.iter().map(|&i| x[i].clone()).collect();
        let ty: Vec<f64> = train.iter().map(|&i| y[i]).collect();
        let model = fit(&tx, &ty, &train);
        for i in (0..x.len()).filter(|&i| half[i] == fold) {
            values[i] = model.value(&x[i]);
        }
    }
    values
}

/// Fits with the penalty of [`LAMBDAS`] whose fits have the smallest mean absolute error in
/// two-fold cross-validation on these samples (the halves `half`); ties: the larger penalty.
pub fn fit_tuned(x: &[Vec<f64>], y: &[f64], half: &[usize]) -> Regression {
    use rayon::prelude::*;
    let errors: Vec<f64> = LAMBDAS
        .par_iter()
        .map(|&lambda| {
            let v = held_out(x, y, half, |tx, ty, _| fit(tx, ty, lambda));
            let kept: Vec<(f64, f64)> = v
                .iter()
                .zip(y)
                .filter(|(v, _)| v.is_finite())
                .map(|(&v, &l)| (v, l))
                .collect();
            kept.iter().map(|(v, l)| (v - l).abs()).sum::<f64>() / kept.len().max(1) as f64
        })
        .collect();
    let mut best = (f64::INFINITY, LAMBDAS[0]);
    for (&e, &lambda) in errors.iter().zip(&LAMBDAS) {
        if e <= best.0 {
            best = (e, lambda);
        }
    }
    fit(x, y, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn isotonic_pools_violators_and_the_value_is_monotone() {
        let knots = isotonic(&[1.0, 2.0, 3.0, 4.0, 5.0], &[1.0, 3.0, 2.0, 4.0, 4.0]);
        assert_eq!(
            knots,
            vec![(1.0, 1.0), (2.0, 2.5), (3.0, 2.5), (4.0, 4.0), (5.0, 4.0)]
        );
        assert_eq!(interpolate(&knots, 0.0), 1.0);
        assert_eq!(interpolate(&knots, 9.0), 4.0);
        assert!((interpolate(&knots, 1.5) - 1.75).abs() < 1e-12);
        assert_eq!(interpolate(&knots, 2.5), 2.5);
        let mut last = f64::MIN;
        for i in 0..100 {
            let v = interpolate(&knots, f64::from(i) / 15.0);
            assert!(v >= last);
            last = v;
        }
    }

    #[test]
    fn ranks_share_ties_and_agreement_is_exact_on_a_monotone_map() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
        let labels = [1.0, 2.0, 3.0, 4.0];
        let a = agreement(&[10.0, 20.0, 30.0, 40.0], &labels);
        assert!((a.spearman - 1.0).abs() < 1e-12);
        assert!((a.mae - 22.5).abs() < 1e-12);
        let b = agreement(&[4.0, 3.0, 2.0, 1.0], &labels);
        assert!((b.spearman + 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_steep_scale_of_one_feature_is_learned_and_the_fit_is_deterministic() {
        // The label is a step function of the first feature (as a grader's techniques are);
        // the second feature is noise.
        let mut rng = Rng::new(4);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..400 {
            let a = rng.next_f64() * 10.0;
            x.push(vec![a, rng.next_f64()]);
            y.push(if a < 3.0 { 1.5 } else if a < 7.0 { 4.0 } else { 9.0 });
        }
        let half: Vec<usize> = (0..x.len()).map(|i| i % 2).collect();
        let m = fit_tuned(&x, &y, &half);
        assert_eq!(m, fit_tuned(&x, &y, &half));
        let v = held_out(&x, &y, &half, |tx, ty, _| fit(tx, ty, m.lambda));
        let a = agreement(&v, &y);
        assert!(a.spearman > 0.9, "{a:?}");
        assert!(a.mae < 0.3, "{a:?}");
        assert!(m.weights[0].abs() > 10.0 * m.weights[1].abs(), "{:?}", m.weights);
    }
}
