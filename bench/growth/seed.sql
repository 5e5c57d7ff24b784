-- Seeds a foxgeese database with many finished public games, each a copy of
-- one game already in it (the template: the game with the most moves), its
-- moves and its watch events repeated to :moves plies. Fresh ids, token
-- hashes and times, so every index grows as real traffic would grow it.
--
--   psql -v games=1000000 -v moves=30 -f bench/growth/seed.sql
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET synchronous_commit = off;  -- a seed, not a move: durability per row is not the point
SET maintenance_work_mem = '512MB';
-- The seeded rows reference games inserted just before them: skip the
-- foreign-key triggers, a lookup per row (needs a superuser, as the embedded
-- cluster's role is).
SET session_replication_role = replica;

CREATE TEMP TABLE template_game AS
    SELECT * FROM games WHERE ply > 0 ORDER BY ply DESC LIMIT 1;
CREATE TEMP TABLE template_moves AS
    SELECT m.*, row_number() OVER (ORDER BY m.ply) AS k
    FROM moves m JOIN template_game t USING (game_id);
CREATE TEMP TABLE template_events AS
    SELECT e.*, row_number() OVER (ORDER BY e.seq) AS k
    FROM game_events e JOIN template_game t USING (game_id);
-- Random ids, as gen_random_uuid gives them to real games; the rows go in
-- sorted by key, so that each index takes them in one sweep instead of a
-- random page per row (the point is the size reached, not how it got there).
CREATE TEMP TABLE seeded AS
    SELECT gen_random_uuid() AS game_id, n,
           now() - make_interval(secs => (:games - n) * 10) AS created_at
    FROM generate_series(1, :games) AS n;
SET work_mem = '256MB';

-- LATERAL, not (jsonb_populate_record(...)).*, which would call the
-- function once per column.
INSERT INTO games
SELECT r.*
FROM seeded s
CROSS JOIN template_game t
CROSS JOIN LATERAL jsonb_populate_record(NULL::games, to_jsonb(t) || jsonb_build_object(
        'game_id', s.game_id,
        'visibility', 2, 'state', 3, 'result', 1, 'end_reason', 1,
        'ply', :moves, 'event_seq', :moves,
        'fox_token_hash', encode(sha256(convert_to(s.game_id::text || 'f', 'UTF8')), 'hex'),
        'geese_token_hash', encode(sha256(convert_to(s.game_id::text || 'g', 'UTF8')), 'hex'),
        'invite_code_hash', encode(sha256(convert_to(s.game_id::text || 'i', 'UTF8')), 'hex'),
        'created_at', s.created_at,
        'updated_at', s.created_at + interval '5 minutes',
        'finished_at', s.created_at + interval '5 minutes')) AS r
ORDER BY s.game_id;

-- Move k of every game is the template's move ((k - 1) mod its count) + 1.
INSERT INTO moves (game_id, ply, notation, side, captured, position, state, result,
                   end_reason, created_at, think_ms, fox_clock_ms, geese_clock_ms)
SELECT s.game_id, k.ply, m.notation, m.side, m.captured, m.position, m.state, m.result,
       m.end_reason, s.created_at + make_interval(secs => k.ply * 5), m.think_ms,
       m.fox_clock_ms, m.geese_clock_ms
FROM seeded s
CROSS JOIN generate_series(1, :moves) AS k(ply)
JOIN template_moves m ON m.k = (k.ply - 1) % (SELECT count(*) FROM template_moves) + 1
ORDER BY s.game_id, k.ply;

INSERT INTO game_events (game_id, seq, body, created_at)
SELECT s.game_id, k.seq, e.body, s.created_at + make_interval(secs => k.seq * 5)
FROM seeded s
CROSS JOIN generate_series(1, :moves) AS k(seq)
JOIN template_events e ON e.k = (k.seq - 1) % (SELECT count(*) FROM template_events) + 1
ORDER BY s.game_id, k.seq;

VACUUM ANALYZE games;
VACUUM ANALYZE moves;
VACUUM ANALYZE game_events;
-- Written out now, not by the checkpointer during the next measurement.
CHECKPOINT;
