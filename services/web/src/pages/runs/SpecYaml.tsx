/** The compiled spec as YAML; the `yaml` package is loaded only when a spec is shown. */
import { useQuery } from "@tanstack/react-query";
import { ErrorView, Loading } from "../../components/States";

export function SpecYaml({ spec }: { spec: Record<string, unknown> }) {
  const text = useQuery({
    queryKey: ["yaml", spec],
    queryFn: async () => (await import("yaml")).stringify(spec),
    staleTime: Infinity,
  });
  if (text.isPending) return <Loading what="Rendering the spec" />;
  if (text.isError) return <ErrorView error={text.error} />;
  return (
    <pre className="text spec" aria-label="Compiled spec as YAML">
      <code>{text.data}</code>
    </pre>
  );
}
