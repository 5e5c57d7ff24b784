// Game clocks as the page shows them. The server sends each side's time at
// its own read_time; the running side's clock is drawn as remaining minus the
// time since the page received it, so a device whose clock is set wrong
// still counts down right (only the network's delay is not counted).
import type { Clocks, Side, TimeControl } from "./api.js";
import { t } from "./i18n.js";

// A proto3 JSON Duration ("15s", "1.500s", "-0.2s") in milliseconds.
export function durationMs(duration: string | undefined): number {
    if (!duration) return 0;
    const seconds = Number(duration.replace(/s$/, ""));
    return Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0;
}

// A time left: "4:07", "1:02:03", "9.4" under ten seconds, "2 d 5 h" for days.
export function formatClock(ms: number): string {
    const left = Math.max(0, ms);
    if (left < 10_000) return (Math.floor(left / 100) / 10).toFixed(1);
    const total = Math.floor(left / 1000);
    const days = Math.floor(total / 86_400);
    const hours = Math.floor((total % 86_400) / 3600);
    if (days > 0) return t("clock.daysHours", { days, hours });
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = String(total % 60).padStart(2, "0");
    return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

// A time control as people say it: "3 min + 2 s", "2 days a move".
export function timeControlText(control: TimeControl | undefined): string {
    if (control?.correspondence) return t("timeControl.correspondence", { days: control.correspondence.daysPerMove ?? 0 });
    if (control?.realTime) {
        const initial = durationMs(control.realTime.initial) / 1000;
        const increment = durationMs(control.realTime.increment) / 1000;
        const base = initial < 60 ? t("timeControl.seconds", { n: initial }) : t("timeControl.minutes", { n: initial / 60 });
        return `${base} + ${t("timeControl.seconds", { n: increment })}`;
    }
    return t("timeControl.none");
}

// The clocks of one game as last received, read at any later moment.
export class ClockReading {
    private readonly received = performance.now();

    constructor(private readonly clocks: Clocks) {}

    running(): Side {
        return this.clocks.running;
    }

    remaining(side: Side): number {
        const base = durationMs(side === "SIDE_FOX" ? this.clocks.foxRemaining : this.clocks.geeseRemaining);
        return side === this.clocks.running ? base - (performance.now() - this.received) : base;
    }

    // Time left until the game ends by itself unless the side to move moves
    // (its flag, or a first-move deadline), if such a deadline applies.
    untilDeadline(): number | undefined {
        if (!this.clocks.deadline || !this.clocks.readTime) return undefined;
        const span = Date.parse(this.clocks.deadline) - Date.parse(this.clocks.readTime);
        return span - (performance.now() - this.received);
    }

    firstMoveDeadline(): boolean {
        return this.clocks.firstMoveDeadline;
    }
}
