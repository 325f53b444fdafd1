/** The people lists' shared parts (users by kind, verification requests): status tab, debounced search and page in the URL, and the table with its search box. */
import { useEffect, useId, useState } from "react";
import { useDebounced } from "../../shared/hooks/useDebounced";
import { useListState } from "../../shared/hooks/useListState";
import { type Column, DataTable, type RowAction, type Tab } from "../../shared/ui/Table";

export type PeopleList = ReturnType<typeof usePeopleList>;

/** The list's state (tab, search, page) kept in the URL; the search box is sent 800 ms after typing stops. */
export function usePeopleList(defaultTab: string, tabPrefix: string) {
  const [state, update] = useListState({ tab: defaultTab, search: "", page: 1 }, { tabPrefix });
  const [typed, setTyped] = useState(state.search);
  const search = useDebounced(typed, 800);
  useEffect(() => {
    if (search !== state.search) update({ search });
  }, [search, state.search, update]);
  const params = { page: state.page, limit: 10, "filters[status]": state.tab, ...(state.search ? { "filters[search]": state.search } : {}) };
  return { state, update, typed, setTyped, params };
}

interface PeopleTableProps<Row extends { _id: string }> {
  list: PeopleList;
  caption: string;
  tabs: Tab[];
  rows: Row[];
  loading: boolean;
  totalPages: number | undefined;
  columns: Column<Row>[];
  actions: RowAction<Row>[];
}

export function PeopleTable<Row extends { _id: string }>({ list, caption, tabs, rows, loading, totalPages, columns, actions }: PeopleTableProps<Row>) {
  const searchId = useId();
  return (
    <DataTable<Row>
      caption={caption}
      toolbar={
        <div className="people-toolbar">
          <label className="visually-hidden" htmlFor={searchId}>
            Search by name or email
          </label>
          <input
            id={searchId}
            type="search"
            className="form-field__input"
            placeholder="Search by name or email"
            value={list.typed}
            onChange={(event) => list.setTyped(event.currentTarget.value)}
          />
        </div>
      }
      tabs={tabs}
      tab={list.state.tab}
      onTab={(tab) => list.update({ tab })}
      rows={rows}
      loading={loading}
      rowKey={(row) => row._id}
      columns={columns}
      actions={actions}
      page={list.state.page}
      totalPages={totalPages ?? 1}
      onPage={(page) => list.update({ page })}
    />
  );
}
