// Drawing a board as SVG from ListVariants geometry: points, links and the
// pen, with the pieces of a position code on them.
import type { Board } from "./api.js";

export type Piece = "F" | "G";

// The pieces of a position code ("3/3/7/3F3/GGGGGGG/GGG/GGG f 0 0"): its
// ranks run from the highest down, each listing that rank's points from the
// left as F, G or a digit counting empty points.
export function piecesOf(positionCode: string, board: Board): Map<string, Piece> {
    const pieces = new Map<string, Piece>();
    const placement = positionCode.trim().split(/\s+/)[0] ?? "";
    const rows = placement.split("/");
    for (let i = 0; i < rows.length; ++i) {
        const rank = board.ranks - 1 - i;
        const points = board.points.filter((p) => p.rank === rank).sort((a, b) => a.file - b.file);
        let at = 0;
        for (const c of rows[i] ?? "") {
            if (c >= "1" && c <= "9") {
                at += Number(c);
            } else if (c === "F" || c === "G") {
                const point = points[at++];
                if (point) pieces.set(point.name, c);
            }
        }
    }
    return pieces;
}

// What to show on the board besides the pieces.
export interface Marks {
    selectable?: Iterable<string>;  // pieces that can move
    path?: readonly string[];       // the move being entered, point by point
    targets?: Iterable<string>;     // where the move being entered can go next
    lastMove?: { from: string; to: string; captured: readonly string[] };
    cursor?: string | undefined;    // the point the keyboard is on
}

const SVG = "http://www.w3.org/2000/svg";
const CELL = 60;
const MARGIN = 40;

function element<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    return node;
}

// Draws the board into `svg`, replacing what was there. Every point is a
// <g class="point" data-point="d4"> that takes the clicks for that point.
export function drawBoard(svg: SVGSVGElement, board: Board, pen: readonly string[], pieces: Map<string, Piece>, marks: Marks = {}): void {
    const width = MARGIN * 2 + CELL * (board.files - 1);
    const height = MARGIN * 2 + CELL * (board.ranks - 1);
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("data-board", board.name);

    const where = new Map(board.points.map((p) => [p.name, { x: MARGIN + CELL * p.file, y: MARGIN + CELL * (board.ranks - 1 - p.rank) }]));
    const at = (name: string) => where.get(name) ?? { x: 0, y: 0 };

    for (let file = 0; file < board.files; ++file) {
        svg.append(label(String.fromCharCode(97 + file), MARGIN + CELL * file, height - 10));
    }
    for (let rank = 0; rank < board.ranks; ++rank) {
        svg.append(label(String(rank + 1), 14, MARGIN + CELL * (board.ranks - 1 - rank) + 5));
    }

    const penSet = new Set(pen);
    for (const name of penSet) {
        const { x, y } = at(name);
        svg.append(element("rect", { class: "pen", x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL }));
    }
    for (const link of board.links) {
        const a = at(link.from);
        const b = at(link.to);
        svg.append(element("line", { class: link.diagonal ? "link diagonal" : "link", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
    }
    const path = marks.path ?? [];
    for (let i = 1; i < path.length; ++i) {
        const a = at(path[i - 1]!);
        const b = at(path[i]!);
        svg.append(element("line", { class: "path", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
    }

    const selectable = new Set(marks.selectable ?? []);
    const targets = new Set(marks.targets ?? []);
    const captured = new Set(marks.lastMove?.captured ?? []);
    for (const point of board.points) {
        const { x, y } = at(point.name);
        const classes = ["point"];
        if (penSet.has(point.name)) classes.push("in-pen");
        if (selectable.has(point.name)) classes.push("selectable");
        if (path[0] === point.name) classes.push("selected");
        else if (path.includes(point.name)) classes.push("on-path");
        if (targets.has(point.name)) classes.push("target");
        if (marks.lastMove?.from === point.name) classes.push("last-from");
        if (marks.lastMove?.to === point.name) classes.push("last-to");
        if (captured.has(point.name)) classes.push("captured");
        if (marks.cursor === point.name) classes.push("cursor");
        const group = element("g", { class: classes.join(" "), "data-point": point.name });
        group.append(element("circle", { class: "hit", cx: x, cy: y, r: CELL * 0.45 }));
        group.append(element("circle", { class: "spot", cx: x, cy: y, r: 5 }));
        // A piece that is moving is drawn where the move has got to.
        let piece = pieces.get(point.name);
        if (path.length > 1) {
            if (point.name === path[0]) piece = undefined;
            if (point.name === path.at(-1)) piece = pieces.get(path[0]!);
        }
        if (piece) {
            group.append(element("circle", { class: piece === "F" ? "piece fox" : "piece goose", cx: x, cy: y, r: CELL * 0.27 }));
            if (piece === "F") {
                const text = element("text", { class: "piece-label", x, y: y + 6 });
                text.textContent = "F";
                group.append(text);
            }
        }
        if (targets.has(point.name)) group.append(element("circle", { class: "target-dot", cx: x, cy: y, r: 9 }));
        if (marks.cursor === point.name) group.append(element("circle", { class: "cursor-ring", cx: x, cy: y, r: CELL * 0.4 }));
        if (captured.has(point.name)) {
            group.append(element("path", { class: "captured-mark", d: `M${x - 9},${y - 9}L${x + 9},${y + 9}M${x + 9},${y - 9}L${x - 9},${y + 9}` }));
        }
        svg.append(group);
    }
}

function label(text: string, x: number, y: number): SVGTextElement {
    const node = element("text", { class: "coordinate", x, y });
    node.textContent = text;
    return node;
}

// The keyboard's next point from `from` in a direction (files right, ranks
// up), skipping the empty corners of the grid; `from` itself at the edge.
export function nextPoint(board: Board, from: string, files: number, ranks: number): string {
    const byPlace = new Map(board.points.map((p) => [`${p.file},${p.rank}`, p.name]));
    const start = board.points.find((p) => p.name === from);
    if (!start) return board.points[Math.floor(board.points.length / 2)]?.name ?? from;
    for (let file = start.file + files, rank = start.rank + ranks;
         file >= 0 && rank >= 0 && file < board.files && rank < board.ranks;
         file += files, rank += ranks) {
        const name = byPlace.get(`${file},${rank}`);
        if (name) return name;
    }
    return from;
}
