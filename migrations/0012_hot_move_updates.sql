-- A move rewrites the game's row. When no indexed column changes and the
-- row's page has room, PostgreSQL updates it in place (a HOT update) and
-- touches none of the table's indexes; otherwise every index of `games` gets
-- a new entry on every move. Two indexes were keyed by updated_at, which
-- every move changes, so no move was ever a HOT update:
--
-- * the listing of public games in progress is now ordered like the lobby,
--   newest first by creation, so a move no longer reorders it (and a page
--   token no longer skips or repeats a game that moved while a client paged);
-- * the bot workers' list is keyed by game id; the claim still takes the
--   longest-waiting owed move first, sorting the few bot games in progress.
DROP INDEX games_active;
CREATE INDEX games_active ON games (created_at DESC, game_id DESC)
    WHERE state = 2 AND visibility = 2;
DROP INDEX games_bot_turns;
CREATE INDEX games_bot_turns ON games (game_id) WHERE bot_side <> 0 AND state = 2;
-- Room on each page for the updated row (new pages only; existing pages keep
-- their free space as it is until they are rewritten).
ALTER TABLE games SET (fillfactor = 75);
