// Original file: proto/metarank/v1/vqa.proto

import type { VqaModel as _metarank_v1_VqaModel, VqaModel__Output as _metarank_v1_VqaModel__Output } from '../../metarank/v1/VqaModel.ts';

export interface VqaModelsReply {
  'models'?: (_metarank_v1_VqaModel)[];
}

export interface VqaModelsReply__Output {
  'models': (_metarank_v1_VqaModel__Output)[];
}
