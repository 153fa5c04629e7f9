// Messages between the inference pool (main thread) and its workers.
import type { ExplainRequest, ExplainResult, PredictRequest, PredictResult } from "./explain.ts";

export type WorkerRequest =
  | { id: number; kind: "predict"; req: PredictRequest }
  | { id: number; kind: "explain"; req: ExplainRequest }
  | { id: number; kind: "warm"; modelIds: string[] };

export type WorkerReply =
  { id: number; ok: true; result: PredictResult | ExplainResult | null } | { id: number; ok: false; error: { name: string; message: string } };

export interface WorkerInit {
  backend?: string;
  checkpointDir?: string;
}

/** First message a worker sends: its tfjs backend is ready. */
export interface WorkerReady {
  ready: true;
  backend: string;
}
