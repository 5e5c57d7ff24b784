// "Play now" on the home page: one button per variant and time control. A
// press asks SeekGame (a long poll) for the same game as whoever presses it
// next; the page shows that it is waiting, with a button to stop (which
// closes the request, and the server withdraws the seek at once). A pairing
// opens the game; when nobody came within the wait, the page offers the
// computer (CreateGame with the bot, the same variant and clock) or another
// wait.
import { ApiError, type TakenSeat, type TimeControl, type Variant } from "./api.js";
import { timeControlText } from "./clock.js";
import { $, clearError, el, showError } from "./dom.js";
import type { PageContext } from "./context.js";
import { t } from "./i18n.js";

// The clocks offered for quick games (initial + increment, seconds).
const QUICK_CONTROLS: TimeControl[] = [[180, 2], [300, 3], [600, 5]].map(([initial, increment]) => ({
    realTime: { initial: `${initial}s`, increment: `${increment}s` },
}));
// The computer's level offered after a wait nobody met.
const FALLBACK_LEVEL = 3;

interface Wanted {
    variant: Variant;
    control: TimeControl;
}

export class QuickPairing {
    private seeking?: AbortController;
    private last?: Wanted;

    constructor(private readonly context: PageContext, private readonly opened: (taken: TakenSeat) => void) {}

    // The buttons, in the page's language.
    render(): void {
        const rows = this.context.variants().map((variant) => {
            const buttons = QUICK_CONTROLS.map((control, index) => {
                const button = el("button", { type: "button", class: "quick", "data-variant": variant.name, "data-control": String(index) },
                    timeControlText(control));
                button.addEventListener("click", () => void this.seek({ variant, control }));
                return button;
            });
            return el("div", { class: "quick-row" }, el("span", { class: "quick-variant" }, variant.displayName), ...buttons);
        });
        $("quick-games").replaceChildren(...rows);
        if (this.last) this.describe(this.last, this.seeking ? "home.seeking" : "home.noOpponent");
    }

    async seek(wanted: Wanted): Promise<void> {
        this.stop();
        clearError();
        this.last = wanted;
        const seeking = new AbortController();
        this.seeking = seeking;
        this.show("waiting");
        try {
            const reply = await this.seekOnce(wanted, seeking.signal);
            if (seeking.signal.aborted) return;
            this.seeking = undefined;
            if (reply) {
                this.show("idle");
                this.opened(reply);
            } else {
                this.show("alone");
            }
        } catch (e) {
            if (seeking.signal.aborted) return;
            this.seeking = undefined;
            this.show("idle");
            showError(e);
        }
    }

    // A seek stopped a moment ago may still be being withdrawn by the
    // server (SEEK_ALREADY_OPEN): asked again after the second it says.
    private async seekOnce(wanted: Wanted, signal: AbortSignal): Promise<TakenSeat | undefined> {
        for (let attempt = 1; ; ++attempt) {
            try {
                return await this.context.api.seekGame({ variant: wanted.variant.name, timeControl: wanted.control }, signal);
            } catch (e) {
                if (!(e instanceof ApiError) || e.reason !== "SEEK_ALREADY_OPEN" || attempt === 3) throw e;
                await new Promise((resolve) => setTimeout(resolve, 1000));
                if (signal.aborted) throw e;
            }
        }
    }

    // Stops waiting (the button, or leaving the page).
    stop(): void {
        this.seeking?.abort();
        this.seeking = undefined;
        this.show("idle");
    }

    // After a wait nobody met: the computer, with the same variant and clock.
    async playComputer(): Promise<void> {
        if (!this.last) return;
        clearError();
        try {
            const created = await this.context.api.createGame({
                variant: this.last.variant.name,
                timeControl: this.last.control,
                seat: "SEAT_CHOICE_RANDOM",
                botLevel: FALLBACK_LEVEL,
            });
            this.show("idle");
            this.opened(created);
        } catch (e) {
            showError(e);
        }
    }

    async seekAgain(): Promise<void> {
        if (this.last) await this.seek(this.last);
    }

    private show(state: "idle" | "waiting" | "alone"): void {
        $("seek-status").hidden = state === "idle";
        $("seek-status").dataset["state"] = state;
        $("seek-cancel").hidden = state !== "waiting";
        $("seek-bot").hidden = state !== "alone";
        $("seek-again").hidden = state !== "alone";
        for (const button of document.querySelectorAll<HTMLButtonElement>("#quick-games button")) button.disabled = state === "waiting";
        if (state !== "idle" && this.last) this.describe(this.last, state === "waiting" ? "home.seeking" : "home.noOpponent");
    }

    private describe(wanted: Wanted, key: "home.seeking" | "home.noOpponent"): void {
        $("seek-text").textContent = t(key, { game: `${wanted.variant.displayName}, ${timeControlText(wanted.control)}` });
    }
}
