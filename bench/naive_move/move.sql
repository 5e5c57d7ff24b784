-- The naive move transaction: six round trips, each statement on its own.
-- pgbench runs it with -M prepared; :client_id picks the client's own game.
\set game :client_id + 1
BEGIN;
SELECT ply, position FROM naive_games WHERE game_id = :game FOR UPDATE \gset
INSERT INTO naive_moves (game_id, ply, notation, position, created_at)
    VALUES (:game, :ply + 1, 'd4-d5', '3/3/7/4F2/GGGGGGG/GGG/GGG g 1 1', now());
UPDATE naive_games SET ply = :ply + 1, position = '3/3/7/4F2/GGGGGGG/GGG/GGG g 1 1',
    updated_at = now() WHERE game_id = :game;
INSERT INTO naive_occurrences (game_id, position_key, occurrences)
    VALUES (:game, md5((:ply + 1)::text), 1)
    ON CONFLICT (game_id, position_key)
    DO UPDATE SET occurrences = naive_occurrences.occurrences + 1;
COMMIT;
