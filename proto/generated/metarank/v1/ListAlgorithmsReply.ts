// Original file: proto/metarank/v1/inference.proto

import type { AlgorithmInfo as _metarank_v1_AlgorithmInfo, AlgorithmInfo__Output as _metarank_v1_AlgorithmInfo__Output } from '../../metarank/v1/AlgorithmInfo.ts';

export interface ListAlgorithmsReply {
  'algorithms'?: (_metarank_v1_AlgorithmInfo)[];
}

export interface ListAlgorithmsReply__Output {
  'algorithms': (_metarank_v1_AlgorithmInfo__Output)[];
}
