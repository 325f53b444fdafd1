import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AdminWidgets } from "./AdminWidgets";
import { chartSeries } from "./stats";
import {
  amenityBars,
  COLOUR_SHADES,
  countryBars,
  listPages,
  locationBars,
  percentText,
  percentValue,
  popularHostRows,
  revenueSeries,
  UNCOLOURED_SHADE,
  userRoleBars,
} from "./widgets";
import { renderWithQuery, requestOf } from "../../shared/test/render";

const city = (name: string, count: number, percentage: string) => ({ city: name, country: "Canada", count, percentage, colour: null });

describe("high-demand locations", () => {
  it("colours the first four Black, Yellow, Blue, Green and leaves the rest uncoloured", () => {
    const bars = locationBars([
      city("Toronto", 8, "40.00"),
      city("Ottawa", 5, "25.00"),
      city("Montreal", 3, "15.00"),
      city("Calgary", 2, "10.00"),
      city("Halifax", 1, "5.00"),
      city("Regina", 1, "5.00"),
    ]);
    expect(bars.map((bar) => bar.colour)).toEqual(["Black", "Yellow", "Blue", "Green", null, null]);
    expect(bars.map((bar) => bar.shade)).toEqual([
      COLOUR_SHADES.Black,
      COLOUR_SHADES.Yellow,
      COLOUR_SHADES.Blue,
      COLOUR_SHADES.Green,
      UNCOLOURED_SHADE,
      UNCOLOURED_SHADE,
    ]);
    expect(bars[0]).toMatchObject({ label: "Toronto, Canada", count: 8, percentage: 40, text: "40.00%" });
  });

  it("colours by rank even when the server sends a colour on a later row", () => {
    const bars = locationBars([{ ...city("A", 1, "50"), colour: "Green" }, ...[2, 3, 4, 5].map((n) => ({ ...city(`C${n}`, 1, "10"), colour: "Black" }))]);
    expect(bars.map((bar) => bar.colour)).toEqual(["Black", "Yellow", "Blue", "Green", null]);
  });

  it("shows nothing for no answer", () => {
    expect(locationBars(undefined)).toEqual([]);
  });
});

describe("percentages", () => {
  it("reads strings and numbers, clamps to 0..100 and prints two places", () => {
    expect(percentValue("12.50")).toBe(12.5);
    expect(percentValue(33.333)).toBe(33.333);
    expect(percentValue("150")).toBe(100);
    expect(percentValue("-3")).toBe(0);
    expect(percentValue("abc")).toBe(0);
    expect(percentValue(null)).toBe(0);
    expect(percentText("7.5")).toBe("7.50%");
    expect(percentText(undefined)).toBe("0.00%");
  });

  it("keeps amenity shares as given (they need not sum to 100)", () => {
    const bars = amenityBars([
      { _id: "1", name: "Wi-Fi", icon: "", count: 9, percentage: "90.00" },
      { _id: "2", name: "Parking", icon: "", count: 6, percentage: "60.00" },
    ]);
    expect(bars.map((bar) => [bar.label, bar.percentage, bar.text])).toEqual([
      ["Wi-Fi", 90, "90.00%"],
      ["Parking", 60, "60.00%"],
    ]);
  });
});

describe("geo chart", () => {
  it("uses the server's progress bars, largest first", () => {
    const bars = countryBars({
      geoChart: { Canada: 1, India: 3 },
      progressBars: [
        { country: "Canada", count: 1, percentage: "25.00" },
        { country: "India", count: 3, percentage: "75.00" },
      ],
      total: 4,
    });
    expect(bars.map((bar) => [bar.country, bar.percentage, bar.text])).toEqual([
      ["India", 75, "75.00%"],
      ["Canada", 25, "25.00%"],
    ]);
  });

  it("computes the shares from the country map when there are no bars", () => {
    const bars = countryBars({ geoChart: { Canada: 1, "United States": 2 } });
    expect(bars.map((bar) => [bar.country, bar.count, bar.text])).toEqual([
      ["United States", 2, "66.67%"],
      ["Canada", 1, "33.33%"],
    ]);
    expect(countryBars({ geoChart: {} })).toEqual([]);
  });
});

describe("revenue", () => {
  it("turns the periods into two series with totals to the cent", () => {
    const series = revenueSeries([
      { label: "Jan", year: 2026, startDate: "2026-01-01", revenue: "100.10", commission: "10.01" },
      { label: "Feb", year: 2026, startDate: "2026-01-01", revenue: "0.20", commission: "0.02" },
      { label: "Mar", year: 2026, startDate: "2026-01-01", revenue: "bad", commission: "0" },
    ]);
    expect(series.labels).toEqual(["Jan", "Feb", "Mar"]);
    expect(series.revenue).toEqual([100.1, 0.2, 0]);
    expect(series.totalRevenue).toBe(100.3);
    expect(series.totalCommission).toBe(10.03);
  });
});

describe("people and roles", () => {
  it("names popular hosts and carries their share", () => {
    const rows = popularHostRows([
      { host: { _id: "h1", firstName: "Ada", lastName: "Host", displayName: "Ada Host", userName: "", email: "ada@example.com", avatar: "", isDeleted: false }, totalBookings: 3, percentage: "60.00" },
      { host: { _id: "h2", firstName: "", lastName: "", displayName: "gone", userName: "", email: "gone@example.com", avatar: "", isDeleted: true }, totalBookings: 2, percentage: "40.00" },
    ]);
    expect(rows.map((row) => [row.name, row.totalBookings, row.text, row.deleted])).toEqual([
      ["Ada Host", 3, "60.00%", false],
      ["gone", 2, "40.00%", true],
    ]);
  });

  it("labels users by role", () => {
    const rows = userRoleBars({ totalUsers: 4, roles: [{ role: "renter", count: 3, percentage: "75.00" }, { role: "subHost", count: 1, percentage: "25.00" }] });
    expect(rows.map((row) => [row.label, row.percentage])).toEqual([
      ["Renters", 75],
      ["Sub Hosts", 25],
    ]);
  });

});

describe("list pages", () => {
  it("counts pages from totalCount, or offers the next page while hasMore", () => {
    expect(listPages(1, { totalCount: 0 })).toBe(1);
    expect(listPages(1, { totalCount: 21 })).toBe(3);
    expect(listPages(1, { hasMore: true })).toBe(2);
    expect(listPages(3, { hasMore: true })).toBe(4);
    expect(listPages(3, { hasMore: false })).toBe(3);
    expect(listPages(2, null)).toBe(2);
  });
});

describe("statistic overview", () => {
  it("uses the server's labels and the newest period's year", () => {
    const entries = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map((label, index) => ({
      label,
      year: index < 3 ? 2025 : 2026,
      data: [{ propertyType: "officeSpace" as const, count: index }],
    }));
    const series = chartSeries("week", entries);
    expect(series.labels[0]).toBe("Sun");
    expect(series.workSpaces).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(series.total).toBe(21);
    expect(series.year).toBe(2026);
  });
});

describe("admin widgets", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("draws the coloured location bars from the API and no payouts for a moderator", async () => {
    const answers: Record<string, unknown> = {
      "/api/dashboard/high-demand-locations": {
        highDemandLocations: ["Toronto", "Ottawa", "Montreal", "Calgary", "Halifax"].map((name, i) => city(name, 5 - i, `${20}.00`)),
      },
    };
    const fetch = vi.fn(async (input: unknown) => {
      const { path } = requestOf(input);
      const data = answers[path] ?? (path.includes("geo-chart") ? { geoChart: {}, progressBars: [], total: 0 } : path.includes("amenities") ? { highDemandAmenities: [] } : path.includes("total-users") ? { totalUsers: 0, roles: [] } : path.includes("popular") ? [] : { hasMore: false, bookings: [], requests: [], reservations: [], listings: [] });
      return new Response(JSON.stringify({ message: "ok", data }), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    vi.stubGlobal("fetch", fetch);
    renderWithQuery(<AdminWidgets widgets={["highDemandLocations", "geoChart", "recentBookings"]} />);
    await waitFor(() => expect(screen.getByText("Toronto, Canada")).toBeTruthy());
    const coloured = Array.from(document.querySelectorAll('[data-widget="high-demand-locations"] li')).map((li) => li.getAttribute("data-colour"));
    expect(coloured).toEqual(["Black", "Yellow", "Blue", "Green", null]);
    const called = fetch.mock.calls.map(([input]) => requestOf(input).path);
    expect(called.some((path) => path.includes("payout-requests"))).toBe(false);
    expect(called.some((path) => path.includes("revenue-statistics"))).toBe(false);
    expect(screen.getByRole("heading", { name: "Bookings by country" })).toBeTruthy();
  });
});
