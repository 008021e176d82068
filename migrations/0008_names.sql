-- Names that say what they hold (issue 15): the hsolve columns are named after their rating,
-- and paper 004's technique grade is stored under the family it names (`singles`, `pairs`,
-- `locked-candidates`, `x-wing-or-xy-wing`, `trial`), so that it cannot be read as a level.
ALTER TABLE puzzles RENAME COLUMN rating TO hsolve;
ALTER TABLE puzzles RENAME COLUMN rating_sd TO hsolve_sd;
ALTER TABLE puzzles RENAME COLUMN grade TO technique;
UPDATE puzzles SET technique = CASE technique
    WHEN 'easy' THEN 'singles'
    WHEN 'medium' THEN 'pairs'
    WHEN 'hard' THEN 'locked-candidates'
    WHEN 'insane' THEN 'x-wing-or-xy-wing'
    WHEN 'computer' THEN 'trial'
    ELSE technique END;
DROP INDEX IF EXISTS puzzles_rating;
CREATE INDEX puzzles_hsolve ON puzzles(hsolve);
ALTER TABLE seeds RENAME COLUMN rating TO hsolve;
