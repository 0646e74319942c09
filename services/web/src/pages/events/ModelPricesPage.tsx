/** LLM model prices: the project's own definitions first, then the built-in ones; create and delete. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { FieldError, type FieldSpec, Form, type FormValues } from "../../components/Form";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { instant, jsonList, number, optional, pairs, text } from "../../lib/values";
import { ItemTable } from "./ItemTable";
import { keys } from "./queries";
import { CreatePanel, projectPath, useCreate } from "./shared";

type UsageUnit = components["schemas"]["UsageUnit"];
type PricingTier = components["schemas"]["PricingTier"];
type ModelDefinition = components["schemas"]["ModelDefinition"];
type ModelTerms = components["schemas"]["ModelTerms"];

const UNITS: UsageUnit[] = ["TOKENS", "CHARACTERS", "MILLISECONDS", "SECONDS", "IMAGES", "REQUESTS"];
export const PAGE_SIZE = 100;

/** Tokens and characters are priced per million in the form and the table; other units one by one. */
export function perMillion(unit: UsageUnit | undefined): boolean {
  return unit === undefined || unit === "TOKENS" || unit === "CHARACTERS";
}

export function formatPrice(usdPerUnit: number, unit: UsageUnit | undefined): string {
  const shown = perMillion(unit) ? usdPerUnit * 1e6 : usdPerUnit;
  const amount = Number(shown.toPrecision(6)).toString();
  return perMillion(unit) ? `$${amount} / 1M` : `$${amount}`;
}

export const MODEL_FIELDS: FieldSpec[] = [
  { name: "model_name", label: "Model name", required: true, placeholder: "my-finetune" },
  { name: "match_pattern", label: "Match pattern", required: true, placeholder: "(?i)^my-finetune(-\\d+)?$", hint: "A regular expression on the model name generations send." },
  { name: "unit", label: "Unit", kind: "select", options: UNITS, initial: "TOKENS" },
  { name: "input", label: "Input price (USD)", kind: "number", hint: "Per 1M tokens or characters; per unit for other units." },
  { name: "output", label: "Output price (USD)", kind: "number" },
  { name: "prices", label: "Other usage types", kind: "textarea", placeholder: "input_cached_tokens = 0.3", hint: "One usage type = price per line, priced like input." },
  { name: "start_date", label: "Prices generations from", kind: "datetime-local" },
  { name: "tokenizer_model", label: "Tokenizer model", placeholder: "gpt-4o", hint: "Counts tokens when a generation sends no usage." },
  {
    name: "tiers",
    label: "More tiers (JSON)",
    kind: "textarea",
    placeholder: '[{"name": "long", "priority": 1, "conditions": [{"usage_detail_pattern": "input", "operator": "gt", "value": 200000}], "prices": {"input": 0.000006}}]',
    hint: "Optional; their prices are in USD per single unit, as the api takes them.",
  },
];

export function modelBody(values: FormValues): ModelTerms {
  const unit = text(values, "unit") as UsageUnit;
  const scale = perMillion(unit) ? 1e6 : 1;
  const prices: Record<string, number> = {};
  for (const name of ["input", "output"]) {
    const price = number(values, name);
    if (price !== undefined) prices[name] = price / scale;
  }
  for (const [usage, price] of Object.entries(pairs(values, "prices"))) {
    if (typeof price !== "number" || price < 0) throw new FieldError("prices", `${usage}: the price must be a number of at least 0`);
    prices[usage] = price / scale;
  }
  if (Object.keys(prices).length === 0) throw new FieldError("input", "give at least one price");
  const standard: PricingTier = { name: "standard", is_default: true, priority: 0, conditions: [], prices };
  return {
    model_name: text(values, "model_name"),
    match_pattern: text(values, "match_pattern"),
    unit,
    start_date: instant(values, "start_date") ?? null,
    tokenizer_model: optional(values, "tokenizer_model") ?? null,
    tiers: [standard, ...(jsonList(values, "tiers") as PricingTier[])],
  };
}

function Prices({ prices, unit }: { prices: Record<string, number>; unit: UsageUnit | undefined }) {
  return (
    <span className="prices">
      {Object.entries(prices).map(([usage, price]) => (
        <span key={usage} className="price" data-usage={usage}>
          {usage} <span className="mono">{formatPrice(price, unit)}</span>
        </span>
      ))}
    </span>
  );
}

function condition(c: NonNullable<PricingTier["conditions"]>[number]): string {
  if ("usage_detail_pattern" in c) return `${c.usage_detail_pattern} ${c.operator} ${c.value.toLocaleString()}`;
  return `${c.source}.${c.key} in ${c.values.join(", ")}`;
}

/** The default tier's prices, if the model has one. */
function StandardPrices({ model }: { model: ModelDefinition }) {
  const standard = model.tiers.find((t) => t.is_default);
  return standard ? <Prices prices={standard.prices} unit={model.unit} /> : null;
}

function Tiers({ model }: { model: ModelDefinition }) {
  const others = model.tiers.filter((t) => !t.is_default);
  if (others.length === 0) return <span className="muted">–</span>;
  return (
    <ul className="tiers">
      {others.map((tier) => (
        <li key={tier.name} data-tier={tier.name}>
          <strong>{tier.name}</strong> <span className="muted">when {(tier.conditions ?? []).map(condition).join(" and ")}</span>: <Prices prices={tier.prices} unit={model.unit} />
        </li>
      ))}
    </ul>
  );
}

export default function ModelPricesPage() {
  const { owner, project } = useProject();
  const key = keys.models(owner, project);
  const [page, setPage] = useState(1);
  const models = useQuery({
    queryKey: [...key, page],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/llm-models", { params: { path: { owner, project }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const create = useCreate(key, (values) => unwrap(api.POST("/api/v1/{owner}/{project}/llm-models", { ...projectPath(owner, project), body: modelBody(values) })));
  if (models.isPending) return <Loading what="Loading model prices" />;
  if (models.isError) return <ErrorView error={models.error} retry={() => void models.refetch()} />;
  const { data: rows, meta } = models.data;
  return (
    <section>
      <h1>Model prices</h1>
      <p className="muted">Generations are priced by the first definition whose pattern matches their model: the project's own win over the built-in ones.</p>
      {rows.length === 0 ? (
        <EmptyState title="No model prices" command={`axonal llm-models create my-model --match '^my-model$' --input 3 --output 15 -p ${owner}/${project}`} />
      ) : (
        <ItemTable
          label="Model prices"
          items={rows}
          columns={[
            { header: "Model", cell: (model) => model.model_name },
            { header: "Match pattern", cell: (model) => <code>{model.match_pattern}</code> },
            { header: "Prices", cell: (model) => <StandardPrices model={model} /> },
            { header: "Other tiers", cell: (model) => <Tiers model={model} /> },
            { header: "Unit", cell: (model) => (model.unit ?? "TOKENS").toLowerCase() },
            { header: "From", cell: (model) => (model.start_date ? formatTime(model.start_date) : <span className="muted">always</span>) },
            {
              header: "Source",
              cell: (model) => <span className={`badge tone-${model.managed ? "muted" : "live"}`}>{model.managed ? "built-in" : "project"}</span>,
            },
          ]}
          rowKey={(model) => model.id}
          rowData={(model) => ({
            "data-model-id": model.id,
            "data-source": model.managed ? "built-in" : "project",
            className: model.managed ? "managed" : undefined,
          })}
          queryKey={key}
          deletion={{
            allowed: (model) => !model.managed,
            question: (model) => `Delete the prices of ${model.model_name}? Generations matching it are priced by the next definition.`,
            remove: (model) =>
              unwrap(api.DELETE("/api/v1/{owner}/{project}/llm-models/{model_id}", { params: { path: { owner, project, model_id: model.id } } })),
          }}
        />
      )}
      {meta.total_pages > 1 && (
        <nav className="toolbar pager" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {meta.page} of {meta.total_pages} ({meta.total_items} definitions)
          </span>
          <button type="button" disabled={page >= meta.total_pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
      <CreatePanel title="New model price" open={false}>
        <Form label="Create model price" fields={MODEL_FIELDS} mutation={create} />
      </CreatePanel>
    </section>
  );
}
