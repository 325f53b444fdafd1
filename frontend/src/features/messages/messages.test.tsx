import { describe, expect, it } from "vitest";
import { urlBase64ToUint8Array } from "../push/push";
import { starsText } from "../reviews/ListingReviews";
import { type ChatMessage, type Conversation, fileSize, initials, mergeMessage, otherParty, receipt } from "./api";

function message(id: string, createdAt: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { _id: id, conversationId: "c", senderId: "u", senderSide: "renter", text: id, attachments: [], createdAt, deliveredAt: null, readAt: null, ...extra };
}

const person = (first: string, last = "") => ({ _id: first, firstName: first, lastName: last, displayName: `${first} ${last}`.trim(), userName: "", role: "renter" as const, avatar: "" });

describe("chat helpers", () => {
  it("shows Sent, Delivered, then Read", () => {
    expect(receipt(message("a", "2026-01-01T10:00:00Z"))).toBe("Sent");
    expect(receipt(message("a", "2026-01-01T10:00:00Z", { deliveredAt: "2026-01-01T10:00:01Z" }))).toBe("Delivered");
    expect(receipt(message("a", "2026-01-01T10:00:00Z", { deliveredAt: "x", readAt: "2026-01-01T10:01:00Z" }))).toBe("Read");
  });

  it("merges a live message once and keeps time order", () => {
    const thread = [message("a", "2026-01-01T10:00:00Z"), message("c", "2026-01-01T10:02:00Z")];
    const merged = mergeMessage(thread, message("b", "2026-01-01T10:01:00Z"));
    expect(merged.map((m) => m._id)).toEqual(["a", "b", "c"]);
    expect(mergeMessage(merged, message("b", "2026-01-01T10:01:00Z", { readAt: "r" }))).toHaveLength(3);
  });

  it("shows the other party by the side the server names", () => {
    const conversation = { renter: person("Rita"), host: person("Hugo", "Host") } as Conversation;
    expect(otherParty(conversation, "renter").firstName).toBe("Hugo");
    expect(otherParty(conversation, "host").firstName).toBe("Rita");
    expect(initials(person("Hugo", "Host"))).toBe("HH");
    expect(fileSize(2048)).toBe("2 KB");
  });
});

describe("push and reviews", () => {
  it("decodes the VAPID key", () => {
    expect(Array.from(urlBase64ToUint8Array("AQID_-8"))).toEqual([1, 2, 3, 255, 239]);
  });

  it("draws five stars", () => {
    expect(starsText(4)).toBe("★★★★☆");
    expect(starsText(null)).toBe("");
  });
});

describe("receipts that arrive early", () => {
  it("counts a message read when the other side read after it was sent", () => {
    const sent = message("a", "2026-01-01T10:00:00.000Z");
    expect(receipt(sent, "2026-01-01T10:00:01.000Z")).toBe("Read");
    expect(receipt(sent, "2026-01-01T09:59:59.000Z")).toBe("Sent");
  });

  it("never takes a receipt back when a late copy of the message arrives", () => {
    const read = message("a", "2026-01-01T10:00:00Z", { readAt: "2026-01-01T10:00:02Z", deliveredAt: "2026-01-01T10:00:01Z" });
    const [merged] = mergeMessage([read], message("a", "2026-01-01T10:00:00Z"));
    expect(merged.readAt).toBe("2026-01-01T10:00:02Z");
    expect(receipt(merged)).toBe("Read");
  });
});
