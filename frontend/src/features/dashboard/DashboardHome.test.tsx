import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

vi.mock("../../shared/api/hooks", () => ({
  useApiQuery: (path: string) =>
    path.includes("numbers")
      ? { isPending: false, isError: false, data: { totalBooking: 1, totalRentPaid: "120.00", totalSpaceOccupied: 1, cancelledRequestsCount: 0 } }
      : path.includes("statistics")
        ? { isPending: false, isError: false, data: undefined }
        : { isPending: false, isError: false, data: [] },
}));

import { countText, DashboardHome } from "./DashboardHome";

function show(props: Parameters<typeof DashboardHome>[0]) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <DashboardHome {...props} />
    </QueryClientProvider>,
  );
}

describe("DashboardHome", () => {
  it("pluralises counts", () => {
    expect(countText(1, "booking")).toBe("1 booking");
    expect(countText(0, "booking")).toBe("0 bookings");
    expect(countText(3, "booking")).toBe("3 bookings");
  });

  it("calls a host's income Total earnings and offers a new host the first listing", () => {
    show({ moneyLabel: "Total earnings", firstListing: true });
    expect(screen.getByText("Total earnings")).toBeTruthy();
    expect(screen.queryByText("Total rent paid")).toBeNull();
    expect(screen.getByRole("link", { name: "Add your first listing" }).getAttribute("href")).toBe("/add-new-listing");
  });

  it("keeps Total rent paid for a renter, without the listing call", () => {
    show({ moneyLabel: "Total rent paid" });
    expect(screen.getByText("Total rent paid")).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Add your first listing" })).toBeNull();
  });
});
