// The reference web client: the site's pages, chosen by the URL's hash.
//   (no hash)                      home: new games, the lobby, games to watch
//   #game=<id>[&invite=<code>]     a game (the share link carries the invite)
//   #analysis=<id>                 a game's analysis
//   #board[=<variant>]             the analysis board alone
// Plain DOM and SVG, no framework: the pages are few and the API's types
// (generated from the OpenAPI document) keep the calls honest.
import { Api, apiBase, type Variant } from "./api.js";
import { AnalysisPage } from "./analysis.js";
import type { PageContext } from "./context.js";
import { $, clearError, showError, svgById } from "./dom.js";
import { GamePage } from "./game.js";
import { HomePage } from "./home.js";
import { initialLanguage, isLanguage, language, setLanguage, t } from "./i18n.js";

const api = new Api(apiBase());
let variants: Variant[] = [];
let page: HomePage | GamePage | AnalysisPage | null = null;

const context: PageContext = {
    api,
    variants: () => variants,
    variant: (name) => variants.find((v) => v.name === name),
    navigate: (hash) => {
        if (location.hash.slice(1) === hash) route();
        else location.hash = hash;
    },
};

function route(): void {
    page?.close();
    page = null;
    clearError();
    $("connection").textContent = "";
    delete $("connection").dataset.state;
    const params = new URLSearchParams(location.hash.slice(1));
    const gameId = params.get("game");
    const analysisId = params.get("analysis");
    if (gameId) {
        const game = new GamePage(context, gameId, params.get("invite") ?? "");
        page = game;
        void game.open();
    } else if (analysisId || params.has("board")) {
        const analysis = new AnalysisPage(context, analysisId ?? "", params.get("board") || "standard");
        page = analysis;
        void analysis.open();
    } else {
        const home = new HomePage(context);
        page = home;
        home.open();
    }
    window.scrollTo(0, 0);
}

// The variants' names, rules and option texts come in the page's language.
async function loadVariants(): Promise<boolean> {
    try {
        variants = await api.listVariants(language());
        return true;
    } catch (e) {
        showError(e);
        return false;
    }
}

async function switchLanguage(chosen: string): Promise<void> {
    if (!isLanguage(chosen)) return;
    setLanguage(chosen, true);
    await loadVariants();
    if (page instanceof HomePage) {
        page.fillForm();
        page.relabel();
    } else if (page instanceof AnalysisPage) {
        page.fillVariants();
        page.render();
    } else {
        page?.render();
    }
}

function on(id: string, event: string, handler: (e: Event) => void): void {
    $(id).addEventListener(event, handler);
}

// Every control is wired once; each acts on the page shown.
function wire(): void {
    const game = () => (page instanceof GamePage ? page : undefined);
    const home = () => (page instanceof HomePage ? page : undefined);
    const analysis = () => (page instanceof AnalysisPage ? page : undefined);

    on("language", "change", (e) => void switchLanguage((e.target as HTMLSelectElement).value));

    // Home.
    for (const id of ["opponent-friend", "opponent-computer", "seat", "start-position"]) on(id, "input", () => home()?.render());
    on("variant", "change", () => home()?.renderOptions());
    on("create", "click", () => void home()?.create());
    on("import-button", "click", () => void home()?.importRecord());
    on("seek-cancel", "click", () => home()?.quick.stop());
    on("seek-bot", "click", () => void home()?.quick.playComputer());
    on("seek-again", "click", () => void home()?.quick.seekAgain());

    // A game.
    on("join", "click", () => void game()?.join());
    on("offer-draw", "click", () => void game()?.offerDraw());
    on("accept-draw", "click", () => void game()?.respondDraw(true));
    on("decline-draw", "click", () => void game()?.respondDraw(false));
    on("resign", "click", () => {
        if (confirm(t("game.confirmResign"))) void game()?.resign();
    });
    on("abort", "click", () => void game()?.abort());
    on("cancel", "click", () => void game()?.cancel());
    on("claim-win", "click", () => void game()?.claim(false));
    on("claim-draw", "click", () => void game()?.claim(true));
    on("offer-rematch", "click", () => void game()?.offerRematch());
    on("accept-rematch", "click", () => void game()?.respondRematch(true));
    on("decline-rematch", "click", () => void game()?.respondRematch(false));
    on("go-rematch", "click", () => void game()?.joinRematch());
    on("move-form", "submit", (e) => {
        e.preventDefault();
        const input = $<HTMLInputElement>("move-input");
        const move = input.value.trim();
        if (move) void game()?.send(move).then((sent) => sent && (input.value = ""));
    });
    on("replay-first", "click", () => game()?.showPly(0));
    on("replay-back", "click", () => game()?.showPly((game()?.shownIndex() ?? 1) - 1));
    on("replay-forward", "click", () => game()?.showPly((game()?.shownIndex() ?? 0) + 1));
    on("replay-last", "click", () => game()?.showPly(null));
    on("replay-live", "click", () => game()?.showPly(null));
    on("replay-slider", "input", (e) => game()?.showPly(Number((e.target as HTMLInputElement).value)));
    on("move-list", "click", (e) => {
        const ply = (e.target as HTMLElement).closest<HTMLElement>("[data-ply]")?.dataset.ply;
        if (ply) game()?.showPly(Number(ply));
    });
    on("copy-share", "click", async () => {
        const button = $<HTMLButtonElement>("copy-share");
        const link = button.dataset.link ?? "";
        // The clipboard API needs a secure context (and may be refused):
        // then the link is shown to copy by hand.
        try {
            if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
            await navigator.clipboard.writeText(link);
            button.textContent = t("share.copied");
            window.setTimeout(() => (button.textContent = t("share.copyLink")), 2000);
        } catch {
            prompt(t("share.copyLink"), link);
        }
    });
    on("copy-link", "click", () => {
        const link = $<HTMLInputElement>("share-link");
        link.select();
        // The clipboard API needs a secure context; plain http falls back.
        if (navigator.clipboard && window.isSecureContext) void navigator.clipboard.writeText(link.value);
        else document.execCommand("copy");
    });
    const board = svgById("board");
    board.addEventListener("click", (e) => {
        const point = (e.target as Element).closest("[data-point]")?.getAttribute("data-point");
        if (point) game()?.pointClicked(point);
    });
    board.addEventListener("keydown", (e) => game()?.key(e));
    board.addEventListener("focus", () => game()?.focusBoard(true));
    board.addEventListener("blur", () => game()?.focusBoard(false));

    // Analysis.
    on("analysis-retry", "click", () => void analysis()?.analyseGame());
    on("analysis-slider", "input", (e) => analysis()?.select(Number((e.target as HTMLInputElement).value)));
    on("eval-graph", "click", (e) => analysis()?.graphClick((e as MouseEvent).clientX));
    on("analyse-position", "click", () => void analysis()?.analysePosition());
    on("position-code", "input", () => analysis()?.positionEdited());
    on("board-variant", "change", (e) => analysis()?.chooseVariant((e.target as HTMLSelectElement).value));
}

async function main(): Promise<void> {
    const chosen = initialLanguage();
    setLanguage(chosen, false);
    $<HTMLSelectElement>("language").value = chosen;
    wire();
    if (!(await loadVariants())) return;
    window.addEventListener("hashchange", route);
    route();
}

void main();
