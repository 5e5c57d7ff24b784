// The evaluation graph of an analysed game: the fox side's chances after
// every ply, as an SVG picture. A score in points becomes an expected score
// (200 points are one logit, about 73 %); a proved win or loss sits on the
// top or bottom edge; the marked moves get a dot of their own.
import type { PlyAnalysis, Score, Side } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 800;
const HEIGHT = 220;
const PAD = 12;

// The fox side's expected score, 0 to 1, from a score in `view`'s eyes.
export function foxChance(score: Score | undefined, view: Side): number {
    let chance = 0.5;
    if (score?.winInPlies !== undefined) chance = 1;
    else if (score?.lossInPlies !== undefined) chance = 0;
    else if (score?.points !== undefined) chance = 1 / (1 + Math.exp(-score.points / 200));
    return view === "SIDE_FOX" ? chance : 1 - chance;
}

// One point a ply: the start (the first mover's best before ply 1), then
// the position after each ply.
export interface GraphPoint {
    index: number;  // moves played: 0 is the start
    chance: number;
    score: Score | undefined;
    view: Side;
    analysis: PlyAnalysis | undefined;  // the ply that led here
}

export function graphPoints(plies: readonly PlyAnalysis[]): GraphPoint[] {
    const first = plies[0];
    if (!first) return [];
    const points: GraphPoint[] = [{ index: 0, chance: foxChance(first.scoreBefore, first.side), score: first.scoreBefore, view: first.side, analysis: undefined }];
    plies.forEach((ply, i) => points.push({ index: i + 1, chance: foxChance(ply.scoreAfter, ply.side), score: ply.scoreAfter, view: ply.side, analysis: ply }));
    return points;
}

function node<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
    return element;
}

export interface GraphLabels {
    foxAhead: string;
    geeseAhead: string;
    // The tooltip of a point.
    describe(point: GraphPoint): string;
}

// Draws the graph into `svg`; `selected` is the index marked by a line.
export function drawGraph(svg: SVGSVGElement, points: readonly GraphPoint[], selected: number, labels: GraphLabels): void {
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    const last = Math.max(1, points.length - 1);
    const x = (index: number) => PAD + (index * (WIDTH - 2 * PAD)) / last;
    const y = (chance: number) => PAD + (1 - chance) * (HEIGHT - 2 * PAD);
    const middle = y(0.5);

    svg.append(node("rect", { class: "graph-fox", x: 0, y: 0, width: WIDTH, height: middle }));
    svg.append(node("rect", { class: "graph-geese", x: 0, y: middle, width: WIDTH, height: HEIGHT - middle }));
    svg.append(node("line", { class: "graph-middle", x1: 0, y1: middle, x2: WIDTH, y2: middle }));
    const top = node("text", { class: "graph-label", x: PAD, y: PAD + 12 });
    top.textContent = labels.foxAhead;
    const bottom = node("text", { class: "graph-label", x: PAD, y: HEIGHT - PAD - 4 });
    bottom.textContent = labels.geeseAhead;
    svg.append(top, bottom);
    if (points.length === 0) return;

    const line = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.index).toFixed(1)},${y(p.chance).toFixed(1)}`).join("");
    svg.append(node("path", { class: "graph-area", d: `${line}L${x(points.at(-1)!.index)},${middle}L${x(0)},${middle}Z` }));
    svg.append(node("path", { class: "graph-line", d: line }));
    svg.append(node("line", { class: "graph-selected", x1: x(selected), y1: 0, x2: x(selected), y2: HEIGHT }));

    for (const point of points) {
        const mark = point.analysis?.mark ?? "MOVE_MARK_UNSPECIFIED";
        const proved = point.score?.winInPlies !== undefined || point.score?.lossInPlies !== undefined;
        const classes = ["graph-point"];
        if (proved) classes.push("proved");
        if (mark === "MOVE_MARK_WIN_THROWN_AWAY") classes.push("win-thrown-away");
        if (mark === "MOVE_MARK_LOSS_SAVED") classes.push("loss-saved");
        const marked = mark !== "MOVE_MARK_UNSPECIFIED";
        const dot = node("circle", {
            class: classes.join(" "), cx: x(point.index), cy: y(point.chance), r: marked ? 6 : proved ? 3.5 : 2.5, "data-index": point.index,
        });
        const title = node("title", {});
        title.textContent = labels.describe(point);
        dot.append(title);
        svg.append(dot);
    }
}

// The index nearest to a click at `clientX` on the graph.
export function indexAt(svg: SVGSVGElement, clientX: number, count: number): number {
    const box = svg.getBoundingClientRect();
    const fraction = (((clientX - box.left) / box.width) * WIDTH - PAD) / (WIDTH - 2 * PAD);
    return Math.max(0, Math.min(count - 1, Math.round(fraction * Math.max(1, count - 1))));
}
