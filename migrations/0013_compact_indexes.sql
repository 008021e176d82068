-- The compact table's indexes (issue 21), each chosen for a reader:
-- - `puzzles_key`: one row per class (a build drops duplicates before storing);
-- - `puzzles_level`: draws by level, the unserved ones first (`served_at IS NULL` sorts first),
--   served or not for per-user draws: one index for both;
-- - `puzzles_rating`: draws by percentile, as a range of the bank's rating (difficulty; a
--   bank rated by hsolve indexes hsolve instead, see `calibrate --rating`).
CREATE UNIQUE INDEX puzzles_key ON puzzles(canon_key);
CREATE INDEX puzzles_level ON puzzles(level, served_at);
CREATE INDEX puzzles_rating ON puzzles(difficulty);

-- The stored puzzles with their 81-character forms and ratings as numbers, for `sqlite3`:
--   SELECT puzzle, difficulty FROM puzzles_text WHERE level = 2 LIMIT 5;
CREATE VIEW puzzles_text AS
SELECT
    id,
    replace(substr(hex(puzzle), 1, 81), '0', '.') AS puzzle,
    lower(hex(canon_key)) AS canon_key,
    clues,
    difficulty / 1000.0 AS difficulty,
    hsolve / 100.0 AS hsolve,
    hsolve_sd / 100.0 AS hsolve_sd,
    tier,
    CASE technique
        WHEN 1 THEN 'singles'
        WHEN 2 THEN 'pairs'
        WHEN 3 THEN 'locked-candidates'
        WHEN 4 THEN 'x-wing-or-xy-wing'
        ELSE 'trial' END AS technique,
    level,
    seed_id,
    transform,
    build_id,
    job,
    served_at
FROM puzzles;
