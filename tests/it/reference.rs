//! The shipped default reference (`references/`): made by the current raters, and the same as
//! regenerating it (a sample of its jobs is generated and rated again and compared exactly).

use pseudoku::levels::reference::{
    self, REFERENCE_MINIMAL, REFERENCE_STANDARD, SHIPPED, SHIPPED_NAME,
};

#[test]
fn the_shipped_reference_names_the_current_rater() {
    assert_eq!(
        reference::rater_of(SHIPPED),
        Some(pseudoku::rate::RATER),
        "the raters changed: write a new references/ file with \
         `cargo run --release --example default_reference` (never edit {SHIPPED_NAME})"
    );
}

#[test]
fn the_shipped_reference_has_every_job_in_order() {
    let rows = reference::default_rows();
    assert_eq!(rows.len(), REFERENCE_STANDARD + REFERENCE_MINIMAL);
    assert!(rows[..REFERENCE_STANDARD]
        .iter()
        .all(|r| r.source == "standard"));
    assert!(rows[REFERENCE_STANDARD..]
        .iter()
        .all(|r| r.source == "minimal"));
    // Every puzzle is the job's puzzle (generation is cheap; rating is what the file saves).
    for (j, r) in rows.iter().enumerate().step_by(7) {
        assert_eq!(
            r.puzzle,
            reference::default_puzzle(j as u64).0.to_line(),
            "job {j}"
        );
    }
}

#[test]
fn a_regenerated_sample_equals_the_shipped_reference() {
    let rows = reference::default_rows();
    let n = (REFERENCE_STANDARD + REFERENCE_MINIMAL) as u64;
    // 80 jobs spread over both sources, the first and the last included.
    let jobs: Vec<u64> = (0..80).map(|i| i * (n - 1) / 79).collect();
    let again = reference::make_default(jobs.iter().copied());
    for (j, r) in jobs.iter().zip(&again) {
        assert_eq!(&rows[*j as usize], r, "job {j}");
    }
}

#[test]
fn the_reference_file_round_trips() {
    let rows = reference::default_rows();
    assert_eq!(reference::parse(&reference::to_text(&rows)), rows);
    assert_eq!(reference::to_text(&rows), SHIPPED);
}
