import { QueryClientProvider } from "@tanstack/react-query";
import { render, renderHook, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../shared/api/query";
import { decisionError, evidenceError } from "../disputes/types";
import { type ActionBooking, type BookingCan, extensionBody, reviewBody, unpaidExtension } from "./actions";
import * as toasts from "../../shared/ui/toast";
import { BookingActions, EXTENSION_PAID, EXTENSION_PAYMENT_CANCELLED, useExtensionCheckoutReturn } from "./BookingActions";

const NOTHING: BookingCan = {
  approve: false,
  reject: false,
  cancel: false,
  extend: false,
  pay: false,
  payExtension: false,
  review: false,
  dispute: false,
  message: false,
};

function booking(extra: Omit<Partial<ActionBooking>, "can"> & { can?: Partial<BookingCan> } = {}): ActionBooking {
  return {
    _id: "b1",
    status: "approved",
    totalAmount: "200.00",
    refundIfCancelledNow: "100.00",
    listingId: { _id: "l1", title: "Loft", slug: "loft" },
    extendBooking: [],
    ...extra,
    can: { ...NOTHING, ...extra.can },
  };
}

function show(value: ActionBooking, side: "renter" | "host" = "renter") {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <BookingActions booking={value} side={side} onChanged={() => {}} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe("booking actions follow the server's can", () => {
  it("shows nothing when nothing is allowed", () => {
    const { container } = show(booking());
    expect(container).toBeEmptyDOMElement();
  });

  it("shows only the allowed buttons", () => {
    show(booking({ can: { cancel: true, review: true } }));
    expect(screen.getByRole("button", { name: "Cancel booking" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add review" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Pay now" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Request extension" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Raise dispute" })).toBeNull();
  });

  it("shows the refund the policy gives before the renter confirms a cancellation", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    show(booking({ can: { cancel: true } }));
    await userEvent.click(screen.getByRole("button", { name: "Cancel booking" }));
    expect(screen.getByTestId("refund-preview")).toHaveTextContent("refunded $100.00 of $200.00");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("asks the host side for a reason and tells it the renter gets everything back", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    show(booking({ can: { cancel: true } }), "host");
    await userEvent.click(screen.getByRole("button", { name: "Cancel booking" }));
    expect(screen.getByTestId("refund-preview")).toHaveTextContent("refunded in full: $200.00");
    const dialog = document.querySelector("dialog")!;
    await userEvent.click(Array.from(dialog.querySelectorAll("button")).find((b) => b.textContent === "Cancel booking")!);
    expect(screen.getByText("Please give a reason for cancelling.")).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("offers paying an approved extension that is not paid yet", () => {
    const value = booking({
      can: { payExtension: true },
      extendBooking: [
        { _id: "e1", status: "rejected", totalPayable: "20.00", can: { approve: false, reject: false, pay: false } },
        { _id: "e2", status: "approved", paid: false, totalPayable: "57.50", can: { approve: false, reject: false, pay: true } },
      ],
    });
    expect(unpaidExtension(value)?._id).toBe("e2");
    show(value);
    expect(screen.getByRole("button", { name: "Pay extension $57.50" })).toBeInTheDocument();
  });

  it("offers no extension payment the server does not allow", () => {
    show(booking({ can: { payExtension: false }, extendBooking: [{ _id: "e2", status: "approved", paid: false, totalPayable: "57.50", can: { approve: false, reject: false, pay: false } }] }));
    expect(screen.queryByRole("button", { name: /Pay extension/ })).not.toBeInTheDocument();
  });
});

describe("form checks", () => {
  it("builds an extension in one unit and refuses nonsense", () => {
    expect(extensionBody("additionalHours", "2").body).toEqual({ additionalHours: 2, additionalDays: 0, additionalWeeks: 0, additionalMonths: 0 });
    expect(extensionBody("additionalWeeks", "1").body?.additionalWeeks).toBe(1);
    for (const bad of ["0", "-1", "1.5", "abc", "", "1001"]) expect(extensionBody("additionalDays", bad).error).toBeTruthy();
  });

  it("sends the rating only when above 0", () => {
    expect(reviewBody("l", "b", 0, " Nice ", "")).toEqual({ listingId: "l", bookingId: "b", review: "Nice", remarks: "" });
    expect(reviewBody("l", "b", 4, "", " note ")).toMatchObject({ rating: 4, remarks: "note" });
  });

  it("checks a dispute decision like the server", () => {
    expect(decisionError("rejected", "", "  ", null)).toBe("Please give a reason for rejecting.");
    expect(decisionError("rejected", "", "Not shown", null)).toBeNull();
    expect(decisionError("approved", "abc", "", "50.00")).toBe("The refund amount must be a number.");
    expect(decisionError("approved", "0", "", "50.00")).toBe("The refund amount must be more than $0.00.");
    expect(decisionError("approved", "10.555", "", "50.00")).toBe("The refund amount can have at most 2 decimal places.");
    expect(decisionError("approved", "50.01", "", "50.00")).toContain("at most $50.00");
    expect(decisionError("approved", "25.50", "", "50.00")).toBeNull();
  });

  it("checks evidence files", () => {
    const photo = new File(["x"], "photo.png", { type: "image/png" });
    const script = new File(["x"], "run.sh", { type: "text/x-sh" });
    expect(evidenceError([photo])).toBeNull();
    expect(evidenceError([script])).toContain("only images and PDFs");
    expect(evidenceError(Array.from({ length: 6 }, () => photo))).toBe("Attach at most 5 files.");
  });
});

describe("back from an extension's checkout", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("confirms the payment, says so and drops the query", async () => {
    window.history.replaceState(null, "", "/booking-detail/b1?type=extension&success=true&sessionId=cs_1");
    const success = vi.spyOn(toasts.toast, "success");
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify({ success: true, message: "", data: {} }), { status: 200, headers: { "Content-Type": "application/json" } }));
    renderHook(() => useExtensionCheckoutReturn());
    await waitFor(() => expect(success).toHaveBeenCalledWith(EXTENSION_PAID));
    const request = fetch.mock.calls[0][0] as Request;
    expect(request.url).toContain("/api/payment/checkout-success");
    expect(await request.json()).toEqual({ sessionId: "cs_1" });
    expect(window.location.search).toBe("");
  });

  it("says a cancelled payment left the extension to pay", () => {
    window.history.replaceState(null, "", "/booking-detail/b1?type=extension&success=false");
    const error = vi.spyOn(toasts.toast, "error");
    const fetch = vi.spyOn(globalThis, "fetch");
    renderHook(() => useExtensionCheckoutReturn());
    expect(error).toHaveBeenCalledWith(EXTENSION_PAYMENT_CANCELLED);
    expect(fetch).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe("/booking-detail/b1");
    expect(window.location.search).toBe("");
  });
});
