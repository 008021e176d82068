//! The shipped seed library: its quotas, one seed per class, and every field recomputed.

use crate::common::*;
use pseudoku::seeds::Seed;
use std::collections::HashSet;
use std::path::Path;

#[test]
fn the_shipped_library_meets_its_quotas_and_its_fields_are_right() {
    let text = include_str!("../../seeds/library.tsv");
    let mut per_tier = [0usize; 7];
    let mut keys = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 6, "line {}", i + 1);
        let seed = Seed::parse_line(line, "test").unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        // The recorded fields are the recomputed ones.
        assert_eq!(seed.to_string(), line, "line {}", i + 1);
        assert!(
            keys.insert(seed.key()),
            "line {}: class already in the library",
            i + 1
        );
        per_tier[seed.tier as usize] += 1;
    }
    assert!(
        per_tier[1] >= 300 && per_tier[2] >= 300 && per_tier[3] >= 300,
        "{per_tier:?}"
    );
    assert!(per_tier[4] >= 30, "{per_tier:?}");
    assert!(per_tier[5] + per_tier[6] >= 300, "{per_tier:?}");
    assert_eq!(per_tier[0], 0);
}

#[test]
fn mining_a_full_library_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("library.tsv");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/library.tsv"),
        &lib,
    )
    .unwrap();
    let before = std::fs::read(&lib).unwrap();
    let o = pseudoku()
        .args(["seeds", "mine", "--count", "300", "--out"])
        .arg(&lib)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("nothing mined (write a new library with --out NEW.tsv"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read(&lib).unwrap(), before);
}
