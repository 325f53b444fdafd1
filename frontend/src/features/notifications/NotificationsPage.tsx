/** /notifications: every notification with All and Unread tabs, paging, mark one or all read, delete. */
import { useEffect, useState } from "react";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { FilterHeader } from "../bookings/FilterHeader";
import { formatDate } from "../../shared/format";
import { http } from "../../shared/api/http";
import { invalidate } from "../../shared/api/query";
import { useApiQuery } from "../../shared/api/useApiQuery";
import { followNotification, type NotificationItem } from "./NotificationBell";
import { Pagination } from "../../shared/ui/Pagination";
import { toast } from "../../shared/ui/toast";
import { pageNumber, useListState } from "../list-state/useListState";
import "./notifications.css";

interface ListData {
  notifications: NotificationItem[];
  totalUnread: number;
  totalCount: number;
  totalPages?: number;
}

export const NOTIFICATION_TABS = [
  { value: "all", label: "All" },
  { value: "unread", label: "Unread" },
] as const;

const DEFAULTS = { tab: "all", page: "1" };

export function NotificationsPage() {
  const [state, update] = useListState(DEFAULTS);
  const tab = state.tab === "unread" ? "unread" : "all";
  const page = pageNumber(state.page);
  const [deleting, setDeleting] = useState<NotificationItem | null>(null);
  const query = useApiQuery<ListData>(
    "/api/notifications/get-all",
    { page, limit: 10, "filters[all]": tab === "all" ? "true" : undefined },
    { silent: true },
  );
  const data = query.data;
  const loading = query.isPending;

  useEffect(() => {
    if (query.isError) toast.error("Error fetching notifications");
  }, [query.isError]);

  const reload = () => void invalidate(["/api/notifications"]);

  const markRead = async (item: NotificationItem) => {
    try {
      await http.patch(`/api/notifications/mark-as-read/${item._id}`, undefined, { silent: true });
    } catch {
      /* mark failures are silent (spec 8) */
    }
  };
  const open = async (item: NotificationItem) => {
    if (!item.read) await markRead(item);
    followNotification(item);
  };
  const markAll = async () => {
    try {
      await http.patch("/api/notifications/mark-all-as-read", undefined, { silent: true });
    } catch {
      /* silent */
    }
    reload();
  };
  const remove = async (item: NotificationItem) => {
    try {
      const answer = await http.patch(`/api/notifications/delete/${item._id}`);
      toast.success(answer.message || "Notification deleted.");
    } catch {
      /* the client toasted the reason */
    }
    setDeleting(null);
    reload();
  };

  const items = data?.notifications ?? [];
  const totalPages = data?.totalPages ?? Math.max(1, Math.ceil((data?.totalCount ?? 0) / 10));
  return (
    <>
      <FilterHeader title="Notifications">
        <button type="button" className="button" onClick={() => void markAll()} disabled={!data?.totalUnread}>
          Mark all read
        </button>
      </FilterHeader>
      <section className="dash-card" aria-label="Notifications">
        <div className="dash-tabs" role="tablist" aria-label="Show">
          {NOTIFICATION_TABS.map((item) => (
            <button
              key={item.value}
              type="button"
              role="tab"
              aria-selected={item.value === tab}
              className={`dash-tab${item.value === tab ? " is-active" : ""}`}
              onClick={() => update({ tab: item.value })}
            >
              {item.label}
              {item.value === "unread" && data?.totalUnread ? ` (${data.totalUnread})` : ""}
            </button>
          ))}
        </div>
        {loading ? (
          <div className="dash-loading">
            <span className="dash-spinner" role="status" aria-label="Loading" />
          </div>
        ) : items.length === 0 ? (
          <p className="dash-empty">{tab === "unread" ? "No new notifications" : "No data found"}</p>
        ) : (
          <ul className="notes-list">
            {items.map((item) => (
              <li key={item._id} className={`notes-item${item.read ? "" : " notes-item--unread"}`} data-testid="notification">
                <button type="button" className="notes-item__open" onClick={() => void open(item)}>
                  <span className="notes-item__text">{item.content}</span>
                  <span className="notes-item__time">
                    {formatDate(item.createdAt)}
                    {!item.read && <span className="visually-hidden"> (unread)</span>}
                  </span>
                </button>
                <span className="notes-item__actions">
                  {!item.read && (
                    <button
                      type="button"
                      className="link-button"
                      onClick={async () => {
                        await markRead(item);
                        reload();
                      }}
                    >
                      Mark as read
                    </button>
                  )}
                  <button type="button" className="link-button" onClick={() => setDeleting(item)}>
                    Delete
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
        {!loading && <Pagination page={page} totalPages={totalPages} onPage={(next) => update({ page: String(next) })} />}
      </section>
      {deleting && (
        <ConfirmDialog
          title="Delete notification"
          message="Delete this notification?"
          confirmLabel="Delete"
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        />
      )}
    </>
  );
}
