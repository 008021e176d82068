-- The bank's identity: a random id made once, when the bank is made (or first migrated), and
-- kept by every copy of its file. A per-user history kept outside the bank (`serve --history
-- postgres://...`) is recorded against it, so that a server given another bank is refused.
INSERT OR IGNORE INTO settings (key, value) VALUES ('bank_id', lower(hex(randomblob(16))));
