/** The params a run was given, read from its compiled spec: each input's value and source. */

export interface Param {
  name: string;
  type?: string;
  value: unknown;
  /** Where the value came from: cli, default, ref... */
  source?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export function paramsOf(compiled: Record<string, unknown> | null | undefined): Param[] {
  if (!compiled) return [];
  const inputs = Array.isArray(compiled.inputs) ? compiled.inputs.filter(isRecord) : [];
  const resolved: Param[] = inputs.map((io) => ({ name: String(io.name), type: text(io.type), value: io.value, source: text(io.source) }));
  const context = isRecord(compiled.context_params) ? Object.entries(compiled.context_params) : [];
  return [...resolved, ...context.map(([name, param]) => ({ name, value: isRecord(param) && "value" in param ? param.value : param, source: "context" }))];
}
