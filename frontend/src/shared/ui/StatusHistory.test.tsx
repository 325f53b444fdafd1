import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { StatusHistory, type StatusChange } from "./StatusHistory";

const rows: StatusChange[] = [
  { fromStatus: null, toStatus: "active", reason: "", actor: null, createdAt: "2026-06-01T14:00:00Z" },
  {
    fromStatus: "active",
    toStatus: "cancelled",
    reason: "Cancelled",
    actor: { _id: "1", firstName: "Hana", lastName: "Host", displayName: "Hana Host", role: "host" },
    createdAt: "2026-07-01T14:00:00Z",
  },
];

describe("StatusHistory", () => {
  it("names each change, who made it and why, oldest first", () => {
    render(<StatusHistory rows={rows} title="Membership history" />);
    const items = screen.getAllByRole("listitem").map((item) => item.textContent ?? "");
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/^active · .* · by the system$/);
    expect(items[1]).toMatch(/^active → cancelled · .* · by Hana Host \(host\): Cancelled$/);
    expect(screen.getByRole("heading", { name: "Membership history" })).toBeTruthy();
  });

  it("names an actor who gave no name by the name the server sends", () => {
    const nameless: StatusChange = {
      fromStatus: "pending",
      toStatus: "approved",
      reason: "",
      actor: { _id: "2", firstName: "", lastName: "", displayName: "jr-host-7", role: "host" },
      createdAt: "2026-07-02T14:00:00Z",
    };
    render(<StatusHistory rows={[nameless]} />);
    expect(screen.getByRole("listitem").textContent).toMatch(/by jr-host-7 \(host\)$/);
  });

  it("shows nothing without a history", () => {
    const { container } = render(<StatusHistory rows={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
