import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../shared/api/query";
import { BookingReviews, type BookingReviewsData } from "./BookingReviews";

function answer(data: unknown) {
  return new Response(JSON.stringify({ success: true, message: "", data }), { status: 200, headers: { "Content-Type": "application/json" } });
}

function reviews(extra: Partial<BookingReviewsData> = {}): BookingReviewsData {
  return {
    renterReview: { _id: "r1", written: true, revealed: true, review: "Lovely light.", rating: 5, remarks: "", reply: "", repliedAt: null, can: { reply: false } },
    hostReview: { written: true, revealed: false },
    reviewPeriodEnds: "2030-01-15T10:00:00Z",
    canReview: false,
    renterReviews: null,
    ...extra,
  };
}

function show(data: BookingReviewsData) {
  const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(answer(data));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <BookingReviews bookingId="b1" completed renterName="Riley" />
    </QueryClientProvider>,
  );
  return fetch;
}

afterEach(() => vi.restoreAllMocks());

describe("a booking's reviews", () => {
  it("shows the revealed review, keeps the hidden one hidden and offers no reply the server does not allow", async () => {
    show(reviews());
    expect(await screen.findByText("Lovely light.")).toBeInTheDocument();
    expect(screen.getByText("Rated 5 out of 5")).toBeInTheDocument();
    expect(screen.getByText(/Written; shown when both sides have reviewed/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Reply" })).not.toBeInTheDocument();
    expect(screen.queryByTestId("renter-reputation")).not.toBeInTheDocument();
  });

  it("lets the host side reply when can.reply says so", async () => {
    const fetch = show(reviews({ renterReview: { ...reviews().renterReview!, can: { reply: true } } }));
    await userEvent.click(await screen.findByRole("button", { name: "Reply" }));
    await userEvent.click(screen.getByRole("button", { name: "Publish reply" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please write a reply.");
    await userEvent.type(screen.getByLabelText("Your reply"), "Thanks, Riley!");
    fetch.mockResolvedValue(answer({}));
    await userEvent.click(screen.getByRole("button", { name: "Publish reply" }));
    const sent = fetch.mock.calls.map((call) => call[0] as Request).find((request) => request.method === "PUT")!;
    expect(sent.url).toContain("/api/reviews/reply/r1");
    expect(await sent.json()).toEqual({ reply: "Thanks, Riley!" });
  });

  it("shows the host side what hosts said about the renter", async () => {
    show(
      reviews({
        renterReviews: { rating: "4.50", ratingCount: 2, total: 2, reviews: [{ _id: "h1", rating: 4, review: "Punctual.", listingTitle: "Canal Studio", createdAt: "2026-01-02T10:00:00Z" }] },
      }),
    );
    const section = await screen.findByTestId("renter-reputation");
    expect(section).toHaveTextContent("What hosts said about Riley");
    expect(section).toHaveTextContent("4.50 out of 5 from 2 ratings · 2 reviews");
    expect(section).toHaveTextContent("Punctual.");
  });
});
