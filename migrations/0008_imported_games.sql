-- Games imported from text records (ImportGame): played elsewhere, stored
-- finished with no seats and no clock. The record's own time control and
-- dates are kept as it gave them, so that ExportGame writes the record back;
-- the game's created_at and finished_at say when it was imported.
ALTER TABLE games
    ADD COLUMN imported            boolean NOT NULL DEFAULT false,
    ADD COLUMN record_time_control text,        -- the TimeControl tag; NULL for "-"
    ADD COLUMN record_created_at   timestamptz, -- the Created tag, if any
    ADD COLUMN record_ended_at     timestamptz; -- the Ended tag, if any

-- A move's comment from the record it was imported from.
ALTER TABLE moves ADD COLUMN comment text;

-- The listing of public imported games, most recently imported first.
CREATE INDEX games_imported ON games (created_at DESC, game_id DESC)
    WHERE imported AND visibility = 2;
