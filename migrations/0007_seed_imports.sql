-- Seeds a user imported into the bank (issue 15): the bank's own additions to the seed library,
-- which every `build` on the bank uses beside the shipped library (or `--seeds FILE`). The
-- fields are those of a line of the seed format.
CREATE TABLE seed_imports (
    id          INTEGER PRIMARY KEY,
    puzzle      TEXT NOT NULL,             -- 81 characters, '.' for empty
    solution    TEXT NOT NULL,             -- 81 digits
    canon_key   TEXT NOT NULL UNIQUE,      -- blake3 of the exact minlex form, hex
    tier        INTEGER NOT NULL,          -- hardest hsolve tier the seed needs
    hsolve      REAL NOT NULL,             -- hsolve mean (20 runs)
    reserved    INTEGER NOT NULL,          -- cells left empty by tiers 0 to tier - 1
    provenance  TEXT NOT NULL,             -- import:FILE:LINE
    imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
