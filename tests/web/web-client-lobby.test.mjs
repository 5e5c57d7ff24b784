// The reference web client's home page, languages, phone layout, claims and
// records, in headless Chromium:
// - the lobby: a page showing the home page lists a public game created on
//   another page without being reloaded, and joins it from the list; a
//   third page watches it from the games being played; a draw is offered
//   and declined;
// - a claim: the fox's player leaves on the fox's turn; the geese's page
//   offers the claim, shows when it becomes possible (the refusal's
//   claimable_at), and claims the win then;
// - records: the game's exported record imported from the home page; a
//   broken record's refusal shown as the API's own message;
// - languages: a browser that prefers Polish gets the interface and the
//   variants (from ListVariants) in Polish; switching to Turkish changes
//   them, and the choice outlives a reload; on a game page the switch
//   changes the texts and the variant's name;
// - a phone: on a 360 px wide screen the whole board of a game is in view
//   and nothing is wider than the screen.
// Screenshots: OUT/web-client-home.png, OUT/web-client-phone.png (and
// docs/ with FOXGEESE_UPDATE_SCREENSHOTS=1).
// Usage: node web-client-lobby.test.mjs --server BIN --pg-state FILE --out DIR --docs DIR
import { api, clientTest, clickMove, gameIdOf, text, waitForMoves, waitForText } from "./client.mjs";
import { check, screenshot, waitFor } from "./lib.mjs";

// The shortest absence the server allows before a claim, so that the test
// sees a claim refused, then accepted, within seconds.
const GONE_SECONDS = 5;

await clientTest("web client lobby", async ({ url, person, args }) => {
    // --- the lobby lists a new public game without a reload ----------------------
    const visitor = await person("visitor", { viewport: { width: 1100, height: 900 } });
    await visitor.goto(`${url}/`);
    await waitForText(visitor, "lobby-list", "No open games right now.");
    await visitor.evaluate(() => (window.notReloaded = true));
    const host = await person("host");
    await host.goto(`${url}/`);
    await host.locator("#variant option").first().waitFor({ state: "attached" });
    await host.selectOption("#seat", "SEAT_CHOICE_FOX");
    await host.check("#public");
    await host.click("#create");
    await host.locator("#share").waitFor({ state: "visible" });
    const gameId = gameIdOf(host);
    const listed = visitor.locator(`#lobby-list li[data-game="${gameId}"]`);
    await listed.waitFor({ state: "visible", timeout: 20_000 });
    check(await visitor.evaluate(() => window.notReloaded === true), "the home page was reloaded to show the game");
    check((await listed.innerText()).includes("you play: Geese"), `the lobby's entry says "${await listed.innerText()}"`);
    await screenshot(visitor, "web-client-home.png", args);

    // --- joined from the lobby; the host leaves on the fox's turn -----------------
    await listed.locator("button.join").click();
    await waitForText(visitor, "status", "Your opponent's move (Fox).");
    check(gameIdOf(visitor) === gameId, "joining from the lobby did not open the game");
    await waitForText(host, "presence-geese", "online");
    // Anyone may watch it from "Games being played".
    const watcher = await person("watcher");
    await watcher.goto(`${url}/`);
    await watcher.locator(`#active-list li[data-game="${gameId}"] a`).click();
    await waitForText(watcher, "status", "To move: Fox.");
    check(await watcher.locator("#join").isHidden() && await watcher.locator("#resign").isHidden(), "a spectator is offered to play");
    // A draw offered and declined.
    await host.click("#offer-draw");
    await waitForText(host, "note", "You offered a draw.");
    await visitor.locator("#draw-offer").waitFor({ state: "visible" });
    await visitor.click("#decline-draw");
    await waitForText(host, "note", "The draw offer was declined (Geese).");
    await waitForText(watcher, "note", "The draw offer was declined (Geese).");
    check(await visitor.locator("#draw-offer").isHidden(), "the declined offer is still shown");
    await clickMove(host, "d4-d5");
    await waitForMoves(watcher, 1);
    await waitForText(visitor, "status", "Your move (Geese).");
    const { body: afterFox } = await api(url, "GET", `/v1/games/${gameId}`);
    await clickMove(visitor, afterFox.game.legalMoves[0]);
    await waitForMoves(host, 2);
    await host.close();
    await waitForText(visitor, "presence-fox", "away");
    await visitor.locator("#claim").waitFor({ state: "visible" });
    await waitForText(visitor, "claim-when", "Your opponent is away.");

    // --- the claim: refused while too early, with the time it becomes possible -----
    await visitor.click("#claim-win");
    await waitForText(visitor, "claim-when", "You can claim from");
    check(await visitor.locator("#error").getAttribute("data-reason") === "OPPONENT_PRESENT",
        `the early claim's refusal is ${await visitor.locator("#error").getAttribute("data-reason")}: "${await text(visitor, "error")}"`);
    check(await visitor.locator("#claim-win").isDisabled(), "the claim stays offered before it can succeed");
    await waitFor("the claim to become possible", () => visitor.locator("#claim-win").isEnabled(), 30_000);
    await waitForText(visitor, "claim-when", "You can claim now.");
    await visitor.click("#claim-win");
    await waitForText(visitor, "status", "Game over. Winner: Geese (the other side left and did not come back).");
    check(await visitor.locator("#claim").isHidden(), "a finished game still offers the claim");

    // --- records: the game exported and imported again; a broken one refused ---------
    const record = await (await fetch(`${url}/v1/games/${gameId}/record`)).text();
    await visitor.goto(`${url}/`);
    await visitor.fill("#import-record", record);
    await visitor.click("#import-button");
    await waitForText(visitor, "game-facts", "imported");
    check(gameIdOf(visitor) !== gameId, "importing did not make a game of its own");
    await waitForMoves(visitor, 2);
    await waitForText(visitor, "status", "Game over. Winner: Geese");
    const broken = '[Variant "standard"]\n[Result "*"]\n\n1. d4-d9 *\n';
    const refused = await api(url, "POST", "/v1/games:import", { record: broken });
    check(refused.status === 400 && refused.body.message, `ImportGame answered ${refused.status} to a broken record`);
    await visitor.goto(`${url}/`);
    await visitor.fill("#import-record", broken);
    await visitor.click("#import-button");
    await waitForText(visitor, "error", refused.body.message);

    // --- languages: from the browser, then switched, then remembered -----------------
    const { variants: polish } = await (await fetch(`${url}/v1/variants?language=pl`)).json();
    const { variants: turkish } = await (await fetch(`${url}/v1/variants?language=tr`)).json();
    const reader = await person("reader", { locale: "pl-PL" });
    await reader.goto(`${url}/`);
    await waitForText(reader, "#new-game h2", "Nowa partia");
    await waitFor("the variants in Polish", async () => (await reader.locator("#variant option").first().innerText()) === polish[0].displayName);
    await waitForText(reader, "variant-summary", polish[0].summary.slice(0, 40));
    check(await reader.evaluate(() => document.documentElement.lang) === "pl", "the page's lang is not pl");
    check(await reader.inputValue("#language") === "pl", "the language switch does not show Polish");
    await reader.selectOption("#language", "tr");
    await waitForText(reader, "#new-game h2", "Yeni oyun");
    await waitFor("the variants in Turkish", async () => (await reader.locator("#variant option").first().innerText()) === turkish[0].displayName);
    await waitForText(reader, "create", "Oyunu oluştur");
    await waitForText(reader, "#lobby h2", "Lobi");
    await reader.reload();
    await waitForText(reader, "#new-game h2", "Yeni oyun");
    await reader.goto(`${url}/#board`);
    await waitForText(reader, "score-explanation", "tahmin");
    await waitForText(reader, "analysis-title", "Analiz tahtası");

    // --- a phone: the whole board in view, nothing wider than the screen --------------
    const phone = await person("phone", { viewport: { width: 360, height: 740 }, locale: "en-US" });
    await phone.goto(`${url}/`);
    await phone.locator("#variant option").first().waitFor({ state: "attached" });
    const homeWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
    check(homeWidth <= 360, `the home page is ${homeWidth} px wide on a 360 px screen`);
    await phone.check("#opponent-computer");
    await phone.selectOption("#level", "1");
    await phone.selectOption("#time-control", "rt:300+3");
    await phone.click("#create");
    await waitForText(phone, "status", "Your move (Fox).");
    await clickMove(phone, "d4-d5");
    await waitForMoves(phone, 2);
    const view = await phone.evaluate(() => {
        const box = document.getElementById("board").getBoundingClientRect();
        const points = [...document.querySelectorAll("#board [data-point] .spot")].map((n) => n.getBoundingClientRect());
        return {
            left: box.left, right: box.right, top: box.top, bottom: box.bottom, points: points.length,
            pointsInView: points.filter((p) => p.left >= 0 && p.right <= innerWidth && p.top >= 0 && p.bottom <= innerHeight).length,
            width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth, scrollY,
        };
    });
    check(view.left >= 0 && view.right <= view.width && view.top >= 0 && view.bottom <= view.height,
        `on a 360 px screen the board is at ${JSON.stringify(view)}, not all in view`);
    check(view.points === 33 && view.pointsInView === 33, `${view.pointsInView} of ${view.points} points are in view`);
    check(view.scrollWidth <= view.width, `the game page is ${view.scrollWidth} px wide on a ${view.width} px screen`);
    check(await phone.locator("#clock-fox").isVisible(), "the clocks are not shown on a phone");
    await screenshot(phone, "web-client-phone.png", args);
    // The switch on a game page changes its texts and the variant's name too.
    const { variants: greek } = await (await fetch(`${url}/v1/variants?language=el`)).json();
    await phone.selectOption("#language", "el");
    await waitForText(phone, "game-title", greek.find((v) => v.name === "standard").displayName);
    await waitForText(phone, "name-fox", "Αλεπού (εσείς)");
    await waitForText(phone, "game-facts", "με τον υπολογιστή, επίπεδο 1");
    await waitForText(phone, "spectators", "θεατές: 0");
    await waitForText(phone, "share-picture", "Εικόνα (PNG)");
}, { flags: [`--opponent-gone-seconds=${GONE_SECONDS}`] });
