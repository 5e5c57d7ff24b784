-- Two things readers used to parse out of text are columns now.
--
-- games.side_to_move: the side to move (1 fox side, 2 geese), for the bot
-- workers' statements, which read it for every bot game in progress. It is
-- generated from the position code, so that every write keeps it current,
-- a server of the previous release's included during a roll, and the games
-- stored before it have it at once (adding it rewrites the table once). It
-- is in no index: a move stays a HOT update (see 0012).
ALTER TABLE games ADD COLUMN side_to_move smallint
    GENERATED ALWAYS AS (CASE split_part(position, ' ', 2) WHEN 'g' THEN 2 ELSE 1 END) STORED;

-- game_events.kind: which event a recorded WatchGameResponse is (the number
-- of its field in the `event` oneof), so that the watch hub knows whether it
-- ends a stream without parsing it. NULL for the events recorded before
-- this release, and by servers of the previous release during a roll: the
-- hub reads those from their body.
ALTER TABLE game_events ADD COLUMN kind smallint;
