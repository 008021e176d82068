-- Shards (issue 21): a bank built by `build --shard K/N` holds the candidates of its share of
-- the jobs; `merge` replays them in job order with the rule of `src/bank/accept.rs`.
-- - `shards`: the shard this bank is (one row), the job block size, each target's quota and
--   how far its jobs have run: `cursors` holds, per target, the first job of the shard's
--   blocks that has not run (every job of that target below it has);
-- - `shard_rows`: per stored candidate, its job (the key merge streams in), its row, and the
--   targets it fits (bit t: target t).
CREATE TABLE shards (
    build_id INTEGER PRIMARY KEY REFERENCES builds(id),
    shard INTEGER NOT NULL,
    shards INTEGER NOT NULL,
    block INTEGER NOT NULL,
    quotas TEXT NOT NULL,
    cursors TEXT NOT NULL
);
CREATE TABLE shard_rows (
    job INTEGER PRIMARY KEY,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
    fits INTEGER NOT NULL
);
