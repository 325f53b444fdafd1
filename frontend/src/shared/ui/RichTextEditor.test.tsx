import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { RICH_TEXT_TAGS, RichTextEditor, safeLink } from "./RichTextEditor";

describe("rich-text editor", () => {
  it("allows exactly the tags the server's sanitizer keeps", () => {
    const source = readFileSync(resolve(__dirname, "../../../../apps/cms/sanitize.py"), "utf8");
    const block = source.slice(source.indexOf("ALLOWED_TAGS"), source.indexOf("ALLOWED_ATTRIBUTES"));
    const server = [...block.matchAll(/"([a-z0-9]+)"/g)].map((match) => match[1]);
    if (block.includes('f"h{level}"')) server.push("h1", "h2", "h3", "h4", "h5", "h6");
    expect([...RICH_TEXT_TAGS].sort()).toEqual([...new Set(server)].sort());
  });

  it("links only to http(s), mailto and tel", () => {
    expect(safeLink("example.com")).toBe("https://example.com");
    expect(safeLink("mailto:hi@example.com")).toBe("mailto:hi@example.com");
    expect(safeLink("javascript:alert(1)")).toBeNull();
    expect(safeLink("  ")).toBeNull();
  });

  it("shows the content, offers the formatting tools and reports HTML made of allowed tags", async () => {
    const change = vi.fn();
    render(<RichTextEditor label="Terms" value="<p>Hello <strong>world</strong></p>" onChange={change} />);
    const box = await screen.findByRole("textbox", { name: "Terms" });
    expect(box.innerHTML).toContain("<strong>world</strong>");
    expect(screen.getByRole("toolbar", { name: "Terms formatting" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Bulleted list" }));
    await waitFor(() => expect(change).toHaveBeenCalled());
    const html = change.mock.calls.at(-1)![0] as string;
    expect(html).toContain("<ul>");
    const tags = [...html.matchAll(/<([a-z0-9]+)/g)].map((match) => match[1]);
    for (const tag of tags) expect(RICH_TEXT_TAGS).toContain(tag);
  });
});
