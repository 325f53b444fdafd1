/** /hosts, /renters, /sub-hosts, /moderators: the shared table with search, status tabs and row actions from `can`. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { formatDate, truncate } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { type RowAction } from "../../shared/ui/Table";
import { PeopleTable, usePeopleList } from "./PeopleTable";
import { toast } from "../../shared/ui/toast";
import "../account/people.css";
import { Avatar } from "../account/Avatar";
import { displayName, type UserListItem } from "../account/people";
import { changeStatus, resendInvitation } from "./actions";
import { CHANGE_WORDS, type Change, type Kind, KINDS, STATUS_TABS } from "./kinds";

export type UserRow = UserListItem;

type PeopleQuery = ReturnType<typeof usePeopleList>["params"];

/** One page of a people list: each kind's endpoint names its rows after the kind. */
async function peoplePage(kind: Kind, query: PeopleQuery, signal: AbortSignal): Promise<{ rows: UserRow[]; totalCount: number; totalPages: number }> {
  const init = { params: { query }, signal };
  switch (kind) {
    case "hosts": {
      const { data } = await call(api.GET("/api/user/hosts", init));
      return { rows: data.hosts, totalCount: data.totalCount, totalPages: data.totalPages };
    }
    case "renters": {
      const { data } = await call(api.GET("/api/user/renters", init));
      return { rows: data.renters, totalCount: data.totalCount, totalPages: data.totalPages };
    }
    case "subHosts": {
      const { data } = await call(api.GET("/api/user/sub-hosts", init));
      return { rows: data.subHosts, totalCount: data.totalCount, totalPages: data.totalPages };
    }
    case "moderators": {
      const { data } = await call(api.GET("/api/user/moderators", init));
      return { rows: data.moderators, totalCount: data.totalCount, totalPages: data.totalPages };
    }
  }
}

export function rowActions(ask: (row: UserRow, change: Change) => void, resend: (row: UserRow) => void): RowAction<UserRow>[] {
  const actions: RowAction<UserRow>[] = [
    { label: "View", href: (row) => `/view-user/${row._id}`, ariaLabel: (row) => `View ${displayName(row)}` },
    { label: "Suspend", can: "suspend", onClick: (row) => ask(row, "suspend") },
    { label: "Restore", can: "restore", onClick: (row) => ask(row, "restore") },
    { label: "Delete", can: "delete", tone: "danger", onClick: (row) => ask(row, "delete") },
    { label: "Resend invitation", can: "resendInvitation", onClick: resend },
  ];
  return actions;
}

export function UsersPage({ kind }: { kind: Kind }) {
  const info = KINDS[kind];
  const list = usePeopleList("active", `users:${kind}`);
  const { params } = list;
  const [pending, setPending] = useState<{ row: UserRow; change: Change } | null>(null);
  const [busy, setBusy] = useState(false);
  const { data, isPending } = useQuery({
    queryKey: apiKey(info.path, params),
    queryFn: ({ signal }) => peoplePage(kind, params, signal),
  });
  const rows = data?.rows ?? [];

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      toast.success(await changeStatus(kind, pending.row._id, pending.change));
    } catch {
      /* the client showed the server's sentence */
    } finally {
      setBusy(false);
      setPending(null);
    }
  };
  const resend = async (row: UserRow) => {
    try {
      toast.success(await resendInvitation(row._id));
    } catch {
      /* shown */
    }
  };

  return (
    <>
      <div className="dash-title">
        <h1>{info.title}</h1>
        {info.addHref && (
          <a className="button" href={info.addHref}>
            {info.addLabel}
          </a>
        )}
      </div>
      <PeopleTable<UserRow>
        list={list}
        caption={`${info.title} (${data?.totalCount ?? 0})`}
        tabs={STATUS_TABS}
        rows={rows}
        loading={isPending}
        totalPages={data?.totalPages}
        columns={[
          {
            key: "name",
            header: "Name",
            render: (row) => (
              <span className="people-toolbar">
                <Avatar src={row.avatar} size={32} />
                <a href={`/view-user/${row._id}`} title={displayName(row)}>
                  {truncate(displayName(row), 20)}
                </a>
              </span>
            ),
          },
          { key: "email", header: "Email", render: (row) => <span title={row.email}>{truncate(row.email, 20)}</span> },
          { key: "location", header: "Location", render: (row) => [row.city, row.country].filter(Boolean).join(", ") },
          {
            key: "verified",
            // The e-mail has its own column: this one says whether the account is confirmed.
            header: kind === "hosts" ? "Identity" : "Account",
            render: (row) =>
              kind === "hosts" ? (
                <Badge status={row.isVerified ? "verified" : "pending"} />
              ) : row.passwordSet === false ? (
                <Badge status="requested" />
              ) : (
                <Badge status={row.accountVerified ? "verified" : "pending"} />
              ),
          },
          { key: "status", header: "Status", render: (row) => <Badge status={row.status} /> },
          { key: "joined", header: "Joined", render: (row) => formatDate(row.createdAt) },
        ]}
        actions={rowActions((row, change) => setPending({ row, change }), (row) => void resend(row))}
      />
      {pending && (
        <ConfirmDialog
          title={CHANGE_WORDS[pending.change].title}
          message={`${CHANGE_WORDS[pending.change].verb} ${displayName(pending.row)} (${pending.row.email})? ${CHANGE_WORDS[pending.change].confirm}`}
          confirmLabel={CHANGE_WORDS[pending.change].verb}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setPending(null)}
        />
      )}
    </>
  );
}
