-- Readiness writes here: a read alone would pass while commits hang (a
-- synchronous standby gone, a full disk), so each replica commits a tiny
-- write of its own row every second. One row per replica, so that replicas
-- never wait on each other's probes; rows of replicas gone a day are pruned.
CREATE TABLE readiness_probes (
    server_id text PRIMARY KEY,
    probed_at timestamptz NOT NULL
);
