import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { LocationPicker } from "./LocationPicker";

const tiles = { tileUrl: "/static/img/blank-tile.png", attribution: "" };

describe("LocationPicker", () => {
  it("shows the pin the fields hold, and a click on the map reports where", async () => {
    const pick = vi.fn();
    const { rerender } = render(<LocationPicker {...tiles} latitude="43.65" longitude="-79.38" onPick={pick} />);
    const map = screen.getByRole("application", { name: "Pin on the map" });
    await waitFor(() => expect(map.className).toContain("leaflet-container"));
    expect(map.querySelectorAll(".leaflet-interactive")).toHaveLength(1);

    fireEvent.click(map, { clientX: 10, clientY: 10 });
    expect(pick).toHaveBeenCalledTimes(1);
    const [lat, lng] = pick.mock.calls[0] as [number, number];
    expect(Number.isFinite(lat) && Number.isFinite(lng)).toBe(true);

    rerender(<LocationPicker {...tiles} latitude="40.7" longitude="-74" onPick={pick} />);
    expect(map.querySelectorAll(".leaflet-interactive")).toHaveLength(1); // the pin moved, not a second one
  });

  it("opens on the whole world without a pin when the fields are empty", async () => {
    render(<LocationPicker {...tiles} latitude="" longitude="" onPick={vi.fn()} />);
    const map = screen.getByRole("application", { name: "Pin on the map" });
    await waitFor(() => expect(map.className).toContain("leaflet-container"));
    expect(map.querySelectorAll(".leaflet-interactive")).toHaveLength(0);
    expect(screen.getByText(/Click the map where the entrance is/)).toBeTruthy();
  });
});
