// Following a game live: GET /v1/games/{id}:watch is NDJSON, one
// WatchGameResponse per line, read here with fetch and a stream reader. A
// broken stream is reopened with fromPly (the last ply seen), so the new
// snapshot brings exactly what was missed; 45 s without a line (the server
// sends a heartbeat every 15 s) counts as broken.
import { type Api, type WatchEvent, ApiError, authorization, errorOf } from "./api.js";

export type WatchState = "connecting" | "live" | "reconnecting" | "ended";

export interface WatchHandlers {
    event(event: WatchEvent): void;
    state(state: WatchState): void;
    // The stream was refused (GAME_NOT_FOUND, TOKEN_INVALID, ...); it is
    // not reopened.
    refused(error: ApiError): void;
}

const SILENCE_MS = 45_000;

export class GameWatch {
    private controller: AbortController | null = null;
    private stopped = false;

    constructor(
        private readonly api: Api,
        private readonly gameId: string,
        private readonly token: string | undefined,
        private readonly handlers: WatchHandlers,
        // The last ply the client has already seen, if any: the first
        // snapshot then brings only the moves after it.
        private lastPly?: number,
    ) {}

    start(): void {
        void this.run();
    }

    stop(): void {
        this.stopped = true;
        this.controller?.abort();
    }

    private async run(): Promise<void> {
        let failures = 0;
        while (!this.stopped) {
            this.handlers.state(failures === 0 ? "connecting" : "reconnecting");
            try {
                const finished = await this.follow();
                if (finished) {
                    this.handlers.state("ended");
                    return;
                }
                failures = 0;
            } catch (e) {
                if (this.stopped) return;
                if (e instanceof ApiError && e.httpStatus >= 400 && e.httpStatus < 500) {
                    this.handlers.refused(e);
                    return;
                }
                ++failures;
            }
            // A stream that ended cleanly (a server going away) is reopened
            // at once, elsewhere; failures back off 0.5 s, 1 s, 2 s, ... 10 s.
            const delay = Math.min(10_000, 250 * 2 ** failures);
            await new Promise((resolve) => setTimeout(resolve, delay));
        }
    }

    // One stream, to its end. True when the game ended on it.
    private async follow(): Promise<boolean> {
        const controller = new AbortController();
        this.controller = controller;
        const query = this.lastPly === undefined ? "" : `?fromPly=${this.lastPly}`;
        const response = await fetch(this.api.url(`/v1/games/${encodeURIComponent(this.gameId)}:watch${query}`), {
            headers: { accept: "application/x-ndjson", ...authorization(this.token) },
            signal: controller.signal,
            cache: "no-store",
        });
        if (!response.ok) throw await errorOf(response);
        if (!response.body) throw new Error("the watch response has no body");
        this.handlers.state("live");

        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let silence = setTimeout(() => controller.abort(), SILENCE_MS);
        let buffered = "";
        let ended = false;
        try {
            for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                clearTimeout(silence);
                silence = setTimeout(() => controller.abort(), SILENCE_MS);
                buffered += value;
                let newline: number;
                while ((newline = buffered.indexOf("\n")) >= 0) {
                    const line = buffered.slice(0, newline).trim();
                    buffered = buffered.slice(newline + 1);
                    if (!line) continue;
                    const event = JSON.parse(line) as WatchEvent;
                    const game = event.snapshot?.game ?? event.moveMade?.game ?? event.seatJoined?.game ?? event.gameEnded?.game;
                    if (game) this.lastPly = game.ply;
                    if (event.gameEnded || (event.snapshot && game?.state === "GAME_STATE_FINISHED")) ended = true;
                    this.handlers.event(event);
                }
            }
        } finally {
            clearTimeout(silence);
        }
        return ended;
    }
}
