//! Rank statistics for comparing ratings with external scales: average ranks, Spearman's rho,
//! Goodman-Kruskal gamma and equal-count levels (the validation report, the fit of the
//! `difficulty` weights and the tests use them).

/// Average ranks (1-based), ties sharing the mean of their positions.
pub fn ranks(x: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut r = vec![0.0; x.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rho: Pearson correlation of the average ranks.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    pearson(&ranks(x), &ranks(y))
}

/// Pearson's correlation coefficient.
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    sxy / (sxx * syy).sqrt()
}

/// Goodman-Kruskal gamma, (C - D) / (C + D) over all pairs, pairs tied on either variable left
/// out. O(n log n): sort by x, then count earlier y values below and above with a Fenwick tree.
pub fn gamma(x: &[f64], y: &[f64]) -> f64 {
    let ry = ranks(y); // ties share a rank
    let mut levels: Vec<f64> = ry.clone();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    let level = |v: f64| levels.partition_point(|&l| l < v);
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut tree = vec![0i64; levels.len() + 1];
    let add = |tree: &mut Vec<i64>, mut i: usize| {
        i += 1;
        while i < tree.len() {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    };
    let below = |tree: &Vec<i64>, i: usize| {
        // Count of inserted levels < i.
        let mut s = 0;
        let mut j = i;
        while j > 0 {
            s += tree[j];
            j -= j & j.wrapping_neg();
        }
        s
    };
    let (mut conc, mut disc) = (0i64, 0i64);
    let mut inserted = 0i64;
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        // Compare the group of equal x with everything before it (strictly smaller x).
        for &k in &idx[i..=j] {
            let l = level(ry[k]);
            let lower = below(&tree, l);
            let not_higher = below(&tree, l + 1);
            conc += lower;
            disc += inserted - not_higher;
        }
        for &k in &idx[i..=j] {
            add(&mut tree, level(ry[k]));
            inserted += 1;
        }
        i = j + 1;
    }
    (conc - disc) as f64 / (conc + disc) as f64
}

/// Equal-count levels 1..=k of `x` (ties kept together), as the paper binned hsolve.
pub fn levels(x: &[f64], k: usize) -> Vec<f64> {
    let r = ranks(x);
    let n = x.len() as f64;
    r.iter()
        .map(|&rank| ((rank - 0.5) / n * k as f64).floor().min(k as f64 - 1.0) + 1.0)
        .collect()
}

/// Pearson's chi-square statistic of observed counts against expected shares (which sum to
/// 1), with categories whose expected count is below 5 merged into their neighbour; returns
/// (statistic, degrees of freedom).
pub fn chi_square(observed: &[u64], shares: &[f64]) -> (f64, usize) {
    let total: u64 = observed.iter().sum();
    let mut cats: Vec<(f64, f64)> = Vec::new(); // (observed, expected)
    let (mut o, mut e) = (0.0, 0.0);
    for (&obs, &share) in observed.iter().zip(shares) {
        o += obs as f64;
        e += share * total as f64;
        if e >= 5.0 {
            cats.push((o, e));
            (o, e) = (0.0, 0.0);
        }
    }
    if e > 0.0 || o > 0.0 {
        match cats.last_mut() {
            Some(last) => {
                last.0 += o;
                last.1 += e;
            }
            None => cats.push((o, e)),
        }
    }
    let stat = cats.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    (stat, cats.len().saturating_sub(1))
}

/// The upper tail P(X >= x) of the chi-square distribution with `df` degrees of freedom: the
/// regularized upper incomplete gamma function Q(df / 2, x / 2), by its series below a + 1 and
/// its continued fraction above (Numerical Recipes, section 6.2).
pub fn chi_square_p(x: f64, df: usize) -> f64 {
    if df == 0 {
        return 1.0;
    }
    let (a, x) = (df as f64 / 2.0, x / 2.0);
    if x <= 0.0 {
        return 1.0;
    }
    let ln_gamma_a = ln_gamma(a);
    let front = (-x + a * x.ln() - ln_gamma_a).exp();
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        1.0 - sum * front
    } else {
        // Lentz's method for the continued fraction.
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        front * h
    }
}

/// ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_and_spearman_on_known_data() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(gamma(&x, &x), 1.0);
        assert_eq!(gamma(&x, &[4.0, 3.0, 2.0, 1.0]), -1.0);
        // Pairs: (1,2)C (1,3)C (1,4)D? y = [1, 3, 2, 4]: pairs (0,1)C (0,2)C (0,3)C (1,2)D
        // (1,3)C (2,3)C: 5 C, 1 D.
        assert!((gamma(&x, &[1.0, 3.0, 2.0, 4.0]) - 4.0 / 6.0).abs() < 1e-12);
        // Ties on y are left out: y = [1, 1, 2, 2]: 4 C, 0 D.
        assert_eq!(gamma(&x, &[1.0, 1.0, 2.0, 2.0]), 1.0);
        assert!((spearman(&x, &x) - 1.0).abs() < 1e-12);
        assert_eq!(ranks(&[3.0, 1.0, 3.0]), vec![2.5, 1.0, 2.5]);
        assert_eq!(levels(&[1.0, 2.0, 3.0, 4.0], 2), vec![1.0, 1.0, 2.0, 2.0]);
    }

    #[test]
    fn chi_square_tails_match_the_tables() {
        // Critical values at p = 0.01 and 0.05 (any statistics table).
        for (x, df, p) in [
            (6.635, 1, 0.01),
            (9.210, 2, 0.01),
            (16.812, 6, 0.01),
            (21.666, 9, 0.01),
            (3.841, 1, 0.05),
            (16.919, 9, 0.05),
            (43.773, 30, 0.05),
        ] {
            assert!((chi_square_p(x, df) - p).abs() < 2e-4, "{x} {df}");
        }
        assert_eq!(chi_square(&[50, 50], &[0.5, 0.5]), (0.0, 1));
        // A category expecting fewer than 5 is merged: (10, 0) against (0.98, 0.02) of 10.
        assert_eq!(chi_square(&[10, 0], &[0.98, 0.02]).1, 0);
    }
}
