import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { badgeLabel } from "../../shared/ui/Badge";
import {
  type Payment,
  type Payout,
  paymentColumns,
  paymentDisplayStatus,
  payoutActions,
  payoutColumns,
  payoutDecisions,
} from "./payouts";
import { DataTable, visibleActions } from "../../shared/ui/Table";
import { mockApi, renderWithQuery } from "../../shared/test/render";
import { PayoutIsland } from "./PayoutPage";


function payout(status: Payout["status"], extra: Partial<Payout> = {}): Payout {
  return {
    _id: `p-${status}`,
    host: { _id: "h1", firstName: "Hana", lastName: "Host", displayName: "Hana Host", email: "host@example.com" },
    amount: "120.50",
    status,
    method: "manual",
    requestedAt: "2026-03-02T15:00:00Z",
    createdAt: "2026-03-02T15:00:00Z",
    decidedAt: "",
    statusLabel: "",
    transferId: "",
    note: "",
    ...extra,
  };
}

describe("payout request row actions", () => {
  it("offers Release, Hold and Fail on a waiting request", () => {
    const actions = payoutActions(() => {});
    expect(visibleActions(actions, payout("onhold")).map((a) => a.label)).toEqual(["Release", "Hold", "Fail"]);
    expect(payoutDecisions(payout("onhold"))).toEqual(["released", "onhold", "failed"]);
  });

  it("offers nothing on a released or failed payout (final)", () => {
    const actions = payoutActions(() => {});
    for (const status of ["released", "failed"] as const) {
      expect(visibleActions(actions, payout(status))).toEqual([]);
      expect(payoutDecisions(payout(status))).toEqual([]);
    }
  });

  it("passes the row and the API status to the handler", () => {
    const decide = vi.fn();
    const row = payout("onhold");
    for (const action of visibleActions(payoutActions(decide), row)) action.onClick?.(row);
    expect(decide.mock.calls.map(([p, d]) => [p._id, d])).toEqual([
      ["p-onhold", "released"],
      ["p-onhold", "onhold"],
      ["p-onhold", "failed"],
    ]);
  });

  it("draws the buttons only on waiting rows and the payout labels as badges", () => {
    render(
      <DataTable<Payout>
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
  it("lists the host only to the admin", () => {
    expect(payoutColumns(true).map((c) => c.key)).toContain("host");
    expect(payoutColumns(false).map((c) => c.key)).not.toContain("host");
  });
});

describe("payments", () => {
  it("shows completed as paid and anything else as unpaid", () => {
    expect(paymentDisplayStatus({ status: "completed", displayStatus: "" })).toBe("paid");
    for (const status of ["pending", "authorized", "refunded", "failed", "released"] as const) {
      expect(paymentDisplayStatus({ status, displayStatus: "" })).toBe("unpaid");
    }
  });

  it("has a host column for the admin only", () => {
    expect(paymentColumns(true).map((c) => c.key)).toContain("host");
    expect(paymentColumns(false).map((c) => c.key)).not.toContain("host");
  });

  it("renders a paid row", () => {
    const row: Payment = {
      _id: "pay1",
      createdAt: "2026-03-02T15:00:00Z",
      bookingId: "b1",
      id: "pay1",
      listingId: { _id: "l1", slug: "harbour-loft", title: "Harbour Loft", propertyType: "eventSpace" },
      renter: { _id: "r1", firstName: "Rita", lastName: "Renter", displayName: "Rita Renter", email: "rita@example.com" },
      renterId: "r1",
      host: { _id: "h1", firstName: "Hana", lastName: "Host", displayName: "Hana Host", email: "hana@example.com" },
      totalAmount: "300.00",
      extendedAmount: "0.00",
      refundedAmount: "0.00",
      status: "completed",
      displayStatus: "paid",
      type: "oneTime",
      paymentId: "",
    };
    render(<DataTable<Payment> columns={paymentColumns(false)} rows={[row]} rowKey={(p) => p._id} />);
    const cells = screen.getAllByRole("row")[1].textContent ?? "";
    expect(cells).toContain("Harbour Loft");
    expect(cells).toContain("$300.00");
    expect(cells).toContain("Paid");
  });
});

describe("the Payout page offers what the server says", () => {
  const list = { message: "", data: { payouts: [], totalCount: 0, page: 1, limit: 10, totalPages: 1 } };
  const balance = (request: boolean) => ({
    message: "",
    data: { available: "40.00", pending: "0.00", paid: "0.00", can: { request } },
  });

  it("enables Request payout when the balance answer allows it", async () => {
    mockApi({ "GET /api/payout/get-all": { body: list }, "GET /api/payout/balance": { body: balance(true) } });
    renderWithQuery(<PayoutIsland view="payout" requestsPayouts seesBalance />);
    expect(await screen.findByText("$40.00")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Request payout/ })).toBeEnabled();
  });

  it("disables it when the server refuses (a request waiting, nothing available)", async () => {
    mockApi({ "GET /api/payout/get-all": { body: list }, "GET /api/payout/balance": { body: balance(false) } });
    renderWithQuery(<PayoutIsland view="payout" requestsPayouts seesBalance />);
    expect(await screen.findByText("$40.00")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Request payout/ })).toBeDisabled();
  });

  it("shows a read-only page without the flags (subHost: balance only; admin: no balance, Host column)", async () => {
    const fetch = mockApi({ "GET /api/payout/get-all": { body: list }, "GET /api/payout/balance": { body: balance(false) } });
    const { unmount } = renderWithQuery(<PayoutIsland view="payout" seesBalance />);
    expect(await screen.findByText("$40.00")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Request payout/ })).toBeNull();
    unmount();
    fetch.mockClear();
    renderWithQuery(<PayoutIsland view="payout" withHost />);
    expect(await screen.findByText("All payouts")).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: "Host" })).toBeInTheDocument();
    expect(screen.queryByTestId("payout-balance")).toBeNull();
    expect(fetch.mock.calls.some(([input]) => String(input instanceof Request ? input.url : input).includes("/api/payout/balance"))).toBe(false);
  });
});
