import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockApi, renderWithQuery } from "../../shared/test/render";
import { VerificationPage } from "./VerificationPage";

// Rendering with user events takes longer than the default 5 s when the machine is busy.
vi.setConfig({ testTimeout: 20_000 });

const HOST = {
  _id: "h1",
  email: "hannah@example.com",
  role: "host",
  host: null,
  avatar: "",
  firstName: "Hannah",
  lastName: "Host",
  userName: "hannah",
  city: "",
  country: "",
  isVerified: false,
  accountVerified: true,
  isActive: true,
  isDeleted: false,
  status: "active",
  passwordSet: true,
  createdAt: "2026-11-01T12:00:00Z",
};

function request(id: string, status: string, can: { approve: boolean; reject: boolean }) {
  return {
    _id: id,
    status,
    user: HOST,
    createdAt: "2026-11-20T12:00:00Z",
    decidedAt: status === "pending" ? null : "2026-11-21T12:00:00Z",
    decidedBy: status === "pending" ? null : { firstName: "Mia", lastName: "Checks", email: "mia@example.com" },
    rejectReason: "",
    verificationDocs: [
      { _id: "d1", name: "passport.png", fileName: "x.png", contentType: "image/png", size: 10, createdAt: "2026-11-20T12:00:00Z", url: "/f/d1" },
    ],
    can,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, "", "/");
});

describe("Verification Requests", () => {
  it("opens the document and rejects only with a reason", async () => {
    const decided: unknown[] = [];
    mockApi({
      "GET /api/user/verification-requests": {
        body: { message: "", data: { verificationRequests: [request("r1", "pending", { approve: true, reject: true })], totalCount: 1, page: 1, limit: 10, totalPages: 1 } },
      },
      "PATCH /api/user/verification-requests/update-status/r1": (_url, req) => {
        decided.push(req);
        return { body: { message: "Verification request rejected.", data: request("r1", "rejected", { approve: false, reject: false }) } };
      },
    });
    renderWithQuery(<VerificationPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Review" }));
    const dialog = await screen.findByRole("dialog", { name: /Verification of Hannah Host/ });
    expect(within(dialog).getByRole("img", { name: /passport.png/ })).toHaveAttribute("src", "/f/d1");
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject" }));
    const submit = within(dialog).getByRole("button", { name: "Submit rejection" });
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText("Reason"), "Blurry photo");
    expect(submit).toBeEnabled();
    await userEvent.click(submit);
    await waitFor(() => expect(decided).toHaveLength(1));
    expect(await (decided[0] as Request).json()).toEqual({ status: "rejected", reason: "Blurry photo" });
  });

  it("offers no decision on a decided request", async () => {
    mockApi({
      "GET /api/user/verification-requests": {
        body: { message: "", data: { verificationRequests: [request("r2", "approved", { approve: false, reject: false })], totalCount: 1, page: 1, limit: 10, totalPages: 1 } },
      },
    });
    renderWithQuery(<VerificationPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Review" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).queryByRole("button", { name: "Approve" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Reject" })).toBeNull();
    expect(screen.getAllByText(/by Mia Checks/).length).toBeGreaterThan(0);
  });
});
