//! HoDoKu's regression library as known answers: every line of `library.txt` names a strategy
//! and a position of the library, and the strategy must make the library's step there.

use super::testing::library_line;
use super::{search, Application, Context, Strategy};
use crate::candidates::{Candidates, Effect};
use crate::cellset::CellSet;

/// The library's lines, with the strategy each belongs to.
const LINES: &str = include_str!("library.txt");

/// True when the applications of `out` that remove nothing outside `step` (per digit index)
/// together remove all of it: one application making exactly the step, or several making
/// parts of it (the library writes two kites that share a digit as one step).
fn makes_step(st: &Candidates, out: &[Application], step: [CellSet; 9]) -> bool {
    let mut made = [CellSet::EMPTY; 9];
    for a in out {
        let Effect::Remove(r) = st.restrict(&a.effect) else {
            continue;
        };
        if r.iter().zip(&step).all(|(r, s)| r.is_subset(*s)) {
            for (m, r) in made.iter_mut().zip(r) {
                *m |= r;
            }
        }
    }
    made == step
}

#[test]
fn every_strategy_makes_the_library_steps() {
    let mut checked = 0;
    for (n, text) in LINES.lines().enumerate() {
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let (name, line) = text.split_once('\t').expect("a name, a tab, a library line");
        let strategy = Strategy::parse(name).expect("a strategy's name");
        let (st, step) = library_line(line);
        let mut out = Vec::new();
        search(strategy, &st, &Context::default(), &mut out);
        assert!(
            makes_step(&st, &out, step),
            "library.txt line {}: {strategy} does not make the step: {out:?}",
            n + 1
        );
        checked += 1;
    }
    assert_eq!(checked, 60);
}
