-- Imports (`pseudoku import FILE`): a build row whose jobs are the lines of a user's file. Its
-- source is the file as the user named it (NULL for a build or a merge, whose jobs are the
-- generator's), so an imported puzzle's provenance is its build's source and its job: the line
-- it was read from (1-based). A build's job range skips the rows with a source.
ALTER TABLE builds ADD COLUMN source TEXT;
