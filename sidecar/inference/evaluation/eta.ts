// Time left in an evaluation run, for its progress stream (Evaluation.Run and Evaluation.RunMaps).
//
// The rate is measured from the first image reported, not from the start of the call: before it
// the workers start and the first network loads, once per run, and counting that time as if each
// image took it made the first estimate absurd (a new-user walk saw "about 798:43 left" for a
// run that took under 8 minutes). The loading of each later task's network stays in the rate, as
// it recurs. No estimate is given until a share of the run has been measured.

/** The share of a run's images measured before a first estimate is given. */
export const ETA_MIN_SHARE = 0.02;

/** A function from images done so far to seconds left, or undefined while there is no fair estimate. */
export function etaEstimator(total: number, now: () => number = Date.now): (done: number) => number | undefined {
  let first: { at: number; done: number } | null = null;
  return (done) => {
    if (done <= 0) return undefined;
    const at = now();
    if (!first) {
      first = { at, done };
      return undefined;
    }
    const measured = done - first.done;
    if (measured < Math.max(1, Math.ceil(total * ETA_MIN_SHARE))) return undefined;
    return ((at - first.at) / 1000 / measured) * Math.max(0, total - done);
  };
}
