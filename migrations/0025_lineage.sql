-- The bank's lineage: after every commit that adds puzzles, the last puzzle id and a digest
-- chained over every puzzle up to it (its id and class key, in id order). Copies of one bank
-- file share it; two copies that each grew by a build of their own part at the first puzzle
-- one has and the other lacks, so a fleet's history (`serve --history`), which records the
-- point of the copies it serves, accepts only copies of one lineage: an id names the same
-- puzzle on every server.
CREATE TABLE lineage (
    last_id INTEGER PRIMARY KEY,
    digest  BLOB NOT NULL CHECK (length(digest) = 32)
);
