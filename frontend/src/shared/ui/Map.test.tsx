import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { boxFilters, boxOf, PinPicker, ResultsMap, validLatLng } from "./Map";

describe("maps", () => {
  it("turns the visible box into search filters", () => {
    const bounds = { getNorth: () => 43.71234567, getSouth: () => 43.6, getEast: () => -79.3, getWest: () => -79.5 };
    expect(boxOf(bounds)).toEqual({ north: 43.712346, south: 43.6, east: -79.3, west: -79.5 });
    expect(boxFilters(boxOf(bounds))).toEqual({ north: "43.712346", south: "43.6", east: "-79.3", west: "-79.5" });
    expect(validLatLng(91, 0)).toBe(false);
    expect(validLatLng(45, -75)).toBe(true);
  });

  it("takes a typed place in the pin picker, without fetching tiles", async () => {
    const change = vi.fn();
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    render(<PinPicker label="Location on the map" value={null} onChange={change} tiles={null} />);
    fireEvent.change(screen.getByLabelText("Latitude"), { target: { value: "45.4215" } });
    fireEvent.change(screen.getByLabelText("Longitude"), { target: { value: "-75.6972" } });
    fireEvent.blur(screen.getByLabelText("Longitude"));
    expect(change).toHaveBeenCalledWith({ lat: 45.4215, lng: -75.6972 });
    await waitFor(() => expect(screen.getByTestId("map").className).toContain("leaflet-container"));
    expect(document.querySelector(".leaflet-tile")).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it("lists the results as links beside the map", async () => {
    render(
      <ResultsMap
        label="Results on the map"
        tiles={null}
        onBoxChange={() => {}}
        pins={[{ id: "1", lat: 43.65, lng: -79.38, label: "Harbour Loft", href: "/listing-details/harbour-loft" }]}
      />,
    );
    expect(screen.getByRole("link", { name: "Harbour Loft" })).toHaveAttribute("href", "/listing-details/harbour-loft");
    await waitFor(() => expect(screen.getByTestId("map").className).toContain("leaflet-container"));
  });
});
