-- Bot seats: a game against the computer, and the lease of the replica that
-- is computing the bot's move (see service/core/bot_moves.h).
ALTER TABLE games
    -- The bot's side (1 fox side, 2 geese; 0: no bot) and its level (1..8).
    ADD COLUMN bot_side  smallint NOT NULL DEFAULT 0,
    ADD COLUMN bot_level smallint NOT NULL DEFAULT 0,
    -- While a replica thinks about the bot's move: until when its claim
    -- holds (it renews it while it thinks) and which replica it is. A move
    -- clears both; a claim past its time is free for any replica to take.
    ADD COLUMN bot_claimed_until timestamptz,
    ADD COLUMN bot_claimed_by    text,
    ADD CHECK (bot_side IN (0, 1, 2)),
    ADD CHECK ((bot_side = 0) = (bot_level = 0) AND bot_level BETWEEN 0 AND 8);

-- The bot workers' work list: games in progress with a bot in them (the
-- side to move is read from the position code of these few rows).
CREATE INDEX games_bot_turns ON games (updated_at) WHERE bot_side <> 0 AND state = 2;
