import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockApi, renderWithQuery } from "../../shared/test/render";
import { ContactForm } from "./ContactForm";

function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(screen.getByLabelText(new RegExp(`^${label}`)), { target: { value } });
}

describe("Contact Us", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the spec's messages and sends nothing while the form is wrong", async () => {
    const fetch = mockApi({});
    renderWithQuery(<ContactForm />);
    fill({ Name: "R2D2", Email: "not-an-email" });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect(await screen.findByText("No digits allowed.")).toBeVisible();
    expect(screen.getByText("Invalid email address")).toBeVisible();
    expect(screen.getByText("Phone number is required")).toBeVisible();
    expect(screen.getByText("Message is required")).toBeVisible();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("keeps the phone to 10 digits, sends the form, says Mail sent. and empties it", async () => {
    const fetch = mockApi({ "POST /api/cms/contact/send-mail": { body: { message: "Mail sent.", data: null } } });
    renderWithQuery(<ContactForm />);
    fill({ Name: "Rita Renter", "Phone number": "(226) 123-4567 89", Email: "rita@example.com", Message: "Is the loft free in May?" });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    await waitFor(() => expect(document.querySelector(".toast--success")?.textContent).toContain("Mail sent."));
    const request = fetch.mock.calls[0][0] as Request;
    expect(await request.json()).toEqual({ name: "Rita Renter", phoneNumber: "2261234567", email: "rita@example.com", message: "Is the loft free in May?" });
    await waitFor(() => expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe(""));
  });

  it("puts the server's field message under the field and keeps what was typed", async () => {
    mockApi({
      "POST /api/cms/contact/send-mail": { status: 400, body: { message: "Phone number must contain digits only.", errors: { phoneNumber: ["Phone number must contain digits only."] } } },
    });
    renderWithQuery(<ContactForm />);
    fill({ Name: "Rita", "Phone number": "2261234567", Email: "rita@example.com", Message: "Hello" });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect(await screen.findByText("Phone number must contain digits only.", { selector: ".form-field__error" })).toBeVisible();
    expect((screen.getByLabelText(/^Message/) as HTMLTextAreaElement).value).toBe("Hello");
  });
});

describe("taking over the server-rendered form", () => {
  it("keeps what was typed before the island arrived", async () => {
    const { typedValues } = await import("./ContactForm");
    const form = document.createElement("form");
    form.innerHTML = `<input name="name" value="Rita"><input name="phoneNumber" value="(226) 123-4567"><input name="email" value="r@example.com"><textarea name="message">Hi</textarea>`;
    expect(typedValues(form)).toEqual({ name: "Rita", phoneNumber: "2261234567", email: "r@example.com", message: "Hi" });
    expect(typedValues(null)).toEqual({ name: "", phoneNumber: "", email: "", message: "" });
  });
});
