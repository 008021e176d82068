-- The lineage points of the copies a history serves: each copy a server started on records
-- its last puzzle id and the digest of every puzzle up to it (the bank's `lineage`). A copy
-- that lacks the newest point's digest is refused: one that stops before it (an older copy)
-- and one whose puzzles up to it differ (one that grew apart from the others, each adding
-- puzzles of its own), told apart by the newest point it reaches. So a puzzle id names the
-- same puzzle on every server. Empty until a server records its point (a history made by
-- `history export` from a master bank, or by version 1); `--rebind` starts it over.
CREATE TABLE pseudoku_lineage (
    last_id     BIGINT PRIMARY KEY,
    digest      BYTEA NOT NULL CHECK (octet_length(digest) = 32),
    recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
