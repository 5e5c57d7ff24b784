-- AnalyzeGame's results: computed once per game and ply, then served from
-- here. A game in progress analysed again after more moves gets a row for
-- its new ply, which replaces the earlier one (a game keeps its latest
-- analysis only); a finished game's ply never changes, so it is analysed once.
CREATE TABLE game_analyses (
    game_id       uuid NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    -- The game's ply the analysis reaches (every move up to it).
    ply           integer NOT NULL,
    -- The search budget of each position, in nodes.
    nodes_per_ply bigint NOT NULL,
    analysed_at   timestamptz NOT NULL,
    -- The serialized foxgeese.v1.AnalyzeGameResponse, returned as it is.
    response      bytea NOT NULL,
    PRIMARY KEY (game_id, ply)
);
