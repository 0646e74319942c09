/** Pause or resume a schedule, and remove it (its run is stopped; the runs it fired stay). */
import { ConfirmButton } from "../../components/Confirm";
import { useProject } from "../../lib/params";
import { canToggle, type ScheduleInfo, stateOf } from "./describe";
import { type ScheduleVerb, useScheduleActions } from "./queries";

export function ScheduleActions({ schedule, removable = true }: { schedule: ScheduleInfo; removable?: boolean }) {
  const { owner, project } = useProject();
  const { toggle, remove } = useScheduleActions(owner, project, schedule.run_uuid);
  const state = stateOf(schedule);
  const verbs: ScheduleVerb[] = !canToggle(state) ? [] : state.kind === "paused" ? ["resume"] : state.kind === "waiting" ? ["resume", "pause"] : ["pause"];
  return (
    <div className="row-actions" role="group" aria-label={`Actions of ${schedule.name ?? schedule.run_uuid}`}>
      {verbs.map((verb) => (
        <button key={verb} type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(verb)}>
          {verb === "pause" ? "Pause" : "Resume"}
        </button>
      ))}
      {removable && state.kind !== "stopped" && state.kind !== "finished" && (
        <ConfirmButton
          label="Remove"
          danger
          question={`Remove the schedule ${schedule.name ?? ""}? Its run is stopped and it fires no more; the runs it fired stay.`}
          onConfirm={() => remove.mutateAsync()}
        />
      )}
      {toggle.isError && (
        <span className="error" role="alert">
          {toggle.error.message}
        </span>
      )}
    </div>
  );
}
