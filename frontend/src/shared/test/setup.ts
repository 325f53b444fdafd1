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
