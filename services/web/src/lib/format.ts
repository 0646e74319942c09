/** Display helpers: durations, times, numbers and money the way people read them. */

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || Number.isNaN(seconds)) return "–";
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, "0")}s`;
  const hours = Math.floor(minutes / 60);
  return `${hours}h ${String(minutes % 60).padStart(2, "0")}m`;
}

export function durationBetween(start?: string | null, end?: string | null): number | null {
  if (!start) return null;
  const to = end ? Date.parse(end) : Date.now();
  return (to - Date.parse(start)) / 1000;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "–";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function formatNumber(value: number | string | null | undefined, digits = 4): string {
  if (value == null) return "–";
  if (typeof value === "string") return value; // "NaN", "Infinity" as the api writes them
  if (Number.isInteger(value)) return value.toLocaleString();
  return Number(value.toPrecision(digits)).toString();
}

export function formatCost(usd: number | null | undefined): string {
  if (usd == null) return "–";
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(4)}`;
}

export function formatBytes(size: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit ? value.toFixed(1) : value} ${units[unit]}`;
}

/** Any JSON value for a table cell: numbers and strings as {@link formatNumber}, others as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "–";
  if (typeof value === "number" || typeof value === "string") return formatNumber(value);
  return JSON.stringify(value);
}

/** How far `iso` is from `now` in words: "in 5 s", "3 min ago", "in 2 h", "4 d ago". */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return "–";
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  const size = Math.abs(seconds);
  const amount =
    size < 60 ? `${size} s` : size < 3600 ? `${Math.round(size / 60)} min` : size < 86400 ? `${Math.round(size / 3600)} h` : `${Math.round(size / 86400)} d`;
  if (size === 0) return "now";
  return seconds > 0 ? `in ${amount}` : `${amount} ago`;
}
