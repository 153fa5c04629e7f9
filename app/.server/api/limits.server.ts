// The JSON API's rate limits (docs/api.md "Rate limits", stated in the OpenAPI document too).
// Counted per user (all of a user's tokens together), or per client address for calls without a
// token, in the same store as the log-in throttles (table rate_limits, rate-limiter-flexible:
// atomic updates, shared by every app process). Scoring and maps uploads cost the compute server,
// so they have a second, smaller allowance on top of the general one.
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { requestCounter } from "../throttle.server.ts";

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Calls per caller per minute, every endpoint together. */
export const API_RATE_PER_MINUTE = positive(process.env.API_RATE_PER_MINUTE, 120);
/** Scoring and maps uploads per caller per hour. */
export const API_COMPUTE_PER_HOUR = positive(process.env.API_COMPUTE_PER_HOUR, 60);

let counters: { calls: RateLimiterAbstract; compute: RateLimiterAbstract } | null = null;

/**
 * Spends one call (and one compute call when `compute`) of a caller; the seconds to wait when an
 * allowance is used up, else 0. A refused call still counts, so hammering does not pay.
 */
export async function spendApiCall(caller: string, compute: boolean): Promise<number> {
  counters ??= { calls: requestCounter("api", API_RATE_PER_MINUTE, 60), compute: requestCounter("api-compute", API_COMPUTE_PER_HOUR, 3600) };
  const calls = await counters.calls.penalty(caller, 1);
  if (calls.consumedPoints > API_RATE_PER_MINUTE) return Math.max(1, Math.ceil(calls.msBeforeNext / 1000));
  if (!compute) return 0;
  const heavy = await counters.compute.penalty(caller, 1);
  return heavy.consumedPoints > API_COMPUTE_PER_HOUR ? Math.max(1, Math.ceil(heavy.msBeforeNext / 1000)) : 0;
}
