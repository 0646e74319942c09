/** The chart colours of the current theme, read from its CSS variables, anew on a switch. */
import { useEffect, useState } from "react";

export interface Colours {
  muted: string;
  grid: string;
  series: string[];
}

const SERIES = 8;

function read(): Colours {
  const style = getComputedStyle(document.documentElement);
  const get = (name: string) => style.getPropertyValue(name).trim();
  return {
    muted: get("--fg-muted") || "gray",
    grid: get("--border") || "lightgray",
    series: Array.from({ length: SERIES }, (_, i) => get(`--chart-${i + 1}`) || get("--accent") || "steelblue"),
  };
}

/** ``read()`` of the current theme, read again whenever the theme switches. */
function useThemed<T>(readTheme: () => T): T {
  const [value, setValue] = useState(readTheme);
  useEffect(() => {
    const observer = new MutationObserver(() => setValue(readTheme()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => observer.disconnect();
  }, [readTheme]);
  return value;
}

const isDark = (): "dark" | "light" => (document.documentElement.dataset.theme === "dark" ? "dark" : "light");

export const useThemeColours = (): Colours => useThemed(read);
export const useColorMode = (): "dark" | "light" => useThemed(isDark);
