-- Named ratings: a publisher's numeric scale (e.g. `se`, Sudoku Explainer's rating) learned by
-- `calibrate --labelled --named NAME` and valued for every puzzle, so the bank can draw by it
-- (`get --rating NAME --range A..B`). The model is in `settings` (`named_rating:NAME`); each
-- name has a small id here, and each puzzle one value per name.
CREATE TABLE rating_names (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE named_ratings (
    rating_id INTEGER NOT NULL REFERENCES rating_names(id),
    puzzle_id INTEGER NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY (rating_id, puzzle_id)
) WITHOUT ROWID;
CREATE INDEX named_ratings_value ON named_ratings(rating_id, value);
