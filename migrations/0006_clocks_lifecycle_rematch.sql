-- Time controls and clocks, the game's own deadline (a clock that runs out,
-- a first move not made, an open game nobody joined), and rematches.
ALTER TABLE games
    -- 0 none, 1 real time, 2 correspondence (foxgeese.v1.TimeControl).
    ADD COLUMN time_control   smallint NOT NULL DEFAULT 0,
    ADD COLUMN initial_ms     bigint NOT NULL DEFAULT 0,   -- real time: each side's start
    ADD COLUMN increment_ms   bigint NOT NULL DEFAULT 0,   -- real time: added after each move
    ADD COLUMN move_period_ms bigint NOT NULL DEFAULT 0,   -- correspondence: the time per move
    ADD COLUMN first_move_ms  bigint NOT NULL DEFAULT 0,   -- each side's first-move deadline
    -- Time left on each side's clock when its turn last began.
    ADD COLUMN fox_clock_ms   bigint NOT NULL DEFAULT 0,
    ADD COLUMN geese_clock_ms bigint NOT NULL DEFAULT 0,
    ADD COLUMN start_ply      integer NOT NULL DEFAULT 0,  -- ply of the start position
    -- When the side to move began to think (the commit of the opponent's
    -- move, or the game's start).
    ADD COLUMN turn_started_at timestamptz,
    -- When the game ends by itself unless someone acts: the side to move's
    -- flag or first-move deadline, or an open game's expiry. NULL: never.
    ADD COLUMN deadline_at    timestamptz,
    -- After the game: who offered a rematch (0 none, 1 fox side, 2 geese),
    -- the rematch once accepted, and the game this one is a rematch of.
    ADD COLUMN rematch_offered_by smallint NOT NULL DEFAULT 0,
    ADD COLUMN rematch_game_id    uuid,
    ADD COLUMN rematch_of_game_id uuid,
    -- A rematch's seats are kept for the finished game's seat holders: the
    -- SHA-256 of their old token, until they take the seat (JoinRematch).
    ADD COLUMN fox_reserved_hash   text,
    ADD COLUMN geese_reserved_hash text,
    ADD CHECK (time_control IN (0, 1, 2));

-- The sweeper's work list: games whose deadline has passed.
CREATE INDEX games_deadline ON games (deadline_at) WHERE deadline_at IS NOT NULL;

-- Replay shows how long each move took and the clocks after it.
ALTER TABLE moves
    ADD COLUMN think_ms       bigint,
    ADD COLUMN fox_clock_ms   bigint,
    ADD COLUMN geese_clock_ms bigint;
