/**
 * What the account and back-office screens share: the account shape as the API sends it, display
 * rules of spec sections 3 and 9, server field errors into a form, and the shell's name and avatar.
 */
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "../../shared/api/client";
import type { components } from "../../shared/api/schema";
import { fullName, shortName } from "../../shared/format";

export type UserDetail = components["schemas"]["UserDetail"];
export type UserListItem = components["schemas"]["UserListItem"];

/** A social link with one of the labels the profile accepts (the server's input enum). */
export type SocialLink = components["schemas"]["SocialMediaLinkInputRequest"];
export const SOCIAL_LABELS: SocialLink["label"][] = ["Facebook", "Twitter", "Pintrest", "Instagram"];

export type VerificationDoc = components["schemas"]["VerificationDocument"];

export const DEFAULT_AVATAR = "/static/img/default-avatar.svg";
export const BIO_MAX = 300;
export const DOC_NAME_MAX = 21;
export const DOC_NAME_TAIL = 20;

/** The account's `socialMediaLinks`, keeping only well-formed entries. */
export function socialLinks(value: unknown): SocialLink[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is SocialLink =>
      !!item && typeof item === "object" && SOCIAL_LABELS.includes((item as SocialLink).label) && typeof (item as SocialLink).link === "string",
  );
}

export function verificationDocs(value: readonly VerificationDoc[] | undefined): readonly VerificationDoc[] {
  return value ?? [];
}

/** The emergency phone as (xxx) xxx-xxxx (spec 3); other lengths are shown as stored. */
export function displayPhone(digits: string | null | undefined): string {
  const value = (digits ?? "").replace(/\D/g, "");
  if (value.length !== 10) return value;
  return `(${value.slice(0, 3)}) ${value.slice(3, 6)}-${value.slice(6)}`;
}

/** A document file name: names longer than 21 characters show their last 20 after an ellipsis (spec 9). */
export function documentName(name: string): string {
  return name.length > DOC_NAME_MAX ? `…${name.slice(-DOC_NAME_TAIL)}` : name;
}

/** The name a person is shown by: first and last name, else the user name, else the e-mail's local part. */
export function displayName(user: { displayName?: string; firstName?: string; lastName?: string; userName?: string; email?: string }): string {
  return fullName(user);
}

export function roleLabel(role: string): string {
  return { admin: "Admin", moderator: "Moderator", host: "Host", subHost: "Sub-host", renter: "Renter" }[role] ?? role;
}

/** The field errors of a refused write (`errors: {field: [sentences]}`). */
export function serverErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const errors = (error.body as { errors?: Record<string, unknown> } | null)?.errors;
  if (!errors || typeof errors !== "object") return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(errors)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") out[key] = first;
  }
  return out;
}

/**
 * Put the server's sentences under the form's fields (what was typed stays). Returns the
 * messages for fields the form does not have, so the caller can show them elsewhere.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
  aliases: Record<string, string> = {},
): string[] {
  const rest: string[] = [];
  for (const [key, message] of Object.entries(serverErrors(error))) {
    const base = aliases[key] ?? key.split(".")[0];
    const name = aliases[base] ?? base;
    if (fields.includes(name)) setError(name as Path<T>, { type: "server", message }, { shouldFocus: true });
    else rest.push(message);
  }
  return rest;
}

/** Show the new name and avatar in the sidebar and the top bar at once (they are server-rendered). */
export function updateShellIdentity(user: { displayName?: string; firstName?: string; lastName?: string; userName?: string; email?: string; avatar?: string }): void {
  const name = displayName(user);
  document.querySelectorAll<HTMLElement>(".dash-user-name").forEach((element) => {
    element.textContent = shortName(name);
    element.title = name;
  });
  document.querySelectorAll<HTMLElement>(".dash-profile-name").forEach((element) => {
    element.textContent = name;
  });
  document.querySelectorAll<HTMLElement>(".dash-avatar").forEach((element) => {
    if (user.avatar && !user.avatar.endsWith("default-avatar.svg")) {
      const image = document.createElement("img");
      image.src = user.avatar;
      image.alt = "";
      image.className = "dash-avatar__img";
      image.addEventListener("error", () => {
        image.src = DEFAULT_AVATAR;
      });
      element.replaceChildren(image);
    } else {
      element.textContent = name.charAt(0).toUpperCase();
    }
  });
}
