// A whole game over the REST API: one player creates a table, a second joins
// it with the invite code, a spectator follows it on the NDJSON watch stream,
// and the players alternate moves until the game ends.
//
//   npm run generate && npm run build && npm start -- --server http://localhost:8080
//
// The game starts from a custom position (five geese) so that it ends in
// three plies: a fox step, a goose step, and a double jump that leaves the
// geese below four.
import { FoxGeese, FoxGeeseError, type WatchEvent } from "./foxgeese.js";

const START = "3/F2/7/2G4/G2G2G/3/1G1 f 0 0";
const MOVES = ["c6-c5", "d1-d2", "c5xc3xe3"];

function argument(name: string, fallback: string): string {
    const at = process.argv.indexOf(name);
    return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

// What a spectator sees of one event, as one line.
function describe(event: WatchEvent): string {
    if (event.snapshot) return `snapshot: ${event.snapshot.game?.state} at ply ${event.snapshot.game?.ply}`;
    if (event.presence) {
        // JSON leaves out a zero count.
        const { fox, geese, spectators = 0 } = event.presence;
        return `presence: fox ${fox?.connected ? "online" : "away"}, geese ${geese?.connected ? "online" : "away"}, ${spectators} watching`;
    }
    if (event.seatJoined) return `seatJoined: ${event.seatJoined.seat}`;
    if (event.moveMade) return `moveMade: ${event.moveMade.move?.ply}. ${event.moveMade.move?.notation}`;
    if (event.gameEnded) return `gameEnded: ${event.gameEnded.game?.result} (${event.gameEnded.game?.endReason})`;
    if (event.heartbeat) return "heartbeat";
    return `other: ${Object.keys(event).join(", ")}`;  // a kind added later
}

async function main(): Promise<void> {
    const api = new FoxGeese(argument("--server", process.env.FOXGEESE_URL ?? "http://localhost:8080").replace(/\/+$/, ""));

    const { variants } = await api.listVariants();
    const standard = variants.find((v) => v.name === "standard");
    if (!standard) throw new Error("the server has no standard variant");
    console.log(`variant: ${standard.displayName} (${standard.board?.points.length} points)`);

    // The fox's player creates the table; the link to share carries the game
    // id and the invite code.
    const created = await api.createGame({ variant: "standard", seat: "SEAT_CHOICE_FOX", startPosition: START });
    const gameId = created.game!.gameId;
    console.log(`created: ${gameId} as ${created.seat}, invite ${created.inviteCode}`);

    // A spectator starts watching before the opponent arrives: its first
    // event, the snapshot, says the stream is open, so it misses nothing.
    const seen: string[] = [];
    const see = (event: WatchEvent) => {
        seen.push(describe(event));
        console.log(`  watch ${seen.at(-1)}`);
    };
    const events = api.watchGame(gameId);
    const first = await events.next();
    if (first.done) throw new Error("the watch stream ended at once");
    see(first.value);
    const watching = (async () => {
        for await (const event of events) {
            see(event);
            // Nothing more to follow here (the stream would stay open a
            // while for rematch offers).
            if (event.gameEnded) break;
        }
    })();

    const joined = await api.joinGame(gameId, created.inviteCode);
    console.log(`joined: ${joined.seat}, state ${joined.game!.state}`);

    const tokens = { SIDE_FOX: created.seatToken, SIDE_GEESE: joined.seatToken };
    let game = joined.game!;
    for (const move of MOVES) {
        if (!game.legalMoves.includes(move)) throw new Error(`${move} is not legal here: ${game.legalMoves.join(" ")}`);
        const side = game.sideToMove === "SIDE_FOX" ? "SIDE_FOX" : "SIDE_GEESE";
        const made = await api.makeMove(gameId, move, game.ply, tokens[side]);
        game = made.game!;
        console.log(`move: ${made.move!.ply}. ${made.move!.notation} by ${made.move!.side}`);
    }

    // Moving out of turn is refused with a reason to branch on.
    try {
        await api.makeMove(gameId, "e3-e4", game.ply, tokens.SIDE_FOX);
        throw new Error("a move after the end was accepted");
    } catch (e) {
        if (!(e instanceof FoxGeeseError) || e.reason !== "GAME_OVER") throw e;
        console.log(`refused as expected: ${e.message}`);
    }

    // The spectator stops at GameEnded.
    await watching;
    const replay = await api.listMoves(gameId);
    console.log(`result: ${game.result} (${game.endReason}); replay of ${replay.moves.length} moves`);
    const movesSeen = seen.filter((line) => line.startsWith("moveMade")).length;
    if (movesSeen !== MOVES.length || !seen.at(-1)?.startsWith("gameEnded")) {
        throw new Error(`the watch stream showed ${movesSeen} moves and ended with "${seen.at(-1)}"`);
    }
}

main().catch((e: unknown) => {
    console.error(`play: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
});
