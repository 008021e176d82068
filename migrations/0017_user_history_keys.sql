-- A user's history keeps each class key as the 32 bytes `puzzles.canon_key` holds (it was
-- the 64-character hex text of them), so that a per-user draw compares the two directly.
-- Rows are copied as they are; a key that is not 64 hex digits (never written by pseudoku)
-- fails the NOT NULL constraint and the migration, leaving the bank as it was.
CREATE TABLE user_history_keys (
    user TEXT NOT NULL,
    canon_key BLOB NOT NULL,
    puzzle_id INTEGER NOT NULL,
    given_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (user, canon_key)
) WITHOUT ROWID;

INSERT INTO user_history_keys (user, canon_key, puzzle_id, given_at)
    SELECT user, CASE WHEN length(canon_key) = 64 THEN unhex(canon_key) END, puzzle_id, given_at
    FROM user_history;

DROP TABLE user_history;
ALTER TABLE user_history_keys RENAME TO user_history;
