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
}
