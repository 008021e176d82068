//! Random player positions for the hint tests, benchmark and soundness report: a puzzle with a
//! random share of its solution entered (often from where singles alone get a player), sometimes one wrong entry, sometimes pencil marks
//! (some removed, sometimes a solution digit removed), and the check that a hint is sound.

use crate::candidates::Candidates;
use crate::grid::{Cell, Digit, Grid, Puzzle};
use crate::hint::{Board, Hint, HintKind};
use crate::rng::Rng;
use crate::solve::{solve, Solutions};

/// A random position on `puzzle` (which must have one solution), with what it holds.
#[derive(Clone, Debug)]
pub struct Position {
    /// The board a player would show.
    pub board: Board,
    /// The puzzle's solution.
    pub solution: Grid,
    /// The wrong entry made, if any.
    pub wrong: Option<(Cell, Digit)>,
    /// The solution digit removed from the marks, if any.
    pub missing: Option<(Cell, Digit)>,
}

/// A random position on `puzzle`; `None` unless it has exactly one solution.
pub fn position(puzzle: &Puzzle, rng: &mut Rng) -> Option<Position> {
    let Solutions::Unique(solution) = solve(puzzle) else {
        return None;
    };
    let mut board = Board::new(*puzzle);
    // Where singles alone get a player: the harder steps are hinted from there.
    let (from_stuck, share) = match rng.below(3) {
        0 => (false, rng.next_f64().powi(2) * 0.9),
        1 => (true, 0.0),
        _ => (true, rng.next_f64() * 0.3),
    };
    let stuck = from_stuck.then(|| {
        let mut st = Candidates::new(puzzle);
        crate::propagate::propagate(&mut st);
        st
    });
    let mut empty = Vec::new();
    for c in Cell::all() {
        if puzzle.get(c).is_some() {
            continue;
        }
        let d = solution.get(c);
        if stuck.as_ref().is_some_and(|st| st.placed(d).contains(c)) || rng.next_f64() < share {
            board.entries[c.index()] = d.get();
        } else {
            empty.push(c);
        }
    }
    let mut wrong = None;
    if !empty.is_empty() && rng.below(5) == 0 {
        let c = empty[rng.index(empty.len())];
        let right = solution.get(c).get();
        let v = (right + rng.below(8) as u8) % 9 + 1;
        board.entries[c.index()] = v;
        wrong = Some((c, Digit::new(v).expect("1-9")));
    }
    let mut missing = None;
    if rng.below(3) == 0 {
        // Marks start from the candidates of the clues and the right entries.
        let mut filled = *puzzle.as_bytes();
        for c in Cell::all() {
            let e = board.entries[c.index()];
            if e != 0 && wrong.is_none_or(|(w, _)| w != c) {
                filled[c.index()] = e;
            }
        }
        let st = Candidates::new(&Puzzle::from_bytes_unchecked(filled));
        let mut marks = [0u16; 81];
        for c in st.empty() {
            let mut m = st.candidates(c).bits();
            for d in Digit::all() {
                if d != solution.get(c) && rng.below(4) == 0 {
                    m &= !(1 << d.index());
                }
            }
            marks[c.index()] = m;
        }
        let open: Vec<Cell> = st.empty().iter().collect();
        if !open.is_empty() && rng.below(4) == 0 {
            let c = open[rng.index(open.len())];
            let d = solution.get(c);
            marks[c.index()] &= !(1 << d.index());
            missing = Some((c, d));
        }
        board.marks = Some(marks);
    }
    Some(Position {
        board,
        solution,
        wrong,
        missing,
    })
}

/// Why `hint` is not sound for `pos`, if it is not: a wrong entry not reported first, a
/// removed solution digit not reported, a placement off the solution, an elimination of the
/// solution's digit, or no progress.
pub fn check(pos: &Position, hint: &Hint) -> Result<(), String> {
    if let Some(w) = pos.wrong {
        if hint.kind != HintKind::WrongEntry || hint.errors != vec![w] {
            return Err(format!("wrong entry {w:?} not reported first: {hint:?}"));
        }
        return Ok(());
    }
    if let Some(m) = pos.missing {
        if hint.kind != HintKind::MissingCandidate || !hint.errors.contains(&m) {
            return Err(format!("removed candidate {m:?} not reported: {hint:?}"));
        }
        return Ok(());
    }
    for &(c, d) in &hint.placements {
        if pos.solution.get(c) != d {
            return Err(format!("placement {c}={d} is wrong: {hint:?}"));
        }
    }
    for &(c, d) in &hint.eliminations {
        if pos.solution.get(c) == d {
            return Err(format!(
                "elimination of {d} from {c} removes the solution: {hint:?}"
            ));
        }
    }
    if hint.kind != HintKind::Solved && hint.placements.is_empty() && hint.eliminations.is_empty() {
        return Err(format!("no progress: {hint:?}"));
    }
    Ok(())
}
