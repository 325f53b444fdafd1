/**
 * The booking draft (spec sections 3 and 4.5: `bookingDetails`, built across the booking flow,
 * updated by merging fields and cleared after use). Kept in local storage under its own key, so
 * it survives the login a signed-out renter is asked for, and a reload on any step.
 */
export const DRAFT_KEY = "spacemarket:bookingDetails";

export interface BookingDraft {
  listingId?: string;
  slug?: string;
  propertyType?: "officeSpace" | "eventSpace" | string;
  spaceOffering?: string | null;
  checkInDate?: string;
  checkOutDate?: string;
  startTime?: string;
  endTime?: string;
  guests?: number | null;
  seats?: number | null;
  servicesAndAddOns?: string[];
  /** Set once the request was placed, so a return from the payment page does not place another. */
  bookingId?: string;
  updatedAt?: number;
}

type Storage = Pick<globalThis.Storage, "getItem" | "setItem" | "removeItem">;

function store(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readDraft(storage: Storage | null = store()): BookingDraft {
  try {
    const value = JSON.parse(storage?.getItem(DRAFT_KEY) ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? (value as BookingDraft) : {};
  } catch {
    return {};
  }
}

/**
 * Merge `changes` into the draft field by field: fields not named keep their values, a field set to
 * undefined is removed. Choosing another listing starts a new draft.
 */
export function mergeDraft(current: BookingDraft, changes: Partial<BookingDraft>): BookingDraft {
  const base = changes.listingId && current.listingId && changes.listingId !== current.listingId ? {} : current;
  const next: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as BookingDraft;
}

export function updateDraft(changes: Partial<BookingDraft>, storage: Storage | null = store()): BookingDraft {
  const next = { ...mergeDraft(readDraft(storage), changes), updatedAt: Date.now() };
  try {
    storage?.setItem(DRAFT_KEY, JSON.stringify(next));
  } catch {
    /* storage full or blocked: the step keeps its own state */
  }
  return next;
}

export function clearDraft(storage: Storage | null = store()): void {
  try {
    storage?.removeItem(DRAFT_KEY);
  } catch {
    /* nothing stored */
  }
}

/** The draft, if it belongs to this listing. */
export function draftFor(listingId: string, storage: Storage | null = store()): BookingDraft {
  const draft = readDraft(storage);
  return draft.listingId === listingId ? draft : {};
}
