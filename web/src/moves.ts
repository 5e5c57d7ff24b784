// Entering a move by clicking, point by point, offering only legal moves
// (Game.legalMoves). A step is two points ("d4-d5"); a jump sequence is its
// origin and every landing point ("d4xd6xf6"), each clicked in turn.

// The points of a move in notation.
export function pointsOf(notation: string): string[] {
    return notation.split(/[-x]/);
}

function startsWith(points: readonly string[], prefix: readonly string[]): boolean {
    return prefix.length <= points.length && prefix.every((p, i) => points[i] === p);
}

export type ClickResult =
    | { kind: "path"; path: string[] }  // the move goes on: show `path`
    | { kind: "move"; notation: string }  // a whole legal move: send it
    | { kind: "ignored" };

export class MoveEntry {
    private readonly moves: { notation: string; points: string[] }[];
    private path: string[] = [];

    constructor(legalMoves: readonly string[]) {
        this.moves = legalMoves.map((notation) => ({ notation, points: pointsOf(notation) }));
    }

    current(): readonly string[] {
        return this.path;
    }

    // The points a move can start from.
    origins(): Set<string> {
        return new Set(this.moves.map((m) => m.points[0]!));
    }

    // Where the move being entered can go next.
    targets(): Set<string> {
        const next = new Set<string>();
        if (this.path.length === 0) return next;
        for (const m of this.moves) {
            if (startsWith(m.points, this.path) && m.points.length > this.path.length) next.add(m.points[this.path.length]!);
        }
        return next;
    }

    // The legal move the entered points make, if they make one. When a jump
    // could also go on (captures are not compulsory in every variant), the
    // player ends it by clicking the landing point again.
    complete(): string | undefined {
        return this.moves.find((m) => m.points.length === this.path.length && startsWith(m.points, this.path))?.notation;
    }

    click(point: string): ClickResult {
        const origins = this.origins();
        if (this.path.length === 0) {
            if (!origins.has(point)) return { kind: "ignored" };
            this.path = [point];
            return { kind: "path", path: [...this.path] };
        }
        if (point === this.path.at(-1)) {
            // Clicking the selected piece again lets it go; clicking where a
            // jump has landed ends the move there.
            if (this.path.length === 1) {
                this.path = [];
                return { kind: "path", path: [] };
            }
            const notation = this.complete();
            return notation ? this.finish(notation) : { kind: "ignored" };
        }
        if (this.targets().has(point)) {
            this.path.push(point);
            const notation = this.complete();
            const goesOn = this.targets().size > 0;
            if (notation && !goesOn) return this.finish(notation);
            return { kind: "path", path: [...this.path] };
        }
        if (this.path.length === 1 && origins.has(point)) {
            this.path = [point];
            return { kind: "path", path: [...this.path] };
        }
        return { kind: "ignored" };
    }

    reset(): void {
        this.path = [];
    }

    private finish(notation: string): ClickResult {
        this.path = [];
        return { kind: "move", notation };
    }
}
