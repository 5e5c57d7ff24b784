-- The naive move transaction's tables (bench/compare_moves.sh): a game row,
-- its moves, and its repetition counts, keyed as foxgeese keys them.
SET client_min_messages = warning;
DROP TABLE IF EXISTS naive_occurrences, naive_moves, naive_games;
CREATE TABLE naive_games (
    game_id bigint PRIMARY KEY,
    position text NOT NULL,
    ply integer NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE TABLE naive_moves (
    game_id bigint NOT NULL REFERENCES naive_games,
    ply integer NOT NULL,
    notation text NOT NULL,
    position text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE naive_occurrences (
    game_id bigint NOT NULL REFERENCES naive_games,
    position_key text NOT NULL,
    occurrences integer NOT NULL,
    PRIMARY KEY (game_id, position_key)
);
-- One game per possible client, so that clients never wait on each other's
-- row lock (as foxgeese-load's clients each play their own games).
INSERT INTO naive_games
SELECT g, '3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0', 0, now() FROM generate_series(1, 1024) AS g;
VACUUM ANALYZE;
