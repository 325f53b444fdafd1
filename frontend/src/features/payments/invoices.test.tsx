import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../../shared/api/client";
import { InvoiceModal } from "./invoices";

const invoice = {
  _id: "i1",
  number: "INV-2026-000042",
  kind: "invoice",
  amount: "113.00",
  issuedAt: "2026-07-01T14:00:00Z",
  createdAt: "2026-07-01T14:00:00Z",
  status: "paid",
  checkIn: "10-07-2026 10:00 AM EDT",
  checkOut: "10-07-2026 12:00 PM EDT",
  lines: [
    { label: "2 x Hour at $50.00", amount: "$100.00" },
    { label: "Tax (13%)", amount: "$13.00" },
    { label: "Total", amount: "$113.00" },
  ],
  payment: {
    listingId: { _id: "l1", title: "Harbour Loft", slug: "harbour-loft", propertyType: "eventSpace" },
    renter: { _id: "r1", firstName: "", lastName: "", displayName: "jr-renter-7", email: "jr-renter-7@example.com" },
    host: { _id: "h1", firstName: "Hana", lastName: "Host", displayName: "Hana Host", email: "hana@example.com" },
  },
} as unknown as Schemas["Invoice"];

describe("InvoiceModal", () => {
  it("shows the invoice's number, dates, listing, lines, tax and status, and each e-mail once", () => {
    render(<InvoiceModal invoice={invoice} onClose={() => undefined} />);
    const modal = screen.getByTestId("invoice-modal");
    for (const text of ["INV-2026-000042", "Harbour Loft", "10-07-2026 10:00 AM EDT", "10-07-2026 12:00 PM EDT", "Tax (13%)", "$13.00"]) {
      expect(within(modal).getAllByText(text).length).toBeGreaterThan(0);
    }
    const lines = within(screen.getByRole("table", { name: "Invoice lines" })).getAllByRole("row");
    expect(lines.map((row) => row.textContent)).toContain("Total$113.00");
    expect(within(modal).getAllByText("jr-renter-7@example.com")).toHaveLength(1);
    expect(within(modal).getByText("jr-renter-7")).toBeTruthy();
  });
});
