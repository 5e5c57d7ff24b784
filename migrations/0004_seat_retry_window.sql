-- A CreateGame or JoinGame retry (same request_id) hands the seat out again
-- with a fresh token only until these times, and only while the seat's token
-- has not been used: the first move, draw action or watch with the token sets
-- the column to NULL. Rows from before this migration allow no retry.
ALTER TABLE games
    ADD COLUMN fox_retry_until   timestamptz,
    ADD COLUMN geese_retry_until timestamptz;
