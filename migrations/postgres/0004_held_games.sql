-- Held games, as the bank's migration 0030: a game teaches its puzzle only once its player
-- has a record; the games before are held, and settled (taught) by the game that makes it. A
-- result says whether it was held (NULL: a glance); `pseudoku_settled` records each held game
-- taught; a puzzle's rating keeps the day of its last move by held games (days since
-- 1970-01-01 in UTC) and what they moved it by that day.
ALTER TABLE pseudoku_results ADD COLUMN held BOOLEAN;
UPDATE pseudoku_results SET held = false WHERE score IS NOT NULL;
ALTER TABLE pseudoku_puzzle_ratings ADD COLUMN held_day BIGINT NOT NULL DEFAULT 0;
ALTER TABLE pseudoku_puzzle_ratings ADD COLUMN held_moved DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE TABLE pseudoku_settled (
    result_seq    BIGINT PRIMARY KEY REFERENCES pseudoku_results (seq),
    by_seq        BIGINT NOT NULL,
    puzzle_id     BIGINT NOT NULL,
    share         DOUBLE PRECISION NOT NULL,
    puzzle_rating DOUBLE PRECISION NOT NULL,
    at            TIMESTAMPTZ NOT NULL DEFAULT now()
);
