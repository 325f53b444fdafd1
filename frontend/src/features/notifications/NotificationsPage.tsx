/** /notifications: every notification with All and Unread tabs, paging, mark one or all read, delete. */
import { useEffect, useState } from "react";
import { api, call, pageCount } from "../../shared/api/client";
import { useApiQuery } from "../../shared/api/hooks";
import { invalidate } from "../../shared/api/query";
import { formatDateTime } from "../../shared/format";
import { useListState } from "../../shared/hooks/useListState";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { Pagination } from "../../shared/ui/Pagination";
import { Spinner } from "../../shared/ui/Spinner";
import { Tabs } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";
import { FilterHeader } from "../bookings/FilterHeader";
import { FETCH_FAILED, followNotification, type NotificationItem } from "./NotificationBell";
import "./notifications.css";

export const NOTIFICATION_TABS = [
  { value: "all", label: "All" },
  { value: "unread", label: "Unread" },
];

const DEFAULTS = { tab: "all", page: 1 };

async function markRead(item: NotificationItem): Promise<void> {
  try {
    await call(api.PATCH("/api/notifications/mark-as-read/{notification_id}", { params: { path: { notification_id: item._id } } }), { silent: true });
  } catch {
    /* mark failures are silent (spec 8) */
  }
}

export function NotificationsPage() {
  const [state, update] = useListState(DEFAULTS, { allowedTabs: ["all", "unread"] });
  const tab = state.tab === "unread" ? "unread" : "all";
  const [deleting, setDeleting] = useState<NotificationItem | null>(null);
  const query = useApiQuery(
    "/api/notifications/get-all",
    { params: { query: { page: state.page, limit: 10, ...(tab === "all" ? { "filters[all]": true } : {}) } } },
    { silent: true, keepPrevious: true, select: (answer) => answer.data },
  );
  const data = query.data;

  useEffect(() => {
    if (query.isError) toast.error(FETCH_FAILED);
  }, [query.isError]);

  const reload = () => void invalidate(["/api/notifications"]);
  const open = async (item: NotificationItem) => {
    if (!item.read) await markRead(item);
    followNotification(item);
  };
  const markAll = async () => {
    try {
      await call(api.PATCH("/api/notifications/mark-all-as-read"), { silent: true });
    } catch {
      /* silent */
    }
    reload();
  };
  const remove = async (item: NotificationItem) => {
    try {
      const answer = await call(api.PATCH("/api/notifications/delete/{notification_id}", { params: { path: { notification_id: item._id } } }));
      toast.success(answer.message || "Notification deleted.");
    } catch {
      /* the client toasted the reason */
    }
    setDeleting(null);
    reload();
  };

  const items = data?.notifications ?? [];
  return (
    <>
      <FilterHeader title="Notifications">
        <button type="button" className="button" onClick={() => void markAll()} disabled={!data?.totalUnread}>
          Mark all read
        </button>
      </FilterHeader>
      <section className="dash-card" aria-label="Notifications">
        <Tabs tabs={NOTIFICATION_TABS} value={tab} onChange={(value) => update({ tab: value })} label="Show" />
        {query.isPending ? (
          <div className="dash-loading">
            <Spinner size="large" />
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
                    {formatDateTime(item.createdAt)}
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
        {data && <Pagination page={state.page} totalPages={pageCount(data)} onPage={(next) => update({ page: next })} />}
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
