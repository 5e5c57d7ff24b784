// The reference web client: create a table and share its link, join from
// the link, play by clicking, follow the game live with presence, replay it.
// Plain DOM and SVG; the page's URL says what it shows:
//   (no hash)                      the "new table" form
//   #game=<id>&invite=<code>       a game (the share link)
import { Api, ApiError, apiBase, type EndReason, type Game, type Move, type Presence, type Seat, type SeatChoice, type Side, type Variant, type WatchEvent } from "./api.js";
import { drawBoard, piecesOf, type Marks } from "./board.js";
import { MoveEntry } from "./moves.js";
import { GameWatch, type WatchState } from "./watch.js";

const api = new Api(apiBase());
let variants: Variant[] = [];
let view: GameView | null = null;

function $<T extends HTMLElement = HTMLElement>(id: string): T {
    const node = document.getElementById(id);
    if (!node) throw new Error(`the page has no #${id}`);
    return node as T;
}
const boardSvg = () => document.getElementById("board") as unknown as SVGSVGElement;

function showError(error: unknown): void {
    const text = error instanceof ApiError ? `${error.reason}: ${error.message}` : String(error);
    $("error").textContent = text;
}
function clearError(): void {
    $("error").textContent = "";
}

// --- seats held on this device ------------------------------------------
// The seat token is shown once; keep it for the life of the game (the proto
// asks clients to store it on the device), never in a URL.

interface HeldSeat {
    seat: Seat;
    token: string;
}
const seatKey = (gameId: string) => `foxgeese.seat.${gameId}`;

function heldSeat(gameId: string): HeldSeat | undefined {
    const stored = localStorage.getItem(seatKey(gameId));
    return stored ? (JSON.parse(stored) as HeldSeat) : undefined;
}
function holdSeat(gameId: string, seat: HeldSeat): void {
    localStorage.setItem(seatKey(gameId), JSON.stringify(seat));
}
function forgetSeat(gameId: string): void {
    localStorage.removeItem(seatKey(gameId));
}

// --- words ------------------------------------------------------------------

function sideName(side: Side, variant: Variant | undefined): string {
    if (side === "SIDE_FOX") return variant && variant.foxCount > 1 ? "the foxes" : "the fox";
    return "the geese";
}

// Every reason a finished game can have: the compiler fails here when the
// API gains one.
const endReasons: Record<Exclude<EndReason, "END_REASON_UNSPECIFIED">, string> = {
    END_REASON_GEESE_BELOW_THRESHOLD: "too few geese are left",
    END_REASON_PEN_FILLED: "the geese filled the pen",
    END_REASON_NO_LEGAL_MOVE: "the side to move had no legal move",
    END_REASON_THREEFOLD_REPETITION: "the same position occurred three times",
    END_REASON_FIFTY_MOVE_RULE: "100 plies passed without a capture or a goose advancing",
    END_REASON_RESIGNATION: "by resignation",
    END_REASON_DRAW_AGREED: "a draw was agreed",
    END_REASON_TIMEOUT: "the side to move ran out of time",
    END_REASON_ABORTED: "aborted before both sides had moved",
    END_REASON_OPPONENT_LEFT: "the other side left and did not come back",
    END_REASON_CANCELLED: "cancelled before anyone joined",
    END_REASON_EXPIRED: "nobody joined in time",
    END_REASON_UNFINISHED: "the imported record stops here",
};

function resultText(game: Game, variant: Variant | undefined): string {
    const why = game.endReason === "END_REASON_UNSPECIFIED" ? "" : endReasons[game.endReason];
    if (game.result === "GAME_RESULT_DRAW") return `Draw: ${why}.`;
    // Aborted, cancelled, expired or an unfinished record: nobody won.
    if (game.result !== "GAME_RESULT_FOX_SIDE_WINS" && game.result !== "GAME_RESULT_GEESE_WIN")
        return `Game over, no result: ${why}.`;
    const winner = game.result === "GAME_RESULT_FOX_SIDE_WINS" ? sideName("SIDE_FOX", variant) : sideName("SIDE_GEESE", variant);
    return `Game over: ${winner} ${winner === "the fox" ? "wins" : "win"} (${why}).`;
}

// --- the new-table form -------------------------------------------------------

function selectedVariant(): Variant | undefined {
    return variants.find((v) => v.name === $<HTMLSelectElement>("variant").value);
}

function renderNewGame(): void {
    const variant = selectedVariant();
    if (!variant) return;
    $("variant-summary").textContent = variant.summary;
    const options = $("options");
    options.replaceChildren();
    for (const option of variant.options) {
        const label = document.createElement("label");
        label.title = option.description;
        if (option.kind === "OPTION_KIND_INT") {
            const select = document.createElement("select");
            select.id = `option-${option.name}`;
            for (const value of option.allowedValues) {
                const item = new Option(String(value), String(value), false, value === option.defaultInt);
                select.append(item);
            }
            label.append(`${option.description} `, select);
        } else {
            const box = document.createElement("input");
            box.type = "checkbox";
            box.id = `option-${option.name}`;
            box.checked = option.defaultBool;
            label.append(box, ` ${option.description}`);
        }
        options.append(label);
    }
    // The preview shows the custom start if one is typed, else the variant's.
    const code = $<HTMLInputElement>("start-position").value.trim() || variant.startPosition;
    drawBoard(boardSvg(), variant.board, variant.pen, piecesOf(code, variant.board));
}

async function createGame(): Promise<void> {
    const variant = selectedVariant();
    if (!variant) return;
    clearError();
    const options: { geese?: number; geeseSideways?: boolean } = {};
    for (const option of variant.options) {
        const input = document.getElementById(`option-${option.name}`) as HTMLInputElement | HTMLSelectElement | null;
        if (!input) continue;
        if (option.name === "geese") options.geese = Number(input.value);
        if (option.name === "geese_sideways") options.geeseSideways = (input as HTMLInputElement).checked;
    }
    try {
        const created = await api.createGame({
            variant: variant.name,
            options,
            startPosition: $<HTMLInputElement>("start-position").value.trim(),
            seat: $<HTMLSelectElement>("seat").value as SeatChoice,
            visibility: $<HTMLInputElement>("public").checked ? "VISIBILITY_PUBLIC" : "VISIBILITY_PRIVATE",
        });
        holdSeat(created.game.gameId, { seat: created.seat, token: created.seatToken });
        location.hash = `game=${encodeURIComponent(created.game.gameId)}&invite=${encodeURIComponent(created.inviteCode)}`;
    } catch (e) {
        showError(e);
    }
}

// --- one game -----------------------------------------------------------------

interface Replay {
    start: string;
    moves: Move[];
    index: number;  // plies shown: 0 is the start
}

class GameView {
    private game!: Game;
    private variant: Variant | undefined;
    private seat: HeldSeat | undefined;
    private moves: Move[] = [];
    private presence: Presence | undefined;
    private entry = new MoveEntry([]);
    private watch: GameWatch | null = null;
    private replay: Replay | null = null;
    private busy = false;
    private note = "";

    constructor(private readonly gameId: string, private readonly invite: string) {
        this.seat = heldSeat(gameId);
    }

    async open(): Promise<void> {
        try {
            const replay = await api.listMoves(this.gameId);
            this.moves = replay.moves;
            this.setGame(replay.game);
        } catch (e) {
            showError(e);
            return;
        }
        this.follow();
    }

    close(): void {
        this.watch?.stop();
    }

    // (Re)opens the live stream, with the seat token if this device holds a
    // seat, so the opponent sees it connected.
    private follow(): void {
        this.watch?.stop();
        this.watch = new GameWatch(api, this.gameId, this.seat?.token, {
            event: (event) => this.onEvent(event),
            state: (state) => this.onWatchState(state),
            refused: (error) => {
                if (error.reason === "TOKEN_INVALID" && this.seat) {
                    // Replaced by a retry elsewhere, or another server's data:
                    // this device is a spectator here now.
                    forgetSeat(this.gameId);
                    this.seat = undefined;
                    this.follow();
                    return;
                }
                showError(error);
            },
        }, this.game.ply);
        this.watch.start();
    }

    private onWatchState(state: WatchState): void {
        const text = { connecting: "connecting…", live: "live", reconnecting: "reconnecting…", ended: "" }[state];
        $("connection").textContent = text;
        $("connection").dataset.state = state;
    }

    private onEvent(event: WatchEvent): void {
        if (event.snapshot?.game) {
            this.addMoves(event.snapshot.moves);
            this.setGame(event.snapshot.game);
        } else if (event.moveMade?.game) {
            if (event.moveMade.move) this.addMoves([event.moveMade.move]);
            this.setGame(event.moveMade.game);
        } else if (event.seatJoined?.game) {
            this.setGame(event.seatJoined.game);
        } else if (event.gameEnded?.game) {
            this.setGame(event.gameEnded.game);
        } else if (event.drawOffered) {
            this.game.drawOfferedBy = event.drawOffered.by;
            this.note = `${sideName(event.drawOffered.by, this.variant)} offered a draw.`;
            this.render();
        } else if (event.drawAnswered) {
            this.game.drawOfferedBy = "SIDE_UNSPECIFIED";
            this.note = event.drawAnswered.accepted ? "The draw was accepted." : `${sideName(event.drawAnswered.by, this.variant)} declined the draw.`;
            this.render();
        } else if (event.presence) {
            this.presence = event.presence;
            this.render();
        }
        // Heartbeats, and kinds this client does not know, change nothing.
    }

    private addMoves(moves: readonly Move[]): void {
        for (const move of moves) {
            if (move.ply > (this.moves.at(-1)?.ply ?? -1)) this.moves.push(move);
        }
    }

    // Takes a newer view of the game (from a reply or an event; either may
    // arrive first), ignoring older ones.
    private setGame(game: Game): void {
        if (this.game && game.ply < this.game.ply) return;
        const moved = !this.game || game.ply !== this.game.ply || game.state !== this.game.state;
        this.game = game;
        this.variant = variants.find((v) => v.name === game.variant);
        if (moved) this.entry = new MoveEntry(game.legalMoves);
        this.render();
    }

    // The side this device moves for now, if any.
    private mySide(): Side | undefined {
        switch (this.seat?.seat) {
            case "SEAT_FOX":
                return "SIDE_FOX";
            case "SEAT_GEESE":
                return "SIDE_GEESE";
            case "SEAT_BOTH":
                return this.game.sideToMove;
            default:
                return undefined;
        }
    }

    private myTurn(): boolean {
        return this.game.state === "GAME_STATE_ACTIVE" && this.mySide() === this.game.sideToMove && !this.replay && !this.busy;
    }

    shareLink(): string {
        return `${location.origin}${location.pathname}${location.search}#game=${encodeURIComponent(this.gameId)}&invite=${encodeURIComponent(this.invite)}`;
    }

    // --- actions ------------------------------------------------------------

    click(point: string): void {
        if (!this.myTurn()) return;
        const result = this.entry.click(point);
        if (result.kind === "move") void this.send(result.notation);
        else if (result.kind === "path") this.render();
    }

    private async act(action: () => Promise<Game>): Promise<void> {
        clearError();
        this.busy = true;
        this.render();
        try {
            this.setGame(await action());
        } catch (e) {
            showError(e);
            // Someone moved first: show the board as it is now.
            if (e instanceof ApiError && e.reason === "PLY_MISMATCH") this.setGame(await api.getGame(this.gameId));
        } finally {
            this.busy = false;
            this.entry.reset();
            this.render();
        }
    }

    private send(notation: string): Promise<void> {
        const token = this.seat?.token ?? "";
        return this.act(() => api.makeMove(this.gameId, notation, this.game.ply, token));
    }

    async join(): Promise<void> {
        clearError();
        try {
            const joined = await api.joinGame(this.gameId, this.invite);
            this.seat = { seat: joined.seat, token: joined.seatToken };
            holdSeat(this.gameId, this.seat);
            this.setGame(joined.game);
            this.follow();
        } catch (e) {
            showError(e);
        }
    }

    offerDraw(): Promise<void> {
        this.note = "You offered a draw.";
        return this.act(() => api.offerDraw(this.gameId, this.seat?.token ?? ""));
    }

    respondDraw(accept: boolean): Promise<void> {
        return this.act(() => api.respondDraw(this.gameId, accept, this.seat?.token ?? ""));
    }

    resign(): Promise<void> {
        return this.act(() => api.resign(this.gameId, this.seat?.token ?? ""));
    }

    async startReplay(): Promise<void> {
        try {
            const replay = await api.listMoves(this.gameId);
            this.replay = { start: replay.startPosition, moves: replay.moves, index: replay.moves.length };
            this.render();
        } catch (e) {
            showError(e);
        }
    }

    stepReplay(to: number | "end"): void {
        if (!this.replay) return;
        const last = this.replay.moves.length;
        this.replay.index = Math.max(0, Math.min(last, to === "end" ? last : to));
        this.render();
    }

    replayIndex(): number {
        return this.replay?.index ?? 0;
    }

    endReplay(): void {
        this.replay = null;
        this.render();
    }

    // --- drawing ------------------------------------------------------------

    render(): void {
        const game = this.game;
        const variant = this.variant;
        $("new-game").hidden = true;
        $("game-view").hidden = false;
        if (!variant) return;

        let marks: Marks;
        let position: string;
        if (this.replay) {
            const shown = this.replay.moves[this.replay.index - 1];
            position = shown?.position ?? this.replay.start;
            marks = shown ? { lastMove: shown } : {};
        } else {
            position = game.position;
            const mine = this.myTurn();
            marks = {
                selectable: mine && this.entry.current().length === 0 ? this.entry.origins() : [],
                path: this.entry.current(),
                targets: this.entry.targets(),
            };
            if (game.lastMove) marks.lastMove = game.lastMove;
        }
        drawBoard(boardSvg(), variant.board, variant.pen, piecesOf(position, variant.board), marks);

        $("variant-name").textContent = variant.displayName;
        $("status").textContent = this.statusText();
        $("note").textContent = this.note;

        const waiting = game.state === "GAME_STATE_WAITING";
        $("share").hidden = !(this.seat && waiting);
        $<HTMLInputElement>("share-link").value = this.shareLink();
        $("join").hidden = !(!this.seat && waiting);

        for (const side of ["fox", "geese"] as const) {
            const taken = side === "fox" ? game.foxSeatTaken : game.geeseSeatTaken;
            const connected = this.presence?.[side]?.connected ?? false;
            const node = $(`presence-${side}`);
            node.dataset.connected = String(connected);
            node.textContent = `${side === "fox" ? "Fox" : "Geese"}: ${!taken ? "open seat" : connected ? "online" : "away"}`;
        }

        const active = game.state === "GAME_STATE_ACTIVE" && !!this.seat && !this.replay;
        const offeredBy = game.drawOfferedBy;
        const offerToMe = active && offeredBy !== "SIDE_UNSPECIFIED" && (this.seat?.seat === "SEAT_BOTH" || offeredBy !== this.mySeatSide());
        $("draw-offer").hidden = !offerToMe;
        $<HTMLButtonElement>("offer-draw").hidden = !active || offerToMe;
        $<HTMLButtonElement>("resign").hidden = !active;
        for (const id of ["offer-draw", "resign", "accept-draw", "decline-draw"]) $<HTMLButtonElement>(id).disabled = this.busy;
        $("replay").hidden = game.state !== "GAME_STATE_FINISHED" || !!this.replay;

        $("replay-controls").hidden = !this.replay;
        const moves = this.replay?.moves ?? this.moves;
        if (this.replay) $("replay-ply").textContent = `${this.replay.index} / ${moves.length}`;
        const list = $("move-list");
        list.replaceChildren(...moves.map((move, i) => {
            const item = document.createElement("li");
            item.textContent = move.notation;
            item.dataset.ply = String(i + 1);
            if (this.replay && this.replay.index === i + 1) item.className = "current";
            return item;
        }));
    }

    private mySeatSide(): Side | undefined {
        return this.seat?.seat === "SEAT_FOX" ? "SIDE_FOX" : this.seat?.seat === "SEAT_GEESE" ? "SIDE_GEESE" : undefined;
    }

    private statusText(): string {
        const game = this.game;
        const toMove = sideName(game.sideToMove, this.variant);
        if (this.replay) return `Replay: ${this.replay.index === 0 ? "the start" : `after ply ${this.replay.index}`}.`;
        if (game.state === "GAME_STATE_FINISHED") return resultText(game, this.variant);
        if (game.state === "GAME_STATE_WAITING") {
            return this.seat ? "Waiting for an opponent: send them the link." : "A seat is open: join to play.";
        }
        if (this.busy) return "Sending…";
        if (this.myTurn()) {
            return this.entry.current().length > 1 && this.entry.complete()
                ? "Jump on, or click the piece again to stop here."
                : `Your move (${toMove}).`;
        }
        return this.seat ? `Waiting for ${toMove}.` : `${toMove[0]!.toUpperCase()}${toMove.slice(1)} to move.`;
    }
}

// --- wiring -------------------------------------------------------------------

function route(): void {
    view?.close();
    view = null;
    clearError();
    const params = new URLSearchParams(location.hash.slice(1));
    const gameId = params.get("game");
    if (gameId) {
        view = new GameView(gameId, params.get("invite") ?? "");
        void view.open();
        return;
    }
    $("game-view").hidden = true;
    $("new-game").hidden = false;
    $("connection").textContent = "";
    renderNewGame();
}

async function main(): Promise<void> {
    try {
        variants = await api.listVariants();
    } catch (e) {
        showError(e);
        return;
    }
    const select = $<HTMLSelectElement>("variant");
    select.replaceChildren(...variants.map((v) => new Option(v.displayName, v.name)));
    select.addEventListener("change", renderNewGame);
    $("start-position").addEventListener("input", renderNewGame);
    $("create").addEventListener("click", () => void createGame());
    $("join").addEventListener("click", () => void view?.join());
    $("offer-draw").addEventListener("click", () => void view?.offerDraw());
    $("accept-draw").addEventListener("click", () => void view?.respondDraw(true));
    $("decline-draw").addEventListener("click", () => void view?.respondDraw(false));
    $("resign").addEventListener("click", () => {
        if (confirm("Resign this game?")) void view?.resign();
    });
    $("replay").addEventListener("click", () => void view?.startReplay());
    $("replay-first").addEventListener("click", () => view?.stepReplay(0));
    $("replay-back").addEventListener("click", () => view?.stepReplay(view.replayIndex() - 1));
    $("replay-forward").addEventListener("click", () => view?.stepReplay(view.replayIndex() + 1));
    $("replay-last").addEventListener("click", () => view?.stepReplay("end"));
    $("replay-exit").addEventListener("click", () => view?.endReplay());
    $("move-list").addEventListener("click", (e) => {
        const ply = (e.target as HTMLElement).closest<HTMLElement>("li")?.dataset.ply;
        if (ply) view?.stepReplay(Number(ply));
    });
    $("copy-link").addEventListener("click", () => void navigator.clipboard?.writeText($<HTMLInputElement>("share-link").value));
    boardSvg().addEventListener("click", (e) => {
        const point = (e.target as Element).closest("[data-point]")?.getAttribute("data-point");
        if (point) view?.click(point);
    });
    window.addEventListener("hashchange", route);
    route();
}

void main();
