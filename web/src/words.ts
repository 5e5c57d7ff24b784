// The game's words in the page's language: sides, results, end reasons,
// scores and marks. Every enum value the API has is listed, so the compiler
// fails here when the API gains one.
import type { EndReason, Game, MoveMark, Score, Side, Variant } from "./api.js";
import { t, type Key } from "./i18n.js";

// "Fox", "Foxes" (two_foxes) or "Geese": a label, never inside a sentence,
// so that no language has to inflect it.
export function sideName(side: Side, variant: Variant | undefined): string {
    if (side === "SIDE_FOX") return t(variant && variant.foxCount > 1 ? "side.foxes" : "side.fox");
    return t("side.geese");
}

const endReasons: Record<Exclude<EndReason, "END_REASON_UNSPECIFIED">, Key> = {
    END_REASON_GEESE_BELOW_THRESHOLD: "end.geeseBelowThreshold",
    END_REASON_PEN_FILLED: "end.penFilled",
    END_REASON_NO_LEGAL_MOVE: "end.noLegalMove",
    END_REASON_THREEFOLD_REPETITION: "end.threefoldRepetition",
    END_REASON_FIFTY_MOVE_RULE: "end.fiftyMoveRule",
    END_REASON_RESIGNATION: "end.resignation",
    END_REASON_DRAW_AGREED: "end.drawAgreed",
    END_REASON_TIMEOUT: "end.timeout",
    END_REASON_ABORTED: "end.aborted",
    END_REASON_OPPONENT_LEFT: "end.opponentLeft",
    END_REASON_CANCELLED: "end.cancelled",
    END_REASON_EXPIRED: "end.expired",
    END_REASON_UNFINISHED: "end.unfinished",
};

export function endReasonText(reason: EndReason): string {
    return reason === "END_REASON_UNSPECIFIED" ? "" : t(endReasons[reason]);
}

// "Game over. Winner: Fox (too few geese are left)."
export function resultText(outcome: Pick<Game, "result" | "endReason">, variant: Variant | undefined): string {
    const reason = endReasonText(outcome.endReason);
    if (outcome.result === "GAME_RESULT_DRAW") return t("result.draw", { reason });
    if (outcome.result === "GAME_RESULT_FOX_SIDE_WINS" || outcome.result === "GAME_RESULT_GEESE_WIN") {
        const winner = sideName(outcome.result === "GAME_RESULT_FOX_SIDE_WINS" ? "SIDE_FOX" : "SIDE_GEESE", variant);
        return t("result.winner", { winner, reason });
    }
    // Aborted, cancelled, expired or an unfinished record: nobody won.
    return t("result.none", { reason });
}

// A short result for lists: "1-0" style is chess; here the winner's label.
export function shortResult(game: Game, variant: Variant | undefined): string {
    if (game.result === "GAME_RESULT_DRAW") return t("result.shortDraw");
    if (game.result === "GAME_RESULT_FOX_SIDE_WINS") return sideName("SIDE_FOX", variant);
    if (game.result === "GAME_RESULT_GEESE_WIN") return sideName("SIDE_GEESE", variant);
    return t("result.shortNone");
}

// A score as people read it: "win in 3", "loss in 4", "+37".
export function scoreText(score: Score | undefined): string {
    if (!score) return "";
    if (score.winInPlies !== undefined) return t("score.winIn", { n: score.winInPlies });
    if (score.lossInPlies !== undefined) return t("score.lossIn", { n: score.lossInPlies });
    const points = score.points ?? 0;
    return points > 0 ? `+${points}` : String(points);
}

const marks: Record<Exclude<MoveMark, "MOVE_MARK_UNSPECIFIED">, Key> = {
    MOVE_MARK_WIN_THROWN_AWAY: "mark.winThrownAway",
    MOVE_MARK_LOSS_SAVED: "mark.lossSaved",
};

export function markText(mark: MoveMark): string {
    return mark === "MOVE_MARK_UNSPECIFIED" ? "" : t(marks[mark]);
}
