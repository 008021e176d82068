-- Levels as ranges of the rating (issue 15): each puzzle's level (0 = easiest) on the bank's
-- levels (settings `levels` and `cuts`), recomputed when they change; retrieval by level walks
-- the unserved puzzles of that level.
ALTER TABLE puzzles ADD COLUMN level INTEGER;
CREATE INDEX puzzles_unserved_level ON puzzles(level, pick) WHERE served_at IS NULL;

-- The `difficulty` model a bank's ratings were made with: banks made before this migration
-- used model 1 (singles searched as one group). A build on such a bank re-rates it.
INSERT INTO settings (key, value)
    SELECT 'difficulty_model', '1' WHERE EXISTS (SELECT 1 FROM reference)
    ON CONFLICT(key) DO NOTHING;

-- Exports record both ratings of each puzzle, by name, as they were when exported (a date is
-- re-exported with these, whatever later calibrations or models do); the bank's own rating
-- then is kept as `bank_rating`.
ALTER TABLE batches RENAME COLUMN rating TO bank_rating;
ALTER TABLE batches ADD COLUMN difficulty REAL;
ALTER TABLE batches ADD COLUMN hsolve REAL;
UPDATE batches SET
    difficulty = (SELECT p.difficulty FROM puzzles p WHERE p.id = batches.puzzle_id),
    hsolve = (SELECT p.hsolve FROM puzzles p WHERE p.id = batches.puzzle_id);
