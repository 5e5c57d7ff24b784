-- How many watch a game without a seat (spectators), one row per game and
-- server: each server writes its own count when it changes (at most once a
-- second) and drops the row at zero, so a watcher costs no write of its own.
-- The count a game shows is the sum over the rows still alive: each server
-- pushes its rows' expires_at forward with its seat_presence rows, so the
-- rows of a server that died stop counting once they expire.
CREATE TABLE spectator_counts (
    game_id    uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    server_id  text NOT NULL,
    spectators integer NOT NULL CHECK (spectators > 0),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, server_id)
);

CREATE INDEX spectator_counts_server ON spectator_counts (server_id);
