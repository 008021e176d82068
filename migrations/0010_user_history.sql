-- Per-user history for `serve` (issue 18): the classes (canonical keys) each app user has been
-- given, once per user and class, so that a user never gets the same puzzle, or any symmetry
-- of it, twice. User ids are opaque strings chosen by the app; no personal data. Separate from
-- `served_at`, the publisher's global flag (exports, `get --mark-served`).
CREATE TABLE user_history (
    user TEXT NOT NULL,
    canon_key TEXT NOT NULL,
    puzzle_id INTEGER NOT NULL,
    given_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (user, canon_key)
) WITHOUT ROWID;

-- Per-user draws list a level's or a percentile range's puzzles, served or not.
CREATE INDEX puzzles_level ON puzzles(level);
