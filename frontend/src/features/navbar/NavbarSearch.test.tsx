import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NavbarSearch } from "./NavbarSearch";

function found(titles: string[]) {
  const listings = titles.map((title, index) => ({ _id: `l${index}`, slug: `slug-${index}`, title }));
  const body = { message: "", data: { listings, totalCount: listings.length, page: 1, totalPages: 1 } };
  return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
}

afterEach(() => vi.restoreAllMocks());

describe("the navbar search", () => {
  it.each([
    [["Harbour Loft"], "1 result"],
    [["Harbour Loft", "Harbour Hall"], "2 results"],
  ])("counts what it found in words a person writes (%j)", async (titles, said) => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => Promise.resolve(found(titles)));
    const user = userEvent.setup();
    render(<NavbarSearch />);
    await user.click(screen.getByRole("button", { name: "Search spaces" }));
    await user.type(screen.getByRole("searchbox"), "harbour");
    expect(await screen.findByText(said, {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getAllByRole("link")).toHaveLength(titles.length);
  });
});
