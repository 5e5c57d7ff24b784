// A real-time game in the reference web client, played by two browser pages
// to a loss on time, then a rematch: the fox's player creates a game with
// the shortest clock the API allows (15 s, no increment) and the geese's
// player joins from the share link; both make their first move (which has a
// deadline of its own, no clock); then the fox's clock runs on both pages,
// ticking down, and the fox's player lets it run out: both pages say the
// geese won on time. The fox's player offers a rematch, the geese's player
// accepts it, and both pages go to the new game with the seats swapped and
// the same clock, where the new geese's player aborts before moving. Screenshot: OUT/web-client-clock.png (and docs/ with
// FOXGEESE_UPDATE_SCREENSHOTS=1).
// Usage: node web-client-clock.test.mjs --server BIN --pg-state FILE --out DIR --docs DIR
import { api, clientTest, clickMove, gameIdOf, text, waitForMoves, waitForText } from "./client.mjs";
import { check, screenshot, waitFor } from "./lib.mjs";

// "0:14" or "9.8" (under ten seconds) in milliseconds.
function clockMs(shown) {
    const parts = shown.trim().split(":").map(Number);
    return parts.length === 1 ? parts[0] * 1000 : (parts[0] * 60 + parts[1]) * 1000;
}

await clientTest("web client clock", async ({ url, person, args }) => {
    // --- a game with a 15 s clock, created and joined from the pages ---------
    const fox = await person("fox");
    await fox.goto(`${url}/`);
    await fox.locator('#time-control option[value="rt:15+0"]').waitFor({ state: "attached" });
    await fox.selectOption("#seat", "SEAT_CHOICE_FOX");
    await fox.selectOption("#time-control", "rt:15+0");
    await fox.click("#create");
    await fox.locator("#share").waitFor({ state: "visible" });
    const first = gameIdOf(fox);
    const geese = await person("geese");
    await geese.goto(await fox.inputValue("#share-link"));
    await geese.click("#join");
    for (const page of [fox, geese]) {
        await waitForText(page, "game-facts", "15 s + 0 s");
        await waitForText(page, "clock-fox", "0:15");
        await waitForText(page, "clock-geese", "0:15");
    }
    // The first move has a deadline of its own, shown while it runs.
    await waitForText(fox, "deadline-note", "First move within");
    check(await fox.locator("#clock-fox").getAttribute("data-running") === "false", "a clock runs before the first move");

    // --- both first moves, then the fox's clock runs ----------------------------
    await waitForText(fox, "status", "Your move (Fox).");
    await clickMove(fox, "d4-d5");
    await waitForText(geese, "status", "Your move (Geese).");
    const { body: afterFox } = await api(url, "GET", `/v1/games/${first}`);
    await clickMove(geese, afterFox.game.legalMoves[0]);
    await waitForMoves(fox, 2);
    for (const page of [fox, geese]) {
        await waitFor("the fox's clock to run", async () => (await page.locator("#clock-fox").getAttribute("data-running")) === "true");
        check(await page.locator("#clock-geese").getAttribute("data-running") === "false", "the geese's clock runs on the fox's turn");
    }
    // It ticks on the page between the server's updates.
    const startMs = clockMs(await text(geese, "clock-fox"));
    await waitFor("the fox's clock to tick down", async () => clockMs(await text(geese, "clock-fox")) < startMs - 1000);
    check(clockMs(await text(geese, "clock-geese")) === 15_000, "the geese's clock moved on the fox's turn");

    // --- the fox's flag falls ---------------------------------------------------------
    for (const page of [fox, geese]) {
        await waitForText(page, "status", "Game over. Winner: Geese (the side to move ran out of time).", 45_000);
        await waitForText(page, "clock-fox", "0.0");
    }
    const { body: lost } = await api(url, "GET", `/v1/games/${first}`);
    check(lost.game.endReason === "END_REASON_TIMEOUT" && lost.game.result === "GAME_RESULT_GEESE_WIN", `the server ended the game with ${lost.game.endReason}`);
    await screenshot(fox, "web-client-clock.png", args);

    // --- a rematch: offered by the fox's player, accepted by the geese's ------------
    await fox.click("#offer-rematch");
    await fox.locator("#rematch-waiting").waitFor({ state: "visible" });
    await geese.locator("#rematch-offer").waitFor({ state: "visible" });
    await waitForText(geese, "note", "Fox offered a rematch.");
    await geese.click("#accept-rematch");
    const second = await waitFor("both pages in the rematch", () => {
        const [a, b] = [gameIdOf(fox), gameIdOf(geese)];
        return a && a === b && a !== first ? a : null;
    });
    const { body: rematch } = await api(url, "GET", `/v1/games/${second}`);
    check(rematch.game.rematchOfGameId === first, "the new game is not the rematch of the first");
    check(rematch.game.state === "GAME_STATE_ACTIVE", `the rematch is ${rematch.game.state}: a seat was not taken`);
    // The seats are swapped, the clock is the same.
    await waitForText(fox, "name-geese", "Geese (you)");
    await waitForText(geese, "name-fox", "Fox (you)");
    await waitForText(geese, "status", "Your move (Fox).");
    await waitForText(fox, "game-facts", "15 s + 0 s");
    await waitForText(fox, "presence-fox", "online");
    await clickMove(geese, "d4-d5");
    await waitForMoves(fox, 1);
    // Before both sides have moved, either may abort: no result.
    await fox.locator("#abort").waitFor({ state: "visible" });
    await fox.click("#abort");
    for (const page of [fox, geese]) await waitForText(page, "status", "Game over, no result (aborted before both sides had moved).");
});
