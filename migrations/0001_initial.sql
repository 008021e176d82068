-- The seed library the bank was built from, and the bank's puzzles.
CREATE TABLE seeds (
    id          INTEGER PRIMARY KEY,
    puzzle      TEXT NOT NULL,             -- 81 characters, '.' for empty
    solution    TEXT NOT NULL,             -- 81 digits
    canon_key   TEXT NOT NULL UNIQUE,      -- blake3 of the exact minlex form, hex
    tier        INTEGER NOT NULL,          -- hardest hsolve tier the seed needs
    rating      REAL NOT NULL,             -- hsolve mean
    reserved    TEXT NOT NULL,             -- reserved cells (tier - 1 solving), 81 chars '1'/'0'
    provenance  TEXT NOT NULL
);

CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY,
    puzzle      TEXT NOT NULL,             -- 81 characters as generated, '.' for empty
    solution    TEXT NOT NULL,             -- 81 digits
    canon       TEXT NOT NULL,             -- exact minlex form, '0' for empty
    canon_key   TEXT NOT NULL UNIQUE,      -- blake3 of canon, hex: one row per class
    clues       INTEGER NOT NULL,
    rating      REAL NOT NULL,             -- hsolve mean (20 runs, on the canonical form)
    rating_sd   REAL NOT NULL,
    tier        INTEGER NOT NULL,          -- hardest tier used by the rating runs
    percentile  REAL,                      -- filled by the percentile work
    wnef        REAL NOT NULL,
    wnef_class  INTEGER NOT NULL,
    box_norm    REAL NOT NULL,
    box_class   INTEGER NOT NULL,
    grade       TEXT NOT NULL,
    seed_id     INTEGER NOT NULL REFERENCES seeds(id),
    transform   TEXT NOT NULL,             -- the symmetry applied to the seed
    build_id    INTEGER NOT NULL,
    job         INTEGER NOT NULL,          -- the job index that made it
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX puzzles_rating ON puzzles(rating);
