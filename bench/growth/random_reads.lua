-- wrk script for bench/growth.sh: GET one of the games listed in the file
-- named by $GAME_IDS, chosen at random per request, with $READ_SUFFIX after
-- its id ("" for GetGame, "/moves" for ListMoves). Prints one key=value line.
local ids = {}
for line in io.lines(os.getenv("GAME_IDS")) do
    if #line > 0 then ids[#ids + 1] = line end
end
local suffix = os.getenv("READ_SUFFIX") or ""

request = function()
    return wrk.format("GET", "/v1/games/" .. ids[math.random(#ids)] .. suffix)
end

done = function(summary, latency, requests)
    io.write(string.format("rate=%.1f median_ms=%.3f p99_ms=%.3f errors=%d\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, summary.errors.status + summary.errors.read +
        summary.errors.connect + summary.errors.timeout))
end
