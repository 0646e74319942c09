/** The current time, re-read every `every` ms (1 s), for what a page shows relative to now. */
import { useEffect, useState } from "react";

export function useNow(every = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}
