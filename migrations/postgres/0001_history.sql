-- A fleet's shared history (`serve --history postgres://...`): what every server of one bank
-- records, so that any of them can answer any user. Created by `serve` (or `history export`)
-- in one transaction under an advisory lock; the version is the number of files applied.

-- The bank the history was recorded against: its id (the bank's `bank_id` setting, kept by
-- every copy of the file) and the most puzzles a server's copy has had. A server whose copy
-- has another id, or fewer puzzles, is refused unless told to record its bank here instead.
CREATE TABLE pseudoku_bank (
    only_row    BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    bank_id     TEXT NOT NULL,
    puzzles     BIGINT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Per-user history: the classes (canonical keys, 32 bytes) each app user has been given, once
-- per user and class. The primary key decides a race between two servers: a delivery is the
-- user's only when its row is inserted (`ON CONFLICT DO NOTHING` inserts nothing otherwise).
CREATE TABLE pseudoku_user_history (
    user_id     TEXT NOT NULL,
    canon_key   BYTEA NOT NULL CHECK (octet_length(canon_key) = 32),
    puzzle_id   BIGINT NOT NULL,
    given_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, canon_key)
);

-- The site's daily puzzles: one per date and level, the first recorded for good; a class is
-- the daily puzzle of one date and level only.
CREATE TABLE pseudoku_daily (
    day         TEXT NOT NULL CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    level       TEXT NOT NULL,
    puzzle_id   BIGINT NOT NULL,
    canon_key   BYTEA NOT NULL UNIQUE CHECK (octet_length(canon_key) = 32),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (day, level)
);
