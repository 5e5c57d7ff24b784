// The game page: the board (any variant's, from ListVariants), the clocks,
// the players and whether they are here, moves by clicking or by keyboard,
// draw offers, resignation, abort, cancel, a claim when the opponent is
// gone, rematches, the move list with a replay slider, the record and the
// share link, how many watch, and the links to share the game (its share
// page, its picture, its animation). The page follows the game live
// (watch.ts) and always shows the newest state it has seen.
import { ApiError, type Game, type Move, type Presence, type Side, type Variant, type WatchEvent } from "./api.js";
import { drawBoard, nextPoint, piecesOf, type Marks } from "./board.js";
import { ClockReading, formatClock, timeControlText } from "./clock.js";
import { $, clearError, el, showError, svgById, timeOfDay } from "./dom.js";
import type { PageContext } from "./context.js";
import { language, t } from "./i18n.js";
import { MoveEntry } from "./moves.js";
import { forgetSeat, heldSeat, holdSeat, otherSide, sideOfSeat, type HeldSeat } from "./seats.js";
import { GameWatch, type WatchState } from "./watch.js";
import { resultText, sideName } from "./words.js";

// After the game, a page holding a seat asks for rematch news this often
// once the live stream has closed (the server keeps it open only a minute).
const REMATCH_POLL_MS = 3000;
const REMATCH_POLL_FOR_MS = 30 * 60_000;

export class GamePage {
    private game!: Game;
    private seat: HeldSeat | undefined;
    private startPosition = "";
    private moves: Move[] = [];
    private presence: Presence | undefined;
    private live = false;
    private entry = new MoveEntry([]);
    private watch: GameWatch | null = null;
    private clocks: ClockReading | null = null;
    // The replay: how many moves the board shows; null follows the game.
    private shown: number | null = null;
    private busy = false;
    private note: (() => string) | null = null;
    private claimableAt: number | null = null;
    private offeredRematch = false;
    // The keyboard's point on the board, drawn while the board has the
    // focus and the keyboard is in use (a click must not redraw the board
    // between its press and its release, or the click is lost).
    private cursor: string | undefined;
    private boardFocused = false;
    private keyboardUsed = false;
    private ticker = 0;
    private poller = 0;
    private closed = false;

    constructor(private readonly context: PageContext, private readonly gameId: string, private readonly invite: string) {
        this.seat = heldSeat(gameId);
    }

    async open(): Promise<void> {
        $("game-page").hidden = false;
        try {
            const replay = await this.context.api.listMoves(this.gameId);
            this.startPosition = replay.startPosition;
            this.moves = replay.moves;
            this.setGame(replay.game);
        } catch (e) {
            showError(e);
            return;
        }
        if (this.closed) return;
        this.follow();
        this.ticker = window.setInterval(() => this.tick(), 200);
    }

    close(): void {
        this.closed = true;
        this.watch?.stop();
        window.clearInterval(this.ticker);
        window.clearInterval(this.poller);
        $("game-page").hidden = true;
    }

    // --- following the game -------------------------------------------------

    // (Re)opens the live stream, with the seat token if this device holds a
    // seat, so that the opponent sees it here.
    private follow(): void {
        this.watch?.stop();
        this.watch = new GameWatch(this.context.api, this.gameId, this.seat?.token, {
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
        const connection = $("connection");
        connection.dataset.state = state;
        const texts = { connecting: "connection.connecting", live: "connection.live", reconnecting: "connection.reconnecting" } as const;
        connection.textContent = state === "ended" ? "" : t(texts[state]);
        // The spectator count is shown while it is kept up to date.
        this.live = state === "live";
        if (this.game) this.render();
        if (state === "ended") this.pollForRematch();
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
            const by = event.drawOffered.by;
            this.game.drawOfferedBy = by;
            // The offer comes back to the page that made it too.
            this.note = this.mine(by) ? () => t("note.youOfferedDraw") : () => t("note.drawOffered", { side: sideName(by, this.variant) });
            this.render();
        } else if (event.drawAnswered) {
            const { accepted, by } = event.drawAnswered;
            this.game.drawOfferedBy = "SIDE_UNSPECIFIED";
            this.note = accepted ? () => t("note.drawAccepted") : () => t("note.drawDeclined", { side: sideName(by, this.variant) });
            this.render();
        } else if (event.presence) {
            this.presence = event.presence;
            this.render();
        } else if (event.rematchOffered) {
            const by = event.rematchOffered.by;
            this.game.rematchOfferedBy = by;
            this.note = this.mine(by) ? () => t("note.youOfferedRematch") : () => t("note.rematchOffered", { side: sideName(by, this.variant) });
            this.render();
        } else if (event.rematchAnswered) {
            const { accepted, gameId } = event.rematchAnswered;
            this.game.rematchOfferedBy = "SIDE_UNSPECIFIED";
            if (accepted && gameId) this.rematchAccepted(gameId);
            else {
                this.note = () => t("note.rematchDeclined");
                this.offeredRematch = false;
                this.render();
            }
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
        this.clocks = game.clocks ? new ClockReading(game.clocks) : null;
        if (moved) {
            this.entry = new MoveEntry(game.legalMoves);
            this.claimableAt = null;
        }
        this.render();
    }

    // A finished game's stream closes a minute after the end; a seat holder
    // keeps hearing of rematch offers by asking.
    private pollForRematch(): void {
        if (this.closed || !this.seat || !this.rematchPossible() || this.poller) return;
        const until = Date.now() + REMATCH_POLL_FOR_MS;
        this.poller = window.setInterval(async () => {
            if (Date.now() > until || this.game.rematchGameId) {
                window.clearInterval(this.poller);
                if (this.game.rematchGameId && this.offeredRematch) this.rematchAccepted(this.game.rematchGameId);
                return;
            }
            try {
                this.setGame(await this.context.api.getGame(this.gameId));
            } catch {
                // The next poll tries again; errors of actions are shown.
            }
        }, REMATCH_POLL_MS);
    }

    // --- who is who -----------------------------------------------------------

    // The game's variant in the page's language (it follows the switch).
    private get variant(): Variant | undefined {
        return this.game ? this.context.variant(this.game.variant) : undefined;
    }

    // The side this device moves for now, if any.
    private mySide(): Side | undefined {
        if (this.seat?.seat === "SEAT_BOTH") return this.game.sideToMove;
        return sideOfSeat(this.seat?.seat);
    }

    // Whether this device holds `side`'s seat alone (not both seats).
    private mine(side: Side): boolean {
        return sideOfSeat(this.seat?.seat) === side;
    }

    private myTurn(): boolean {
        return this.game.state === "GAME_STATE_ACTIVE" && this.mySide() === this.game.sideToMove && this.shown === null && !this.busy;
    }

    private againstBot(): boolean {
        return this.game.botSide !== "SIDE_UNSPECIFIED";
    }

    private rematchPossible(): boolean {
        return this.game.state === "GAME_STATE_FINISHED" && !this.againstBot() && !this.game.imported &&
            this.game.foxSeatTaken && this.game.geeseSeatTaken && this.game.endReason !== "END_REASON_CANCELLED" &&
            this.game.endReason !== "END_REASON_EXPIRED";
    }

    // A claim is for a seat holder of one side, in real time or without a
    // clock, on the opponent's turn, while the opponent is away.
    private claimShown(): boolean {
        const mine = sideOfSeat(this.seat?.seat);
        if (!mine || this.game.state !== "GAME_STATE_ACTIVE" || this.againstBot()) return false;
        if (this.game.timeControl?.correspondence || this.game.sideToMove === mine) return false;
        const opponent = otherSide(mine) === "SIDE_FOX" ? this.presence?.fox : this.presence?.geese;
        return !!this.presence && !opponent?.connected;
    }

    // The share page's address (/g/{id}), for a chat: its card shows the
    // game's picture, and a browser goes on to this page.
    sharePage(): string {
        return new URL(this.context.api.sharePageUrl(this.gameId), location.href).href;
    }

    shareLink(): string {
        return `${location.origin}${location.pathname}${location.search}#game=${encodeURIComponent(this.gameId)}&invite=${encodeURIComponent(this.invite)}`;
    }

    // --- actions ----------------------------------------------------------------

    // A point clicked with the mouse or touched.
    pointClicked(point: string): void {
        this.keyboardUsed = false;
        this.click(point);
    }

    private click(point: string): void {
        if (!this.myTurn()) return;
        this.cursor = point;
        const result = this.entry.click(point);
        if (result.kind === "move") void this.send(result.notation);
        else if (result.kind === "path") this.render();
    }

    // Arrow keys move the board's cursor, Enter or Space clicks its point,
    // Escape lets the piece go.
    key(event: KeyboardEvent): void {
        const board = this.variant?.board;
        if (!board) return;
        const steps: Record<string, [number, number]> = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
        const step = steps[event.key];
        if (!step && !["Enter", " ", "Escape"].includes(event.key)) return;
        event.preventDefault();
        this.keyboardUsed = true;
        this.cursor ??= this.firstCursor();
        if (step) this.cursor = nextPoint(board, this.cursor, step[0], step[1]);
        else if (event.key === "Escape") this.entry.reset();
        else this.click(this.cursor);
        this.render();
    }

    focusBoard(focused: boolean): void {
        this.boardFocused = focused;
        if (focused) return;
        this.keyboardUsed = false;
        this.render();
    }

    private firstCursor(): string {
        const origins = [...this.entry.origins()].sort();
        return origins[0] ?? this.variant?.board.points[Math.floor((this.variant.board.points.length) / 2)]?.name ?? "d4";
    }

    private token(): string {
        return this.seat?.token ?? "";
    }

    private async act(action: () => Promise<Game>): Promise<boolean> {
        clearError();
        this.busy = true;
        this.render();
        try {
            this.setGame(await action());
            return true;
        } catch (e) {
            showError(e);
            // Someone moved first: show the board as it is now.
            if (e instanceof ApiError && e.reason === "PLY_MISMATCH") {
                await this.context.api.getGame(this.gameId).then((game) => this.setGame(game), () => undefined);
            }
            return false;
        } finally {
            this.busy = false;
            this.entry.reset();
            this.render();
        }
    }

    send(notation: string): Promise<boolean> {
        return this.act(() => this.context.api.makeMove(this.gameId, notation, this.game.ply, this.token()));
    }

    async join(): Promise<void> {
        clearError();
        try {
            const joined = await this.context.api.joinGame(this.gameId, this.invite);
            this.seat = { seat: joined.seat, token: joined.seatToken };
            holdSeat(this.gameId, this.seat);
            this.setGame(joined.game);
            this.follow();
        } catch (e) {
            showError(e);
        }
    }

    async offerDraw(): Promise<void> {
        if (await this.act(() => this.context.api.offerDraw(this.gameId, this.token()))) {
            this.note = this.game.state === "GAME_STATE_FINISHED" ? null : () => t("note.youOfferedDraw");
            this.render();
        }
    }

    respondDraw(accept: boolean): Promise<boolean> {
        return this.act(() => this.context.api.respondDraw(this.gameId, accept, this.token()));
    }

    resign(): Promise<boolean> {
        return this.act(() => this.context.api.resign(this.gameId, this.token()));
    }

    abort(): Promise<boolean> {
        return this.act(() => this.context.api.abort(this.gameId, this.token()));
    }

    cancel(): Promise<boolean> {
        return this.act(() => this.context.api.cancel(this.gameId, this.token()));
    }

    // Claims the win (or a draw); a refusal tells from when a claim works.
    async claim(draw: boolean): Promise<void> {
        clearError();
        try {
            this.setGame(await this.context.api.claimVictory(this.gameId, draw, this.token()));
        } catch (e) {
            showError(e);
            const at = e instanceof ApiError ? e.metadata["claimable_at"] : undefined;
            this.claimableAt = at ? Date.parse(at) : null;
            this.render();
        }
    }

    async offerRematch(): Promise<void> {
        clearError();
        try {
            const reply = await this.context.api.offerRematch(this.gameId, this.token());
            this.offeredRematch = true;
            this.setGame(reply.game);
            // The other side's offer was pending: this accepted it.
            if (reply.rematch) return this.enterRematch(reply.rematch.gameId, reply.seat, reply.seatToken);
            this.note = () => t("note.youOfferedRematch");
            this.render();
            this.pollForRematch();
        } catch (e) {
            showError(e);
        }
    }

    async respondRematch(accept: boolean): Promise<void> {
        clearError();
        try {
            const reply = await this.context.api.respondRematch(this.gameId, accept, this.token());
            this.setGame(reply.game);
            if (accept && reply.rematch) return this.enterRematch(reply.rematch.gameId, reply.seat, reply.seatToken);
            this.render();
        } catch (e) {
            showError(e);
        }
    }

    // Takes this device's seat in the accepted rematch and goes there.
    async joinRematch(): Promise<void> {
        clearError();
        const rematchId = this.game.rematchGameId;
        if (!rematchId) return;
        if (heldSeat(rematchId) || !this.seat) return this.context.navigate(`game=${encodeURIComponent(rematchId)}`);
        try {
            const joined = await this.context.api.joinRematch(this.gameId, this.token());
            this.enterRematch(joined.game.gameId, joined.seat, joined.seatToken);
        } catch (e) {
            showError(e);
        }
    }

    private rematchAccepted(rematchId: string): void {
        this.game.rematchGameId = rematchId;
        this.note = () => t("note.rematchAccepted");
        this.render();
        // The one who offered follows the one who accepted into the new game.
        if (this.offeredRematch && this.seat && !heldSeat(rematchId)) void this.joinRematch();
    }

    private enterRematch(rematchId: string, seat: HeldSeat["seat"], token: string): void {
        holdSeat(rematchId, { seat, token });
        this.context.navigate(`game=${encodeURIComponent(rematchId)}`);
    }

    // --- the replay ---------------------------------------------------------------

    showPly(index: number | null): void {
        const last = this.moves.length;
        if (index === null || index >= last) this.shown = null;
        else this.shown = Math.max(0, index);
        this.entry.reset();
        this.render();
    }

    shownIndex(): number {
        return this.shown ?? this.moves.length;
    }

    // --- drawing ------------------------------------------------------------------

    // Redraws everything from the state (cheap: a board is 45 points at most).
    render(): void {
        if (this.closed || !this.game) return;
        const game = this.game;
        const variant = this.variant;
        if (!variant) return;
        document.title = `${variant.displayName} · foxgeese`;

        let marks: Marks;
        let position: string;
        if (this.shown !== null) {
            const move = this.moves[this.shown - 1];
            position = move?.position ?? this.startPosition;
            marks = move ? { lastMove: move } : {};
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
        if (this.boardFocused && this.keyboardUsed) marks.cursor = this.cursor;
        drawBoard(svgById("board"), variant.board, variant.pen, piecesOf(position, variant.board), marks);

        $("game-title").textContent = variant.displayName;
        const facts = [timeControlText(game.timeControl)];
        if (this.againstBot()) facts.push(t("game.againstComputer", { level: game.botLevel }));
        if (game.imported) facts.push(t("game.imported"));
        facts.push(t(game.visibility === "VISIBILITY_PUBLIC" ? "game.public" : "game.private"));
        $("game-facts").textContent = facts.join(" · ");
        $("status").textContent = this.statusText();
        $("note").textContent = this.note?.() ?? "";

        this.renderPlayers();
        this.renderActions();
        this.renderMoves();
        this.tick();
    }

    private renderPlayers(): void {
        const game = this.game;
        for (const side of ["SIDE_FOX", "SIDE_GEESE"] as const) {
            const key = side === "SIDE_FOX" ? "fox" : "geese";
            const taken = side === "SIDE_FOX" ? game.foxSeatTaken : game.geeseSeatTaken;
            const here = this.presence?.[key]?.connected ?? false;
            const bot = game.botSide === side;
            const mine = this.seat?.seat === "SEAT_BOTH" || sideOfSeat(this.seat?.seat) === side;
            $(`name-${key}`).textContent = sideName(side, this.variant) + (mine ? ` (${t("player.you")})` : "");
            const presence = $(`presence-${key}`);
            presence.dataset.connected = String(bot || here);
            presence.dataset.state = bot ? "bot" : !taken ? "open" : here ? "online" : "away";
            presence.textContent = bot ? t("player.computer", { level: game.botLevel })
                : !taken ? t("player.openSeat") : here ? t("player.online") : t("player.away");
            $(`player-${key}`).classList.toggle("to-move", game.state === "GAME_STATE_ACTIVE" && game.sideToMove === side);
        }
        $("player-fox").hidden = $("player-geese").hidden = false;
    }

    private renderActions(): void {
        const game = this.game;
        const active = game.state === "GAME_STATE_ACTIVE";
        const waiting = game.state === "GAME_STATE_WAITING";
        const finished = game.state === "GAME_STATE_FINISHED";
        const seated = !!this.seat;

        $("share").hidden = !(seated && waiting);
        $<HTMLInputElement>("share-link").value = this.shareLink();
        $("join").hidden = !(!seated && waiting);

        const offeredBy = game.drawOfferedBy;
        const offerToMe = active && seated && offeredBy !== "SIDE_UNSPECIFIED" &&
            (this.seat?.seat === "SEAT_BOTH" || offeredBy !== sideOfSeat(this.seat?.seat));
        $("draw-offer").hidden = !offerToMe;
        const playing = active && seated && this.shown === null;
        $("offer-draw").hidden = !playing || offerToMe;
        $("resign").hidden = !playing;
        $("abort").hidden = !playing || this.moves.length >= 2;
        $("cancel").hidden = !(seated && waiting);
        for (const id of ["offer-draw", "resign", "abort", "cancel", "accept-draw", "decline-draw", "move-send"]) {
            $<HTMLButtonElement>(id).disabled = this.busy;
        }

        // The move by keyboard: notation, with the legal moves to pick from.
        $("move-form").hidden = !playing || this.mySide() !== game.sideToMove;
        $("legal-moves").replaceChildren(...game.legalMoves.map((m) => el("option", { value: m })));

        // A claim when the opponent is gone.
        const claim = this.claimShown();
        $("claim").hidden = !claim;
        if (!claim) this.claimableAt = null;

        // Rematch: offer, answer, join.
        const rematch = finished && seated && this.rematchPossible();
        const mine = this.seat?.seat === "SEAT_BOTH" ? undefined : sideOfSeat(this.seat?.seat);
        const pendingBy = game.rematchOfferedBy;
        const decided = !!game.rematchGameId;
        $("offer-rematch").hidden = !rematch || decided || pendingBy !== "SIDE_UNSPECIFIED";
        $("rematch-offer").hidden = !rematch || decided || pendingBy === "SIDE_UNSPECIFIED" || pendingBy === mine;
        $("rematch-waiting").hidden = !rematch || decided || pendingBy === "SIDE_UNSPECIFIED" || pendingBy !== mine;
        $("go-rematch").hidden = !decided;
        $("go-rematch").textContent = t(seated && !heldSeat(game.rematchGameId) ? "rematch.join" : "rematch.go");

        $<HTMLAnchorElement>("export-link").href = this.context.api.recordUrl(this.gameId);
        $<HTMLAnchorElement>("export-link").download = `foxgeese-${this.gameId}.txt`;
        $("analysis-link").hidden = !finished || this.moves.length === 0;
        this.renderShare();
        $<HTMLAnchorElement>("analysis-link").href = `#analysis=${encodeURIComponent(this.gameId)}`;
    }

    // How many watch (spectators, over every server), and the game to share:
    // its share page, the picture of the position shown, and for a finished
    // game its animation.
    private renderShare(): void {
        const game = this.game;
        const spectators = $("spectators");
        spectators.hidden = !this.live || !this.presence;
        spectators.textContent = t("game.spectators", { count: this.presence?.spectators ?? 0 });
        $("copy-share").dataset.link = this.sharePage();
        const ply = this.shown === null ? game.ply : (this.moves[this.shown - 1]?.ply ?? game.ply - this.moves.length);
        const picture = $<HTMLAnchorElement>("share-picture");
        picture.href = this.context.api.pictureUrl(this.gameId, ply);
        picture.download = `foxgeese-${this.gameId}-${ply}.png`;
        const animation = $<HTMLAnchorElement>("share-animation");
        animation.hidden = game.state !== "GAME_STATE_FINISHED" || this.moves.length === 0;
        animation.href = this.context.api.animationUrl(this.gameId);
        animation.download = `foxgeese-${this.gameId}.gif`;
    }

    private renderMoves(): void {
        const total = this.moves.length;
        const index = this.shownIndex();
        const slider = $<HTMLInputElement>("replay-slider");
        slider.max = String(total);
        slider.value = String(index);
        slider.disabled = total === 0;
        $("replay-ply").textContent = t("replay.position", { ply: index, total });
        $("replay-live").hidden = this.shown === null;
        const list = $("move-list");
        list.replaceChildren(...this.moves.map((move, i) => {
            const button = el("button", { type: "button", "data-ply": String(i + 1), class: "move" }, move.notation);
            if (this.shown === i + 1) button.classList.add("current");
            return el("li", {}, button);
        }));
    }

    // The parts that change with time alone: the clocks, the deadlines.
    private tick(): void {
        if (this.closed || !this.game) return;
        const clocks = this.clocks;
        for (const side of ["SIDE_FOX", "SIDE_GEESE"] as const) {
            const node = $(`clock-${side === "SIDE_FOX" ? "fox" : "geese"}`);
            node.hidden = !clocks;
            if (!clocks) continue;
            const left = clocks.remaining(side);
            node.textContent = formatClock(left);
            node.dataset.running = String(clocks.running() === side);
            node.dataset.low = String(left < 10_000);
        }
        const deadline = clocks?.firstMoveDeadline() ? clocks.untilDeadline() : undefined;
        const note = $("deadline-note");
        note.hidden = deadline === undefined || this.game.state !== "GAME_STATE_ACTIVE";
        if (deadline !== undefined) note.textContent = t("game.firstMoveDeadline", { time: formatClock(deadline) });

        const when = $("claim-when");
        const waitMs = this.claimableAt === null ? 0 : this.claimableAt - Date.now();
        for (const id of ["claim-win", "claim-draw"]) $<HTMLButtonElement>(id).disabled = waitMs > 0;
        when.textContent = this.claimableAt === null ? t("claim.away")
            : waitMs > 0 ? t("claim.from", { time: timeOfDay(new Date(this.claimableAt).toISOString(), language()), seconds: Math.ceil(waitMs / 1000) })
            : t("claim.now");
    }

    private statusText(): string {
        const game = this.game;
        if (this.shown !== null) return t("status.replay", { ply: this.shown, total: this.moves.length });
        if (game.state === "GAME_STATE_FINISHED") return resultText(game, this.variant);
        if (game.state === "GAME_STATE_WAITING") return t(this.seat ? "status.waitingForOpponent" : "status.seatOpen");
        if (this.busy) return t("status.sending");
        const toMove = sideName(game.sideToMove, this.variant);
        if (this.myTurn()) {
            return this.entry.current().length > 1 && this.entry.complete() ? t("status.jumpOn") : t("status.yourMove", { side: toMove });
        }
        return this.seat ? t("status.theirMove", { side: toMove }) : t("status.toMove", { side: toMove });
    }
}
