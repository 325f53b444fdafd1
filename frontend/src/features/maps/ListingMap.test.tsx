import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as leaflet from "../../shared/ui/map/leaflet";
import { ListingMap } from "./ListingMap";

vi.mock("../../shared/ui/map/leaflet", async (original) => {
  const actual = await original<typeof import("../../shared/ui/map/leaflet")>();
  return { ...actual, loadLeaflet: vi.fn(actual.loadLeaflet) };
});

const props = { tileUrl: "/static/img/blank-tile.png", attribution: "", markers: [{ id: "1", lat: 43.65, lng: -79.38, title: "Harbour Loft" }] };

describe("ListingMap", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(leaflet.loadLeaflet).mockClear();
  });

  it("loads Leaflet only once the map comes near the screen", async () => {
    let report: (entries: { isIntersecting: boolean }[]) => void = () => {};
    const observe = vi.fn();
    vi.stubGlobal(
      "IntersectionObserver",
      vi.fn(function (this: object, callback: typeof report) {
        report = callback;
        return Object.assign(this, { observe, disconnect: vi.fn() });
      }),
    );
    render(<ListingMap {...props} />);
    expect(observe).toHaveBeenCalledWith(screen.getByTestId("listing-map"));
    report([{ isIntersecting: false }]);
    expect(leaflet.loadLeaflet).not.toHaveBeenCalled();
    report([{ isIntersecting: true }]);
    await waitFor(() => expect(screen.getByTestId("listing-map").className).toContain("leaflet-container"));
    expect(document.querySelectorAll(".leaflet-interactive")).toHaveLength(1);
  });
});
