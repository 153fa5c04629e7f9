// Original file: proto/metarank/v1/inference.proto

import type { Tensor as _metarank_v1_Tensor, Tensor__Output as _metarank_v1_Tensor__Output } from '../../metarank/v1/Tensor.ts';

export interface ExplainReply {
  'attribution'?: (_metarank_v1_Tensor | null);
  'output'?: (number | string)[];
  'baselineOutput'?: (number | string)[];
  'hasBaseline'?: (boolean);
  'target'?: (number);
  'predictedClass'?: (number);
  'predictedLabel'?: (string);
  'probabilities'?: (number | string)[];
  'heatmapPng'?: (Buffer | Uint8Array | string);
  'overlayPng'?: (Buffer | Uint8Array | string);
  'delta'?: (number | string);
  'elapsedMs'?: (number | string);
  '_delta'?: "delta";
}

export interface ExplainReply__Output {
  'attribution': (_metarank_v1_Tensor__Output | null);
  'output': (number)[];
  'baselineOutput': (number)[];
  'hasBaseline': (boolean);
  'target': (number);
  'predictedClass': (number);
  'predictedLabel': (string);
  'probabilities': (number)[];
  'heatmapPng': (Buffer);
  'overlayPng': (Buffer);
  'delta'?: (number);
  'elapsedMs': (number);
  '_delta'?: "delta";
}
