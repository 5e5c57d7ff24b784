-- The games still waiting or in progress, for the foxgeese_games gauge: a
-- count over this index grows with the games being played, not with every
-- game ever stored (finished games are estimated from the table statistics).
CREATE INDEX games_unfinished ON games (state) WHERE state IN (1, 2);
