-- Puzzles per hardest step and level, and how many of them are unserved: a draw by technique
-- (`get --technique`) reads at once how rare its selection is, and a rare one is drawn by rank
-- without first counting its index entries. Kept exact by the triggers below on every insert,
-- delete and change of a puzzle's step, level or served flag, whoever makes it (builds, merges,
-- calibrations, serving). `level` is -1 for puzzles without one; rows without a step are not
-- counted.
CREATE TABLE step_counts (
    step INTEGER NOT NULL,
    level INTEGER NOT NULL,
    puzzles INTEGER NOT NULL,
    unserved INTEGER NOT NULL,
    PRIMARY KEY (step, level)
) WITHOUT ROWID;

INSERT INTO step_counts (step, level, puzzles, unserved)
SELECT step, IFNULL(level, -1), COUNT(*), SUM(served_at IS NULL)
FROM puzzles WHERE step IS NOT NULL GROUP BY step, IFNULL(level, -1);

CREATE TRIGGER step_counts_insert AFTER INSERT ON puzzles WHEN NEW.step IS NOT NULL
BEGIN
    INSERT INTO step_counts (step, level, puzzles, unserved)
    VALUES (NEW.step, IFNULL(NEW.level, -1), 1, NEW.served_at IS NULL)
    ON CONFLICT (step, level) DO UPDATE
    SET puzzles = puzzles + 1, unserved = unserved + excluded.unserved;
END;

CREATE TRIGGER step_counts_delete AFTER DELETE ON puzzles WHEN OLD.step IS NOT NULL
BEGIN
    UPDATE step_counts SET puzzles = puzzles - 1, unserved = unserved - (OLD.served_at IS NULL)
    WHERE step = OLD.step AND level = IFNULL(OLD.level, -1);
END;

CREATE TRIGGER step_counts_update AFTER UPDATE OF step, level, served_at ON puzzles
WHEN OLD.step IS NOT NEW.step OR OLD.level IS NOT NEW.level
    OR (OLD.served_at IS NULL) <> (NEW.served_at IS NULL)
BEGIN
    UPDATE step_counts SET puzzles = puzzles - 1, unserved = unserved - (OLD.served_at IS NULL)
    WHERE step = OLD.step AND level = IFNULL(OLD.level, -1);
    INSERT INTO step_counts (step, level, puzzles, unserved)
    SELECT NEW.step, IFNULL(NEW.level, -1), 1, NEW.served_at IS NULL WHERE NEW.step IS NOT NULL
    ON CONFLICT (step, level) DO UPDATE
    SET puzzles = puzzles + 1, unserved = unserved + excluded.unserved;
END;
