/** The chat API's shapes (messages with attachments go through the shared `upload`). */
import type { Schemas } from "../../shared/api/client";

/** The chat API's shapes, as the server's serializers declare them. */
export type ChatPerson = Schemas["Person"];
export type Attachment = Schemas["Attachment"];
export type ChatMessage = Schemas["Message"];
export type Conversation = Schemas["Conversation"];

/** The side of a conversation the signed-in user speaks for, as the server says (staff: none). */
export type ChatSide = "renter" | "host" | null;

export function otherParty(conversation: Conversation, side: ChatSide): ChatPerson {
  return side === "renter" ? conversation.host : conversation.renter;
}

export function personName(person: ChatPerson | null | undefined): string {
  if (!person) return "";
  return person.displayName || `${person.firstName ?? ""} ${person.lastName ?? ""}`.trim() || person.userName || "User";
}

export function initials(person: ChatPerson | null | undefined): string {
  const name = personName(person);
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? "")
    .join("");
}

/** What a message of mine shows: Read, Delivered or Sent. ``readUpTo`` is when the other side last
 * read the conversation (a read receipt can arrive before my own send's answer). */
export function receipt(message: ChatMessage, readUpTo: string | null = null): "Read" | "Delivered" | "Sent" {
  if (message.readAt || (readUpTo && Date.parse(message.createdAt) <= Date.parse(readUpTo))) return "Read";
  if (message.deliveredAt) return "Delivered";
  return "Sent";
}

export function isImage(attachment: Attachment): boolean {
  return attachment.contentType.startsWith("image/");
}

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Time of a message in America/New_York: "3:05 PM", with the date when not today. */
export function messageTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const zone = "America/New_York";
  const day = (value: Date) => new Intl.DateTimeFormat("en-GB", { timeZone: zone, day: "2-digit", month: "2-digit", year: "numeric" }).format(value);
  const time = new Intl.DateTimeFormat("en-US", { timeZone: zone, hour: "numeric", minute: "2-digit" }).format(date);
  return day(date) === day(now) ? time : `${day(date).replaceAll("/", "-")} ${time}`;
}

/** Merge a message into a newest-last thread, once (a socket echo of my own send is not doubled). */
export function mergeMessage(thread: ChatMessage[], message: ChatMessage): ChatMessage[] {
  if (thread.some((item) => item._id === message._id)) {
    // A late copy never takes a receipt back.
    return thread.map((item) =>
      item._id === message._id
        ? { ...item, ...message, readAt: message.readAt ?? item.readAt, deliveredAt: message.deliveredAt ?? item.deliveredAt }
        : item,
    );
  }
  return [...thread, message].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

