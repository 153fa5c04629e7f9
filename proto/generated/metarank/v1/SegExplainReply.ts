// Original file: proto/metarank/v1/segmentation.proto

import type { SegmentReply as _metarank_v1_SegmentReply, SegmentReply__Output as _metarank_v1_SegmentReply__Output } from '../../metarank/v1/SegmentReply.ts';
import type { Tensor as _metarank_v1_Tensor, Tensor__Output as _metarank_v1_Tensor__Output } from '../../metarank/v1/Tensor.ts';
import type { SegmentAttribution as _metarank_v1_SegmentAttribution, SegmentAttribution__Output as _metarank_v1_SegmentAttribution__Output } from '../../metarank/v1/SegmentAttribution.ts';

export interface SegExplainReply {
  'segmentation'?: (_metarank_v1_SegmentReply | null);
  'algorithm'?: (string);
  'targetClass'?: (number);
  'targetScore'?: (number | string);
  'attribution'?: (_metarank_v1_Tensor | null);
  'segmentAttributions'?: (_metarank_v1_SegmentAttribution)[];
  'heatmapPng'?: (Buffer | Uint8Array | string);
  'overlayPng'?: (Buffer | Uint8Array | string);
  'elapsedMs'?: (number | string);
}

export interface SegExplainReply__Output {
  'segmentation': (_metarank_v1_SegmentReply__Output | null);
  'algorithm': (string);
  'targetClass': (number);
  'targetScore': (number);
  'attribution': (_metarank_v1_Tensor__Output | null);
  'segmentAttributions': (_metarank_v1_SegmentAttribution__Output)[];
  'heatmapPng': (Buffer);
  'overlayPng': (Buffer);
  'elapsedMs': (number);
}
