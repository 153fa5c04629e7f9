// Original file: proto/metarank/v1/evaluation.proto

import type { EvaluationProgress as _metarank_v1_EvaluationProgress, EvaluationProgress__Output as _metarank_v1_EvaluationProgress__Output } from '../../metarank/v1/EvaluationProgress.ts';
import type { EvaluationResult as _metarank_v1_EvaluationResult, EvaluationResult__Output as _metarank_v1_EvaluationResult__Output } from '../../metarank/v1/EvaluationResult.ts';

export interface EvaluationEvent {
  'progress'?: (_metarank_v1_EvaluationProgress | null);
  'result'?: (_metarank_v1_EvaluationResult | null);
  'event'?: "progress"|"result";
}

export interface EvaluationEvent__Output {
  'progress'?: (_metarank_v1_EvaluationProgress__Output | null);
  'result'?: (_metarank_v1_EvaluationResult__Output | null);
  'event'?: "progress"|"result";
}
