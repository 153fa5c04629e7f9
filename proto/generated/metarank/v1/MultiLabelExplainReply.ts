// Original file: proto/metarank/v1/multilabel.proto

import type { RankedLabel as _metarank_v1_RankedLabel, RankedLabel__Output as _metarank_v1_RankedLabel__Output } from '../../metarank/v1/RankedLabel.ts';
import type { Tensor as _metarank_v1_Tensor, Tensor__Output as _metarank_v1_Tensor__Output } from '../../metarank/v1/Tensor.ts';

export interface MultiLabelExplainReply {
  'ranked'?: (_metarank_v1_RankedLabel)[];
  'classNames'?: (string)[];
  'algorithm'?: (string);
  'method'?: (string);
  'paramsJson'?: (string);
  'targetClass'?: (number);
  'targetLogit'?: (number | string);
  'targetProbability'?: (number | string);
  'attribution'?: (_metarank_v1_Tensor | null);
  'heatmapPng'?: (Buffer | Uint8Array | string);
  'overlayPng'?: (Buffer | Uint8Array | string);
  'elapsedMs'?: (number | string);
}

export interface MultiLabelExplainReply__Output {
  'ranked': (_metarank_v1_RankedLabel__Output)[];
  'classNames': (string)[];
  'algorithm': (string);
  'method': (string);
  'paramsJson': (string);
  'targetClass': (number);
  'targetLogit': (number);
  'targetProbability': (number);
  'attribution': (_metarank_v1_Tensor__Output | null);
  'heatmapPng': (Buffer);
  'overlayPng': (Buffer);
  'elapsedMs': (number);
}
