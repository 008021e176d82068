use pseudoku::candidates::{Candidates, Effect};
use pseudoku::cellset::CellSet;
use pseudoku::dev::refdata;
use pseudoku::grid::{Cell, Digit, House};
use pseudoku::input::read_puzzle_file;
use pseudoku::{difficulty, Puzzle};
use rayon::prelude::*;

/// 0: box hidden singles and full houses solve it; 1: + line hidden singles; 2: + naked singles; 3: more.
fn singles_class(p: &Puzzle) -> u8 {
    let mut st = Candidates::new(p);
    let mut allowed = 0u8;
    loop {
        if st.is_solved() { return allowed; }
        let mut progress = false;
        // hidden singles in houses of kinds allowed
        for h in 0..27 {
            let house = House::from_index(h).unwrap();
            let is_box = h >= 18; // assume rows 0-8, cols 9-17, boxes 18-26
            let cells = CellSet::house(house);
            let empty = cells & st.empty();
            for d in 1..=9u8 {
                let d = Digit::all().nth(d as usize - 1).unwrap();
                let places = st.cells_with(d) & cells;
                if places.len() == 1 && (is_box || allowed >= 1 || empty.len() == 1) {
                    let c = places.iter().next().unwrap();
                    if st.value(c).is_none() { st.apply(&Effect::Place(c, d)); progress = true; }
                }
            }
            let _ = house;
        }
        if !progress && allowed >= 2 {
            for c in st.naked_single_cells().iter() {
                if let Some(d) = st.candidates(c).iter().next() { if st.value(c).is_none() { st.apply(&Effect::Place(c, d)); progress = true; } }
            }
        }
        if !progress {
            if allowed >= 2 { return 3; }
            allowed += 1;
        }
    }
}

fn main() {
    let path = refdata::file("se-rated/sudoku_exchange_buckets.tsv").unwrap();
    let ps = read_puzzle_file(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let labels: Vec<usize> = text.lines().map(|l| ["easy","medium","hard","diab"].iter().position(|n| l.split('\t').nth(1).unwrap().starts_with(n)).unwrap()).collect();
    let rows: Vec<(u8, u8, f64)> = ps.par_iter().map(|p| { let d = difficulty::rate(p, 10).unwrap(); (singles_class(p), d.hardest, d.value) }).collect();
    let mut m = [[0u32; 4]; 4];
    let mut mc = [[0u32; 4]; 4];
    let mut mh = [[0u32; 11]; 4];
    for (&(c, h, _), &l) in rows.iter().zip(&labels) {
        let pred = match (c, h) { (0, _) => 0, (1 | 2, _) => 1, (_, 0..=3) => 2, _ => 3 };
        m[l][pred] += 1; mc[l][c as usize] += 1; mh[l][h as usize] += 1;
    }
    println!("confusion {:?}", m);
    println!("by singles class {:?}", mc);
    println!("by hardest rung {:?}", mh);
    let _ = Cell::all();
}
