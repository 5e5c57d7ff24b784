// The home page: "Play now" (quick pairing, quick.ts); a new game against a
// friend (a share link) or the computer
// (level 1-8), with any variant, its options, a seat and a time control; the
// lobby of open public games and the games being played, both kept current
// by asking ListGames every few seconds; recently finished games; importing
// a game record.
import type { CreateGameRequest, Game, GameListFilter, GameOptions, SeatChoice, TakenSeat, TimeControl } from "./api.js";
import { drawBoard, piecesOf } from "./board.js";
import { timeControlText } from "./clock.js";
import { $, clearError, el, showError, svgById } from "./dom.js";
import type { PageContext } from "./context.js";
import { t, type Key } from "./i18n.js";
import { QuickPairing } from "./quick.js";
import { heldSeat, holdSeat } from "./seats.js";
import { sideName, shortResult } from "./words.js";

// How often the lists are asked for again while the page is shown.
export const LOBBY_POLL_MS = 3000;

// The time controls offered: real time (initial + increment, seconds) and
// correspondence (days a move), within what CreateGame accepts.
const TIME_CONTROLS: { value: string; control?: TimeControl }[] = [
    { value: "none" },
    ...[[15, 0], [60, 1], [180, 2], [300, 3], [600, 5], [1800, 0]].map(([initial, increment]) => ({
        value: `rt:${initial}+${increment}`,
        control: { realTime: { initial: `${initial}s`, increment: `${increment}s` } },
    })),
    ...[1, 3, 7, 14].map((days) => ({ value: `cd:${days}`, control: { correspondence: { daysPerMove: days } } })),
];

export class HomePage {
    private poller = 0;
    private closed = false;
    private shownLists = new Map<string, string>();

    readonly quick: QuickPairing;

    constructor(private readonly context: PageContext) {
        this.quick = new QuickPairing(context, (taken) => this.openSeat(taken));
    }

    open(): void {
        $("home").hidden = false;
        document.title = "foxgeese";
        this.fillForm();
        this.render();
        void this.refreshLists();
        this.poller = window.setInterval(() => {
            if (!document.hidden) void this.refreshLists();
        }, LOBBY_POLL_MS);
    }

    close(): void {
        this.closed = true;
        this.quick.stop();
        window.clearInterval(this.poller);
        $("home").hidden = true;
    }

    // The form's choices that come from ListVariants (in the page's language).
    fillForm(): void {
        const select = $<HTMLSelectElement>("variant");
        const chosen = select.value;
        select.replaceChildren(...this.context.variants().map((v) => new Option(v.displayName, v.name)));
        if (chosen) select.value = chosen;
        const timeSelect = $<HTMLSelectElement>("time-control");
        const time = timeSelect.value || "none";
        const groups: [Key, string][] = [["timeControl.groupNone", "none"], ["timeControl.groupRealTime", "rt:"], ["timeControl.groupCorrespondence", "cd:"]];
        timeSelect.replaceChildren(...groups.map(([label, prefix]) => {
            const group = el("optgroup", { label: t(label) });
            group.append(...TIME_CONTROLS.filter((c) => c.value.startsWith(prefix)).map((c) => new Option(timeControlText(c.control), c.value)));
            return group;
        }));
        timeSelect.value = time;
        this.quick.render();
        this.renderOptions();
    }

    private selectedVariant() {
        return this.context.variant($<HTMLSelectElement>("variant").value);
    }

    private againstComputer(): boolean {
        return $<HTMLInputElement>("opponent-computer").checked;
    }

    // The variant's own options, as ListVariants describes them.
    renderOptions(): void {
        const variant = this.selectedVariant();
        const options = $("options");
        options.replaceChildren();
        if (!variant) return;
        for (const option of variant.options) {
            const id = `option-${option.name}`;
            if (option.kind === "OPTION_KIND_INT") {
                const select = el("select", { id });
                for (const value of option.allowedValues) select.append(new Option(String(value), String(value), false, value === option.defaultInt));
                options.append(el("label", { for: id }, `${option.description} `, select));
            } else {
                const box = el("input", { type: "checkbox", id });
                box.checked = option.defaultBool;
                options.append(el("label", { for: id }, box, ` ${option.description}`));
            }
        }
        this.render();
    }

    // Redraws the parts of the form that follow its choices, and the preview.
    render(): void {
        if (this.closed) return;
        const variant = this.selectedVariant();
        const computer = this.againstComputer();
        $("level-field").hidden = !computer;
        $("public-field").hidden = computer;
        const both = $<HTMLSelectElement>("seat").querySelector<HTMLOptionElement>('option[value="SEAT_CHOICE_BOTH"]');
        if (both) {
            both.disabled = computer;
            if (computer && both.selected) $<HTMLSelectElement>("seat").value = "SEAT_CHOICE_FOX";
        }
        $("create").textContent = t(computer ? "home.createComputer" : "home.createFriend");
        if (!variant) return;
        $("variant-summary").textContent = variant.summary;
        // The preview shows the custom start if one is typed, else the variant's.
        const code = $<HTMLInputElement>("start-position").value.trim() || variant.startPosition;
        drawBoard(svgById("preview"), variant.board, variant.pen, piecesOf(code, variant.board));
    }

    async create(): Promise<void> {
        const variant = this.selectedVariant();
        if (!variant) return;
        clearError();
        const options: GameOptions = {};
        for (const option of variant.options) {
            const input = document.getElementById(`option-${option.name}`);
            if (option.name === "geese" && input instanceof HTMLSelectElement) options.geese = Number(input.value);
            if (option.name === "geese_sideways" && input instanceof HTMLInputElement) options.geeseSideways = input.checked;
        }
        const computer = this.againstComputer();
        const time = TIME_CONTROLS.find((c) => c.value === $<HTMLSelectElement>("time-control").value)?.control;
        const request: CreateGameRequest = {
            variant: variant.name,
            options,
            startPosition: $<HTMLInputElement>("start-position").value.trim(),
            seat: $<HTMLSelectElement>("seat").value as SeatChoice,
            visibility: !computer && $<HTMLInputElement>("public").checked ? "VISIBILITY_PUBLIC" : "VISIBILITY_PRIVATE",
        };
        if (time) request.timeControl = time;
        if (computer) request.botLevel = Number($<HTMLSelectElement>("level").value);
        try {
            this.openSeat(await this.context.api.createGame(request));
        } catch (e) {
            showError(e);
        }
    }

    // A seat this device was given (a new game, a pairing): kept, then its game.
    private openSeat(taken: TakenSeat): void {
        holdSeat(taken.game.gameId, { seat: taken.seat, token: taken.seatToken });
        const invite = taken.inviteCode ? `&invite=${encodeURIComponent(taken.inviteCode)}` : "";
        this.context.navigate(`game=${encodeURIComponent(taken.game.gameId)}${invite}`);
    }

    async join(gameId: string): Promise<void> {
        clearError();
        try {
            const joined = await this.context.api.joinGame(gameId, "");
            holdSeat(gameId, { seat: joined.seat, token: joined.seatToken });
            this.context.navigate(`game=${encodeURIComponent(gameId)}`);
        } catch (e) {
            showError(e);
            void this.refreshLists();
        }
    }

    async importRecord(): Promise<void> {
        clearError();
        const record = $<HTMLTextAreaElement>("import-record").value;
        const visibility = $<HTMLInputElement>("import-public").checked ? "VISIBILITY_PUBLIC" : "VISIBILITY_PRIVATE";
        try {
            const game = await this.context.api.importGame(record, visibility);
            this.context.navigate(`game=${encodeURIComponent(game.gameId)}`);
        } catch (e) {
            showError(e);
        }
    }

    // --- the lists ---------------------------------------------------------------

    private async refreshLists(): Promise<void> {
        const lists: [string, GameListFilter, Key][] = [
            ["lobby-list", "GAME_LIST_FILTER_OPEN", "home.noOpenGames"],
            ["active-list", "GAME_LIST_FILTER_ACTIVE", "home.noActiveGames"],
            ["recent-list", "GAME_LIST_FILTER_RECENT", "home.noRecentGames"],
        ];
        await Promise.all(lists.map(async ([id, filter, empty]) => {
            let games: Game[];
            try {
                games = await this.context.api.listGames(filter, 10);
            } catch (e) {
                // A list that cannot be read says so in place; the next poll retries.
                this.showList(id, [el("li", { class: "empty" }, e instanceof Error ? e.message : String(e))], "error");
                return;
            }
            if (this.closed) return;
            // Rebuilt only when something changed, so a button keeps its focus.
            const signature = JSON.stringify(games.map((g) => [g.gameId, g.state, g.ply, g.result]));
            if (this.shownLists.get(id) === signature) return;
            const items = games.map((game) => this.listItem(game));
            this.showList(id, items.length ? items : [el("li", { class: "empty" }, t(empty))], signature);
        }));
    }

    private showList(id: string, items: HTMLElement[], signature: string): void {
        this.shownLists.set(id, signature);
        $(id).replaceChildren(...items);
    }

    // Lists are rebuilt in the new language when it changes.
    relabel(): void {
        this.shownLists.clear();
        void this.refreshLists();
    }

    private listItem(game: Game): HTMLElement {
        const variant = this.context.variant(game.variant);
        const facts = [variant?.displayName ?? game.variant, timeControlText(game.timeControl)];
        const item = el("li", { "data-game": game.gameId });
        const link = (text: string, hash: string) => el("a", { href: `#${hash}` }, text);
        const id = encodeURIComponent(game.gameId);
        if (game.state === "GAME_STATE_WAITING") {
            const open = game.foxSeatTaken ? "SIDE_GEESE" : "SIDE_FOX";
            facts.push(t("home.youPlay", { side: sideName(open, variant) }));
            item.append(el("span", {}, facts.join(" · ")), " ");
            if (heldSeat(game.gameId)) item.append(link(t("home.yourGame"), `game=${id}`));
            else {
                const button = el("button", { type: "button", class: "join" }, t("home.join"));
                button.addEventListener("click", () => void this.join(game.gameId));
                item.append(button);
            }
        } else if (game.state === "GAME_STATE_ACTIVE") {
            if (game.botLevel) facts.push(t("game.againstComputer", { level: game.botLevel }));
            facts.push(t("home.ply", { ply: game.ply }));
            item.append(el("span", {}, facts.join(" · ")), " ", link(t("home.watch"), `game=${id}`));
        } else {
            facts.push(shortResult(game, variant));
            item.append(el("span", {}, facts.join(" · ")), " ", link(t("home.replay"), `game=${id}`), " ", link(t("home.analyse"), `analysis=${id}`));
        }
        return item;
    }
}
