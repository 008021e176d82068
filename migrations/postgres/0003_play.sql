-- Play: what players' results taught the bank, shared by a fleet's servers (the bank's own
-- tables `results`, `player_ratings`, `puzzle_ratings` under the same rules). A result is
-- counted once per delivery (a user and a class); each moves the player's and the puzzle's
-- learned ratings in the result's transaction, the player's row locked before the puzzle's.
CREATE TABLE pseudoku_results (
    seq           BIGSERIAL PRIMARY KEY,
    user_id       TEXT NOT NULL,
    canon_key     BYTEA NOT NULL CHECK (octet_length(canon_key) = 32),
    puzzle_id     BIGINT NOT NULL,
    solved        BOOLEAN NOT NULL,
    seconds       DOUBLE PRECISION NOT NULL,
    hints         INTEGER NOT NULL,
    mistakes      INTEGER NOT NULL,
    score         DOUBLE PRECISION,
    player_rating DOUBLE PRECISION NOT NULL,
    puzzle_rating DOUBLE PRECISION NOT NULL,
    at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (user_id, canon_key)
);
CREATE INDEX pseudoku_results_user ON pseudoku_results (user_id, seq);

CREATE TABLE pseudoku_player_ratings (
    user_id     TEXT PRIMARY KEY,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    results     BIGINT NOT NULL
);

CREATE TABLE pseudoku_puzzle_ratings (
    puzzle_id   BIGINT PRIMARY KEY,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    results     BIGINT NOT NULL
);
CREATE INDEX pseudoku_puzzle_ratings_rating ON pseudoku_puzzle_ratings (rating);
