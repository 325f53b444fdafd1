/** The top bar's notification bell (spec 2.3): list, Mark all read, See All, 9+, paging on scroll, live. */
import { useInfiniteQuery, useMutation } from "@tanstack/react-query";
import { Bell } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { api, call, type Schemas } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { navigation } from "../../shared/browser/navigation";
import { counterText, formatDateTime } from "../../shared/format";
import { Spinner } from "../../shared/ui/Spinner";
import { toast } from "../../shared/ui/toast";

export type NotificationItem = Schemas["Notification"];

export const NAV_STATE_KEY = "dashboard:navigationState";
export const FETCH_FAILED = "Error fetching notifications";

/** Where a notification leads, and the navigation state the spec asks for (kept in sessionStorage). */
export function followNotification(item: Pick<NotificationItem, "type" | "link">): void {
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
  const panel = useRef<HTMLDivElement>(null);
  // Pages of 10; a live "notification" event invalidates /api/notifications, which reloads them.
  const list = useInfiniteQuery({
    queryKey: apiKey("/api/notifications/get-all"),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      call(api.GET("/api/notifications/get-all", { params: { query: { page: pageParam, limit: 10 } }, signal }), { silent: true })
        .then((answer) => answer.data)
        .catch((error: unknown) => {
          if ((error as Error)?.name !== "AbortError") toast.error(FETCH_FAILED);
          throw error;
        }),
    getNextPageParam: (last, pages) => (pages.reduce((sum, page) => sum + page.notifications.length, 0) < last.totalCount ? pages.length + 1 : undefined),
  });
  const items = list.data?.pages.flatMap((page) => page.notifications) ?? [];
  const unread = list.data?.pages[0]?.totalUnread ?? 0;
  const loading = list.isPending || list.isFetchingNextPage;

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (panel.current && !panel.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  const onScroll = (event: { currentTarget: HTMLElement }) => {
    const element = event.currentTarget;
    if (!loading && list.hasNextPage && element.scrollTop + element.clientHeight >= element.scrollHeight - 40) void list.fetchNextPage();
  };

  // The mark calls fail silently (spec 8).
  const markAll = useMutation({
    mutationFn: () => call(api.PATCH("/api/notifications/mark-all-as-read", {}), { silent: true }),
    onSettled: () => invalidate(["/api/notifications"]),
  });
  const openItem = async (item: NotificationItem) => {
    try {
      await call(api.PATCH("/api/notifications/mark-as-read/{notification_id}", { params: { path: { notification_id: item._id } } }), { silent: true });
    } catch {
      /* silent */
    }
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
        <Bell aria-hidden="true" size={22} />
        {badge && <span className="dash-bell__count" data-testid="bell-count">{badge}</span>}
      </button>
      {open && (
        <div className="dash-bell__panel" role="dialog" aria-label="Notifications">
          <div className="dash-bell__head">
            <strong>Notifications</strong>
            {items.length > 0 && (
              <button type="button" className="link-button" onClick={() => markAll.mutate()}>
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
                    <span className="dash-bell__time">{formatDateTime(item.createdAt)}</span>
                  </button>
                </li>
              ))}
              {loading && (
                <li className="dash-bell__empty">
                  <Spinner />
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
