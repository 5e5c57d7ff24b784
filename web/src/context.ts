// What every page gets from the application: the API, the variants in the
// page's language, and a way to show another page.
import type { Api, Variant } from "./api.js";

export interface PageContext {
    api: Api;
    variants(): readonly Variant[];
    variant(name: string): Variant | undefined;
    // Shows another page by its hash: "game=<id>", "analysis=<id>", "" (home).
    navigate(hash: string): void;
}
