/** A list page's body: loading, a readable error, its empty state, else the rows and the pager. */
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorView, Loading } from "../../components/States";
import { type Column, VirtualTable } from "../../components/VirtualTable";
import { Pager } from "./shared";
import type { PageMeta } from "./types";

interface Props<T> {
  query: UseQueryResult<{ data: T[]; meta: PageMeta }>;
  /** What the rows are, e.g. "Traces": the table's label. */
  label: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: ReactNode;
  onPage: (page: number) => void;
}

export function PagedTable<T>({ query, label, columns, rowKey, empty, onPage }: Props<T>) {
  if (query.isPending) return <Loading what={`Loading ${label.toLowerCase()}`} />;
  if (query.isError) return <ErrorView error={query.error} retry={() => void query.refetch()} />;
  if (query.data.data.length === 0) return <>{empty}</>;
  return (
    <>
      <VirtualTable label={label} rows={query.data.data} columns={columns} rowKey={rowKey} />
      <Pager meta={query.data.meta} onPage={onPage} />
    </>
  );
}
