-- Games, their moves (one row per ply) and their repetition history.
-- Every table is keyed by game_id first and no statement touches two games,
-- so the schema can be distributed by game_id when one primary is not enough.
-- Small integer codes (state, result, end_reason, side, visibility) use the
-- numbers of the matching enums in proto/foxgeese/v1.

CREATE TABLE games (
    game_id             uuid PRIMARY KEY,
    variant             text NOT NULL,
    geese_option        smallint,          -- standard only
    geese_sideways      boolean,           -- standard only
    visibility          smallint NOT NULL, -- 1 private, 2 public
    state               smallint NOT NULL, -- 1 waiting, 2 active, 3 finished
    result              smallint NOT NULL DEFAULT 0,
    end_reason          smallint NOT NULL DEFAULT 0,
    start_position      text NOT NULL,
    start_geese         smallint NOT NULL,
    position            text NOT NULL,     -- current position code
    ply                 integer NOT NULL,
    quiet_plies         integer NOT NULL,
    -- Seat tokens and the invite code are stored only as SHA-256 hex digests;
    -- a NULL token hash is an open seat.
    fox_token_hash      text,
    geese_token_hash    text,
    invite_code_hash    text NOT NULL,
    -- SHA-256 of the request_id that took each seat (CreateGame / JoinGame
    -- retries), and of the CreateGame request_id for lookups.
    fox_request_hash    text,
    geese_request_hash  text,
    create_request_hash text,
    draw_offered_by     smallint NOT NULL DEFAULT 0, -- 0 none, 1 fox side, 2 geese
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    finished_at         timestamptz,
    CHECK (state IN (1, 2, 3)),
    CHECK (ply >= 0 AND quiet_plies BETWEEN 0 AND 100)
);

CREATE UNIQUE INDEX games_create_request ON games (create_request_hash)
    WHERE create_request_hash IS NOT NULL;
-- The three lobby listings: open public games, public games in progress,
-- recently finished public games, each newest first.
CREATE INDEX games_open ON games (created_at DESC, game_id DESC)
    WHERE state = 1 AND visibility = 2;
CREATE INDEX games_active ON games (updated_at DESC, game_id DESC)
    WHERE state = 2 AND visibility = 2;
CREATE INDEX games_recent ON games (finished_at DESC, game_id DESC)
    WHERE state = 3 AND visibility = 2;

CREATE TABLE moves (
    game_id      uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    ply          integer NOT NULL,  -- the game's ply after this move
    notation     text NOT NULL,     -- canonical
    side         smallint NOT NULL, -- 1 fox side, 2 geese
    captured     text NOT NULL,     -- points of the captured geese, space-separated
    position     text NOT NULL,     -- position code after the move
    state        smallint NOT NULL,
    result       smallint NOT NULL,
    end_reason   smallint NOT NULL,
    request_hash text,              -- SHA-256 of the client's request_id, if given
    response     bytea,             -- the MakeMove reply as first sent, for retries
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE UNIQUE INDEX moves_request ON moves (game_id, request_hash)
    WHERE request_hash IS NOT NULL;

-- How often each position (placement and side to move) has occurred in a
-- game, and the ply it last occurred at. A capture or a forward goose step
-- makes every earlier position unreachable, so only rows whose last_ply lies
-- within the current quiet-ply window can ever count again.
CREATE TABLE position_occurrences (
    game_id      uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    position_key text NOT NULL,
    occurrences  integer NOT NULL,
    last_ply     integer NOT NULL,
    PRIMARY KEY (game_id, position_key)
);

-- MakeMove reads the rows of the current window only.
CREATE INDEX position_occurrences_window ON position_occurrences (game_id, last_ply);
