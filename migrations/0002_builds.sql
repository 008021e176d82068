-- One row per `pseudoku build` run: what was asked, with which rater, and what came of it.
CREATE TABLE builds (
    id              INTEGER PRIMARY KEY,
    started_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished_at     TEXT,
    arguments       TEXT NOT NULL,
    rng_seed        INTEGER NOT NULL,
    count           INTEGER NOT NULL,          -- new distinct puzzles requested
    first_job       INTEGER NOT NULL,          -- job indexes first_job.. belong to this build
    next_job        INTEGER NOT NULL,          -- first job index not yet committed
    stored          INTEGER NOT NULL DEFAULT 0,
    duplicates      INTEGER NOT NULL DEFAULT 0,
    rejected        INTEGER NOT NULL DEFAULT 0, -- generated puzzles that failed the uniqueness check
    rater           TEXT NOT NULL,             -- rater version and settings
    status          TEXT NOT NULL              -- running, done
);

CREATE INDEX puzzles_build ON puzzles(build_id);
