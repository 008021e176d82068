-- Held games (`crate::play::Trust`): a game teaches its puzzle only once its player has a
-- record (10 rated games). The games before are held; the game that makes the record settles
-- them, each taught to its puzzle then, against the player's rating by then; and held games
-- move one puzzle by at most a bounded amount in a UTC day. A result says whether it was held
-- (NULL: a glance, which teaches nothing). `settled` records each held game taught: the result
-- that made the record, the share of a game it taught (less than 1 where the day's bound cut
-- it) and the puzzle's rating after. A puzzle's rating keeps the day of its last move by held
-- games (days since 1970-01-01) and what they moved it by that day. The results counted
-- before this migration taught their puzzles at once.
ALTER TABLE results ADD COLUMN held INTEGER;
UPDATE results SET held = 0 WHERE score IS NOT NULL;
ALTER TABLE puzzle_ratings ADD COLUMN held_day INTEGER NOT NULL DEFAULT 0;
ALTER TABLE puzzle_ratings ADD COLUMN held_moved REAL NOT NULL DEFAULT 0;
CREATE TABLE settled (
    result_seq    INTEGER PRIMARY KEY,       -- the held result (results.seq)
    by_seq        INTEGER NOT NULL,          -- the result that made its player's record
    puzzle_id     INTEGER NOT NULL,
    share         REAL NOT NULL,             -- the share of a game it taught (0 to 1)
    puzzle_rating REAL NOT NULL,             -- the puzzle's rating after it
    at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
