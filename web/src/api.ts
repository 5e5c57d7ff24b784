// The REST API as the client uses it: typed by the OpenAPI document (the
// types openapi-typescript generated at build time), called with fetch.
import type { components } from "./openapi.js";

type Schemas = components["schemas"];
export type Board = Schemas["foxgeese.v1.Board"];
// Message fields may be absent in proto3 JSON; the client checks once, here,
// the ones it cannot do without.
export type Variant = Schemas["foxgeese.v1.Variant"] & { board: Board };
export type Game = Schemas["foxgeese.v1.Game"];
export type Move = Schemas["foxgeese.v1.Move"];
export type EndReason = Schemas["foxgeese.v1.EndReason"];
export type Side = Schemas["foxgeese.v1.Side"];
export type Seat = Schemas["foxgeese.v1.Seat"];
export type SeatChoice = Schemas["foxgeese.v1.SeatChoice"];
export type Presence = Schemas["foxgeese.v1.Presence"];
export type CreateGameRequest = Schemas["foxgeese.v1.CreateGameRequest"];
export type CreateGameResponse = Schemas["foxgeese.v1.CreateGameResponse"] & { game: Game };
export type JoinGameResponse = Schemas["foxgeese.v1.JoinGameResponse"] & { game: Game };
export type SeekGameRequest = Schemas["foxgeese.v1.SeekGameRequest"];
// A seat this device was given: by CreateGame, JoinGame or a pairing.
export interface TakenSeat {
    game: Game;
    seat: Seat;
    seatToken: string;
    inviteCode?: string;
}
export type ListMovesResponse = Schemas["foxgeese.v1.ListMovesResponse"] & { game: Game };
export type WatchEvent = Schemas["foxgeese.v1.WatchGameResponse"];
export type TimeControl = Schemas["foxgeese.v1.TimeControl"];
export type Clocks = Schemas["foxgeese.v1.Clocks"];
export type GameListFilter = Schemas["foxgeese.v1.GameListFilter"];
export type GameOptions = Schemas["foxgeese.v1.GameOptions"];
export type Visibility = Schemas["foxgeese.v1.Visibility"];
export type Score = Schemas["foxgeese.v1.Score"];
export type PlyAnalysis = Schemas["foxgeese.v1.PlyAnalysis"];
export type MoveMark = Schemas["foxgeese.v1.MoveMark"];
export type GameAnalysis = Schemas["foxgeese.v1.AnalyzeGameResponse"];
export type PositionAnalysis = Schemas["foxgeese.v1.AnalyzePositionResponse"];
export type AnalyzePositionRequest = Schemas["foxgeese.v1.AnalyzePositionRequest"];
export type TablebaseAnswer = Schemas["foxgeese.v1.GetTablebaseResponse"];
// A rematch's answer: the caller's seat in the new game, when there is one.
export interface RematchSeat {
    game: Game;
    rematch?: Game;
    seat: Seat;
    seatToken: string;
}
export type ErrorReason = Schemas["google.rpc.ErrorInfo"]["reason"];
type Status = Schemas["google.rpc.Status"];

// A refused call: the HTTP status and the ErrorInfo of the error body.
export class ApiError extends Error {
    constructor(
        readonly httpStatus: number,
        readonly reason: ErrorReason | "NETWORK" | "UNEXPECTED_RESPONSE",
        message: string,
        readonly metadata: Record<string, string> = {},
    ) {
        super(message);
    }
}

// The API's base URL: `?api=https://api.example.com` on the page's URL, else
// the page's <meta name="foxgeese-api">, else the page's own origin.
export function apiBase(): string {
    const fromQuery = new URLSearchParams(location.search).get("api");
    const fromMeta = document.querySelector<HTMLMetaElement>('meta[name="foxgeese-api"]')?.content;
    return (fromQuery || fromMeta || "").replace(/\/+$/, "");
}

// A random UUIDv4 for request ids. crypto.randomUUID needs a secure context;
// getRandomValues works on plain http too.
export function uuid4(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function authorization(token: string | undefined): Record<string, string> {
    return token ? { authorization: `Bearer ${token}` } : {};
}

// A message field the client needs, or UNEXPECTED_RESPONSE.
function present<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new ApiError(200, "UNEXPECTED_RESPONSE", `the response has no ${what}`);
    return value;
}

// The ApiError of a response that is not 2xx.
export async function errorOf(response: Response): Promise<ApiError> {
    try {
        const status = (await response.json()) as Status;
        for (const detail of status.details) {
            if (detail["@type"] === "type.googleapis.com/google.rpc.ErrorInfo") {
                return new ApiError(response.status, detail.reason, status.message, detail.metadata);
            }
        }
        return new ApiError(response.status, "UNEXPECTED_RESPONSE", status.message);
    } catch {
        return new ApiError(response.status, "UNEXPECTED_RESPONSE", `HTTP ${response.status}`);
    }
}

export class Api {
    constructor(private readonly base: string) {}

    url(path: string): string {
        return this.base + path;
    }

    private async call<T>(method: "GET" | "POST", path: string, body?: unknown, token?: string, signal?: AbortSignal): Promise<T> {
        let response: Response;
        try {
            response = await fetch(this.url(path), {
                method,
                headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...authorization(token) },
                body: body === undefined ? null : JSON.stringify(body),
                signal: signal ?? null,
            });
        } catch (e) {
            throw new ApiError(0, "NETWORK", `cannot reach the server: ${String(e)}`);
        }
        if (!response.ok) throw await errorOf(response);
        return (await response.json()) as T;
    }

    // The variants with their names, rules and option texts in `language`.
    async listVariants(language: string): Promise<Variant[]> {
        const reply = await this.call<Schemas["foxgeese.v1.ListVariantsResponse"]>(
            "GET", `/v1/variants?language=${encodeURIComponent(language)}`);
        return reply.variants.map((v) => ({ ...v, board: present(v.board, `board of ${v.name}`) }));
    }

    async createGame(request: CreateGameRequest): Promise<CreateGameResponse> {
        const reply = await this.call<Schemas["foxgeese.v1.CreateGameResponse"]>("POST", "/v1/games", { ...request, requestId: uuid4() });
        return { ...reply, game: present(reply.game, "game") };
    }

    // Quick pairing, a long poll of up to the wait (20 s by default): the
    // seat of the game when someone asked for the same, undefined when
    // nobody came. Aborting `signal` closes the request: the server then
    // withdraws the seek.
    async seekGame(request: SeekGameRequest, signal: AbortSignal): Promise<TakenSeat | undefined> {
        const reply = await this.call<Schemas["foxgeese.v1.SeekGameResponse"]>("POST", "/v1/games:seek", request, undefined, signal);
        if (reply.result !== "SEEK_RESULT_PAIRED") return undefined;
        return { game: present(reply.game, "game"), seat: reply.seat, seatToken: reply.seatToken };
    }

    async joinGame(gameId: string, inviteCode: string): Promise<JoinGameResponse> {
        const reply = await this.call<Schemas["foxgeese.v1.JoinGameResponse"]>(
            "POST", `/v1/games/${encodeURIComponent(gameId)}:join`, { inviteCode, requestId: uuid4() });
        return { ...reply, game: present(reply.game, "game") };
    }

    async getGame(gameId: string): Promise<Game> {
        const reply = await this.call<Schemas["foxgeese.v1.GetGameResponse"]>("GET", `/v1/games/${encodeURIComponent(gameId)}`);
        return present(reply.game, "game");
    }

    async makeMove(gameId: string, move: string, expectedPly: number, token: string): Promise<Game> {
        const reply = await this.call<Schemas["foxgeese.v1.MakeMoveResponse"]>(
            "POST", `/v1/games/${encodeURIComponent(gameId)}/moves`, { move, expectedPly, requestId: uuid4() }, token);
        return present(reply.game, "game");
    }

    async listMoves(gameId: string): Promise<ListMovesResponse> {
        const reply = await this.call<Schemas["foxgeese.v1.ListMovesResponse"]>("GET", `/v1/games/${encodeURIComponent(gameId)}/moves`);
        return { ...reply, game: present(reply.game, "game") };
    }

    async resign(gameId: string, token: string): Promise<Game> {
        return this.seatAction<Schemas["foxgeese.v1.ResignGameResponse"]>(gameId, "resign", {}, token);
    }

    async offerDraw(gameId: string, token: string): Promise<Game> {
        return this.seatAction<Schemas["foxgeese.v1.OfferDrawResponse"]>(gameId, "offerDraw", {}, token);
    }

    async respondDraw(gameId: string, accept: boolean, token: string): Promise<Game> {
        return this.seatAction<Schemas["foxgeese.v1.RespondDrawResponse"]>(gameId, "respondDraw", { accept }, token);
    }

    async abort(gameId: string, token: string): Promise<Game> {
        return this.seatAction<Schemas["foxgeese.v1.AbortGameResponse"]>(gameId, "abort", {}, token);
    }

    async cancel(gameId: string, token: string): Promise<Game> {
        return this.seatAction<Schemas["foxgeese.v1.CancelGameResponse"]>(gameId, "cancel", {}, token);
    }

    // Refused with OPPONENT_PRESENT while the opponent is here or not gone
    // long enough; its metadata "claimable_at" says from when a claim works.
    async claimVictory(gameId: string, draw: boolean, token: string): Promise<Game> {
        return this.seatAction<Schemas["foxgeese.v1.ClaimVictoryResponse"]>(gameId, "claimVictory", { draw }, token);
    }

    async offerRematch(gameId: string, token: string): Promise<RematchSeat> {
        const reply = await this.call<Schemas["foxgeese.v1.OfferRematchResponse"]>(
            "POST", `/v1/games/${encodeURIComponent(gameId)}:offerRematch`, {}, token);
        return { ...reply, game: present(reply.game, "game") };
    }

    async respondRematch(gameId: string, accept: boolean, token: string): Promise<RematchSeat> {
        const reply = await this.call<Schemas["foxgeese.v1.RespondRematchResponse"]>(
            "POST", `/v1/games/${encodeURIComponent(gameId)}:respondRematch`, { accept }, token);
        return { ...reply, game: present(reply.game, "game") };
    }

    async joinRematch(gameId: string, token: string): Promise<JoinGameResponse> {
        const reply = await this.call<Schemas["foxgeese.v1.JoinRematchResponse"]>(
            "POST", `/v1/games/${encodeURIComponent(gameId)}:joinRematch`, {}, token);
        return { ...reply, game: present(reply.game, "game") };
    }

    async listGames(filter: GameListFilter, pageSize: number): Promise<Game[]> {
        const query = new URLSearchParams({ filter, pageSize: String(pageSize) });
        const reply = await this.call<Schemas["foxgeese.v1.ListGamesResponse"]>("GET", `/v1/games?${query}`);
        return reply.games;
    }

    // Where ExportGame's text record of a game is (a link can download it).
    recordUrl(gameId: string): string {
        return this.url(`/v1/games/${encodeURIComponent(gameId)}/record`);
    }

    // A game's share page (its card tags show the picture in a chat) and
    // its pictures: the position at a ply as PNG, the whole game as a GIF
    // (docs/previews.md).
    sharePageUrl(gameId: string): string {
        return this.url(`/g/${encodeURIComponent(gameId)}`);
    }

    pictureUrl(gameId: string, ply: number): string {
        return this.url(`/v1/games/${encodeURIComponent(gameId)}/image.png?ply=${ply}&size=large`);
    }

    animationUrl(gameId: string): string {
        return this.url(`/v1/games/${encodeURIComponent(gameId)}/animation.gif`);
    }

    async importGame(record: string, visibility: Visibility): Promise<Game> {
        const reply = await this.call<Schemas["foxgeese.v1.ImportGameResponse"]>("POST", "/v1/games:import", { record, visibility });
        return present(reply.game, "game");
    }

    async analyzeGame(gameId: string): Promise<GameAnalysis> {
        return this.call<GameAnalysis>("POST", `/v1/games/${encodeURIComponent(gameId)}:analyze`, {});
    }

    async analyzePosition(request: AnalyzePositionRequest): Promise<PositionAnalysis> {
        return this.call<PositionAnalysis>("POST", "/v1/positions:analyze", request);
    }

    // A position's value and every move's in the tablebase (standard,
    // forward-only geese); the request's fields go in the query.
    async getTablebase(variant: string, options: GameOptions, position: string): Promise<TablebaseAnswer> {
        const query = new URLSearchParams({ variant, position });
        if (options.geese !== undefined) query.set("options.geese", String(options.geese));
        if (options.geeseSideways !== undefined) query.set("options.geeseSideways", String(options.geeseSideways));
        return this.call<TablebaseAnswer>("GET", `/v1/tablebase?${query.toString()}`);
    }

    // The calls that act for a seat and answer with the game.
    private async seatAction<T extends { game?: Game }>(gameId: string, action: string, body: object, token: string): Promise<Game> {
        const reply = await this.call<T>("POST", `/v1/games/${encodeURIComponent(gameId)}:${action}`, body, token);
        return present(reply.game, "game");
    }
}
