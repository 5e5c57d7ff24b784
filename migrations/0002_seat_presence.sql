-- Who is watching a game from a seat, for the presence shown to the opponent.
-- One row per connected seat-holding watcher; each server refreshes its rows
-- every few seconds, so the rows of a server that died stop counting once
-- they are older than the time-to-live.
CREATE TABLE seat_presence (
    game_id      uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    side         smallint NOT NULL, -- 1 fox side, 2 geese
    watcher_id   uuid NOT NULL,
    server_id    text NOT NULL,
    connected_at timestamptz NOT NULL,
    refreshed_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, side, watcher_id)
);

CREATE INDEX seat_presence_server ON seat_presence (server_id);

-- When the last watcher of a seat left, for "gone since".
CREATE TABLE seat_departures (
    game_id uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    side    smallint NOT NULL,
    left_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, side)
);
