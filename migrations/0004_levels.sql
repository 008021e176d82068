-- Percentiles, bands and retrieval (issue 7).
--
-- `puzzles` is rebuilt (SQLite cannot drop a NOT NULL constraint in place): `seed_id` may now
-- be NULL, for the easiest bands, which the standard generator fills; `served_at` records
-- when `pseudoku get --mark-served` (or, later, an export) handed the puzzle out; `pick` is a
-- fixed random-looking number (from the class key) that orders puzzles of equal percentile
-- for random retrieval.
CREATE TABLE puzzles_new (
    id          INTEGER PRIMARY KEY,
    puzzle      TEXT NOT NULL,             -- 81 characters as generated, '.' for empty
    solution    TEXT NOT NULL,             -- 81 digits
    canon       TEXT NOT NULL,             -- exact minlex form, '0' for empty
    canon_key   TEXT NOT NULL UNIQUE,      -- blake3 of canon, hex: one row per class
    clues       INTEGER NOT NULL,
    rating      REAL NOT NULL,             -- hsolve mean (20 runs, on the canonical form)
    rating_sd   REAL NOT NULL,
    tier        INTEGER NOT NULL,          -- hardest hsolve tier used by the rating runs
    percentile  REAL,                      -- 0-100 against the bank's reference
    wnef        REAL NOT NULL,
    wnef_class  INTEGER NOT NULL,
    box_norm    REAL NOT NULL,
    box_class   INTEGER NOT NULL,
    grade       TEXT NOT NULL,
    seed_id     INTEGER REFERENCES seeds(id), -- NULL: made by the standard generator
    transform   TEXT NOT NULL,             -- the symmetry applied to the seed ('' without one)
    build_id    INTEGER NOT NULL,
    job         INTEGER NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    difficulty  REAL,                      -- the project's rating (log10 of the weighted work)
    served_at   TEXT,                      -- NULL until served (`get --mark-served`, export)
    pick        INTEGER                    -- random-looking tie-break for retrieval
);

INSERT INTO puzzles_new (id, puzzle, solution, canon, canon_key, clues, rating, rating_sd, tier,
    percentile, wnef, wnef_class, box_norm, box_class, grade, seed_id, transform, build_id, job,
    created_at, difficulty)
SELECT id, puzzle, solution, canon, canon_key, clues, rating, rating_sd, tier,
    percentile, wnef, wnef_class, box_norm, box_class, grade, seed_id, transform, build_id, job,
    created_at, difficulty
FROM puzzles;

DROP TABLE puzzles;
ALTER TABLE puzzles_new RENAME TO puzzles;

CREATE INDEX puzzles_rating ON puzzles(rating);
CREATE INDEX puzzles_build ON puzzles(build_id);
CREATE INDEX puzzles_difficulty ON puzzles(difficulty);
CREATE INDEX puzzles_percentile ON puzzles(percentile);
-- Retrieval walks only the unserved puzzles, in (percentile, pick) order.
CREATE INDEX puzzles_unserved ON puzzles(percentile, pick) WHERE served_at IS NULL;

-- The reference distribution percentiles are measured against (both ratings of each puzzle).
CREATE TABLE reference (
    id          INTEGER PRIMARY KEY,
    puzzle      TEXT NOT NULL,
    difficulty  REAL NOT NULL,
    hsolve      REAL NOT NULL,
    source      TEXT NOT NULL              -- standard, minimal, or the user's file
);

-- Bank settings: `rating` (difficulty or hsolve), `levels` (names, easiest first),
-- `reference` (how the reference was made).
CREATE TABLE settings (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);

-- Targeted builds (`build --band`, `--per-band`): puzzles rated outside every band that still
-- needed puzzles are dropped and counted here.
ALTER TABLE builds ADD COLUMN off_band INTEGER NOT NULL DEFAULT 0;
