-- The hardest step each puzzle needs: a technique of the `difficulty` ladder, stored by its
-- code (`Strategy::code`: 0 naked single, 1 hidden single, 2 naked pair, 3 hidden pair,
-- 4 locked candidates, 5 naked triple, 6 hidden triple, 7 x-wing, 8 naked quad, 9 hidden quad,
-- 10 swordfish, 11 jellyfish, 12 backtracking, 13 trial and error, 14 xy-wing, 15 xyz-wing,
-- 16 w-wing, 17 unique rectangle, 18 simple colouring, 19 xy-chain), and how many such steps a
-- solve takes. Rows stored before are NULL until the next build or calibrate re-rates them.
--
-- `puzzles_step` serves draws by technique (`get --technique`), alone or with a level, the
-- unserved ones first, as `puzzles_level` does for levels.
ALTER TABLE puzzles ADD COLUMN step INTEGER;
ALTER TABLE puzzles ADD COLUMN step_count INTEGER;
CREATE INDEX puzzles_step ON puzzles(step, level, served_at);
