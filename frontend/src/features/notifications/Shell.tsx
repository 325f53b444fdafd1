/** The shell's live parts: the bell, counters (API and socket), the Message count, Logout confirmation. */
import { useEffect, useState } from "react";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { applyCounters, COUNTERS_CHANGED, refreshCounters } from "./counters";
import { api, call } from "../../shared/api/client";
import { connectLive, onLive } from "../../shared/api/live";
import { invalidateOnLiveEvents } from "../../shared/api/query";
import { setUpPush } from "../push/push";
import { NotificationBell } from "./NotificationBell";
import { ShellIcons } from "./ShellIcons";
import { clearStoredSession } from "../../shared/api/session";
import { showFlashedToast } from "../../shared/ui/toast";
import type { IslandProps } from "../../shared/ui/mountIsland";

type ShellProps = Pick<IslandProps<"DashboardShell">, "role" | "counters" | "websocketUrl" | "loadsCounters">;

async function refreshMessageCount(): Promise<void> {
  try {
    const answer = await call(api.GET("/api/chat/get-notifications"), { silent: true });
    applyCounters({ messages: answer.data.totalCount });
  } catch {
    /* the Message entry simply shows no count */
  }
}

export function Shell({ websocketUrl, loadsCounters }: ShellProps) {
  const [logoutForm, setLogoutForm] = useState<HTMLFormElement | null>(null);

  useEffect(() => {
    showFlashedToast();
    connectLive(websocketUrl);
    void refreshMessageCount();
    const off = [
      invalidateOnLiveEvents(),
      onLive("pendingCounter", (data) => applyCounters(data)),
      onLive("message", () => void refreshMessageCount()),
      onLive("read", () => void refreshMessageCount()),
    ];
    void setUpPush();
    const reload = () => {
      if (loadsCounters) void refreshCounters().catch(() => undefined);
    };
    window.addEventListener(COUNTERS_CHANGED, reload);
    const confirmSubmit = (event: Event) => {
      const form = event.target as HTMLFormElement;
      if (form.dataset?.confirm && form.dataset.confirmed !== "yes") {
        event.preventDefault();
        setLogoutForm(form);
      }
    };
    document.addEventListener("submit", confirmSubmit, true);
    return () => {
      off.forEach((stop) => stop());
      window.removeEventListener(COUNTERS_CHANGED, reload);
      document.removeEventListener("submit", confirmSubmit, true);
    };
  }, [websocketUrl, loadsCounters]);

  return (
    <>
      <NotificationBell />
      <ShellIcons />
      {logoutForm && (
        <ConfirmDialog
          title="Logout"
          message={logoutForm.dataset.confirm ?? "Are you sure?"}
          confirmLabel="Logout"
          onCancel={() => setLogoutForm(null)}
          onConfirm={() => {
            clearStoredSession();
            logoutForm.dataset.confirmed = "yes";
            logoutForm.submit();
          }}
        />
      )}
    </>
  );
}
