import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { BADGE_STATUSES, badgeLabel, invoiceStatus } from "../../shared/ui/Badge";
import { RejectModal } from "../bookings/BookingDecision";
import { clockText, listingHref, messageButton, otherParty, payReturnUrl, personTarget, sidePanelTitle, summaryPanelTitle } from "../bookings/bookings";
import { applyCounters } from "../notifications/counters";
import { ErrorBoundary, FALLBACK_TEXT } from "../../shared/ui/ErrorBoundary";
import { counterText, shortName } from "../../shared/format";
import { pageWindows } from "../../shared/ui/pagination";
import { type PremiumPart, premiumButtonLabel, premiumModalState, readPaymentReturn, type Subscription } from "../premium/premium";
import { PremiumModal } from "../premium/PremiumMembership";
import { axisLabels, chartSeries, highDemandColour } from "./stats";

// jsdom has no modal dialogs: open them as plain dialogs.
if (typeof HTMLDialogElement !== "undefined" && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
}

describe("counters", () => {
  it("shows nothing for 0, the number up to 9 and 9+ above", () => {
    expect([0, 1, 9, 10, 99].map(counterText)).toEqual(["", "1", "9", "9+", "9+"]);
  });

  it("updates the menu badges and the group sums", () => {
    document.body.innerHTML = `
      <span data-group-counters="pendingListings otherRequests" hidden></span>
      <span data-counter="pendingListings" data-value="0" hidden></span>
      <span data-counter="otherRequests" data-value="2">2</span>`;
    applyCounters({ pendingListings: 0, otherRequests: 12 });
    expect(document.querySelector('[data-counter="otherRequests"]')!.textContent).toBe("9+");
    const group = document.querySelector<HTMLElement>("[data-group-counters]")!;
    expect(group.textContent).toBe("9+");
    expect(group.hidden).toBe(false);
    applyCounters({ otherRequests: 0 });
    expect(group.hidden).toBe(true);
  });
});

describe("name truncation", () => {
  it("cuts to 6 characters plus two dots", () => {
    expect(shortName("Hannah")).toBe("Hannah");
    expect(shortName("Maximilian")).toBe("Maximi..");
    expect(shortName("")).toBe("");
  });
});

describe("pagination windows", () => {
  it("shows every page up to 10", () => {
    expect(pageWindows(3, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageWindows(1, 1)).toEqual([1]);
  });
  it("shows a window of 5 near the ends", () => {
    expect(pageWindows(2, 20)).toEqual([1, 2, 3, 4, 5, "...", 20]);
    expect(pageWindows(19, 20)).toEqual([1, "...", 16, 17, 18, 19, 20]);
  });
  it("shows first and last with neighbours in the middle", () => {
    expect(pageWindows(10, 20)).toEqual([1, "...", 9, 10, 11, "...", 20]);
  });
});

const future = new Date(Date.now() + 86400000 * 30).toISOString();
const past = new Date(Date.now() - 86400000).toISOString();
/** A subscription answer as the server sends it, with the fields a case is about. */
function subscription(fields: Partial<Subscription>): Subscription {
  return {
    _id: "s1",
    type: "free",
    status: "active",
    subscriptionSource: "none",
    startDate: null,
    nextBillingDate: null,
    cancelledAt: null,
    premiumListingsDeletionDate: null,
    benefits: { isPremium: false, activeListingLimit: 1, featuredListings: false, premiumBadge: false },
    premiumSubscription: null,
    ...fields,
    statusHistory: fields.statusHistory ?? [],
  };
}
function premiumPart(fields: Partial<PremiumPart>): PremiumPart {
  return { status: "active", startDate: null, nextBillingDate: null, plan: null, endDate: null, ...fields };
}
const free = subscription({ type: "free", status: "active", subscriptionSource: "none" });
const active = subscription({
  type: "premium",
  status: "active",
  subscriptionSource: "local",
  premiumSubscription: premiumPart({ status: "active", nextBillingDate: future }),
});
const lapsed: Subscription = { ...active, status: "expired", premiumSubscription: premiumPart({ status: "expired", nextBillingDate: past }) };
const granted: Subscription = { ...active, subscriptionSource: "admin" };
const plans = [
  { _id: "p1", planId: "premium-annual", planName: "Premium", description: "", totalAmount: "199.00", interval: "year" as const, features: [] },
  { _id: "p2", planId: "premium-plus", planName: "Premium Plus", description: "", totalAmount: "299.00", interval: "year" as const, features: [] },
];

describe("premium membership", () => {
  it("labels the button by state", () => {
    expect(premiumButtonLabel(free)).toBe("Get Premium Membership");
    expect(premiumButtonLabel(active)).toBe("Premium Member");
    expect(premiumButtonLabel(lapsed)).toBe("Renew Subscription");
  });

  it("chooses the modal state", () => {
    expect(premiumModalState(free)).toBe("plans");
    expect(premiumModalState(active)).toBe("cancel");
    expect(premiumModalState({ ...active, premiumSubscription: premiumPart({ status: "active", nextBillingDate: past }) })).toBe("renew");
    expect(premiumModalState(lapsed)).toBe("renew");
    expect(premiumModalState(granted)).toBe("upgrade");
  });

  it("renders the plan list with the first plan preselected and the two texts", () => {
    render(<PremiumModal subscription={free} plans={plans} onClose={() => {}} onChanged={() => {}} />);
    const radios = screen.getAllByRole("radio") as HTMLInputElement[];
    expect(radios[0].checked).toBe(true);
    expect(radios[1].checked).toBe(false);
    expect(screen.getByRole("button", { name: "Proceed" })).toBeEnabled();
    expect(screen.getAllByText(/non refundable/).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/15 days after the membership is cancelled/).length).toBeGreaterThan(0);
  });

  it("offers Cancel Membership with a confirmation, Renew Membership and Upgrade", () => {
    const { unmount } = render(<PremiumModal subscription={active} plans={plans} onClose={() => {}} onChanged={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Cancel Membership" }));
    expect(screen.getByText(/Are you sure you want to cancel your premium membership/)).toBeInTheDocument();
    unmount();
    const second = render(<PremiumModal subscription={lapsed} plans={plans} onClose={() => {}} onChanged={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Renew Membership" }));
    expect(screen.getByRole("button", { name: "Proceed" })).toBeInTheDocument();
    second.unmount();
    render(<PremiumModal subscription={granted} plans={plans} onClose={() => {}} onChanged={() => {}} />);
    expect(screen.getByRole("button", { name: "Upgrade" })).toBeInTheDocument();
  });

  it("names the day a cancelled membership ended, not the billing date it would have renewed on", () => {
    const cancelled = subscription({
      _id: "s9",
      type: "premium",
      status: "cancelled",
      premiumSubscription: premiumPart({
        status: "cancelled",
        nextBillingDate: "2027-11-23T15:00:00Z",
        endDate: "2026-11-24T15:00:00Z",
      }),
    });
    render(<PremiumModal subscription={cancelled} plans={plans} onClose={() => {}} onChanged={() => {}} />);
    expect(screen.getByText("Your premium membership has ended (24-11-2026).")).toBeInTheDocument();
    expect(screen.queryByText(/23-11-2027/)).toBeNull();
  });

  it("reads the return from payment", () => {
    expect(readPaymentReturn("?type=subscription&success=true&sessionId=cs_1&paymentId=p9")).toEqual({
      kind: "success",
      message: "Payment successful",
      sessionId: "cs_1",
      paymentId: "p9",
    });
    expect(readPaymentReturn("?type=subscription&success=true&successMessage=Welcome&sessionId=a&payemnt=b")?.paymentId).toBe("b");
    expect(readPaymentReturn("?type=subscription&success=false")).toEqual({
      kind: "cancelled",
      message: "Payment for premium subscription cancelled",
    });
    expect(readPaymentReturn("?foo=1")).toBeNull();
  });
});

describe("badges", () => {
  it("labels the whole vocabulary", () => {
    for (const status of BADGE_STATUSES) expect(badgeLabel(status)).not.toBe("");
    expect(badgeLabel("inprogress")).toBe("In Progress");
    expect(badgeLabel("availableSoon")).toBe("Available Soon");
    expect(badgeLabel("pending")).toBe("Pending");
  });
  it("uses the payout labels", () => {
    expect(badgeLabel("onhold", "payout")).toBe("Pending");
    expect(badgeLabel("released", "payout")).toBe("Approved");
    expect(badgeLabel("failed", "payout")).toBe("Rejected");
  });
  it("shows a completed payment as paid and anything else as unpaid", () => {
    expect(invoiceStatus("completed")).toBe("paid");
    expect(invoiceStatus("pending")).toBe("unpaid");
  });
});

describe("bookings", () => {
  it("keeps Submit disabled until a reason is typed", () => {
    const submit = vi.fn();
    render(<RejectModal busy={false} onSubmit={submit} onClose={() => {}} />);
    const button = screen.getByRole("button", { name: "Submit" });
    expect(button).toBeDisabled();
    fireEvent.input(screen.getByLabelText("Reason"), { target: { value: "Dates are taken" } });
    expect(button).toBeEnabled();
    fireEvent.click(button);
    expect(submit).toHaveBeenCalledWith("Dates are taken");
  });
  it("names panels and buttons by the side the server gives", () => {
    const booking = { renter: { _id: "r1" }, host: { _id: "h1" } };
    expect(messageButton("host", booking)).toEqual({ label: "Message Renter", href: "/message?userId=r1" });
    expect(messageButton("renter", booking)).toEqual({ label: "Message Host", href: "/message?userId=h1" });
    expect(messageButton("staff", booking)).toEqual({ label: "Message Host", href: "/message?userId=h1" });
    expect(sidePanelTitle("renter")).toBe("Hosted By");
    expect(sidePanelTitle("staff")).toBe("Booked By");
    expect(summaryPanelTitle("renter")).toBe("Booked By");
    expect(otherParty("renter")).toBe("host");
    expect(otherParty("host")).toBe("renter");
  });
  it("shows an error for deleted people instead of navigating", () => {
    expect(personTarget({ _id: "h1", userName: "hannah", isDeleted: true }, "host")).toEqual({ error: "Host is deleted" });
    expect(personTarget({ _id: "r1", userName: "", isDeleted: true }, "renter")).toEqual({ error: "Renter is deleted" });
    expect(personTarget({ _id: "h1", userName: "hannah", isDeleted: false }, "host")).toEqual({ href: "/host/hannah" });
    expect(personTarget({ _id: "r1", userName: "", isDeleted: false }, "renter")).toEqual({ href: "/view-user/r1" });
  });
  it("links listings to the public page only when approved", () => {
    expect(listingHref({ _id: "l1", slug: "desk", status: "approved" })).toBe("/listing-details/desk");
    expect(listingHref({ _id: "l1", slug: "desk", status: "pending" })).toBe("/listing-detail/l1");
  });
});

describe("statistics", () => {
  it("uses the spec's axes", () => {
    expect(axisLabels("week")).toEqual(["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]);
    expect(axisLabels("month")[11]).toBe("Dec");
    expect(axisLabels("year", new Date("2026-06-01"))).toEqual(
      ["2017", "2018", "2019", "2020", "2021", "2022", "2023", "2024", "2025", "2026"],
    );
  });
  it("splits counts into Event Spaces and Work Spaces", () => {
    const series = chartSeries("week", [{ data: [{ propertyType: "eventSpace", count: 2 }, { propertyType: "officeSpace", count: 3 }], year: 2026 }]);
    expect(series.eventSpaces[0]).toBe(2);
    expect(series.workSpaces[0]).toBe(3);
    expect(series.total).toBe(5);
    expect(series.year).toBe(2026);
  });
  it("colours only the first four high-demand locations", () => {
    expect([0, 1, 2, 3, 4].map(highDemandColour)).toEqual(["Black", "Yellow", "Blue", "Green", null]);
  });
});

describe("error boundary", () => {
  it("shows the fallback text", () => {
    const Broken = () => {
      throw new Error("boom");
    };
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("alert")).toHaveTextContent(FALLBACK_TEXT);
    spy.mockRestore();
  });
});

describe("unpaid requests and the space's clock", () => {
  it("returns from the checkout through the flow's last step", () => {
    expect(payReturnUrl("andheri rooftop", "b1")).toBe("/review-and-pay?listing=andheri+rooftop&bookingId=b1");
  });

  it("names the zone beside a booking's times", () => {
    expect(clockText("10:00 AM", { timeZoneName: "IST" })).toBe("10:00 AM IST");
    expect(clockText("10:00 AM", {})).toBe("10:00 AM");
  });
});
