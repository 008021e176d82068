//! The multinomial model of a publisher's levels: a logistic regression with one weight
//! vector per level (softmax), fitted with an L2 penalty, deterministically.
//!
//! With levels 0..k and a feature vector x (standardised with the training data's mean and
//! spread), the model says
//!
//! ```text
//! P(level = j | x) = exp(b_j + w_j . x) / sum_i exp(b_i + w_i . x)
//! ```
//!
//! Unlike the ordinal model ([`super::ordinal`]) it does not order puzzles on one direction:
//! each level has its own weights, so a level a publisher gives by technique (an X-wing makes
//! a puzzle "hard" whatever its rating) is as easy to learn as one by a rating's range. The
//! fit maximises the log-likelihood less `lambda / 2 sum_j |w_j|^2` by L-BFGS (ten pairs,
//! backtracking line search) from zero weights: no randomness and a fixed order of operations,
//! so the same data give the same model on every machine.

/// A fitted multinomial model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Multinomial {
    /// The training features' means, one per feature.
    pub mean: Vec<f64>,
    /// The training features' spreads (standard deviations; 1 where a feature is constant).
    pub scale: Vec<f64>,
    /// Per level, the weights of the standardised features.
    pub weights: Vec<Vec<f64>>,
    /// Per level, the intercept.
    pub intercepts: Vec<f64>,
    /// The penalty it was fitted with.
    pub lambda: f64,
}

impl Multinomial {
    /// The number of levels.
    pub fn levels(&self) -> usize {
        self.intercepts.len()
    }

    /// Each level's score `b_j + w_j . z` for raw features `x`.
    fn scores(&self, x: &[f64]) -> Vec<f64> {
        let z: Vec<f64> = x
            .iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .map(|((v, m), s)| (v - m) / s)
            .collect();
        self.weights
            .iter()
            .zip(&self.intercepts)
            .map(|(w, b)| b + dot(w, &z))
            .collect()
    }

    /// The probability of each level for raw features `x`.
    pub fn probabilities(&self, x: &[f64]) -> Vec<f64> {
        softmax(&self.scores(x))
    }

    /// The most likely level (0 = easiest) for raw features `x`; ties go to the easier level.
    pub fn level(&self, x: &[f64]) -> usize {
        let s = self.scores(x);
        let mut best = 0;
        for (j, &sj) in s.iter().enumerate() {
            if sj > s[best] {
                best = j;
            }
        }
        best
    }
}

impl super::ordinal::Classifier for Multinomial {
    fn classify(&self, x: &[f64]) -> usize {
        self.level(x)
    }
}

/// Fits with the penalty of [`super::ordinal::LAMBDAS`] that two-fold cross-validation on
/// these samples (the halves `half`) agrees best with (ties: the larger penalty).
pub fn fit_tuned(x: &[Vec<f64>], y: &[usize], half: &[usize], k: usize) -> Multinomial {
    fit(x, y, k, super::ordinal::tuned_lambda(x, y, half, k, fit))
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn softmax(s: &[f64]) -> Vec<f64> {
    let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = s.iter().map(|v| (v - top).exp()).collect();
    let total: f64 = e.iter().sum();
    e.iter().map(|v| v / total).collect()
}

/// The negated penalised log-likelihood per sample, and its gradient, at parameters `p`
/// (level j's weights at `j * (d + 1) .. j * (d + 1) + d`, its intercept after them).
fn loss(z: &[Vec<f64>], y: &[usize], k: usize, p: &[f64], lambda: f64) -> (f64, Vec<f64>) {
    let d = z[0].len();
    let n = z.len() as f64;
    let mut g = vec![0.0; p.len()];
    let mut total = 0.0;
    let mut s = vec![0.0; k];
    for (x, &l) in z.iter().zip(y) {
        for (j, sj) in s.iter_mut().enumerate() {
            let row = &p[j * (d + 1)..(j + 1) * (d + 1)];
            *sj = row[d] + dot(&row[..d], x);
        }
        let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = s.iter().map(|v| (v - top).exp()).sum();
        total -= s[l] - top - sum.ln();
        for (j, &sj) in s.iter().enumerate() {
            let r = (sj - top).exp() / sum - if j == l { 1.0 } else { 0.0 };
            let row = &mut g[j * (d + 1)..(j + 1) * (d + 1)];
            for (gf, xf) in row[..d].iter_mut().zip(x) {
                *gf += r * xf;
            }
            row[d] += r;
        }
    }
    for j in 0..k {
        for f in 0..d {
            let at = j * (d + 1) + f;
            total += 0.5 * lambda * p[at] * p[at];
            g[at] += lambda * p[at];
        }
    }
    for v in &mut g {
        *v /= n;
    }
    (total / n, g)
}

/// Fits the model of `k` levels to raw features `x` and levels `y` with the penalty `lambda`.
/// Panics unless every sample has the same number of features and a level below `k >= 2`.
pub fn fit(x: &[Vec<f64>], y: &[usize], k: usize, lambda: f64) -> Multinomial {
    assert!(k >= 2 && !x.is_empty() && x.len() == y.len());
    let (mean, scale, z) = super::ordinal::standardise(x);
    let d = mean.len();
    let mut p = vec![0.0; k * (d + 1)];
    let (mut f, mut g) = loss(&z, y, k, &p, lambda);
    // L-BFGS: the last pairs of steps s and gradient changes t.
    let mut pairs: Vec<(Vec<f64>, Vec<f64>, f64)> = Vec::new();
    for _ in 0..500 {
        let norm = g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if norm < 1e-5 {
            break;
        }
        // Two-loop recursion: direction = -H g.
        let mut q = g.clone();
        let mut alphas = Vec::with_capacity(pairs.len());
        for (s, t, rho) in pairs.iter().rev() {
            let a = rho * dot(s, &q);
            for (qi, ti) in q.iter_mut().zip(t) {
                *qi -= a * ti;
            }
            alphas.push(a);
        }
        if let Some((s, t, _)) = pairs.last() {
            let gamma = dot(s, t) / dot(t, t);
            for qi in &mut q {
                *qi *= gamma;
            }
        }
        for ((s, t, rho), a) in pairs.iter().zip(alphas.iter().rev()) {
            let b = rho * dot(t, &q);
            for (qi, si) in q.iter_mut().zip(s) {
                *qi += (a - b) * si;
            }
        }
        let mut dir: Vec<f64> = q.iter().map(|v| -v).collect();
        let mut slope = dot(&dir, &g);
        if slope >= 0.0 {
            // Not a descent direction: start again from the gradient.
            pairs.clear();
            dir = g.iter().map(|v| -v).collect();
            slope = dot(&dir, &g);
        }
        let mut step = 1.0;
        let mut next = None;
        while step > 1e-12 {
            let p2: Vec<f64> = p.iter().zip(&dir).map(|(a, b)| a + step * b).collect();
            let (f2, g2) = loss(&z, y, k, &p2, lambda);
            if f2 <= f + 1e-4 * step * slope {
                next = Some((p2, f2, g2));
                break;
            }
            step *= 0.5;
        }
        let Some((p2, f2, g2)) = next else { break };
        let s: Vec<f64> = p2.iter().zip(&p).map(|(a, b)| a - b).collect();
        let t: Vec<f64> = g2.iter().zip(&g).map(|(a, b)| a - b).collect();
        let st = dot(&s, &t);
        let done = f - f2 <= 1e-12 * f.abs().max(1.0);
        (p, f, g) = (p2, f2, g2);
        if st > 1e-12 {
            pairs.push((s, t, 1.0 / st));
            if pairs.len() > 10 {
                pairs.remove(0);
            }
        }
        if done {
            break;
        }
    }
    let weights = (0..k).map(|j| p[j * (d + 1)..j * (d + 1) + d].to_vec()).collect();
    let intercepts = (0..k).map(|j| p[j * (d + 1) + d]).collect();
    Multinomial {
        mean,
        scale,
        weights,
        intercepts,
        lambda,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::fit::agreement;
    use crate::levels::ordinal::tests::samples;
    use crate::levels::ordinal::{self, held_out};
    use crate::rng::Rng;

    #[test]
    fn separable_levels_are_learned_and_probabilities_sum_to_one() {
        let (x, y) = samples(400, 4, 0.5, 1);
        let m = fit(&x, &y, 4, 0.01);
        let mut right = 0;
        for (xi, &l) in x.iter().zip(&y) {
            right += usize::from(m.level(xi) == l);
        }
        assert!(right * 100 >= 97 * x.len(), "{right}");
        let p = m.probabilities(&[4.5, 5.0]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // The noise feature hardly matters next to the signal.
        let spread = |f: usize| {
            let w: Vec<f64> = m.weights.iter().map(|w| w[f]).collect();
            w.iter().copied().fold(f64::MIN, f64::max) - w.iter().copied().fold(f64::MAX, f64::min)
        };
        assert!(spread(0) > 5.0 * spread(1), "{:?}", m.weights);
    }

    #[test]
    fn the_fit_is_deterministic_and_penalties_shrink_the_weights() {
        let (x, y) = samples(300, 3, 2.0, 2);
        assert_eq!(fit(&x, &y, 3, 1.0), fit(&x, &y, 3, 1.0));
        let size = |m: &Multinomial| m.weights.iter().flatten().map(|w| w * w).sum::<f64>();
        assert!(size(&fit(&x, &y, 3, 100.0)) < size(&fit(&x, &y, 3, 0.01)));
        let half: Vec<usize> = (0..x.len()).map(|i| i % 2).collect();
        assert!(ordinal::LAMBDAS.contains(&fit_tuned(&x, &y, &half, 3).lambda));
    }

    #[test]
    fn a_level_that_is_not_a_range_of_one_direction_is_learned() {
        // Level 1 is "the technique is B" (second feature), whatever the first feature says;
        // levels 0 and 2 are low and high values of the first. One direction cut into ranges
        // cannot draw that; one weight vector per level can.
        let mut rng = Rng::new(9);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..600 {
            let a = rng.next_f64() * 10.0;
            let b = rng.below(3) == 0;
            y.push(if b { 1 } else if a < 5.0 { 0 } else { 2 });
            x.push(vec![a, f64::from(u8::from(b))]);
        }
        let half: Vec<usize> = (0..x.len()).map(|i| i % 2).collect();
        let multinomial = agreement(&held_out(&x, &y, &half, 3, |tx, ty, _| fit(tx, ty, 3, 0.01)));
        let ordinal = agreement(&held_out(&x, &y, &half, 3, |tx, ty, _| {
            ordinal::fit(tx, ty, 3, 0.01)
        }));
        assert!(multinomial > 0.95, "{multinomial}");
        assert!(ordinal < multinomial - 0.1, "{ordinal} against {multinomial}");
    }
}
