import { describe, expect, it } from "vitest";
import {
  allErrors,
  emptyListingForm,
  firstStepWithErrors,
  formErrorsFromServer,
  fromDraft,
  fromListing,
  listingHref,
  stepErrors,
  toListingInput,
  type ListingFormValues,
} from "./form";

function officeForm(): ListingFormValues {
  const values = emptyListingForm();
  values.propertyType = "officeSpace";
  values.title = "Harbour coworking";
  values.description = "<p>Bright <strong>desks</strong></p>";
  values.city = "Toronto";
  values.country = "Canada";
  values.streetAddress = "12 Front St";
  values.latitude = "43.6426";
  values.longitude = "-79.3871";
  const hotDesk = values.offerings.find((offering) => offering.kind === "hotDesk")!;
  Object.assign(hotDesk, { enabled: true, daily: "25", weekly: "110", monthly: "380", seats: "20" });
  const meeting = values.offerings.find((offering) => offering.kind === "meetingSpace")!;
  Object.assign(meeting, { enabled: true, hourly: "30", seats: "2", minimumPeriod: "2" });
  values.images = [{ path: "listings/a/b.webp", alt: "Entrance" }];
  return values;
}

describe("listing form rules", () => {
  it("accepts a complete office space", () => {
    expect(allErrors(officeForm())).toEqual({});
  });

  it("asks for the kind first, with the server's message", () => {
    expect(stepErrors("kind", emptyListingForm())).toEqual({ propertyType: "Property type is required" });
  });

  it("gives the same messages as the server for prices, percentages and counts", () => {
    const values = officeForm();
    values.offerings[3].daily = "-1";
    values.discount = "101";
    values.processingFee = "abc";
    values.minimumNoticeHours = "5000";
    values.bookingWindowDays = "0";
    const errors = allErrors(values);
    expect(errors["offerings.3.daily"]).toBe("Daily price cannot be negative");
    expect(errors.discount).toBe("Discount must be between 0 and 100");
    expect(errors.processingFee).toBe("Processing fee must be a number");
    expect(errors.minimumNoticeHours).toBe("Minimum notice must be at most 2160");
    expect(errors.bookingWindowDays).toBe("Booking window must be at least 1");
  });

  it("needs an offering with a price for a work space and a price and guests for an event space", () => {
    const office = officeForm();
    office.offerings.forEach((offering) => (offering.enabled = false));
    expect(stepErrors("offerings", office).offerings).toBe("Work spaces need at least one space offering with a price");
    office.offerings[5].enabled = true;
    expect(stepErrors("offerings", office)["offerings.5.price"]).toBe("Private Cabin needs a price per month");
    const event = officeForm();
    event.propertyType = "eventSpace";
    expect(stepErrors("offerings", event).hourly).toBe("Event spaces need an hourly, daily or weekly price");
    expect(stepErrors("basics", event).guest).toBe("Guest capacity is required for event spaces");
  });

  it("checks opening hours and photos", () => {
    const values = officeForm();
    values.openingHours.monday = { closed: false, open: "18:00", close: "09:00" };
    values.images = [];
    const errors = allErrors(values);
    expect(errors["openingHours.monday.close"]).toBe("On monday the closing time must be after the opening time");
    expect(errors.images).toBe("Add at least one image to submit the listing for review");
    expect(firstStepWithErrors(errors)).toBe("photos");
  });

  it("requires a title and reads the description's text", () => {
    const values = officeForm();
    values.title = "  ";
    values.description = `<p>${"x".repeat(5001)}</p>`;
    const errors = stepErrors("basics", values);
    expect(errors.title).toBe("Title is required");
    expect(errors.description).toBe("Description must be at most 5000 characters long");
  });
});

describe("listing form conversions", () => {
  it("sends only the enabled offerings with the prices of their periods", () => {
    const body = toListingInput(officeForm());
    expect(body.spaceOffering).toEqual([
      { kind: "meetingSpace", hourly: "30", daily: null, weekly: null, monthly: null, seats: 2, minimumPeriod: 2 },
      { kind: "hotDesk", hourly: null, daily: "25", weekly: "110", monthly: "380", seats: 20, minimumPeriod: 1 },
    ]);
    expect(body.openingHours.sunday).toBeNull();
    expect(body.openingHours.monday).toEqual({ open: "09:00", close: "18:00" });
    expect(body.latitude).toBe("43.642600");
    expect(body.images).toEqual([{ path: "listings/a/b.webp", alt: "Entrance" }]);
    expect(body.address).toBe("12 Front St, Toronto, Canada");
    expect(body.guest).toBeNull();
  });

  it("puts the server's errors under the right fields", () => {
    const values = officeForm();
    const errors = formErrorsFromServer(
      { "spaceOffering.1.daily": ["Daily price cannot be negative"], city: ["City is required"], "images.0": ["Alt text must be at most 200 characters long"] },
      values,
    );
    // the second offering sent is the hot desk (index 3 of the form's six)
    expect(errors).toEqual({
      "offerings.3.daily": "Daily price cannot be negative",
      city: "City is required",
      "images.0.alt": "Alt text must be at most 200 characters long",
    });
  });

  it("reads a listing back into the form and round-trips", () => {
    const body = toListingInput(officeForm());
    const listing = {
      ...body,
      amenities: [{ _id: "a1", name: "Wifi", icon: "" }],
      facilities: [],
      images: ["listings/a/b.webp"],
      photos: [{ path: "listings/a/b.webp", alt: "Entrance", url: "/media/listings/a/b.webp", srcset: "" }],
      spaceOffering: body.spaceOffering.map((offering, index) => ({ ...offering, _id: `o${index}`, title: offering.kind, periods: [] })),
      servicesAndAddOns: [],
    };
    const values = fromListing(listing);
    expect(values.offerings.filter((offering) => offering.enabled).map((offering) => offering.kind)).toEqual(["meetingSpace", "hotDesk"]);
    expect(values.amenities).toEqual(["a1"]);
    expect(toListingInput(values).spaceOffering).toEqual(body.spaceOffering);
    expect(values.openingHours.sunday.closed).toBe(true);
  });

  it("reads no opening hours as open around the clock", () => {
    const values = fromListing({ propertyType: "eventSpace", title: "T", city: "C", country: "X", openingHours: {} });
    expect(values.openingHours.sunday).toEqual({ closed: false, open: "00:00", close: "23:59" });
  });

  it("restores a draft and ignores what it cannot use", () => {
    const values = fromDraft({ title: "Half typed", guest: 5, unknown: "x", offerings: "nope" });
    expect(values.title).toBe("Half typed");
    expect(values.guest).toBe("");
    expect(values.offerings).toHaveLength(6);
    expect(fromDraft(null).title).toBe("");
  });

  it("links approved listings to their public page and others to the dashboard", () => {
    expect(listingHref({ _id: "1", slug: "loft-1", status: "approved" })).toBe("/listing-details/loft-1");
    expect(listingHref({ _id: "1", slug: "loft-1", status: "pending" })).toBe("/listing-detail/1");
  });
});
