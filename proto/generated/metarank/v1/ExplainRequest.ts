// Original file: proto/metarank/v1/inference.proto

import type { Tensor as _metarank_v1_Tensor, Tensor__Output as _metarank_v1_Tensor__Output } from '../../metarank/v1/Tensor.ts';

export interface ExplainRequest {
  'modelId'?: (string);
  'algorithm'?: (string);
  'params'?: ({[key: string]: string});
  'imagePng'?: (Buffer | Uint8Array | string);
  'imageTensor'?: (_metarank_v1_Tensor | null);
  'target'?: (number);
  'paramsJson'?: (string);
  '_target'?: "target";
}

export interface ExplainRequest__Output {
  'modelId': (string);
  'algorithm': (string);
  'params': ({[key: string]: string});
  'imagePng': (Buffer);
  'imageTensor': (_metarank_v1_Tensor__Output | null);
  'target'?: (number);
  'paramsJson': (string);
  '_target'?: "target";
}
