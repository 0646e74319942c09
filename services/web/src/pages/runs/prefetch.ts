/** Route loaders that start a page's reads at once, beside the download of its code, so the
 * first chart is not drawn after a chain of chunk, run and series requests. */
import type { LoaderFunctionArgs } from "react-router";
import { runQuery, seriesQuery } from "../../lib/metrics";
import { queryClient } from "../../lib/queryClient";

function ids({ params }: LoaderFunctionArgs): [string, string, string] {
  return [params.owner ?? "", params.project ?? "", params.uuid ?? ""];
}

export function prefetchRun(args: LoaderFunctionArgs): null {
  void queryClient.prefetchQuery(runQuery(...ids(args)));
  return null;
}

export function prefetchMetrics(args: LoaderFunctionArgs): null {
  void queryClient.prefetchQuery(seriesQuery(...ids(args), null));
  return null;
}
