//! The ordinal model of a publisher's levels: a proportional-odds logistic regression of the
//! level on a puzzle's features, fitted with an L2 penalty, deterministically.
//!
//! With levels 0..k and a feature vector x (standardised with the training data's mean and
//! spread), the model says
//!
//! ```text
//! P(level <= j | x) = sigma(theta_j - w . x),   j = 0 .. k-2,   theta_0 < ... < theta_(k-2)
//! ```
//!
//! so one direction w orders the puzzles from easy to hard (the model is monotone in it) and
//! the thresholds theta cut it into levels; a puzzle's level is the most likely one. The fit
//! maximises the log-likelihood less `lambda / 2 |w|^2` by Newton's method with step halving:
//! the same data give the same model on every machine (no randomness, a fixed order of
//! operations). `lambda` is chosen from a small grid by two-fold cross-validation on the
//! training data itself ([`fit_tuned`]).

use super::fit::agreement;

/// A fitted ordinal model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ordinal {
    /// The training features' means, one per feature.
    pub mean: Vec<f64>,
    /// The training features' spreads (standard deviations; 1 where a feature is constant).
    pub scale: Vec<f64>,
    /// The weights of the standardised features.
    pub weights: Vec<f64>,
    /// The k - 1 increasing thresholds.
    pub thresholds: Vec<f64>,
    /// The penalty it was fitted with.
    pub lambda: f64,
}

/// A fitted model that gives a level (0 = easiest) for raw features.
pub trait Classifier {
    /// The most likely level for raw features `x`.
    fn classify(&self, x: &[f64]) -> usize;
}

impl Classifier for Ordinal {
    fn classify(&self, x: &[f64]) -> usize {
        self.level(x)
    }
}

/// The logistic function.
fn sigma(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + (-t).exp())
    } else {
        let e = t.exp();
        e / (1.0 + e)
    }
}

impl Ordinal {
    /// The number of levels.
    pub fn levels(&self) -> usize {
        self.thresholds.len() + 1
    }

    /// The score w . x of raw features `x` (higher is harder).
    pub fn score(&self, x: &[f64]) -> f64 {
        weighted(x, &self.mean, &self.scale, &self.weights)
    }

    /// The probability of each level for raw features `x`.
    pub fn probabilities(&self, x: &[f64]) -> Vec<f64> {
        let eta = self.score(x);
        let k = self.levels();
        let cdf = |j: usize| -> f64 {
            if j + 1 >= k {
                1.0
            } else {
                sigma(self.thresholds[j] - eta)
            }
        };
        (0..k)
            .map(|j| cdf(j) - if j == 0 { 0.0 } else { cdf(j - 1) })
            .collect()
    }

    /// The most likely level (0 = easiest) for raw features `x`; ties go to the easier level.
    pub fn level(&self, x: &[f64]) -> usize {
        let p = self.probabilities(x);
        let mut best = 0;
        for (j, &pj) in p.iter().enumerate() {
            if pj > p[best] {
                best = j;
            }
        }
        best
    }
}

/// The penalised log-likelihood of parameters `(w, theta)` on standardised samples.
fn objective(z: &[Vec<f64>], y: &[usize], w: &[f64], theta: &[f64], lambda: f64) -> f64 {
    if theta.windows(2).any(|t| t[0] >= t[1]) {
        return f64::NEG_INFINITY;
    }
    let k = theta.len() + 1;
    let mut total = 0.0;
    for (x, &l) in z.iter().zip(y) {
        let eta: f64 = x.iter().zip(w).map(|(a, b)| a * b).sum();
        let upper = if l + 1 >= k { 1.0 } else { sigma(theta[l] - eta) };
        let lower = if l == 0 { 0.0 } else { sigma(theta[l - 1] - eta) };
        total += (upper - lower).max(1e-300).ln();
    }
    total - 0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>()
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky); `None` when it is not.
pub fn solve_spd(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|m| l[i][m] * l[j][m]).sum();
            if i == j {
                let d = a[i][i] - s;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i][j] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - s) / l[j][j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|m| l[i][m] * y[m]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|m| l[m][i] * x[m]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// The features' means and spreads (1 where a feature is constant), and the features
/// standardised with them.
pub fn standardise(x: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>, Vec<Vec<f64>>) {
    let d = x[0].len();
    let n = x.len() as f64;
    let mean: Vec<f64> = (0..d)
        .map(|f| x.iter().map(|r| r[f]).sum::<f64>() / n)
        .collect();
    let scale: Vec<f64> = (0..d)
        .map(|f| {
            let v = x.iter().map(|r| (r[f] - mean[f]).powi(2)).sum::<f64>() / n;
            if v > 1e-18 {
                v.sqrt()
            } else {
                1.0
            }
        })
        .collect();
    let z: Vec<Vec<f64>> = x
        .iter()
        .map(|r| (0..d).map(|f| (r[f] - mean[f]) / scale[f]).collect())
        .collect();
    (mean, scale, z)
}

/// Fits the model of `k` levels to raw features `x` and levels `y` with the penalty `lambda`.
/// Panics unless every sample has the same number of features and a level below `k >= 2`.
pub fn fit(x: &[Vec<f64>], y: &[usize], k: usize, lambda: f64) -> Ordinal {
    assert!(k >= 2 && !x.is_empty() && x.len() == y.len());
    let (mean, scale, z) = standardise(x);
    let d = mean.len();
    let n = x.len() as f64;
    // Start: no weights, thresholds at the cumulative shares of the levels.
    let mut w = vec![0.0; d];
    let mut theta: Vec<f64> = (0..k - 1)
        .map(|j| {
            let below = y.iter().filter(|&&l| l <= j).count() as f64;
            let p = ((below + 0.5) / (n + 1.0)).clamp(1e-6, 1.0 - 1e-6);
            (p / (1.0 - p)).ln()
        })
        .collect();
    for j in 1..theta.len() {
        if theta[j] <= theta[j - 1] {
            theta[j] = theta[j - 1] + 1e-3;
        }
    }
    let m = d + k - 1;
    let mut current = objective(&z, y, &w, &theta, lambda);
    for _ in 0..100 {
        // Gradient g and the negated Hessian h of the penalised log-likelihood.
        let mut g = vec![0.0; m];
        let mut h = vec![vec![0.0; m]; m];
        for (xi, &l) in z.iter().zip(y) {
            let eta: f64 = xi.iter().zip(&w).map(|(a, b)| a * b).sum();
            // a = theta_l - eta (absent for the top level), b = theta_(l-1) - eta (absent
            // for the bottom one).
            let (fa, dfa, ua) = if l + 1 < k {
                let s = sigma(theta[l] - eta);
                (s * (1.0 - s), s * (1.0 - s) * (1.0 - 2.0 * s), s)
            } else {
                (0.0, 0.0, 1.0)
            };
            let (fb, dfb, ub) = if l > 0 {
                let s = sigma(theta[l - 1] - eta);
                (s * (1.0 - s), s * (1.0 - s) * (1.0 - 2.0 * s), s)
            } else {
                (0.0, 0.0, 0.0)
            };
            let p = (ua - ub).max(1e-300);
            let (ga, gb) = (fa / p, -fb / p);
            let haa = dfa / p - ga * ga;
            let hbb = -dfb / p - gb * gb;
            let hab = -ga * gb;
            // Parameters: w (0..d), theta (d..d+k-1). eta's derivative is -(d/da + d/db).
            let geta = -(ga + gb);
            let heta = haa + 2.0 * hab + hbb;
            let ia = (l + 1 < k).then_some(d + l);
            let ib = (l > 0).then_some(d + l - 1);
            for (f, &xf) in xi.iter().enumerate() {
                g[f] += geta * xf;
                for (f2, &xf2) in xi.iter().enumerate().take(f + 1) {
                    h[f][f2] -= heta * xf * xf2;
                }
                if let Some(ia) = ia {
                    h[ia][f] -= -(haa + hab) * xf;
                }
                if let Some(ib) = ib {
                    h[ib][f] -= -(hab + hbb) * xf;
                }
            }
            if let Some(ia) = ia {
                g[ia] += ga;
                h[ia][ia] -= haa;
            }
            if let Some(ib) = ib {
                g[ib] += gb;
                h[ib][ib] -= hbb;
            }
            if let (Some(ia), Some(ib)) = (ia, ib) {
                h[ia][ib] -= hab;
            }
        }
        for f in 0..d {
            g[f] -= lambda * w[f];
            h[f][f] += lambda;
        }
        // The lower triangle was filled: mirror it, and keep the diagonal positive.
        for i in 0..m {
            let (above, from) = h.split_at_mut(i);
            for (j, row) in above.iter_mut().enumerate() {
                row[i] = from[0][j];
            }
            from[0][i] += 1e-9;
        }
        let Some(step) = solve_spd(&h, &g) else { break };
        let mut t = 1.0;
        let mut moved = false;
        while t > 1e-6 {
            let w2: Vec<f64> = (0..d).map(|f| w[f] + t * step[f]).collect();
            let th2: Vec<f64> = (0..k - 1).map(|j| theta[j] + t * step[d + j]).collect();
            let o = objective(&z, y, &w2, &th2, lambda);
            if o > current {
                moved = o - current > 1e-10 * current.abs().max(1.0);
                (w, theta, current) = (w2, th2, o);
                break;
            }
            t *= 0.5;
        }
        if !moved {
            break;
        }
    }
    Ordinal {
        mean,
        scale,
        weights: w,
        thresholds: theta,
        lambda,
    }
}

/// The penalties [`fit_tuned`] chooses from.
pub const LAMBDAS: [f64; 5] = [0.01, 0.1, 1.0, 10.0, 100.0];

/// The confusion matrix (`m[label][predicted]`) of `model` on samples.
#[cfg_attr(not(feature = "dev"), allow(dead_code))]
pub fn confusion(model: &Ordinal, x: &[Vec<f64>], y: &[usize]) -> Vec<Vec<u64>> {
    let k = model.levels();
    let mut m = vec![vec![0u64; k]; k];
    for (xi, &l) in x.iter().zip(y) {
        m[l][model.level(xi)] += 1;
    }
    m
}

/// Fits with the penalty of [`LAMBDAS`] that two-fold cross-validation on these samples (the
/// halves `half`, 0 or 1) agrees best with (ties: the larger penalty).
pub fn fit_tuned(x: &[Vec<f64>], y: &[usize], half: &[usize], k: usize) -> Ordinal {
    fit(x, y, k, tuned_lambda(x, y, half, k, fit))
}

/// The penalty of [`LAMBDAS`] whose fits by `fit` agree best in two-fold cross-validation on
/// these samples (the halves `half`, 0 or 1); ties: the larger penalty. The penalties are
/// tried in parallel, each fit alone, so the choice does not depend on the threads.
pub fn tuned_lambda<M: Classifier + Send>(
    x: &[Vec<f64>],
    y: &[usize],
    half: &[usize],
    k: usize,
    fit: impl Fn(&[Vec<f64>], &[usize], usize, f64) -> M + Sync,
) -> f64 {
    use rayon::prelude::*;
    let shares: Vec<f64> = LAMBDAS
        .par_iter()
        .map(|&lambda| agreement(&held_out(x, y, half, k, |tx, ty, _| fit(tx, ty, k, lambda))))
        .collect();
    let mut best = (f64::NEG_INFINITY, LAMBDAS[0]);
    for (&share, &lambda) in shares.iter().zip(&LAMBDAS) {
        if share >= best.0 {
            best = (share, lambda);
        }
    }
    best.1
}

/// Two-fold cross-validation: each half (`half[i]`, 0 or 1) classified by the model `fit`
/// makes from the other (its features, levels and sample indices); the summed confusion
/// matrix (`m[label][predicted]`).
pub fn held_out<M: Classifier>(
    x: &[Vec<f64>],
    y: &[usize],
    half: &[usize],
    k: usize,
    fit: impl Fn(&[Vec<f64>], &[usize], &[usize]) -> M,
) -> Vec<Vec<u64>> {
    let mut m = vec![vec![0u64; k]; k];
    for fold in 0..2 {
        let train: Vec<usize> = (0..x.len()).filter(|&i| half[i] != fold).collect();
        let test: Vec<usize> = (0..x.len()).filter(|&i| half[i] == fold).collect();
        if train.is_empty() || test.is_empty() {
            continue;
        }
        let tx: Vec<Vec<f64>> = train.iter().map(|&i| x[i].clone()).collect();
        let ty: Vec<usize> = train.iter().map(|&i| y[i]).collect();
        let model = fit(&tx, &ty, &train);
        for &i in &test {
            m[y[i]][model.classify(&x[i])] += 1;
        }
    }
    m
}

/// The weighted sum `w . z` of raw features `x` standardised by `mean` and `scale`
/// (`z = (x - mean) / scale`): a fitted model's score.
pub(crate) fn weighted(x: &[f64], mean: &[f64], scale: &[f64], weights: &[f64]) -> f64 {
    x.iter()
        .zip(mean)
        .zip(scale)
        .zip(weights)
        .map(|(((v, m), s), w)| w * (v - m) / s)
        .sum()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Samples of `k` levels on two features: the first says the level (with noise), the
    /// second is noise (the multinomial model's tests use them too).
    pub(in crate::levels) fn samples(n: usize, k: usize, noise: f64, seed: u64) -> (Vec<Vec<f64>>, Vec<usize>) {
        let mut rng = Rng::new(seed);
        let mut x = Vec::new();
        let mut y = Vec::new();
        for _ in 0..n {
            let l = rng.below(k as u32) as usize;
            let signal = l as f64 * 3.0 + noise * (rng.next_f64() - 0.5) * 6.0;
            x.push(vec![signal, rng.next_f64() * 10.0]);
            y.push(l);
        }
        (x, y)
    }

    #[test]
    fn separable_levels_are_learned_and_ordered() {
        let (x, y) = samples(400, 4, 0.5, 1);
        let m = fit(&x, &y, 4, 0.01);
        assert!(m.thresholds.windows(2).all(|t| t[0] < t[1]));
        assert!(m.weights[0] > 0.0, "harder with the signal: {:?}", m.weights);
        assert!(m.weights[0].abs() > 5.0 * m.weights[1].abs(), "{:?}", m.weights);
        let a = agreement(&confusion(&m, &x, &y));
        assert!(a > 0.97, "{a}");
        // Monotone: more signal never gives an easier level.
        let mut last = 0;
        for s in 0..120 {
            let l = m.level(&[s as f64 / 10.0, 5.0]);
            assert!(l >= last);
            last = l;
        }
        let p = m.probabilities(&[4.5, 5.0]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_fit_is_deterministic_and_penalties_shrink_the_weights() {
        let (x, y) = samples(300, 3, 2.0, 2);
        assert_eq!(fit(&x, &y, 3, 1.0), fit(&x, &y, 3, 1.0));
        let loose = fit(&x, &y, 3, 0.01);
        let tight = fit(&x, &y, 3, 100.0);
        assert!(tight.weights[0].abs() < loose.weights[0].abs());
        let half: Vec<usize> = (0..x.len()).map(|i| i % 2).collect();
        let tuned = fit_tuned(&x, &y, &half, 3);
        assert!(LAMBDAS.contains(&tuned.lambda));
        let m = held_out(&x, &y, &half, 3, |tx, ty, _| fit(tx, ty, 3, tuned.lambda));
        assert_eq!(m.iter().flatten().sum::<u64>(), 300);
        // Levels 3 apart under uniform noise 12 wide: the best any rule does is 50% (62.5%,
        // 25%, 62.5% by level); chance is a third.
        let a = agreement(&m);
        assert!(a > 0.42 && a <= 0.56, "{a}");
    }

    #[test]
    fn a_constant_feature_does_no_harm() {
        let (mut x, y) = samples(200, 2, 0.5, 3);
        for r in &mut x {
            r.push(7.0);
        }
        let m = fit(&x, &y, 2, 1.0);
        assert_eq!(m.scale[2], 1.0);
        assert!(m.weights[2].abs() < 1e-9);
    }
}
