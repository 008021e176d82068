-- Balanced assignment (issue 21): a shard records which target each job serves, as the
-- weights of the repeating pattern of `src/bank/accept.rs` (`Assignment`), space-separated;
-- empty for a shard made before, whose jobs went round the targets.
ALTER TABLE shards ADD COLUMN assignment TEXT NOT NULL DEFAULT '';
