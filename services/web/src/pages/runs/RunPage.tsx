/** A run: its header, then its tabs, each tab its own route. */
import { Outlet } from "react-router";
import { ErrorView, Loading } from "../../components/States";
import { Tabs } from "../../components/Tabs";
import { useProject } from "../../lib/params";
import { RunHeader } from "./RunHeader";
import { runTabs } from "./tabs";
import { useRun, useRunUuid } from "./useRun";
import "./runs.css";

export default function RunPage() {
  const { base } = useProject();
  const uuid = useRunUuid();
  const run = useRun(uuid);
  if (run.isPending) return <Loading what="Loading the run" />;
  if (run.isError) return <ErrorView error={run.error} retry={() => void run.refetch()} />;
  const root = `${base}/runs/${uuid}`;
  const tabs = runTabs(run.data).map((tab) => ({ to: tab.path ? `${root}/${tab.path}` : root, label: tab.label, end: !tab.path }));
  return (
    <section className="run">
      <RunHeader run={run.data} />
      <Tabs tabs={tabs} />
      <div className="tab-panel" role="tabpanel">
        <Outlet />
      </div>
    </section>
  );
}
