// Original file: proto/metarank/v1/multilabel.proto

import type { Tensor as _metarank_v1_Tensor, Tensor__Output as _metarank_v1_Tensor__Output } from '../../metarank/v1/Tensor.ts';

export interface MultiLabelClassifyRequest {
  'modelId'?: (string);
  'imagePng'?: (Buffer | Uint8Array | string);
  'imageTensor'?: (_metarank_v1_Tensor | null);
  'topK'?: (number);
}

export interface MultiLabelClassifyRequest__Output {
  'modelId': (string);
  'imagePng': (Buffer);
  'imageTensor': (_metarank_v1_Tensor__Output | null);
  'topK': (number);
}
