-- Daily puzzles' numbers: each puzzle an export records for a date gets the next number of the
-- bank's daily series (1, 2, ...), printed as "No. N" and given by `GET /v1/daily`, so print
-- and online name a puzzle alike. A number once given never changes; a replaced date's new
-- puzzles take new numbers. A book's puzzles have none (a book numbers its own from 1). The
-- daily puzzles recorded before this migration are numbered in the order they were recorded.
ALTER TABLE batches ADD COLUMN number INTEGER;
UPDATE batches SET number = n.number
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS number
      FROM batches WHERE date NOT LIKE 'book:%') AS n
WHERE batches.id = n.id;
CREATE UNIQUE INDEX batches_number ON batches(number) WHERE number IS NOT NULL;
