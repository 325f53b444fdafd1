/**
 * Constants the server owns, generated from its policies into constants.json
 * (`manage.py frontend_constants`; `make test` fails when the file is stale). Import them from
 * here instead of writing the numbers again.
 */
import type { Schemas } from "./api/client";
import generated from "./constants.json";

export type RefundStep = { hoursBefore: number; share: string };
export type CancellationPolicyName = "flexible" | "moderate" | "strict";

export type Constants = {
  slotMinutes: number;
  otpLength: number;
  pageSize: number;
  pagination: { allPagesUpTo: number; edgeWindow: number };
  periods: string[];
  displayTimeZone: string;
  premium: { graceDays: number; deletionWarningDaysBefore: number; graceText: string };
  uploads: {
    imageMaxBytes: number;
    imageTypes: string[];
    listingImagesPerUpload: number;
    documentMaxBytes: number;
    documentsPerUser: number;
    disputeFilesMax: number;
  };
  listingForm: {
    limits: {
      title: number;
      description: number;
      images: number;
      addOns: number;
      alt: number;
      bufferMinutes: number;
      minimumNoticeHours: number;
      bookingWindowDays: number;
      blockedDates: number;
    };
    offerings: { kind: Schemas["OfferingKindEnum"]; title: string; periods: Schemas["PeriodEnum"][] }[];
  };
  refundSchedule: Record<CancellationPolicyName, { steps: RefundStep[]; text: string }>;
};

export const CONSTANTS: Constants = generated as Constants;
export const PAGE_SIZE = CONSTANTS.pageSize;
export const SLOT_MINUTES = CONSTANTS.slotMinutes;
export const OTP_LENGTH = CONSTANTS.otpLength;
export const PERIODS = CONSTANTS.periods;
export const PREMIUM_GRACE_DAYS = CONSTANTS.premium.graceDays;
