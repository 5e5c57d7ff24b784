// A small foxgeese client: the REST API typed by the types openapi-typescript
// generated from the server's OpenAPI document (src/openapi.d.ts), plain
// fetch for the calls, and an async generator over the NDJSON watch stream.
import type { components, operations } from "./openapi.js";

type Schemas = components["schemas"];
export type Game = Schemas["foxgeese.v1.Game"];
export type Move = Schemas["foxgeese.v1.Move"];
export type WatchEvent = Schemas["foxgeese.v1.WatchGameResponse"];
export type CreateGameRequest = Schemas["foxgeese.v1.CreateGameRequest"];
type Status = Schemas["google.rpc.Status"];
export type Reason = Schemas["google.rpc.ErrorInfo"]["reason"];

// The JSON body of an operation's 200 response, by operationId.
type Ok<Id extends keyof operations> = operations[Id]["responses"][200]["content"] extends {
    "application/json": infer Body;
}
    ? Body
    : never;

// A refused call, with the ErrorInfo reason to branch on.
export class FoxGeeseError extends Error {
    constructor(
        readonly httpStatus: number,
        readonly reason: Reason | "UNKNOWN",
        message: string,
        readonly metadata: Record<string, string>,
    ) {
        super(`${reason}: ${message}`);
    }
}

async function refusal(response: Response): Promise<FoxGeeseError> {
    const status = (await response.json()) as Status;
    for (const detail of status.details) {
        if (detail["@type"] === "type.googleapis.com/google.rpc.ErrorInfo")
            return new FoxGeeseError(response.status, detail.reason, status.message, detail.metadata);
    }
    return new FoxGeeseError(response.status, "UNKNOWN", status.message, {});
}

export class FoxGeese {
    constructor(private readonly baseUrl: string) {}

    private async call<T>(method: "GET" | "POST", path: string, body?: object, token?: string): Promise<T> {
        const headers: Record<string, string> = {};
        if (body) headers["content-type"] = "application/json";
        // The seat token goes in this header, never in a URL.
        if (token) headers.authorization = `Bearer ${token}`;
        const response = await fetch(this.baseUrl + path, {
            method,
            headers,
            ...(body ? { body: JSON.stringify(body) } : {}),
        });
        if (!response.ok) throw await refusal(response);
        return (await response.json()) as T;
    }

    listVariants(): Promise<Ok<"ListVariants">> {
        return this.call("GET", "/v1/variants");
    }

    // A retry after a lost answer should repeat the same requestId.
    createGame(request: CreateGameRequest): Promise<Ok<"CreateGame">> {
        return this.call("POST", "/v1/games", { requestId: crypto.randomUUID(), ...request });
    }

    joinGame(gameId: string, inviteCode: string): Promise<Ok<"JoinGame">> {
        return this.call("POST", `/v1/games/${encodeURIComponent(gameId)}:join`, {
            inviteCode,
            requestId: crypto.randomUUID(),
        });
    }

    makeMove(gameId: string, move: string, expectedPly: number, token: string): Promise<Ok<"MakeMove">> {
        return this.call(
            "POST",
            `/v1/games/${encodeURIComponent(gameId)}/moves`,
            { move, expectedPly, requestId: crypto.randomUUID() },
            token,
        );
    }

    listMoves(gameId: string): Promise<Ok<"ListMoves">> {
        return this.call("GET", `/v1/games/${encodeURIComponent(gameId)}/moves`);
    }

    // The game's events as they happen: one JSON object per line of the
    // response body. The server ends the stream at the rematch answer, or a
    // while after GameEnded (it stays open for rematch offers); a caller
    // that is done earlier stops iterating, which closes the connection. A
    // caller that wants to survive a broken connection calls again with
    // fromPly set to the last ply it saw.
    async *watchGame(gameId: string, options: { fromPly?: number; token?: string; signal?: AbortSignal } = {}): AsyncGenerator<WatchEvent> {
        const query = options.fromPly === undefined ? "" : `?fromPly=${options.fromPly}`;
        const response = await fetch(`${this.baseUrl}/v1/games/${encodeURIComponent(gameId)}:watch${query}`, {
            headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
            ...(options.signal ? { signal: options.signal } : {}),
        });
        if (!response.ok) throw await refusal(response);
        if (!response.body) return;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffered = "";
        try {
            for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                buffered += value;
                let newline: number;
                while ((newline = buffered.indexOf("\n")) >= 0) {
                    const line = buffered.slice(0, newline);
                    buffered = buffered.slice(newline + 1);
                    if (line.trim()) yield JSON.parse(line) as WatchEvent;
                }
            }
        } finally {
            // Also when the caller stops early: the connection is let go.
            await reader.cancel().catch(() => undefined);
        }
    }
}
