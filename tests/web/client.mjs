// What the tests of the reference web client share: opening browser pages
// as separate people, reading the page's state, entering moves as a person
// does, and waiting for what a page should come to show.
import { check, launchChromium, options, run, startServer, waitFor, watchForErrors } from "./lib.mjs";

// Runs a test of the client: a server of its own (with `flags`), Chromium,
// and `body({ url, person, args })`, where person(label, extra) opens a page
// as one more person. At the end no page may have reported an error or
// asked another origin for anything.
export function clientTest(name, body, { flags = [] } = {}) {
    const args = options("server", "pg-state", "out");
    return run(name, async (cleanup) => {
        const logName = name.replaceAll(" ", "-");
        const url = await startServer({ binary: args.server, pgState: args["pg-state"], logDir: args.out, name: logName, flags }, cleanup);
        const browser = await launchChromium(cleanup);
        const errors = [];
        const elsewhere = [];
        const person = (label, extra = {}) => openPerson(browser, cleanup, { label, url, errors, elsewhere, ...extra });
        await body({ url, person, args });
        check(elsewhere.length === 0, `the pages asked other origins for ${elsewhere}`);
        check(errors.length === 0, `the pages reported errors:\n${errors.join("\n")}`);
    });
}

// A page with storage of its own (where a page keeps its seats), as a person
// on their own device. Requests to origins other than the server's are noted
// in `elsewhere`; errors the page reports in `errors`.
export async function openPerson(browser, cleanup, { label, url, errors, elsewhere, viewport, locale }) {
    const context = await browser.newContext({ viewport: viewport ?? { width: 1100, height: 760 }, locale: locale ?? "en-US" });
    cleanup(() => context.close());
    const page = await context.newPage();
    // The API's refusals the tests ask for are logged by Chromium as failed
    // loads; they are not the page's errors (it shows them, as it should).
    watchForErrors(page, label, errors, (m) =>
        /status of 4\d\d/.test(m.text()) && new URL(m.location().url || url).pathname.startsWith("/v1/"));
    page.on("request", (request) => {
        if (!request.url().startsWith(`${url}/`)) elsewhere.push(`${label}: ${request.url()}`);
    });
    return page;
}

export const point = (page, name) => page.locator(`#board [data-point="${name}"]`);
export const text = (page, selector) => page.locator(selector.startsWith("#") || selector.includes(" ") ? selector : `#${selector}`).innerText();
export const movesListed = (page) => page.locator("#move-list li").allInnerTexts();
export const classesOf = (page, name) => point(page, name).getAttribute("class").then((c) => c.split(" "));
export const pieceAt = (page, name) =>
    point(page, name).evaluate((node) => (node.querySelector(".piece.fox") ? "F" : node.querySelector(".piece.goose") ? "G" : ""));

export async function waitForText(page, selector, wanted, timeoutMs) {
    let last = "";
    try {
        return await waitFor(`${selector} to say "${wanted}"`, async () => {
            last = await text(page, selector).catch(() => "");
            return last.includes(wanted);
        }, timeoutMs);
    } catch (e) {
        e.message += ` (it says "${last}"; the error line says "${await text(page, "error").catch(() => "")}")`;
        throw e;
    }
}

// Waits until the move list has `count` moves (at least that many with
// atLeast, when the other side may have answered already).
export async function waitForMoves(page, count, { atLeast = false } = {}) {
    let moves = [];
    try {
        return await waitFor(`${atLeast ? "at least " : ""}${count} moves in the move list`, async () => {
            moves = await movesListed(page);
            return moves.length === count || (atLeast && moves.length > count) ? moves : null;
        });
    } catch (e) {
        e.message += ` (it lists ${moves.join(" ") || "none"}; the status says "${await text(page, "status")}")`;
        throw e;
    }
}

// The game the page shows, from its URL.
export function gameIdOf(page) {
    return new URLSearchParams(new URL(page.url()).hash.slice(1)).get("game");
}

// Enters a move by clicking its points, as a person does: the origin, then
// each landing point; a jump that could go on is ended by clicking its
// last landing point again.
export async function clickMove(page, notation) {
    const points = notation.split(/[-x]/);
    for (const name of points) await point(page, name).click();
    if ((await text(page, "status")).includes("Jump on")) await point(page, points.at(-1)).click();
}

// Every piece on the board, as "F@c6 G@a3 ..." sorted.
export async function piecesShown(page, svg = "#board") {
    return page.evaluate((selector) => [...document.querySelectorAll(`${selector} [data-point]`)]
        .flatMap((node) => {
            const piece = node.querySelector(".piece.fox") ? "F" : node.querySelector(".piece.goose") ? "G" : "";
            return piece ? [`${piece}@${node.getAttribute("data-point")}`] : [];
        })
        .sort()
        .join(" "), svg);
}

// The pieces a position code puts on a board, read here independently of the
// client: ranks from the highest down, each rank's points from the left, F
// or G for a piece and a digit for that many empty points.
export function piecesOfCode(code, board) {
    const pieces = [];
    code.split(" ")[0].split("/").forEach((row, i) => {
        const rank = board.ranks - 1 - i;
        const points = board.points.filter((p) => p.rank === rank).sort((a, b) => a.file - b.file);
        let at = 0;
        for (const c of row) {
            if (/[1-9]/.test(c)) at += Number(c);
            else pieces.push(`${c}@${points[at++].name}`);
        }
    });
    return pieces.sort().join(" ");
}

// The API called directly, for what a test sets up or checks behind the page.
export async function api(url, method, path, body, token) {
    const response = await fetch(`${url}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
    });
    const reply = response.headers.get("content-type")?.startsWith("application/json") ? await response.json() : await response.text();
    return { status: response.status, body: reply };
}
