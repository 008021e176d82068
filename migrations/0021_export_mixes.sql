-- The mix each exported date was drawn with, as its slots in order (`easy:2,hard:1`): a later
-- export of that date must ask for the same mix (it then writes the date as recorded, filling
-- only slots a partial export left empty) or pass --replace, so a recorded date never changes
-- under a wider or narrower mix. Dates exported before this migration have none: their
-- recorded slots stand for their mix.
CREATE TABLE export_mixes (
    date TEXT PRIMARY KEY,
    mix  TEXT NOT NULL
) WITHOUT ROWID;
