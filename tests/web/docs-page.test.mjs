// The docs page (/docs, Redoc) in headless Chromium: it renders every
// operation of the server's OpenAPI document and no other, it fetches
// nothing from any other origin, and the document it shows is the one the
// build wrote.
// Usage: node docs-page.test.mjs --server BIN --pg-state FILE --openapi FILE --out DIR
import fs from "node:fs";
import { check, launchChromium, options, run, startServer, waitFor, watchForErrors } from "./lib.mjs";

const args = options("server", "pg-state", "openapi", "out");

// Redoc's sidebar credit shows a logo from cdn.redoc.ly; the page's
// Content-Security-Policy blocks that request before it leaves the browser.
const REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";

await run("web docs page", async (cleanup) => {
    const url = await startServer({ binary: args.server, pgState: args["pg-state"], logDir: args.out, name: "docs-page" }, cleanup);

    const served = await (await fetch(`${url}/openapi.json`)).json();
    const built = JSON.parse(fs.readFileSync(args.openapi, "utf8"));
    check(JSON.stringify(served) === JSON.stringify(built), "/openapi.json differs from the build's openapi/openapi.json");
    const operations = Object.values(served.paths).flatMap((methods) => Object.values(methods));
    check(operations.length > 0, "the document has no operations");

    const browser = await launchChromium(cleanup);
    const page = await browser.newPage();
    const errors = [];
    watchForErrors(page, "docs", errors);
    const elsewhere = [];
    page.on("request", (request) => {
        const target = request.url();
        if (!target.startsWith(`${url}/`) && !target.startsWith("blob:") && !target.startsWith("data:")) elsewhere.push(target);
    });

    await page.goto(`${url}/docs`);
    // Redoc gives each operation's section the id tag/<tag>/operation/<id>.
    const sections = await waitFor("Redoc to render every operation", () =>
        page.evaluate((ids) => {
            const found = [...document.querySelectorAll('[data-section-id*="/operation/"]')]
                .map((node) => node.getAttribute("data-section-id").split("/operation/")[1]);
            return ids.every((id) => found.includes(id)) ? found : null;
        }, operations.map((op) => op.operationId)), 30_000);
    const rendered = [...new Set(sections)].sort();
    const documented = operations.map((op) => op.operationId).sort();
    check(JSON.stringify(rendered) === JSON.stringify(documented), `Redoc shows ${rendered} but the document has ${documented}`);

    // Each operation's section shows its summary and its path.
    for (const op of operations) {
        const text = await page.locator(`[data-section-id$="/operation/${op.operationId}"]`).first().innerText();
        check(text.includes(op.summary), `the section of ${op.operationId} lacks its summary "${op.summary}"`);
    }
    await page.screenshot({ path: `${args.out}/docs.png` });

    check(elsewhere.every((target) => target === REDOC_LOGO), `the page asked other origins for ${elsewhere.filter((t) => t !== REDOC_LOGO)}`);
    const expected = (e) => e.includes(REDOC_LOGO) && e.includes("Content Security Policy");
    check(elsewhere.length === 0 || errors.some(expected), "Redoc's logo request was not blocked by the page's CSP");
    const unexpected = errors.filter((e) => !expected(e));
    check(unexpected.length === 0, `the page reported errors:\n${unexpected.join("\n")}`);
});
