// Original file: proto/metarank/v1/evaluation.proto

import type { EvaluationSuite as _metarank_v1_EvaluationSuite, EvaluationSuite__Output as _metarank_v1_EvaluationSuite__Output } from '../../metarank/v1/EvaluationSuite.ts';
import type { EvaluationMethod as _metarank_v1_EvaluationMethod, EvaluationMethod__Output as _metarank_v1_EvaluationMethod__Output } from '../../metarank/v1/EvaluationMethod.ts';

export interface ListEvaluationSuitesReply {
  'suites'?: (_metarank_v1_EvaluationSuite)[];
  'methods'?: (_metarank_v1_EvaluationMethod)[];
  'problems'?: (string)[];
}

export interface ListEvaluationSuitesReply__Output {
  'suites': (_metarank_v1_EvaluationSuite__Output)[];
  'methods': (_metarank_v1_EvaluationMethod__Output)[];
  'problems': (string)[];
}
