//! The play simulator's curves (`pseudoku::play::simulate`): synthetic players of hidden skill
//! play synthetic puzzles of hidden difficulty, and after each number of results per puzzle
//! the learned ratings are ranked against the truth (Spearman), beside the static rating's
//! rank, each game counted as the bank counts it (a new player's games held until their
//! record) and, beside it, taught at once for every player. Printed as a Markdown
//! table per world: the default one, one whose static rating is better (its error halved) and
//! one whose game times are noisier (doubled).
//!
//! ```text
//! cargo run --release --example play_simulation [SEED]
//! ```

use pseudoku::play::simulate::{run, Simulation};
use pseudoku::play::Trust;

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .map_or(1, |s| s.parse().expect("a seed"));
    let base = Simulation {
        seed,
        ..Simulation::default()
    };
    let worlds = [
        ("the default world", base.clone()),
        (
            "a better static rating (its error halved)",
            Simulation {
                static_noise: base.static_noise / 2.0,
                ..base.clone()
            },
        ),
        (
            "noisier game times (doubled)",
            Simulation {
                time_noise: base.time_noise * 2.0,
                ..base.clone()
            },
        ),
    ];
    for (name, sim) in worlds {
        println!(
            "\n{name}: {} puzzles, {} players, static error {} and time noise {} (seed {})\n",
            sim.puzzles, sim.players, sim.static_noise, sim.time_noise, sim.seed
        );
        println!(
            "| results a puzzle | learned vs truth | every game whole | static vs truth | players vs truth |"
        );
        println!("|---:|---:|---:|---:|---:|");
        let whole = run(&Simulation {
            trust: Trust::EVERY_GAME,
            ..sim.clone()
        });
        for (p, w) in run(&sim).into_iter().zip(whole) {
            println!(
                "| {} | {:.3} | {:.3} | {:.3} | {} |",
                p.results_per_puzzle,
                p.learned,
                w.learned,
                p.static_rating,
                if p.players.is_nan() {
                    "-".to_string()
                } else {
                    format!("{:.3}", p.players)
                }
            );
        }
    }
}
