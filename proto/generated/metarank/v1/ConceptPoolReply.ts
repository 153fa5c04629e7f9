// Original file: proto/metarank/v1/concepts.proto

import type { ConceptModel as _metarank_v1_ConceptModel, ConceptModel__Output as _metarank_v1_ConceptModel__Output } from '../../metarank/v1/ConceptModel.ts';
import type { PoolImage as _metarank_v1_PoolImage, PoolImage__Output as _metarank_v1_PoolImage__Output } from '../../metarank/v1/PoolImage.ts';

export interface ConceptPoolReply {
  'model'?: (_metarank_v1_ConceptModel | null);
  'images'?: (_metarank_v1_PoolImage)[];
}

export interface ConceptPoolReply__Output {
  'model': (_metarank_v1_ConceptModel__Output | null);
  'images': (_metarank_v1_PoolImage__Output)[];
}
