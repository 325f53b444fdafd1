import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as leaflet from "../../shared/ui/map/leaflet";
import { SearchMap, urlForBox } from "./SearchMap";

vi.mock("../../shared/ui/map/leaflet", async (original) => {
  const actual = await original<typeof import("../../shared/ui/map/leaflet")>();
  return { ...actual, loadLeaflet: vi.fn(actual.loadLeaflet) };
});

function screenIs(small: boolean) {
  vi.stubGlobal(
    "matchMedia",
    vi.fn((query: string) => ({ matches: small, media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
  );
}

const props = {
  tileUrl: "/static/img/blank-tile.png",
  attribution: "",
  bounds: null,
  markers: [{ id: "1", lat: 43.65, lng: -79.38, title: "Harbour Loft", href: "/listing-details/harbour-loft" }],
};

describe("SearchMap", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(leaflet.loadLeaflet).mockClear();
  });

  it("puts the box in the address and starts again from the first page", () => {
    expect(urlForBox({ pathname: "/property-listing", search: "?city=Toronto&page=3" }, [43.6, -79.5, 43.7, -79.3])).toBe(
      "/property-listing?city=Toronto&bounds=43.6%2C-79.5%2C43.7%2C-79.3",
    );
  });

  it("shows the map beside the results on wider screens", async () => {
    screenIs(false);
    render(<SearchMap {...props} />);
    expect(screen.queryByRole("button", { name: /map/i })).toBeNull();
    await waitFor(() => expect(screen.getByTestId("search-map").className).toContain("leaflet-container"));
    expect(screen.getByText("Move the map to search that area.")).toBeVisible();
  });

  it("keeps the map behind a button on phones and loads Leaflet only when it is asked for", async () => {
    screenIs(true);
    render(<SearchMap {...props} />);
    const button = screen.getByRole("button", { name: "Show map" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByTestId("search-map")).not.toBeVisible();
    expect(leaflet.loadLeaflet).not.toHaveBeenCalled();

    fireEvent.click(button);
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(button).toHaveTextContent("Hide map");
    expect(screen.getByTestId("search-map")).toBeVisible();
    await waitFor(() => expect(screen.getByTestId("search-map").className).toContain("leaflet-container"));
    expect(leaflet.loadLeaflet).toHaveBeenCalledTimes(1);
    expect(document.querySelectorAll(".leaflet-interactive")).toHaveLength(1);

    fireEvent.click(button);
    expect(screen.getByTestId("search-map")).not.toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Show map" }));
    expect(screen.getByTestId("search-map")).toBeVisible();
    expect(leaflet.loadLeaflet).toHaveBeenCalledTimes(1);
  });
});
