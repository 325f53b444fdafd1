import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
  document.cookie.split("; ").forEach((part) => {
    const name = part.split("=")[0];
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  });
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.body.replaceChildren();
});

// jsdom lays nothing out: give ranges the empty geometry a real browser would measure
// (the rich-text editor scrolls its selection into view).
const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
if (typeof Range !== "undefined") {
  Range.prototype.getClientRects ??= emptyRects;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
}
