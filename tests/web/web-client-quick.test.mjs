// "Play now" on the reference web client's home page, in headless Chromium:
// - two people press the same variant and clock: the first is shown
//   waiting, with a button to stop; the second's press pairs them, and both
//   pages open the same game, each with its own seat (different sides);
// - a person who stops looking is withdrawn at once: the next one to press
//   the same button is not paired with them;
// - when nobody comes within the wait, the page says so and offers the
//   computer: one press starts a game against it with the same variant and
//   clock.
// The page's wait (20 s) is cut to 1 s on the requests this test sends, so
// that no step sleeps through a long timeout.
// Usage: node web-client-quick.test.mjs --server BIN --pg-state FILE --out DIR --docs DIR
import { clientTest, gameIdOf, text, waitForText } from "./client.mjs";
import { check, waitFor } from "./lib.mjs";

const QUICK = '#quick-games button[data-variant="two_foxes"][data-control="1"]';

// Sends the page's SeekGame requests with a wait of `seconds`.
async function shortenWaits(page, seconds) {
    await page.route("**/v1/games:seek", (route) => {
        const body = JSON.parse(route.request().postData() ?? "{}");
        return route.continue({ postData: JSON.stringify({ ...body, waitSeconds: seconds }) });
    });
}

// The server's SeekGame callers waiting for an opponent (its metrics).
async function seeksWaiting(url) {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const line = metrics.split("\n").find((l) => l.startsWith("foxgeese_seeks_waiting "));
    return Number(line?.split(" ")[1] ?? NaN);
}

await clientTest("web client quick", async ({ url, person }) => {
    // --- two people pressing the same button play each other ------------------
    const first = await person("first");
    const second = await person("second");
    for (const page of [first, second]) {
        await page.goto(`${url}/`);
        await page.locator(QUICK).waitFor({ state: "visible" });
    }
    check((await text(first, QUICK)).includes("5 min + 3 s"), `the button says "${await text(first, QUICK)}"`);
    await first.click(QUICK);
    await waitForText(first, "seek-text", "Looking for an opponent: Two foxes (Halatafl), 5 min + 3 s");
    check(await first.locator("#seek-cancel").isVisible(), "no button to stop looking");
    check(await first.locator(QUICK).isDisabled(), "the buttons stay pressable while waiting");
    await waitFor("the first person's seek on the server", async () => (await seeksWaiting(url)) === 1);
    await second.click(QUICK);
    await waitFor("both pages to open a game", () => gameIdOf(first) && gameIdOf(second));
    check(gameIdOf(first) === gameIdOf(second), "the two people were sent to different games");
    const gameId = gameIdOf(first);
    const seats = await Promise.all([first, second].map((page) =>
        page.evaluate((id) => JSON.parse(localStorage.getItem(`foxgeese.seat.${id}`) ?? "null"), gameId)));
    check(seats.every((s) => s?.token), "a page holds no seat in the game");
    check(seats[0].seat !== seats[1].seat, `both hold ${seats[0].seat}`);
    const foxPage = seats[0].seat === "SEAT_FOX" ? first : second;
    const geesePage = foxPage === first ? second : first;
    await waitForText(foxPage, "status", "Your move (Foxes).");
    await waitForText(geesePage, "status", "Your opponent's move (Foxes).");

    // --- one who stops looking is never paired ------------------------------------
    for (const page of [first, second]) {
        await shortenWaits(page, 1);
        await page.goto(`${url}/`);
        await page.locator(QUICK).waitFor({ state: "visible" });
    }
    await first.click(QUICK);
    await waitFor("the seek on the server", async () => (await seeksWaiting(url)) === 1);
    await first.click("#seek-cancel");
    check(await first.locator("#seek-status").isHidden(), "the page still shows the wait");
    await waitFor("the seek withdrawn", async () => (await seeksWaiting(url)) === 0);
    await second.click(QUICK);

    // --- nobody came: the computer instead ----------------------------------------
    await waitForText(second, "seek-text", "No opponent came in time: Two foxes (Halatafl), 5 min + 3 s.");
    check(!gameIdOf(second), "the second person was paired with one who had stopped looking");
    check(await second.locator("#seek-bot").isVisible() && await second.locator("#seek-again").isVisible(),
        "no offer of the computer or of another wait");
    await second.click("#seek-bot");
    await waitFor("the game against the computer", () => gameIdOf(second));
    await waitForText(second, "game-facts", "against the computer, level 3");
    await waitForText(second, "game-facts", "5 min + 3 s");
    check(!gameIdOf(first), "the person who stopped looking was sent to a game");
});
