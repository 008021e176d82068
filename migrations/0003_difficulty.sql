-- The rating beyond the paper (issue 9): `difficulty`, log10 of the expected weighted work
-- (src/difficulty.rs), 10 runs on the canonical form. Rows stored before this migration have
-- NULL until `pseudoku build` fills them in (it rates them on opening the bank).
ALTER TABLE puzzles ADD COLUMN difficulty REAL;

CREATE INDEX puzzles_difficulty ON puzzles(difficulty);
