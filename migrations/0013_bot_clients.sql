-- Fair bot moves (service/core/bot_moves.h): which client created a bot game,
-- as an opaque key (a digest of its address, never the address itself), so
-- that the bot workers share their time among clients rather than among
-- games, and so that the bot games one client has in progress are bounded.
-- NULL for games without a bot and for those created before this column.
ALTER TABLE games ADD COLUMN bot_client_key text;

-- A client's bot games in progress, counted when it creates one. The key
-- never changes and a move changes neither bot_side nor state (only a
-- game's end does), so moves stay HOT updates (see 0012).
CREATE INDEX games_bot_clients ON games (bot_client_key) WHERE bot_side <> 0 AND state = 2;
