/** /manage-amenities (admin, moderator): amenities and facilities with icons; add, rename, (de)activate. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { Pencil, Plus, Power } from "lucide-react";
import { useId, useState } from "react";
import { api, ApiError, call, listFilters, pageCount } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { useListState } from "../../shared/hooks/useListState";
import { Dialog } from "../../shared/ui/Dialog";
import { Spinner } from "../../shared/ui/Spinner";
import { DataTable, type RowAction } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";
import "../../shared/ui/css/dashboard.css";
import "./listings.css";
import type { CatalogueItem } from "./api";
import { useSearchBox } from "./useSearchBox";

type Catalogue = "amenities" | "facilities";
const LABEL: Record<Catalogue, string> = { amenities: "Amenity", facilities: "Facility" };
const TABS = [
  { value: "amenities", label: "Amenities" },
  { value: "facilities", label: "Facilities" },
];
/** Icon names offered for an item (lucide icon names, shown on listing pages). */
export const ICONS = ["wifi", "projector", "car", "coffee", "utensils", "printer", "monitor", "snowflake", "accessibility", "bath", "lock", "tv", "mic", "armchair", "sun", "dumbbell"];

function ItemDialog({ catalogue, item, onClose }: { catalogue: Catalogue; item: CatalogueItem | null; onClose: () => void }) {
  const [name, setName] = useState(item?.name ?? "");
  const [icon, setIcon] = useState(item?.icon ?? "");
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const save = useMutation({
    mutationFn: () =>
      item
        ? call(api.PUT(`/api/${catalogue}/update/{item_id}` as "/api/amenities/update/{item_id}", { params: { path: { item_id: item._id } }, body: { name: name.trim(), icon } }), { silent: true })
        : call(api.POST(`/api/${catalogue}/add` as "/api/amenities/add", { body: { name: name.trim(), icon } }), { silent: true }),
    onSuccess: (answer) => {
      toast.success(answer.message || "Saved.");
      void invalidate([`/api/${catalogue}`]);
      onClose();
    },
    onError: (failure) => {
      const body = failure instanceof ApiError ? (failure.body as { errors?: Record<string, string[]> } | null) : null;
      setError(body?.errors?.name?.[0] ?? (failure as Error).message);
    },
  });
  return (
    <Dialog
      title={item ? `Rename ${item.name}` : `Add ${LABEL[catalogue].toLowerCase()}`}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button--quiet" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" disabled={save.isPending} onClick={() => (name.trim() ? save.mutate() : setError("Name is required"))}>
            {save.isPending ? <Spinner label="Saving" /> : "Save"}
          </button>
        </>
      }
    >
      <div className={`form-field${error ? " form-field--invalid" : ""}`}>
        <label className="form-field__label" htmlFor={`${id}-name`}>
          Name <span aria-hidden="true">*</span>
        </label>
        <input id={`${id}-name`} className="form-field__input" maxLength={80} value={name} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(event) => setName(event.currentTarget.value)} />
        {error && (
          <p className="form-field__error" id={`${id}-error`} role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="form-field">
        <label className="form-field__label" htmlFor={`${id}-icon`}>
          Icon
        </label>
        <select id={`${id}-icon`} className="form-field__input" value={icon} onChange={(event) => setIcon(event.currentTarget.value)}>
          <option value="">No icon</option>
          {ICONS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
    </Dialog>
  );
}

export function AmenitiesPage() {
  const [list, setList] = useListState({ tab: "amenities", title: "", status: "", page: 1 }, { tabPrefix: "manage-amenities", allowedTabs: ["amenities", "facilities"] });
  const catalogue = list.tab as Catalogue;
  const [search, setSearch] = useSearchBox(list.title, (title) => setList({ title }, "replace"));
  const [editing, setEditing] = useState<{ item: CatalogueItem | null } | null>(null);
  const query = { page: list.page, limit: 10, ...listFilters({ title: list.title, status: list.status }) };
  const items = useQuery({
    queryKey: apiKey(`/api/${catalogue}/manage`, query),
    queryFn: ({ signal }) =>
      call(
        catalogue === "amenities"
          ? api.GET("/api/amenities/manage", { params: { query }, signal })
          : api.GET("/api/facilities/manage", { params: { query }, signal }),
      ).then((answer) => ({ rows: answer.data.items, totalPages: pageCount(answer.data) })),
    placeholderData: (previous) => previous,
  });
  const toggle = useMutation({
    mutationFn: (item: CatalogueItem) =>
      call(api.PUT(`/api/${catalogue}/update/{item_id}` as "/api/amenities/update/{item_id}", { params: { path: { item_id: item._id } }, body: { isActive: !item.isActive } })),
    onSuccess: (answer) => toast.success(answer.message || "Updated."),
    onSettled: () => void invalidate([`/api/${catalogue}`]),
  });
  const actions: RowAction<CatalogueItem>[] = [
    { label: "Rename", icon: Pencil, onClick: (item) => setEditing({ item }), ariaLabel: (item) => `Rename ${item.name}` },
    { label: "Deactivate", icon: Power, when: (item) => item.isActive !== false, onClick: (item) => toggle.mutate(item), ariaLabel: (item) => `Deactivate ${item.name}` },
    { label: "Activate", icon: Power, when: (item) => item.isActive === false, onClick: (item) => toggle.mutate(item), ariaLabel: (item) => `Activate ${item.name}` },
  ];
  const statusId = useId();
  return (
    <>
      <div className="dash-title">
        <h1>Manage Amenities</h1>
        <button type="button" className="button" onClick={() => setEditing({ item: null })}>
          <Plus aria-hidden="true" size={16} /> Add {LABEL[catalogue].toLowerCase()}
        </button>
      </div>
      <DataTable<CatalogueItem>
        columns={[
          { key: "name", header: "Name", render: (item) => item.name },
          { key: "icon", header: "Icon", render: (item) => item.icon || "—" },
          { key: "status", header: "Status", render: (item) => (item.isActive === false ? "Inactive" : "Active") },
        ]}
        rows={items.data?.rows ?? []}
        rowKey={(item) => item._id}
        loading={items.isPending}
        tabs={TABS}
        tab={list.tab}
        onTab={(tab) => setList({ tab })}
        toolbar={
          <div className="dash-filter">
            <label className="visually-hidden" htmlFor={`${statusId}-search`}>
              Search by name
            </label>
            <input id={`${statusId}-search`} type="search" className="form-field__input" placeholder="Search by name" value={search} maxLength={80} onChange={(event) => setSearch(event.currentTarget.value)} />
            <label className="visually-hidden" htmlFor={statusId}>
              Status
            </label>
            <select id={statusId} className="form-field__input" value={list.status} onChange={(event) => setList({ status: event.currentTarget.value })}>
              <option value="">Active and inactive</option>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
            </select>
          </div>
        }
        actions={actions}
        page={list.page}
        totalPages={items.data?.totalPages ?? 1}
        onPage={(page) => setList({ page })}
      />
      {editing && <ItemDialog catalogue={catalogue} item={editing.item} onClose={() => setEditing(null)} />}
    </>
  );
}
