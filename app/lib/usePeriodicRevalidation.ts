import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Reloads the route's data every `intervalMs` while `active`, the tab is visible and no reload
 * is already under way; stops when the page is left. The pages that follow running work (server
 * telemetry, evaluation runs) share it.
 */
export function usePeriodicRevalidation(intervalMs: number, active = true) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  useEffect(() => {
    latest.current = revalidator;
  });
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (latest.current.state === "idle" && document.visibilityState === "visible") latest.current.revalidate();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
}
