/**
 * "Reset links" beside the host's iCal links: new private addresses for the host's feed and every
 * listing's, after which each address shared before answers nothing (a sub-host who left, a link
 * posted too widely). Shown when the server says the user may (`can.reset`: the host).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { RefreshCw } from "lucide-react";
import { api, call } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { toast } from "../../shared/ui/toast";

export function ResetCalendarLinks() {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const { data } = useQuery({
    queryKey: apiKey("/api/host/calendar-url"),
    queryFn: ({ signal }) => call(api.GET("/api/host/calendar-url", { signal }), { silent: true }).then((answer) => answer.data),
  });
  const reset = useMutation({
    mutationFn: () => call(api.POST("/api/host/calendar-url/reset")),
    onSuccess: (answer) => {
      toast.success(answer.message ?? "Calendar links reset.");
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: apiKey("/api/host/calendar-url") });
    },
  });
  if (!data?.can.reset) return null;
  return (
    <>
      <button type="button" className="button button--quiet" onClick={() => setAsking(true)}>
        <RefreshCw aria-hidden="true" size={14} /> Reset links
      </button>
      {asking && (
        <ConfirmDialog
          title="Reset calendar links"
          message="Every iCal link you shared stops working, for all your listings. Calendars that follow them must be given the new links."
          confirmLabel="Reset links"
          tone="danger"
          busy={reset.isPending}
          onConfirm={() => reset.mutate()}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}
