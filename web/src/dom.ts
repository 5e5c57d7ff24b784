// Small DOM helpers shared by the pages.
import { ApiError } from "./api.js";

export function $<T extends HTMLElement = HTMLElement>(id: string): T {
    const node = document.getElementById(id);
    if (!node) throw new Error(`the page has no #${id}`);
    return node as T;
}

export function svgById(id: string): SVGSVGElement {
    const node = document.getElementById(id);
    if (!(node instanceof SVGSVGElement)) throw new Error(`the page has no <svg id="${id}">`);
    return node;
}

// A new element with attributes and children (strings become text).
export function el<K extends keyof HTMLElementTagNameMap>(
    tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    node.append(...children);
    return node;
}

// Every failed action shows the API's own message (its reason is kept on
// the element for scripts and tests).
export function showError(error: unknown): void {
    const box = $("error");
    if (error instanceof ApiError) {
        box.textContent = error.message;
        box.dataset.reason = error.reason;
    } else {
        box.textContent = error instanceof Error ? error.message : String(error);
        box.dataset.reason = "CLIENT";
    }
    box.hidden = false;
}

export function clearError(): void {
    const box = $("error");
    box.textContent = "";
    delete box.dataset.reason;
    box.hidden = true;
}

// A local time of day for an RFC 3339 timestamp, in the page's language.
export function timeOfDay(timestamp: string, language: string): string {
    return new Date(timestamp).toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}
