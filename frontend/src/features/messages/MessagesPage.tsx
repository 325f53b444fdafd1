/**
 * /message (every role): the caller's conversations with the other party's name, avatar, last
 * message and unread count; a live thread (new messages, typing, delivered and read receipts over
 * the page's one websocket); attachments (images inline, other files as downloads); search; and
 * `/message?userId=` opens or starts the conversation with that user.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useDebounced } from "../../shared/hooks/useDebounced";
import { api, call, type Schemas } from "../../shared/api/client";
import { upload } from "../../shared/api/upload";
import { invalidate } from "../../shared/api/query";
import { useApiQuery } from "../../shared/api/hooks";
import { onLive, sendLive } from "../../shared/api/live";
import { Spinner } from "../../shared/ui/Spinner";
import { toast } from "../../shared/ui/toast";
import {
  type ChatMessage,
  type Conversation,
  fileSize,
  initials,
  isImage,
  mergeMessage,
  messageTime,
  otherParty,
  personName,
  receipt,
} from "./api";
import "./messages.css";
import type { IslandProps } from "../../shared/ui/mountIsland";

type PageProps = IslandProps<"DashboardMessages">;
/**
 * From the server: the side of a conversation the user speaks for (staff: null, read only), and
 * whom or what to open (`listingId`: a renter's question about a listing before any booking).
 */
type Props = Pick<PageProps, "side" | "userId"> & Partial<Pick<PageProps, "withUserId" | "conversationId" | "bookingId" | "listingId">>;

const MAX_FILES = 5;

function Avatar({ person }: { person: Conversation["host"] }) {
  const [broken, setBroken] = useState(false);
  if (person.avatar && !broken) {
    return <img className="chat-avatar" src={person.avatar} alt="" onError={() => setBroken(true)} />;
  }
  return (
    <span className="chat-avatar chat-avatar--initials" aria-hidden="true">
      {initials(person)}
    </span>
  );
}

function setUrlConversation(id: string) {
  const params = new URLSearchParams(window.location.search);
  params.delete("userId");
  params.delete("bookingId");
  params.delete("listingId");
  params.set("conversationId", id);
  window.history.replaceState(null, "", `${window.location.pathname}?${params.toString()}`);
}

export function MessagesPage({ side, withUserId = "", conversationId = "", bookingId = "", listingId = "" }: Props) {
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, 500);
  const [activeId, setActiveId] = useState(conversationId);
  const [active, setActive] = useState<Conversation | null>(null);
  const [thread, setThread] = useState<ChatMessage[]>([]);
  const [hasOlder, setHasOlder] = useState(false);
  const [typing, setTyping] = useState("");
  const [readUpTo, setReadUpTo] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const typingTimer = useRef<number | undefined>(undefined);
  const lastTypingSent = useRef(0);

  const listQuery = useApiQuery(
    "/api/chat/get-all",
    { params: { query: { page: 1, limit: 10, ...(debounced ? { "filters[search]": debounced } : {}) } } },
    { silent: true, keepPrevious: true, select: (answer) => answer.data.conversations },
  );
  const conversations = listQuery.data ?? [];
  const listLoading = listQuery.isPending;
  const loadList = useCallback(() => invalidate(["/api/chat/get-all"]), []);

  // /message?userId= (or bookingId, or listingId): open or start that conversation.
  useEffect(() => {
    if (!side || (!withUserId && !bookingId && !listingId)) return;
    const body = withUserId ? { userId: withUserId } : bookingId ? { bookingId } : { listingId };
    call(api.POST("/api/chat/start", { body }))
      .then((answer) => {
        const conversation = answer.data;
        setActiveId(conversation._id);
        setActive(conversation);
        setUrlConversation(conversation._id);
        void loadList();
      })
      .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [withUserId, bookingId, listingId, side]);

  const markRead = useCallback(async (id: string) => {
    if (!sendLive("read", { conversationId: id })) {
      try {
        await call(api.PATCH("/api/chat/mark-as-read/{conversation_id}", { params: { path: { conversation_id: id } } }), { silent: true });
      } catch {
        /* the count stays until next time */
      }
    }
    void invalidate(["/api/chat"]);
  }, []);

  // Open a conversation: its details and newest messages, then mark them read.
  useEffect(() => {
    if (!activeId) return;
    let stale = false;
    setThread([]);
    setTyping("");
    setReadUpTo(null);
    const path = { conversation_id: activeId };
    Promise.all([
      call(api.GET("/api/chat/get-single/{conversation_id}", { params: { path } }), { silent: true }),
      call(api.GET("/api/chat/messages/{conversation_id}", { params: { path, query: { page: 1, limit: 50 } } }), { silent: true }),
    ])
      .then(([one, page]) => {
        if (stale) return;
        const conversation = one.data;
        const messages = page.data.messages;
        setActive(conversation);
        setThread([...messages].reverse());
        setHasOlder(page.data.totalPages > 1);
        if (conversation.unreadCount > 0 || messages.some((m) => m.senderSide !== side && !m.readAt)) void markRead(activeId);
      })
      .catch(() => {
        if (!stale) {
          toast.error("This conversation could not be opened.");
          setActiveId("");
        }
      });
    return () => {
      stale = true;
    };
  }, [activeId, side, markRead]);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: "end" });
  }, [thread.length]);

  // Live events of the page's socket.
  useEffect(() => {
    const offs = [
      onLive("message", ({ conversationId: id, message }) => {
        if (id === activeId) {
          setThread((current) => mergeMessage(current, message));
          if (message.senderSide !== side) {
            setTyping("");
            sendLive("delivered", { messageId: message._id });
            void markRead(id);
          }
        }
        void loadList();
      }),
      onLive("read", ({ conversationId: id, readAt, by }) => {
        if (id !== activeId || by === side) return;
        setReadUpTo((current) => (current && Date.parse(current) > Date.parse(readAt) ? current : readAt));
        setThread((current) => current.map((m) => (m.senderSide === side && !m.readAt ? { ...m, readAt, deliveredAt: m.deliveredAt ?? readAt } : m)));
      }),
      onLive("delivered", ({ conversationId: id, messageId, deliveredAt }) => {
        if (id !== activeId) return;
        setThread((current) => current.map((m) => (m._id === messageId && !m.deliveredAt ? { ...m, deliveredAt } : m)));
      }),
      onLive("typing", ({ conversationId: id, name, isTyping }) => {
        if (id !== activeId) return;
        window.clearTimeout(typingTimer.current);
        setTyping(isTyping ? `${name || "Someone"} is typing…` : "");
        if (isTyping) typingTimer.current = window.setTimeout(() => setTyping(""), 5000);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [activeId, side, loadList, markRead]);

  const loadOlder = async () => {
    const oldest = thread[0];
    if (!activeId || !hasOlder || !oldest) return;
    try {
      // The keyset "before the oldest shown": messages that arrived meanwhile do not shift the pages.
      const query = { before: oldest._id, limit: 50 };
      const answer = await call(api.GET("/api/chat/messages/{conversation_id}", { params: { path: { conversation_id: activeId }, query } }));
      const older = answer.data.messages;
      setThread((current) => older.reduce((list, message) => mergeMessage(list, message), current));
      setHasOlder(answer.data.totalPages > 1);
    } catch {
      /* toasted */
    }
  };

  const onTextChange = (value: string) => {
    setText(value);
    const now = Date.now();
    if (activeId && now - lastTypingSent.current > 2000) {
      lastTypingSent.current = now;
      sendLive("typing", { conversationId: activeId, isTyping: true });
    }
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!activeId || sending) return;
    if (!text.trim() && files.length === 0) {
      toast.error("Write a message or attach a file.");
      return;
    }
    setSending(true);
    const form = new FormData();
    form.append("text", text.trim());
    files.forEach((file) => form.append("attachments", file));
    try {
      const answer = await upload<Schemas["MessageSendResponse"]>(`/api/chat/send/${activeId}`, form);
      setThread((current) => mergeMessage(current, answer.data));
      setText("");
      setFiles([]);
      if (fileInput.current) fileInput.current.value = "";
      sendLive("typing", { conversationId: activeId, isTyping: false });
      void loadList();
    } catch {
      /* the client toasted the reason; what was typed stays */
    } finally {
      setSending(false);
    }
  };

  const other = active ? otherParty(active, side) : null;
  return (
    <div className="chat">
      <h1 className="visually-hidden">Messages</h1>
      <aside className="chat-list dash-card" aria-label="Conversations">
        <input
          type="search"
          className="chat-search"
          aria-label="Search conversations"
          placeholder="Search"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        {listLoading ? (
          <div className="dash-loading">
            <Spinner size="large" />
          </div>
        ) : conversations.length === 0 ? (
          <p className="dash-empty">{side ? "No conversations yet" : "Staff read a disputed booking's conversation from its dispute."}</p>
        ) : (
          <ul>
            {conversations.map((conversation) => {
              const person = otherParty(conversation, side);
              return (
                <li key={conversation._id}>
                  <button
                    type="button"
                    className={`chat-list__item${conversation._id === activeId ? " is-active" : ""}`}
                    aria-current={conversation._id === activeId ? "true" : undefined}
                    onClick={() => {
                      setActiveId(conversation._id);
                      setUrlConversation(conversation._id);
                    }}
                  >
                    <Avatar person={person} />
                    <span className="chat-list__text">
                      <span className="chat-list__name">{personName(person)}</span>
                      <span className="chat-list__last">{conversation.lastMessage || (conversation.listing?.title ?? "")}</span>
                    </span>
                    {conversation.unreadCount > 0 && (
                      <span className="dash-count" data-testid="unread-count" aria-label={`${conversation.unreadCount} unread`}>
                        {conversation.unreadCount > 9 ? "9+" : conversation.unreadCount}
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </aside>
      <section className="chat-thread dash-card" aria-label="Conversation">
        {!active ? (
          <p className="dash-empty">Choose a conversation.</p>
        ) : (
          <>
            <header className="chat-thread__head">
              {other && <Avatar person={other} />}
              <div>
                <h2>{personName(other)}</h2>
                {active.listing && <a href={`/listing-details/${active.listing.slug}`}>{active.listing.title}</a>}
              </div>
            </header>
            <div className="chat-messages" aria-live="polite">
              {hasOlder && (
                <button type="button" className="link-button chat-older" onClick={() => void loadOlder()}>
                  Load earlier messages
                </button>
              )}
              {thread.map((message) => {
                const mine = message.senderSide === side;
                return (
                  <div key={message._id} className={`chat-bubble${mine ? " chat-bubble--mine" : ""}`} data-testid="chat-message">
                    {message.text && <p>{message.text}</p>}
                    {message.attachments.map((attachment) =>
                      isImage(attachment) ? (
                        <a key={attachment._id} href={attachment.url} target="_blank" rel="noreferrer">
                          <img className="chat-image" src={attachment.url} alt={attachment.name} loading="lazy" />
                        </a>
                      ) : (
                        <a key={attachment._id} className="chat-file" href={attachment.url} download={attachment.name}>
                          {attachment.name} ({fileSize(attachment.size)})
                        </a>
                      ),
                    )}
                    <span className="chat-meta">
                      {messageTime(message.createdAt)}
                      {mine && <span data-testid="receipt"> · {receipt(message, readUpTo)}</span>}
                    </span>
                  </div>
                );
              })}
              <div ref={bottom} />
            </div>
            <p className="chat-typing" aria-live="polite">
              {typing}
            </p>
            {side ? (
              <form className="chat-compose" onSubmit={(event) => void send(event)}>
                <label className="visually-hidden" htmlFor="chat-text">
                  Message
                </label>
                <textarea
                  id="chat-text"
                  rows={2}
                  maxLength={5000}
                  placeholder="Write a message"
                  value={text}
                  onChange={(event) => onTextChange(event.currentTarget.value)}
                  onKeyDown={(event) => {
                    if (event.key === "Enter" && !event.shiftKey) {
                      event.preventDefault();
                      event.currentTarget.form?.requestSubmit();
                    }
                  }}
                />
                <label className="button button--ghost chat-attach">
                  Attach
                  <input
                    ref={fileInput}
                    type="file"
                    multiple
                    accept="image/png,image/jpeg,image/webp,application/pdf"
                    className="visually-hidden"
                    onChange={(event) => {
                      const chosen = Array.from(event.currentTarget.files ?? []);
                      if (chosen.length > MAX_FILES) toast.error(`Attach at most ${MAX_FILES} files to one message.`);
                      setFiles(chosen.slice(0, MAX_FILES));
                    }}
                  />
                </label>
                <button type="submit" className="button" disabled={sending} aria-busy={sending || undefined}>
                  Send
                </button>
                {files.length > 0 && (
                  <p className="chat-files dash-note">
                    {files.map((file) => file.name).join(", ")}{" "}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        setFiles([]);
                        if (fileInput.current) fileInput.current.value = "";
                      }}
                    >
                      Remove
                    </button>
                  </p>
                )}
              </form>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}
