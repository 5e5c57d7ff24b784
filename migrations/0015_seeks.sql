-- Quick pairing (SeekGame, service/core/seek_game.cpp): one row per seeker
-- waiting for an opponent who asks for the same game (its pool: variant,
-- options and time control). A seeker of the pool claims the oldest one
-- (FOR UPDATE SKIP LOCKED), creates the game and writes its id here; the
-- waiting seeker's replica, told by NOTIFY, reads it and removes the row. A
-- seeker who leaves, or whose wait ends, removes its row; a row left by a
-- replica that died is never claimed after expires_at and is swept by the
-- next seek of its pool or client.
CREATE TABLE seeks (
    seek_id uuid PRIMARY KEY,
    pool text NOT NULL,
    -- A digest of the client's address, never the address itself.
    client_key text NOT NULL,
    -- The digest of the seat token the waiting seeker gets when paired.
    token_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    -- Set when another seeker claimed it: the game they play.
    game_id uuid
);

-- One seek waiting per client.
CREATE UNIQUE INDEX seeks_waiting_client ON seeks (client_key) WHERE game_id IS NULL;
-- The claim: a pool's waiting seeks, oldest first.
CREATE INDEX seeks_waiting_pool ON seeks (pool, created_at) WHERE game_id IS NULL;
-- Sweeping rows past their time.
CREATE INDEX seeks_expiry ON seeks (expires_at);
