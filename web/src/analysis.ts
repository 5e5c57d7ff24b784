// The analysis page: for a game, AnalyzeGame's evaluation graph over its
// plies, the best move and the mark of each ply, exact results as "win in
// N"; for any position (a ply of the game, or a position code typed in), an
// analysis board that asks AnalyzePosition for the best lines.
import type { Game, GameAnalysis, GameOptions, Move, PositionAnalysis, TablebaseAnswer, Variant } from "./api.js";
import { drawBoard, piecesOf, type Marks } from "./board.js";
import type { PageContext } from "./context.js";
import { $, clearError, el, showError, svgById } from "./dom.js";
import { drawGraph, graphPoints, indexAt, type GraphPoint } from "./graph.js";
import { t } from "./i18n.js";
import { markText, resultText, scoreText, sideName } from "./words.js";

export class AnalysisPage {
    private game: Game | undefined;
    private moves: Move[] = [];
    private startPosition = "";
    private analysis: GameAnalysis | undefined;
    private points: GraphPoint[] = [];
    private selected = 0;
    private lines: PositionAnalysis | undefined;
    // Every move's value, when the lines came from the tablebase.
    private table: TablebaseAnswer | undefined;
    private analysing = false;
    private closed = false;

    // `gameId` empty: the analysis board alone, for `variantName`.
    constructor(private readonly context: PageContext, private readonly gameId: string, private variantName = "standard") {}

    async open(): Promise<void> {
        $("analysis-page").hidden = false;
        $("analysis-game").hidden = $("plies-card").hidden = !this.gameId;
        $("board-variant-field").hidden = !!this.gameId;
        if (!this.gameId) {
            this.fillVariants();
            this.setPosition(this.variant()?.startPosition ?? "");
            this.render();
            return;
        }
        try {
            const replay = await this.context.api.listMoves(this.gameId);
            this.game = replay.game;
            this.variantName = replay.game.variant;
            this.moves = replay.moves;
            this.startPosition = replay.startPosition;
            this.selected = this.moves.length;
        } catch (e) {
            showError(e);
            return;
        }
        this.setPosition(this.positionAt(this.selected));
        this.render();
        await this.analyseGame();
    }

    close(): void {
        this.closed = true;
        $("analysis-page").hidden = true;
    }

    // The variant select of the analysis board alone.
    fillVariants(): void {
        if (this.gameId) return;
        $<HTMLSelectElement>("board-variant").replaceChildren(...this.context.variants().map((v) => new Option(v.displayName, v.name, false, v.name === this.variantName)));
    }

    chooseVariant(name: string): void {
        this.variantName = name;
        this.setPosition(this.variant()?.startPosition ?? "");
        this.render();
    }

    private variant(): Variant | undefined {
        return this.context.variant(this.variantName);
    }

    async analyseGame(): Promise<void> {
        if (!this.gameId || this.analysing) return;
        clearError();
        this.analysing = true;
        this.analysis = undefined;
        this.render();
        try {
            this.analysis = await this.context.api.analyzeGame(this.gameId);
            this.points = graphPoints(this.analysis.plies);
        } catch (e) {
            showError(e);
        } finally {
            this.analysing = false;
            this.render();
        }
    }

    private positionAt(index: number): string {
        return index === 0 ? this.startPosition : this.moves[index - 1]?.position ?? this.startPosition;
    }

    select(index: number): void {
        if (!this.gameId) return;
        this.selected = Math.max(0, Math.min(this.moves.length, index));
        this.setPosition(this.positionAt(this.selected));
        this.render();
    }

    selectedIndex(): number {
        return this.selected;
    }

    graphClick(clientX: number): void {
        if (this.points.length) this.select(indexAt(svgById("eval-graph"), clientX, this.points.length));
    }

    private setPosition(code: string): void {
        $<HTMLInputElement>("position-code").value = code;
        this.lines = this.table = undefined;
    }

    // The typed position code changed: the board follows it.
    positionEdited(): void {
        this.lines = this.table = undefined;
        this.render();
    }

    async analysePosition(): Promise<void> {
        const variant = this.variant();
        if (!variant) return;
        clearError();
        const options: GameOptions = this.game?.options ?? {};
        const button = $<HTMLButtonElement>("analyse-position");
        button.disabled = true;
        const position = $<HTMLInputElement>("position-code").value.trim();
        try {
            this.table = undefined;
            this.lines = await this.context.api.analyzePosition({ variant: variant.name, options, position, lines: 3 });
            // An exact answer: the tablebase also values every other move.
            if (this.lines.tablebase) this.table = await this.context.api.getTablebase(variant.name, options, position);
        } catch (e) {
            showError(e);
        } finally {
            button.disabled = false;
            this.render();
        }
    }

    // --- drawing ------------------------------------------------------------------

    render(): void {
        if (this.closed) return;
        const variant = this.variant();
        document.title = `${t("analysis.title")} · foxgeese`;
        $("analysis-title").textContent = this.game && variant ? `${t("analysis.title")}: ${variant.displayName}` : t("analysis.boardTitle");
        $("analysis-result").textContent = this.game && this.game.state === "GAME_STATE_FINISHED" ? resultText(this.game, variant) : "";
        if (this.gameId) {
            $<HTMLAnchorElement>("analysis-back").href = `#game=${encodeURIComponent(this.gameId)}`;
            this.renderGameAnalysis(variant);
        }
        this.renderBoard(variant);
        this.renderLines(variant);
    }

    private renderGameAnalysis(variant: Variant | undefined): void {
        const status = $("analysis-status");
        status.dataset.state = this.analysing ? "running" : this.analysis ? "done" : "none";
        const exact = this.analysis?.plies.filter((ply) => ply.tablebase).length ?? 0;
        status.textContent = this.analysing ? t("analysis.running")
            : this.analysis ? t("analysis.done", { plies: this.analysis.plies.length, nodes: Number(this.analysis.nodesPerPly).toLocaleString() })
                + (exact > 0 ? ` ${t("analysis.exactPlies", { count: exact })}` : "")
            : "";
        $("analysis-retry").hidden = this.analysing || !!this.analysis;

        drawGraph(svgById("eval-graph"), this.points, this.selected, {
            foxAhead: t("analysis.foxAhead", { side: sideName("SIDE_FOX", variant) }),
            geeseAhead: t("analysis.geeseAhead", { side: sideName("SIDE_GEESE", variant) }),
            describe: (point) => point.index === 0 ? `${t("analysis.start")}: ${scoreText(point.score)}`
                : `${point.index}. ${point.analysis?.move ?? ""} ${sideName(point.view, variant)}: ${scoreText(point.score)} ${markText(point.analysis?.mark ?? "MOVE_MARK_UNSPECIFIED")}`.trim(),
        });
        const slider = $<HTMLInputElement>("analysis-slider");
        slider.max = String(this.moves.length);
        slider.value = String(this.selected);
        $("analysis-ply").textContent = t("replay.position", { ply: this.selected, total: this.moves.length });

        const body = $("ply-table-body");
        body.replaceChildren(...(this.analysis?.plies ?? []).map((ply, i) => {
            const row = el("tr", { "data-ply": String(i + 1) });
            if (i + 1 === this.selected) row.classList.add("current");
            if (ply.mark !== "MOVE_MARK_UNSPECIFIED") row.classList.add("marked");
            if (ply.tablebase) row.classList.add("exact");
            const select = el("button", { type: "button", class: "ply-select" }, String(ply.ply));
            select.addEventListener("click", () => this.select(i + 1));
            const mark = el("td", { class: "mark" }, markText(ply.mark));
            mark.dataset.mark = ply.mark;
            row.append(el("td", {}, select), el("td", {}, sideName(ply.side, variant)), el("td", { class: "played" }, ply.move),
                el("td", { class: "best" }, ply.bestMove), el("td", { class: "score" }, scoreText(ply.scoreBefore)),
                el("td", { class: "score" }, scoreText(ply.scoreAfter)), mark);
            return row;
        }));
        $("ply-table").hidden = !this.analysis;

        // What the selected position's next ply was, and what was best there.
        const next = this.analysis?.plies[this.selected];
        $("ply-detail").textContent = next
            ? t("analysis.detail", { ply: next.ply, played: next.move, best: next.bestMove, before: scoreText(next.scoreBefore), after: scoreText(next.scoreAfter) })
            : "";
    }

    private renderBoard(variant: Variant | undefined): void {
        if (!variant) return;
        const code = $<HTMLInputElement>("position-code").value.trim() || variant.startPosition;
        const marks: Marks = {};
        const move = this.gameId ? this.moves[this.selected - 1] : undefined;
        if (move && code === move.position) marks.lastMove = move;
        drawBoard(svgById("analysis-board"), variant.board, variant.pen, piecesOf(code, variant.board), marks);
    }

    private renderLines(variant: Variant | undefined): void {
        const list = $("position-lines");
        const lines = this.lines;
        $("position-side").textContent = lines ? t("analysis.scoresFor", { side: sideName(lines.sideToMove, variant) }) : "";
        $("position-source").textContent = lines?.tablebase ? t("analysis.fromTablebase") : "";
        this.renderTableMoves();
        if (!lines) {
            list.replaceChildren();
            return;
        }
        if (lines.lines.length === 0) {
            list.replaceChildren(el("li", {}, resultText(lines, variant)));
            return;
        }
        list.replaceChildren(...lines.lines.map((line) => el("li", {},
            el("strong", {}, line.move), " ", el("span", { class: "score" }, scoreText(line.score)), " ",
            el("span", { class: "depth" }, lines.tablebase ? t("analysis.toTheEnd") : t("analysis.depth", { depth: line.depth })), " ",
            el("span", { class: "pv" }, line.pv.join(" ")))));
    }

    // Every move of the position with the tablebase's value for the mover.
    private renderTableMoves(): void {
        const list = $("tablebase-moves");
        const moves = this.table?.moves ?? [];
        list.hidden = moves.length === 0;
        list.replaceChildren(...(moves.length ? [el("li", { class: "heading" }, t("analysis.tablebaseMoves"))] : []),
            ...moves.map((move) => {
                const item = el("li", { class: "tablebase-move" }, el("strong", {}, move.move), " ", el("span", { class: "score" }, move.text));
                item.dataset.category = move.category;
                return item;
            }));
    }
}
