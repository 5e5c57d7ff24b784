-- Every change a watcher must see (seat joined, move, draw offered or
-- answered, game ended), recorded in the transaction that makes the change,
-- numbered per game. Watch streams replay these in order instead of guessing
-- events from two reads of the game, so nothing is lost when changes come
-- close together and each event carries the game as it stood right then.
ALTER TABLE games ADD COLUMN event_seq bigint NOT NULL DEFAULT 0;

CREATE TABLE game_events (
    game_id    uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq        bigint NOT NULL,  -- 1, 2, ... per game; games.event_seq is the last
    body       bytea NOT NULL,   -- the serialized foxgeese.v1.WatchGameResponse
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Presence rows say themselves how long they count: the server that writes
-- a row knows how often it refreshes it, so readers need not guess.
ALTER TABLE seat_presence ADD COLUMN expires_at timestamptz NOT NULL DEFAULT now();
