/** A list page of LLM data: a heading, filters kept in the URL, and a paged table of the
 * matching rows, polling for new ones on the first page. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { Column } from "../../components/VirtualTable";
import { useProject } from "../../lib/params";
import { type Field, FilterForm } from "./FilterForm";
import { PagedTable } from "./PagedTable";
import { POLL_MS, useUrlFilters } from "./shared";
import type { PageMeta } from "./types";

/** What a page of rows is read for: the project, the URL's filters, and the page number. */
export interface ListRead {
  owner: string;
  project: string;
  params: URLSearchParams;
  page: number;
}

interface Props<T> {
  /** The rows' name, e.g. "traces": the query key, the heading's id and the filter form's label. */
  name: string;
  /** The heading and the table's label, e.g. "Traces". */
  title: string;
  filters: Field[];
  read: (what: ListRead) => Promise<{ data: T[]; meta: PageMeta }>;
  columns: (base: string) => Column<T>[];
  rowKey: (row: T) => string;
  /** Shown when filters are set and nothing matches them. */
  noMatch: string;
  /** Shown when there are no rows at all. */
  empty: ReactNode;
}

export function FilteredList<T>({ name, title, filters, read, columns, rowKey, noMatch, empty }: Props<T>) {
  const { owner, project, base } = useProject();
  const { params, update, page } = useUrlFilters();
  const rows = useQuery({
    queryKey: [name, owner, project, params.toString()],
    queryFn: () => read({ owner, project, params, page }),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? POLL_MS : false,
  });
  const filtered = [...params.keys()].some((key) => key !== "page");
  return (
    <section aria-labelledby={`${name}-title`}>
      <h1 id={`${name}-title`}>{title}</h1>
      <FilterForm label={`Filter ${name}`} fields={filters} params={params} onApply={update} />
      <PagedTable
        query={rows}
        label={title}
        columns={columns(base)}
        rowKey={rowKey}
        empty={filtered ? <p className="muted">{noMatch}</p> : empty}
        onPage={(p) => update({ page: p })}
      />
    </section>
  );
}
