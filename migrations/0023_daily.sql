-- The site's daily puzzles (`serve`, `GET /v1/daily`): one puzzle per date and level, recorded
-- the first time it is asked for, so that every player gets the same one that day and ever
-- after. A class is a daily puzzle at most once (`canon_key` UNIQUE); the puzzle is marked
-- served, so that no export or later daily draw hands it out again. A date an export recorded
-- gives its puzzle of that level (a publisher's daily file and the site's daily puzzle agree).
CREATE TABLE daily (
    date        TEXT NOT NULL,             -- YYYY-MM-DD
    level       TEXT NOT NULL,             -- the level's name
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles(id),
    canon_key   BLOB NOT NULL UNIQUE,      -- the puzzle's class, 32 bytes
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (date, level)
) WITHOUT ROWID;
