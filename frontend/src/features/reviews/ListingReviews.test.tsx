import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../shared/api/query";
import { ListingReviews } from "./ListingReviews";

function page(number: number) {
  const reviews = [{ _id: `r${number}`, rating: 4, review: `Review on page ${number}`, reply: "", repliedAt: null, createdAt: "2026-01-05T10:00:00Z", renter: { firstName: "Riley", avatar: "" } }];
  const body = { message: "", data: { reviews, totalCount: 21, page: number, totalPages: 3, rating: "4.00", ratingCount: 21 } };
  return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
}

afterEach(() => vi.restoreAllMocks());

describe("the listing page's older reviews", () => {
  it("waits to be asked, then pages from the second page on (the page shows the first itself)", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementation((input) => {
      const url = new URL(input instanceof Request ? input.url : String(input), "http://test");
      return Promise.resolve(page(Number(url.searchParams.get("page"))));
    });
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ListingReviews listingId="l1" startPage={2} />
      </QueryClientProvider>,
    );
    expect(fetch).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Show older reviews" }));
    expect(await screen.findByText("Review on page 2")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Newer reviews" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Older reviews" }));
    expect(await screen.findByText("Review on page 3")).toBeInTheDocument();
  });
});
