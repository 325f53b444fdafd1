/** Form rules of the account screens, with the same sentences the server answers. Empty strings count as absent. */
import { z } from "zod";
import { MESSAGES } from "../../shared/forms/schemas";

const optional = (max: number, label: string) => z.string().trim().max(max, `${label} must be at most ${max} characters long`);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,39}$/;
export const USER_NAME_MESSAGE =
  "User name must be 3 to 40 letters, digits, dots, dashes or underscores, starting with a letter or digit.";
const LINK = /^https?:\/\/[^\s]+\.[^\s]+$/i;
export const LINK_MESSAGE = "Please enter a valid link (https://...)";

export const profileSchema = z.object({
  firstName: optional(50, "First name"),
  lastName: optional(50, "Last name"),
  userName: z.string().trim().refine((value) => value === "" || USER_NAME.test(value), USER_NAME_MESSAGE),
  gender: z.enum(["", "male", "female", "other"]),
  bio: optional(2000, "Bio"),
  nativeLanguage: optional(50, "Native language"),
  city: optional(80, "City"),
  state: optional(80, "State"),
  country: optional(80, "Country"),
  emergencyContactname: optional(100, "Emergency contact name"),
  emergencyRelationship: optional(50, "Relationship"),
  emergencyEmail: z.string().trim().refine((value) => value === "" || EMAIL.test(value), MESSAGES.emailInvalid),
  emergencyPhone: z.string().regex(/^\d{0,15}$/, "Phone number must be digits only, at most 15."),
  Facebook: z.string().trim().refine((value) => value === "" || LINK.test(value), LINK_MESSAGE),
  Twitter: z.string().trim().refine((value) => value === "" || LINK.test(value), LINK_MESSAGE),
  Pintrest: z.string().trim().refine((value) => value === "" || LINK.test(value), LINK_MESSAGE),
  Instagram: z.string().trim().refine((value) => value === "" || LINK.test(value), LINK_MESSAGE),
});
export type ProfileValues = z.input<typeof profileSchema>;

const strongPassword = z
  .string()
  .min(1, MESSAGES.passwordRequired)
  .min(8, MESSAGES.passwordMin)
  .regex(/[A-Z]/, MESSAGES.passwordUpper)
  .regex(/\d/, MESSAGES.passwordNumber)
  .regex(/[a-z]/, MESSAGES.passwordLower)
  .regex(/[!#@$%^&*)(+=._-]/, MESSAGES.passwordSpecial)
  .max(128, "Password must be at most 128 characters long");

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, "Current password is required"),
    newPassword: strongPassword,
    confirmPassword: z.string().min(1, MESSAGES.confirmRequired),
  })
  .refine((values) => values.newPassword === values.confirmPassword, { path: ["confirmPassword"], message: MESSAGES.passwordsMustMatch });
export type PasswordChangeValues = z.input<typeof passwordChangeSchema>;

export const emailChangeSchema = z.object({
  email: z.string().trim().min(1, MESSAGES.emailRequired).regex(EMAIL, MESSAGES.emailInvalid),
  password: z.string().min(1, MESSAGES.passwordRequired),
});
export type EmailChangeValues = z.input<typeof emailChangeSchema>;

export const TAX_MESSAGE = "Tax must be a number from 0 to 100.";
export const taxSchema = z.object({
  tax: z
    .string()
    .trim()
    .min(1, "Tax is required")
    .refine((value) => /^\d{1,3}(\.\d{1,2})?$/.test(value) && Number(value) <= 100, TAX_MESSAGE),
});
export type TaxValues = z.input<typeof taxSchema>;
