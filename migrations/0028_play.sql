-- Play: what players' results taught the bank (`POST /v1/results`, `results import`). A
-- result is counted once per delivery (a user and a class); each moves the player's and the
-- puzzle's learned ratings (Glicko-2: rating, deviation, volatility), updated in the result's
-- transaction. A puzzle without a row here has its prior from its `difficulty` percentile.
CREATE TABLE results (
    seq           INTEGER PRIMARY KEY,       -- the order results were counted in
    user          TEXT NOT NULL,
    canon_key     BLOB NOT NULL,             -- the class handed out (32 bytes)
    puzzle_id     INTEGER NOT NULL,
    solved        INTEGER NOT NULL,          -- 1 solved, 0 abandoned
    seconds       REAL NOT NULL,
    hints         INTEGER NOT NULL,
    mistakes      INTEGER NOT NULL,
    score         REAL,                      -- against the par time; NULL: a glance, unrated
    player_rating REAL NOT NULL,             -- the player's rating after it
    puzzle_rating REAL NOT NULL,             -- the puzzle's rating after it
    at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (user, canon_key)
);

CREATE TABLE player_ratings (
    user        TEXT PRIMARY KEY,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    results     INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE puzzle_ratings (
    puzzle_id   INTEGER PRIMARY KEY,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    results     INTEGER NOT NULL
);

-- Matched draws list the played puzzles of a window of rating.
CREATE INDEX puzzle_ratings_rating ON puzzle_ratings(rating);
