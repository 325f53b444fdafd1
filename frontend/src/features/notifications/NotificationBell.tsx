/** The top bar's notification bell (spec 2.3): list, Mark all read, See All, 9+, paging on scroll, live. */
import { useCallback, useEffect, useRef, useState } from "react";
import { navigation } from "../../shared/browser/navigation";
import { toast } from "../../shared/ui/toast";
import { counterText, formatDate } from "../../shared/format";
import { http } from "../../shared/api/http";
import { onLive } from "../../shared/api/live";

export interface NotificationItem {
  _id: string;
  content: string;
  type: string;
  link: string;
  read: boolean;
  createdAt: string;
}

interface ListData {
  notifications: NotificationItem[];
  totalUnread: number;
  totalCount: number;
}

export const NAV_STATE_KEY = "dashboard:navigationState";

/** Where a notification leads, and the navigation state the spec asks for (kept in sessionStorage). */
export function followNotification(item: NotificationItem): void {
  let state: Record<string, unknown> | null = null;
  if (item.type === "listing") state = { fromNotification: true };
  if (item.type === "verificationRequest") state = { options: true };
  try {
    if (state) window.sessionStorage.setItem(NAV_STATE_KEY, JSON.stringify({ link: item.link, state }));
  } catch {
    /* the page opens without the state */
  }
  if (item.link) navigation.assign(item.link);
}

export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<NotificationItem[]>([]);
  const [unread, setUnread] = useState(0);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);
  const panel = useRef<HTMLDivElement>(null);

  const load = useCallback(async (next: number) => {
    setLoading(true);
    try {
      const answer = await http.get<ListData>("/api/notifications/get-all", { query: { page: next, limit: 10 }, silent: true });
      setItems((current) => (next === 1 ? answer.data.notifications : [...current, ...answer.data.notifications]));
      setUnread(answer.data.totalUnread);
      setTotal(answer.data.totalCount);
      setPage(next);
    } catch {
      toast.error("Error fetching notifications");
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(1);
    return onLive("notification", (data) => {
      const item = data as NotificationItem;
      setItems((current) => [item, ...current.filter((other) => other._id !== item._id)]);
      setUnread((value) => value + 1);
      setTotal((value) => value + 1);
    });
  }, [load]);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (panel.current && !panel.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  const onScroll = (event: { currentTarget: HTMLElement }) => {
    const list = event.currentTarget;
    if (!loading && items.length < total && list.scrollTop + list.clientHeight >= list.scrollHeight - 40) void load(page + 1);
  };

  const markAll = async () => {
    try {
      await http.patch("/api/notifications/mark-all-as-read", {}, { silent: true });
      setItems([]);
      setUnread(0);
      setTotal(0);
    } catch {
      /* silent, as the spec says */
    }
  };

  const openItem = async (item: NotificationItem) => {
    try {
      await http.patch(`/api/notifications/mark-as-read/${item._id}`, {}, { silent: true });
    } catch {
      /* silent */
    }
    setItems((current) => current.filter((other) => other._id !== item._id));
    setUnread((value) => Math.max(0, value - 1));
    followNotification(item);
  };

  const badge = counterText(unread);
  return (
    <div className="dash-bell" ref={panel}>
      <button
        type="button"
        className="dash-bell__button"
        aria-label={`Notifications${unread ? `, ${unread} unread` : ""}`}
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.73 21a2 2 0 0 1-3.46 0" />
        </svg>
        {badge && <span className="dash-bell__count" data-testid="bell-count">{badge}</span>}
      </button>
      {open && (
        <div className="dash-bell__panel" role="dialog" aria-label="Notifications">
          <div className="dash-bell__head">
            <strong>Notifications</strong>
            {items.length > 0 && (
              <button type="button" className="link-button" onClick={markAll}>
                Mark all read
              </button>
            )}
          </div>
          {items.length === 0 && !loading ? (
            <p className="dash-bell__empty">No new notifications</p>
          ) : (
            <ul className="dash-bell__list" onScroll={onScroll} data-testid="bell-list">
              {items.map((item) => (
                <li key={item._id} className={`dash-bell__item${item.read ? "" : " dash-bell__item--unread"}`}>
                  <button type="button" onClick={() => openItem(item)}>
                    {item.content}
                    <span className="dash-bell__time">{formatDate(item.createdAt)}</span>
                  </button>
                </li>
              ))}
              {loading && (
                <li className="dash-bell__empty">
                  <span className="dash-spinner" role="status" aria-label="Loading" />
                </li>
              )}
            </ul>
          )}
          <a className="dash-bell__foot" href="/notifications">
            See All Notifications
          </a>
        </div>
      )}
    </div>
  );
}
