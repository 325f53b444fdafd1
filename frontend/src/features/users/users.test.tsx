import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockApi, renderWithQuery } from "../../shared/test/render";
import userEvent from "@testing-library/user-event";
import { UsersPage } from "./UsersPage";
import { ViewUserPage } from "./ViewUserPage";
import { viewerKind } from "./VerificationPage";

// Rendering with user events takes longer than the default 5 s when the machine is busy.
vi.setConfig({ testTimeout: 20_000 });

function row(id: string, email: string, can: Record<string, boolean>, extra: Record<string, unknown> = {}) {
  return {
    _id: id,
    email,
    role: "host",
    host: null,
    avatar: "",
    firstName: id,
    lastName: "Host",
    userName: "",
    city: "",
    country: "",
    isVerified: false,
    accountVerified: true,
    isActive: true,
    isDeleted: false,
    status: "active",
    passwordSet: true,
    createdAt: "2026-11-01T12:00:00Z",
    can,
    ...extra,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, "", "/");
});

describe("Hosts", () => {
  it("shows only the actions the server allows on each row, and asks with the tab and search in the URL", async () => {
    window.history.replaceState(null, "", "/hosts?tab=suspended&search=ann");
    const fetch = mockApi({
      "GET /api/user/hosts": {
        body: {
          message: "",
          data: {
            hosts: [row("Ann", "ann@example.com", { suspend: false, restore: true, delete: true }, { status: "suspended" }), row("Bob", "bob@example.com", {})],
            totalCount: 2,
            page: 1,
            limit: 10,
            totalPages: 1,
          },
        },
      },
    });
    renderWithQuery(<UsersPage kind="hosts" />);
    const ann = (await screen.findAllByText("ann@example.com"))[0].closest("tr, li, article") as HTMLElement;
    expect(within(ann).getByRole("button", { name: "Restore" })).toBeInTheDocument();
    expect(within(ann).getByRole("button", { name: "Delete" })).toBeInTheDocument();
    expect(within(ann).queryByRole("button", { name: "Suspend" })).toBeNull();
    const bob = screen.getAllByText("bob@example.com")[0].closest("tr, li, article") as HTMLElement;
    expect(within(bob).queryByRole("button", { name: /Suspend|Restore|Delete/ })).toBeNull();
    const asked = new URL((fetch.mock.calls[0][0] as Request).url);
    expect(asked.searchParams.get("filters[status]")).toBe("suspended");
    expect(asked.searchParams.get("filters[search]")).toBe("ann");
    expect(screen.getByRole("link", { name: "Add Host" })).toHaveAttribute("href", "/addhost");
  });
});

describe("View User", () => {
  const subHost = {
    ...row("Sam", "sam@example.com", { suspend: true, restore: false, delete: false }),
    role: "subHost",
    host: "h1",
    verificationDocs: [],
    verifiesIdentity: false,
    publicPage: null,
  };

  async function suspendAs(viewerId: string) {
    const fetch = mockApi({
      "GET /api/user/view-user/s1": { body: { message: "", data: { ...subHost, _id: "s1" } } },
      "PATCH /api/user/update-status/s1": { body: { message: "User suspended.", data: null } },
      "PUT /api/user/sub-hosts/s1": { body: { message: "Sub-host suspended.", data: null } },
    });
    renderWithQuery(<ViewUserPage id="s1" userId={viewerId} />);
    await userEvent.click(await screen.findByRole("button", { name: "Suspend" }));
    await userEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Suspend" }));
    await screen.findByText(/suspended\./);
    return fetch.mock.calls.map(([input]) => `${(input as Request).method} ${new URL((input as Request).url).pathname}`);
  }

  it("lets staff suspend a subHost through update-status", async () => {
    const calls = await suspendAs("staff1");
    expect(calls).toContain("PATCH /api/user/update-status/s1");
    expect(calls).not.toContain("PUT /api/user/sub-hosts/s1");
  });

  it("lets the subHost's own host suspend it through the sub-host API", async () => {
    const calls = await suspendAs("h1");
    expect(calls).toContain("PUT /api/user/sub-hosts/s1");
    expect(calls).not.toContain("PATCH /api/user/update-status/s1");
  });
});

describe("document viewer", () => {
  it("shows images as images and PDFs in a frame", () => {
    const doc = { _id: "d", name: "a", fileName: "a", size: 1, createdAt: "", url: "/x" };
    expect(viewerKind({ ...doc, contentType: "image/png" })).toBe("image");
    expect(viewerKind({ ...doc, contentType: "application/pdf" })).toBe("pdf");
    expect(viewerKind({ ...doc, contentType: "text/html" })).toBe("link");
  });
});
