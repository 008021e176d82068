//! The exact canonical form: agreement with brute force on a varied sample, invariance under
//! random symmetries, and (when `../shared/data/` is present) the published exact forms.

use proptest::prelude::*;
use pseudoku::canon::{canonical, canonical_brute_force, canonical_grid};
use pseudoku::dev::refdata;
use pseudoku::input::read_puzzle_file;
use pseudoku::solve::random_grid;
use pseudoku::{Grid, Puzzle, Rng, Transform};
use std::collections::{HashMap, HashSet};

/// A grid with many automorphisms: row r is row 1 shifted by 3 * (r % 3) + r / 3.
fn symmetric_grid() -> [u8; 81] {
    std::array::from_fn(|i| {
        let (r, c) = (i / 9, i % 9);
        ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8
    })
}

fn parse(s: &str) -> [u8; 81] {
    *s.parse::<Puzzle>().unwrap().as_bytes()
}

/// The varied sample the brute force checks.
fn sample() -> Vec<(&'static str, [u8; 81])> {
    let sym = symmetric_grid();
    let random = *random_grid(&mut Rng::new(99)).as_bytes();
    let mut one_empty = sym;
    one_empty[40] = 0;
    let mut random_one_empty = random;
    random_one_empty[0] = 0;
    let first_band: [u8; 81] = std::array::from_fn(|i| if i < 27 { sym[i] } else { 0 });
    let every_third_column: [u8; 81] = std::array::from_fn(|i| if i % 3 == 0 { sym[i] } else { 0 });
    let diagonal_boxes: [u8; 81] =
        std::array::from_fn(|i| if (i / 27) == (i % 9) / 3 { sym[i] } else { 0 });
    vec![
        (
            "17-clue",
            parse(
                ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
            ),
        ),
        (
            "symmetric clue pattern",
            parse(
                "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            ),
        ),
        (
            "hard",
            parse(
                "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            ),
        ),
        ("symmetric grid", sym),
        ("random grid", random),
        ("empty", [0; 81]),
        ("symmetric grid, one empty cell", one_empty),
        ("random grid, one empty cell", random_one_empty),
        ("first band of the symmetric grid", first_band),
        (
            "every third column of the symmetric grid",
            every_third_column,
        ),
        ("diagonal boxes of the symmetric grid", diagonal_boxes),
        (
            "one clue",
            std::array::from_fn(|i| if i == 40 { 5 } else { 0 }),
        ),
    ]
}

#[test]
fn agrees_with_brute_force_on_a_varied_sample() {
    for (name, cells) in sample() {
        let p = Puzzle::from_bytes(cells).unwrap();
        let fast = canonical(&p);
        let (form, automorphisms) = canonical_brute_force(&cells);
        assert_eq!(fast.cells, form, "{name}");
        assert_eq!(fast.automorphisms, automorphisms, "{name}");
        assert_eq!(fast.transform.apply(&p).as_bytes(), &form, "{name}");
        eprintln!("{name}: {automorphisms} automorphisms");
    }
}

#[test]
fn known_automorphism_counts() {
    // The empty grid: every map and every relabelling.
    assert_eq!(canonical(&Puzzle::EMPTY).automorphisms, 3_359_232 * 362_880);
    // One clue in the centre: the maps that keep the centre cell (transpose or not, times
    // 2 * 2 * 36 row maps and as many column maps), times the 8! relabellings of the other
    // digits.
    let one = Puzzle::from_bytes(std::array::from_fn(|i| if i == 40 { 5 } else { 0 })).unwrap();
    assert_eq!(canonical(&one).automorphisms, 2 * 144 * 144 * 40_320);
    // A full grid whose rows are shifts of one another.
    let g = Puzzle::from_bytes(symmetric_grid()).unwrap();
    assert_eq!(canonical(&g).automorphisms, 54);
}

fn sample_puzzles() -> Vec<Puzzle> {
    include_str!("../../samples/puzzles.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn invariant_under_every_symmetry(i in 0usize..50, seed in any::<u64>()) {
        let p = sample_puzzles()[i];
        let c = canonical(&p);
        let t = Transform::random(&mut Rng::new(seed));
        let q = t.apply(&p);
        let cq = canonical(&q);
        prop_assert_eq!(cq.cells, c.cells);
        prop_assert_eq!(cq.automorphisms, c.automorphisms);
        prop_assert_eq!(cq.key(), c.key());
        prop_assert_eq!(*cq.transform.apply(&q).as_bytes(), c.cells);
        // Idempotent.
        prop_assert_eq!(canonical(&c.puzzle()).cells, c.cells);
    }

    #[test]
    fn grids_invariant_under_every_symmetry(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let g = random_grid(&mut rng);
        let c = canonical_grid(&g);
        let t = Transform::random(&mut rng);
        let h = t.apply_grid(&g);
        let ch = canonical_grid(&h);
        prop_assert_eq!(ch.cells, c.cells);
        prop_assert_eq!(ch.automorphisms, c.automorphisms);
        prop_assert_eq!(*ch.transform.apply_grid(&h).as_bytes(), c.cells);
        prop_assert!(Grid::from_puzzle(c.puzzle()).is_ok());
    }
}

#[test]
fn published_exact_forms() {
    let Ok(path) = refdata::file("17-clue/royle_original_49151.tsv") else {
        crate::common::skipping(
            "the tests on the shared reference data",
            refdata::dir().unwrap_err(),
        );
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let p: Puzzle = cols[0].parse().unwrap();
        assert_eq!(
            canonical(&p).to_line(),
            cols[1].replace('.', "0"),
            "{}",
            cols[0]
        );
        rows += 1;
    }
    assert_eq!(rows, 49_151);

    // All 49,158 known 17-clue puzzles are distinct classes.
    let puzzles = read_puzzle_file(&refdata::file("17-clue/puzzles.tsv").unwrap()).unwrap();
    let keys: HashSet<_> = puzzles.iter().map(|p| canonical(p).key()).collect();
    assert_eq!(keys.len(), 49_158);

    // Isomorphic groups: one key per group, the published form.
    let text =
        std::fs::read_to_string(refdata::file("hard/isomorphic_pairs.tsv").unwrap()).unwrap();
    let mut groups: HashMap<String, HashSet<String>> = HashMap::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let p: Puzzle = cols[0].parse().unwrap();
        let c = canonical(&p);
        assert_eq!(c.to_line(), cols[1].replace('.', "0"));
        groups
            .entry(cols[1].to_string())
            .or_default()
            .insert(c.key().to_hex());
    }
    assert_eq!(groups.len(), 24);
    assert!(groups.values().all(|keys| keys.len() == 1));
}
