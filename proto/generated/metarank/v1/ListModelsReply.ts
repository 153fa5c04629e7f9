// Original file: proto/metarank/v1/inference.proto

import type { ModelInfo as _metarank_v1_ModelInfo, ModelInfo__Output as _metarank_v1_ModelInfo__Output } from '../../metarank/v1/ModelInfo.ts';

export interface ListModelsReply {
  'models'?: (_metarank_v1_ModelInfo)[];
  'problems'?: (string)[];
}

export interface ListModelsReply__Output {
  'models': (_metarank_v1_ModelInfo__Output)[];
  'problems': (string)[];
}
