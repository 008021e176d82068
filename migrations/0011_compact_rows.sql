-- Compact rows (issue 21): a puzzle row in about a third of the bytes. The new table is filled
-- from the old one by the next (data) migration, which then drops the old table and renames
-- this one `puzzles`; the indexes and the readable view follow in 0013.
--
-- Stored: what cannot be recomputed in microseconds. Not stored any more, because each is one
-- cheap call away from the puzzle: the solution (the solver, ~3 us), the canonical form (`canon`,
-- ~5 us), WNEF and box norm with their classes (counting candidates), the percentile (a binary
-- search of the bank's reference, so it also never goes stale), the retrieval tie-break `pick`
-- (retrieval draws by id) and `created_at` (the build's row has its start and end).
--
-- `puzzle`: 41 bytes, the 81 cells row by row, 4 bits each, the first cell in the high half of
-- the first byte and the last byte's low half 0 (see docs/schema.md):
--
--     byte    0      1           40
--           [c0|c1][c2|c3] ... [c80|0]      cell: 0 empty, 1-9 its digit
--
-- so `hex(puzzle)` is the 81 digits (0 for empty) and a trailing 0.
-- Ratings are stored as whole numbers of the unit `rate` rounds them to (difficulty in
-- thousandths, hsolve and its deviation in hundredths): 2 or 3 bytes where a REAL takes 8, and
-- not a digit lost.
CREATE TABLE puzzles_compact (
    id          INTEGER PRIMARY KEY,
    puzzle      BLOB NOT NULL,             -- 41 bytes, 4 bits a cell (above)
    canon_key   BLOB NOT NULL,             -- 32 bytes: blake3 of the exact minlex form
    clues       INTEGER NOT NULL,          -- kept (1 byte) so `stats` counts by SQL alone
    difficulty  INTEGER,                   -- thousandths; NULL until a build rates an old row
    hsolve      INTEGER NOT NULL,          -- hundredths
    hsolve_sd   INTEGER NOT NULL,          -- hundredths
    tier        INTEGER NOT NULL,          -- hardest hsolve tier used
    technique   INTEGER NOT NULL,          -- 1 singles, 2 pairs, 3 locked-candidates,
                                           -- 4 x-wing-or-xy-wing, 5 trial
    level       INTEGER,                   -- 0 = easiest, on the bank's levels
    seed_id     INTEGER REFERENCES seeds(id), -- NULL: made by the standard generator
    transform   INTEGER,                   -- the symmetry's rank (0 .. 2 * 6^8 * 9!), NULL without
    build_id    INTEGER NOT NULL,
    job         INTEGER NOT NULL,          -- the job of that build that made it
    served_at   TEXT                       -- NULL until served (`get --mark-served`, export)
);
