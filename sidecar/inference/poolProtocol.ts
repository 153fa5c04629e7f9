// Messages between the inference pool (main thread) and its piscina workers.
import type { MessagePort } from "node:worker_threads";
import type { ExplainRequest, ExplainResult, PredictRequest, PredictResult } from "./explain.ts";
import type { CrackPhotoRequest, CrackPhotoResult } from "../inspection/photo.ts";
import type { TcavJob, TcavJobResult } from "../concepts/experiment.ts";
import type { VqaJob, VqaJobResult } from "../vqa/job.ts";
import type { SegExplainRequest, SegExplainResult, SegmentRequest, SegmentResult } from "./segmentation/job.ts";
import type { TreeJob, TreeJobResult } from "../tree/predict.ts";
import type { ClassifyResult, MultiLabelExplainResult, MultiLabelJob } from "./multilabel/job.ts";
import type { SebowExplainJob, SebowExplainResult } from "../sebow/job.ts";

export type WorkerTask =
  | { kind: "predict"; req: PredictRequest }
  | { kind: "explain"; req: ExplainRequest }
  | { kind: "warm"; modelIds: string[] }
  | { kind: "detectCracks"; req: CrackPhotoRequest }
  // `progress`: where the worker posts TcavProgressMessage after each CAV (transferred, not copied).
  | { kind: "tcav"; req: TcavJob; progress?: MessagePort }
  | { kind: "vqa"; req: VqaJob }
  | { kind: "segment"; req: SegmentRequest }
  | { kind: "segExplain"; req: SegExplainRequest }
  // A Tree service job (sidecar/tree/predict.ts); `progress` as tcav's, for AdjustTree and SaveTree.
  | { kind: "tree"; req: TreeJob; progress?: MessagePort }
  | { kind: "multiLabel"; req: MultiLabelJob }
  | { kind: "sebowExplain"; req: SebowExplainJob };

/** Every task is answered (errors by name and message, since thrown errors lose their class across threads), with the worker's backend. */
export type WorkerReply = { backend: string } & (
  | {
      ok: true;
      result:
        | PredictResult
        | ExplainResult
        | CrackPhotoResult
        | TcavJobResult
        | VqaJobResult
        | SegmentResult
        | SegExplainResult
        | TreeJobResult
        | ClassifyResult
        | MultiLabelExplainResult
        | SebowExplainResult
        | null;
    }
  | { ok: false; error: { name: string; message: string } }
);

export interface TcavProgressMessage {
  done: number;
  total: number;
}

/** Every task carries its job's stop flags (sidecar/engine/nativeGuard.ts). */
export type FlaggedTask = WorkerTask & { flags?: SharedArrayBuffer };

export interface WorkerInit {
  backend?: string;
  checkpointDir?: string;
}
