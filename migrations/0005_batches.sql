-- Publisher exports (issue 8): which puzzle went out on which date and slot. A class is
-- exported at most once, ever (`canon_key` UNIQUE, replaced rows included); `replaced` marks
-- rows that `export --replace` retired (their puzzles stay out of every later export).
CREATE TABLE batches (
    id          INTEGER PRIMARY KEY,
    date        TEXT NOT NULL,             -- YYYY-MM-DD
    slot        INTEGER NOT NULL,          -- 1.. in the order of the mix
    level       TEXT NOT NULL,             -- the level or band as the mix named it
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles(id),
    canon_key   TEXT NOT NULL UNIQUE,      -- the puzzle's class
    grid_key    TEXT NOT NULL,             -- the class of its solution grid (variety rule)
    seed_id     INTEGER,                   -- its seed (variety rule); NULL without one
    rating      REAL NOT NULL,             -- its rating and percentile when exported: a date is
    percentile  REAL NOT NULL,             -- re-exported with these, even after `calibrate`
    replaced    INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE UNIQUE INDEX batches_current ON batches(date, slot) WHERE replaced = 0;
CREATE INDEX batches_date ON batches(date);

-- The files each export wrote, with a blake3 hash of their bytes, recorded in the export's
-- transaction: a file left under its temporary name by a crash after the commit is completed
-- (renamed into place) by the next export into that folder when its bytes match, and
-- removed otherwise.
CREATE TABLE export_files (
    id          INTEGER PRIMARY KEY,
    dir         TEXT NOT NULL,             -- the output folder, canonical path
    name        TEXT NOT NULL,             -- the final file name
    blake3      TEXT NOT NULL,             -- hex hash of the bytes
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX export_files_name ON export_files(dir, name);
