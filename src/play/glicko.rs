//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) for one game at a time, with a
//! score anywhere in `[0, 1]`: a player against a puzzle, both rated, both updated from their
//! ratings before the game (lichess rates puzzles so, a game a rating period).
//!
//! Hand-written because the score is a fraction (how fast against the par time, [`super::score`]);
//! `skillratings` takes a win, a draw or a loss only. For those three scores this gives
//! `skillratings::glicko2`'s ratings (a test holds it to them).

/// Rating points per Glicko-2 unit (`400 / ln 10`).
pub const SCALE: f64 = 173.7178;

/// The system constant: how much a volatility may change in one game (Glickman suggests 0.3
/// to 1.2; 0.5 is `skillratings`' default).
const TAU: f64 = 0.5;

/// When the volatility's iteration stops.
const EPSILON: f64 = 0.000_001;

/// A rating with its deviation and volatility, in rating points (1500 the middle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    /// The rating.
    pub rating: f64,
    /// Its deviation: how far the true value may be (about two deviations either side for 95%).
    pub deviation: f64,
    /// How much the rating moves from game to game.
    pub volatility: f64,
}

/// The expected score of `a` against `b`: the chance that `a` beats `b`, `b`'s deviation
/// widening it.
pub fn expected(a: &Glicko, b: &Glicko) -> f64 {
    let (mu, mu_b) = ((a.rating - 1500.0) / SCALE, (b.rating - 1500.0) / SCALE);
    1.0 / (1.0 + (-g(b.deviation / SCALE) * (mu - mu_b)).exp())
}

/// `a` after a game against `b` in which `a` scored `score` (1 a win, 0 a loss).
pub fn update(a: &Glicko, b: &Glicko, score: f64) -> Glicko {
    let mu = (a.rating - 1500.0) / SCALE;
    let phi = a.deviation / SCALE;
    let (mu_b, phi_b) = ((b.rating - 1500.0) / SCALE, b.deviation / SCALE);
    let g_b = g(phi_b);
    let e = 1.0 / (1.0 + (-g_b * (mu - mu_b)).exp());
    let v = 1.0 / (g_b * g_b * e * (1.0 - e));
    let delta = v * g_b * (score - e);
    let sigma = volatility(a.volatility, phi, v, delta);
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * g_b * (score - e);
    Glicko {
        rating: mu_new * SCALE + 1500.0,
        deviation: phi_new * SCALE,
        volatility: sigma,
    }
}

/// How much an opponent's deviation flattens the expected score.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The new volatility (step 5 of Glickman's example, the Illinois method).
fn volatility(sigma: f64, phi: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    let mut rounds = 0;
    while (big_b - big_a).abs() > EPSILON && rounds < 100 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
        rounds += 1;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
    use skillratings::Outcomes;

    #[test]
    fn a_win_a_draw_and_a_loss_are_skillratings_glicko2() {
        let pairs = [
            ((1500.0, 350.0, 0.06), (1500.0, 350.0, 0.06)),
            ((1500.0, 200.0, 0.06), (1400.0, 30.0, 0.06)),
            ((1720.0, 80.0, 0.059), (1310.0, 250.0, 0.061)),
            ((900.0, 45.0, 0.09), (2100.0, 120.0, 0.05)),
        ];
        for ((r1, d1, v1), (r2, d2, v2)) in pairs {
            let (a, b) = (
                Glicko {
                    rating: r1,
                    deviation: d1,
                    volatility: v1,
                },
                Glicko {
                    rating: r2,
                    deviation: d2,
                    volatility: v2,
                },
            );
            for (score, outcome) in [
                (1.0, Outcomes::WIN),
                (0.5, Outcomes::DRAW),
                (0.0, Outcomes::LOSS),
            ] {
                let (theirs_a, theirs_b) = glicko2(
                    &Glicko2Rating {
                        rating: r1,
                        deviation: d1,
                        volatility: v1,
                    },
                    &Glicko2Rating {
                        rating: r2,
                        deviation: d2,
                        volatility: v2,
                    },
                    &outcome,
                    &Glicko2Config::new(),
                );
                let (ours_a, ours_b) = (update(&a, &b, score), update(&b, &a, 1.0 - score));
                for (ours, theirs) in [(ours_a, theirs_a), (ours_b, theirs_b)] {
                    assert!(
                        (ours.rating - theirs.rating).abs() < 1e-6,
                        "{ours:?} {theirs:?}"
                    );
                    assert!((ours.deviation - theirs.deviation).abs() < 1e-6);
                    assert!((ours.volatility - theirs.volatility).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn glickmans_example() {
        // The paper's player (1500, 200, 0.06) after three games: played here one at a time,
        // the rating moves the same way (down: one win, two losses) and the deviation shrinks.
        let mut p = Glicko {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        for (r, d, s) in [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ] {
            p = update(
                &p,
                &Glicko {
                    rating: r,
                    deviation: d,
                    volatility: 0.06,
                },
                s,
            );
        }
        assert!(p.rating < 1500.0 && p.rating > 1440.0, "{p:?}");
        assert!(p.deviation < 160.0, "{p:?}");
    }

    #[test]
    fn a_fractional_score_lies_between_its_neighbours() {
        let a = Glicko {
            rating: 1600.0,
            deviation: 120.0,
            volatility: 0.06,
        };
        let b = Glicko {
            rating: 1500.0,
            deviation: 90.0,
            volatility: 0.06,
        };
        let mut last = f64::NEG_INFINITY;
        for k in 0..=10 {
            let r = update(&a, &b, f64::from(k) / 10.0).rating;
            assert!(r > last);
            last = r;
        }
        assert!((expected(&a, &b) + expected(&b, &a) - 1.0).abs() > 0.0);
    }
}
