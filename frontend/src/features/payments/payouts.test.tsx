import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { badgeLabel } from "../../shared/ui/badges";
import {
  mayRequestPayout,
  type Payment,
  type Payout,
  paymentColumns,
  paymentDisplayStatus,
  payoutActions,
  payoutColumns,
  payoutDecisions,
  showsBalance,
} from "./payouts";
import { DataTable, visibleActions } from "../../shared/ui/Table";

const ROLES = ["admin", "moderator", "host", "subHost", "renter"];

function payout(status: string, extra: Partial<Payout> = {}): Payout {
  return {
    _id: `p-${status}`,
    host: { _id: "h1", firstName: "Hana", lastName: "Host", email: "host@example.com" },
    amount: "120.50",
    status,
    method: "manual",
    requestedAt: "2026-03-02T15:00:00Z",
    createdAt: "2026-03-02T15:00:00Z",
    decidedAt: null,
    ...extra,
  };
}

describe("payout request row actions", () => {
  it("offers Release, Hold and Fail on a waiting request, to the admin only", () => {
    const actions = payoutActions(() => {});
    expect(visibleActions(actions, "admin", payout("onhold")).map((a) => a.label)).toEqual(["Release", "Hold", "Fail"]);
    for (const role of ROLES.filter((r) => r !== "admin")) {
      expect(visibleActions(actions, role, payout("onhold"))).toEqual([]);
      expect(payoutDecisions(role, payout("onhold"))).toEqual([]);
    }
  });

  it("offers nothing on a released or failed payout (final)", () => {
    const actions = payoutActions(() => {});
    for (const status of ["released", "failed"]) {
      expect(visibleActions(actions, "admin", payout(status))).toEqual([]);
      expect(payoutDecisions("admin", payout(status))).toEqual([]);
    }
  });

  it("passes the row and the API status to the handler", () => {
    const decide = vi.fn();
    const row = payout("onhold");
    for (const action of visibleActions(payoutActions(decide), "admin", row)) action.onClick(row);
    expect(decide.mock.calls.map(([p, d]) => [p._id, d])).toEqual([
      ["p-onhold", "released"],
      ["p-onhold", "onhold"],
      ["p-onhold", "failed"],
    ]);
  });

  it("draws the buttons only on waiting rows and the payout labels as badges", () => {
    render(
      <DataTable<Payout>
        role="admin"
        columns={payoutColumns(true)}
        rows={[payout("onhold"), payout("released"), payout("failed")]}
        rowKey={(p) => p._id}
        actions={payoutActions(() => {})}
      />,
    );
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows[0].textContent).toContain("Pending");
    expect(rows[0].querySelectorAll("button")).toHaveLength(3);
    expect(rows[1].textContent).toContain("Approved");
    expect(rows[1].querySelectorAll("button")).toHaveLength(0);
    expect(rows[2].textContent).toContain("Rejected");
    expect(rows[2].querySelectorAll("button")).toHaveLength(0);
    expect(rows[0].textContent).toContain("$120.50");
    expect(rows[0].textContent).toContain("Hana Host");
  });

  it("names payouts in their own words", () => {
    expect(badgeLabel("onhold", "payout")).toBe("Pending");
    expect(badgeLabel("released", "payout")).toBe("Approved");
    expect(badgeLabel("failed", "payout")).toBe("Rejected");
  });
});

describe("requesting a payout", () => {
  const balance = (available: string) => ({ available, pending: "0.00", paid: "0.00" });

  it("is for the host with an available balance and no waiting request", () => {
    expect(mayRequestPayout("host", balance("10.00"))).toBe(true);
    expect(mayRequestPayout("host", balance("0.00"))).toBe(false);
    expect(mayRequestPayout("host", null)).toBe(false);
    expect(mayRequestPayout("host", balance("10.00"), [payout("onhold")])).toBe(false);
    expect(mayRequestPayout("host", balance("10.00"), [payout("released"), payout("failed")])).toBe(true);
    for (const role of ["subHost", "admin", "moderator", "renter"]) {
      expect(mayRequestPayout(role, balance("10.00"))).toBe(false);
    }
  });

  it("shows the balance to the host side only", () => {
    expect(ROLES.filter(showsBalance)).toEqual(["host", "subHost"]);
  });

  it("lists the host only to the admin", () => {
    expect(payoutColumns(true).map((c) => c.key)).toContain("host");
    expect(payoutColumns(false).map((c) => c.key)).not.toContain("host");
  });
});

describe("payments", () => {
  it("shows completed as paid and anything else as unpaid", () => {
    expect(paymentDisplayStatus({ status: "completed" })).toBe("paid");
    for (const status of ["pending", "authorized", "refunded", "failed", "cancelled"]) {
      expect(paymentDisplayStatus({ status })).toBe("unpaid");
    }
  });

  it("has a host column for the admin only", () => {
    expect(paymentColumns("admin").map((c) => c.key)).toContain("host");
    expect(paymentColumns("host").map((c) => c.key)).not.toContain("host");
    expect(paymentColumns("subHost").map((c) => c.key)).not.toContain("host");
  });

  it("renders a paid row", () => {
    const row: Payment = {
      _id: "pay1",
      createdAt: "2026-03-02T15:00:00Z",
      bookingId: "b1",
      listingId: { title: "Harbour Loft", propertyType: "eventSpaces" },
      renter: { _id: "r1", firstName: "Rita", lastName: "Renter" },
      host: { _id: "h1", firstName: "Hana", lastName: "Host" },
      totalAmount: "300.00",
      status: "completed",
      type: "booking",
    };
    render(<DataTable<Payment> role="host" columns={paymentColumns("host")} rows={[row]} rowKey={(p) => p._id} />);
    const cells = screen.getAllByRole("row")[1].textContent ?? "";
    expect(cells).toContain("Harbour Loft");
    expect(cells).toContain("$300.00");
    expect(cells).toContain("Paid");
  });
});
