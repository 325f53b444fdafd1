import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { RichTextEditor } from "../../shared/ui/RichTextEditor";
import { RichText } from "./RichText";

// The kit's editor itself, without waiting for its lazy chunk.
vi.mock("../../shared/ui/LazyRichTextEditor", () => ({ LazyRichTextEditor: RichTextEditor }));

function Page({ initial }: { initial: string }) {
  const [html, setHtml] = useState(initial);
  return (
    <>
      <RichText label="Content" value={html} onChange={setHtml} />
      <output aria-label="Saved draft">{html}</output>
    </>
  );
}

describe("content pages' editor", () => {
  it("edits in the kit's rich-text editor, and in the HTML source on demand", async () => {
    render(<Page initial="<h2>House rules</h2><p>Be kind.</p>" />);
    const rich = await screen.findByRole("textbox", { name: "Content" });
    expect(rich.getAttribute("contenteditable")).toBe("true");
    expect(screen.getByRole("toolbar", { name: "Content formatting" })).toBeTruthy();
    expect(rich.innerHTML).toContain("<h2>House rules</h2>");

    fireEvent.click(screen.getByRole("button", { name: "HTML source" }));
    const source = screen.getByRole("textbox", { name: "Content" }) as HTMLTextAreaElement;
    expect(source.tagName).toBe("TEXTAREA");
    expect(source.value).toBe("<h2>House rules</h2><p>Be kind.</p>");
    fireEvent.change(source, { target: { value: "<h2>House rules v2</h2>" } });
    expect(screen.getByLabelText("Saved draft").textContent).toBe("<h2>House rules v2</h2>");

    fireEvent.click(screen.getByRole("button", { name: "Visual editor" }));
    const again = await screen.findByRole("textbox", { name: "Content" });
    expect(again.innerHTML).toContain("House rules v2");
  });
});
