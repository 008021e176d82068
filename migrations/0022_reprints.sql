-- Books may reprint puzzles an earlier book or export used when told to (`book --reprint`): a
-- collection of published puzzles. Such rows are marked `reprint`; the one-use-ever rule (one
-- current or retired row per class) holds for the other rows, by a partial unique index in
-- place of the column's UNIQUE (SQLite rebuilds the table to drop it).
CREATE TABLE batches_new (
    id          INTEGER PRIMARY KEY,
    date        TEXT NOT NULL,             -- YYYY-MM-DD, or book:NAME
    slot        INTEGER NOT NULL,          -- 1.. in the order of the mix
    level       TEXT NOT NULL,             -- the level or band as the mix named it
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles(id),
    canon_key   TEXT NOT NULL,             -- the puzzle's class
    grid_key    TEXT NOT NULL,             -- the class of its solution grid (variety rule)
    seed_id     INTEGER,                   -- its seed (variety rule); NULL without one
    bank_rating REAL NOT NULL,             -- its rating and percentile when exported: a date is
    percentile  REAL NOT NULL,             -- re-exported with these, even after `calibrate`
    replaced    INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    difficulty  REAL,
    hsolve      REAL,
    reprint     INTEGER NOT NULL DEFAULT 0 -- 1: a book's reprint of a class used before
);

INSERT INTO batches_new (id, date, slot, level, puzzle_id, canon_key, grid_key, seed_id,
        bank_rating, percentile, replaced, created_at, difficulty, hsolve)
    SELECT id, date, slot, level, puzzle_id, canon_key, grid_key, seed_id, bank_rating,
        percentile, replaced, created_at, difficulty, hsolve
    FROM batches;

DROP TABLE batches;
ALTER TABLE batches_new RENAME TO batches;

CREATE UNIQUE INDEX batches_current ON batches(date, slot) WHERE replaced = 0;
CREATE INDEX batches_date ON batches(date);
CREATE UNIQUE INDEX batches_class ON batches(canon_key) WHERE reprint = 0;
