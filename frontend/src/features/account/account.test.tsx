import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../shared/api/client";
import { mockApi, renderWithQuery } from "../../shared/test/render";
import { cropSquare } from "./AvatarCropper";
import { displayName, displayPhone, documentName, serverErrors, socialLinks } from "./people";
import { profilePayload, ProfileEditPage } from "./ProfileEditPage";
import { ProfileScreen } from "./ProfilePage";
import { profileSchema, passwordChangeSchema, taxSchema } from "./schemas";
import { closingConsequences } from "./SettingsPage";

// Rendering with user events takes longer than the default 5 s when the machine is busy.
vi.setConfig({ testTimeout: 20_000 });

const USER = {
  _id: "u1",
  email: "riley@example.com",
  role: "renter",
  host: null,
  avatar: "/static/img/default-avatar.svg",
  firstName: "Riley",
  lastName: "Renter",
  userName: "riley",
  gender: "",
  bio: "",
  state: "",
  country: "Canada",
  city: "Vancouver",
  emergencyContactname: "",
  emergencyPhone: "",
  emergencyRelationship: "",
  emergencyEmail: "",
  nativeLanguage: "",
  socialMediaLinks: [],
  notificationSettings: {},
  isVerified: false,
  accountVerified: true,
  isDeleted: false,
  tax: "0.00",
  verificationDocs: [],
  verificationStatus: null,
  verifiesIdentity: false,
  publicPage: null,
};

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("display rules", () => {
  it("shows the emergency phone as (xxx) xxx-xxxx", () => {
    expect(displayPhone("2261234567")).toBe("(226) 123-4567");
    expect(displayPhone("447911123456")).toBe("447911123456");
    expect(displayPhone("")).toBe("");
  });

  it("cuts document names longer than 21 characters to their last 20", () => {
    expect(documentName("passport.pdf")).toBe("passport.pdf");
    expect(documentName("a-very-long-scan-of-my-passport.pdf")).toBe("…n-of-my-passport.pdf");
    expect(documentName("123456789012345678901")).toBe("123456789012345678901");
  });

  it("names a person by full name, then user name, then the e-mail's local part", () => {
    expect(displayName({ firstName: "Ada", lastName: "Lovelace" })).toBe("Ada Lovelace");
    expect(displayName({ userName: "ada" })).toBe("ada");
    expect(displayName({ email: "ada@example.com" })).toBe("ada");
  });

  it("keeps only well-formed social links", () => {
    expect(socialLinks([{ label: "Twitter", link: "https://x.example" }, { label: "MySpace", link: "x" }, null])).toEqual([
      { label: "Twitter", link: "https://x.example" },
    ]);
    expect(socialLinks("nope")).toEqual([]);
  });

  it("reads the first sentence of each field from a refused write", () => {
    const error = new ApiError("This user name is taken.", 409, { message: "x", errors: { userName: ["This user name is taken."] } });
    expect(serverErrors(error)).toEqual({ userName: "This user name is taken." });
    expect(serverErrors(new Error("x"))).toEqual({});
  });

  it("crops the largest centred square, smaller when zoomed", () => {
    expect(cropSquare(300, 200, 1, 0.5, 0.5)).toEqual({ x: 50, y: 0, side: 200 });
    expect(cropSquare(300, 200, 2, 0, 1)).toEqual({ x: 0, y: 100, side: 100 });
  });

  it("spells out what closing an account does, by the notes the server names", () => {
    const host = closingConsequences(["listings", "subHosts", "earnings"]).join(" ");
    expect(host).toMatch(/listings disappear/);
    expect(host).toMatch(/sub-hosts are closed/);
    const renter = closingConsequences(["upcomingBookings"]).join(" ");
    expect(renter).toMatch(/Cancel upcoming bookings/);
    expect(renter).not.toMatch(/listings/);
    expect(closingConsequences([])).toHaveLength(2);
  });
});

describe("form rules", () => {
  it("checks user names and links like the server", () => {
    const base = profilePayloadValues();
    expect(profileSchema.safeParse({ ...base, userName: "x" }).success).toBe(false);
    expect(profileSchema.safeParse({ ...base, Twitter: "not a link" }).success).toBe(false);
    expect(profileSchema.safeParse(base).success).toBe(true);
  });

  it("needs the register rules and a matching confirmation for a new password", () => {
    const weak = passwordChangeSchema.safeParse({ currentPassword: "x", newPassword: "abcdefgh", confirmPassword: "abcdefgh" });
    expect(weak.success).toBe(false);
    expect(weak.error?.issues[0].message).toBe("Password Should Contain Atleast One Uppercase Letter.");
    const mismatch = passwordChangeSchema.safeParse({ currentPassword: "x", newPassword: "Secret12!", confirmPassword: "Secret12?" });
    expect(mismatch.error?.issues[0].message).toBe("Passwords must match");
  });

  it("accepts a tax from 0 to 100 with two decimals", () => {
    expect(taxSchema.safeParse({ tax: "13.5" }).success).toBe(true);
    expect(taxSchema.safeParse({ tax: "101" }).error?.issues[0].message).toBe("Tax must be a number from 0 to 100.");
    expect(taxSchema.safeParse({ tax: "" }).error?.issues[0].message).toBe("Tax is required");
  });

  it("sends the social links as a list, leaving out empty ones", () => {
    const payload = profilePayload({ ...profilePayloadValues(), Instagram: " https://instagram.com/r " });
    expect(payload.socialMediaLinks).toEqual([{ label: "Instagram", link: "https://instagram.com/r" }]);
    expect("Instagram" in payload).toBe(false);
  });
});

function profilePayloadValues() {
  return {
    firstName: "Riley",
    lastName: "Renter",
    userName: "riley",
    gender: "" as const,
    bio: "",
    nativeLanguage: "",
    city: "",
    state: "",
    country: "",
    emergencyContactname: "",
    emergencyRelationship: "",
    emergencyEmail: "",
    emergencyPhone: "",
    Facebook: "",
    Twitter: "",
    Pintrest: "",
    Instagram: "",
  };
}

describe("Profile", () => {
  it("shows the identity section and the public page only where the server says they apply", async () => {
    mockApi({
      "GET /api/user/view-user/u1": {
        body: { message: "", data: { ...USER, role: "host", userName: "hannah", verifiesIdentity: true, publicPage: "/host/hannah" } },
      },
    });
    renderWithQuery(<ProfileScreen userId="u1" view="profile" />);
    expect(await screen.findByRole("link", { name: "Public host page" })).toHaveAttribute("href", "/host/hannah");
    expect(screen.getByTestId("verification-status")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Identity verification" })).toBeInTheDocument();
  });

  it("shows neither to an account the server gives no identity check nor public page", async () => {
    mockApi({ "GET /api/user/view-user/u1": { body: { message: "", data: USER } } });
    renderWithQuery(<ProfileScreen userId="u1" view="profile" />);
    expect(await screen.findByRole("heading", { name: "Riley Renter" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Public host page" })).toBeNull();
    expect(screen.queryByTestId("verification-status")).toBeNull();
    expect(screen.queryByRole("heading", { name: "Identity verification" })).toBeNull();
  });
});

describe("Edit Profile", () => {
  it("keeps what was typed and shows the server's sentence under the field when refused", async () => {
    const fetch = mockApi({
      "GET /api/user/view-user/u1": { body: { message: "", data: USER } },
      "PUT /api/user/profile/u1": { status: 409, body: { message: "This user name is taken.", errors: { userName: ["This user name is taken."] } } },
    });
    renderWithQuery(<ProfileEditPage userId="u1" />);
    const userName = await screen.findByLabelText("User name");
    await userEvent.clear(userName);
    await userEvent.type(userName, "hannah");
    await userEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("This user name is taken.", { selector: ".form-field__error" })).toBeInTheDocument();
    expect(screen.getByLabelText("User name")).toHaveValue("hannah");
    const put = fetch.mock.calls.find(([input]) => input instanceof Request && input.method === "PUT");
    expect(put).toBeTruthy();
  });

  it("updates the shell's name once saved", async () => {
    document.body.insertAdjacentHTML("beforeend", '<span class="dash-profile-name">Riley Renter</span><span class="dash-user-name">Riley ..</span>');
    mockApi({
      "GET /api/user/view-user/u1": { body: { message: "", data: USER } },
      "PUT /api/user/profile/u1": { body: { message: "Profile updated successfully.", data: { ...USER, firstName: "Rita" } } },
    });
    renderWithQuery(<ProfileEditPage userId="u1" />);
    const first = await screen.findByLabelText("First name");
    await userEvent.clear(first);
    await userEvent.type(first, "Rita");
    await userEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(document.querySelector(".dash-profile-name")?.textContent).toBe("Rita Renter"));
    expect(document.querySelector(".dash-user-name")?.textContent).toBe("Rita R..");
  });
});
