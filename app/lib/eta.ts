/** Seconds left as "m:ss", or "h h m min" from an hour on; null when there is no estimate yet. */
export function formatEta(s: number | null | undefined): string | null {
  if (s === null || s === undefined || !Number.isFinite(s)) return null;
  const t = Math.round(s);
  return t >= 3600 ? `${Math.floor(t / 3600)} h ${Math.floor((t % 3600) / 60)} min` : `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}
