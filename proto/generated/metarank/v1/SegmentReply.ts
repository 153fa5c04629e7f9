// Original file: proto/metarank/v1/segmentation.proto

import type { SegmentClass as _metarank_v1_SegmentClass, SegmentClass__Output as _metarank_v1_SegmentClass__Output } from '../../metarank/v1/SegmentClass.ts';

export interface SegmentReply {
  'height'?: (number);
  'width'?: (number);
  'mask'?: (number)[];
  'classes'?: (_metarank_v1_SegmentClass)[];
  'classNames'?: (string)[];
  'palette'?: (string)[];
  'segmentationPng'?: (Buffer | Uint8Array | string);
  'elapsedMs'?: (number | string);
}

export interface SegmentReply__Output {
  'height': (number);
  'width': (number);
  'mask': (number)[];
  'classes': (_metarank_v1_SegmentClass__Output)[];
  'classNames': (string)[];
  'palette': (string)[];
  'segmentationPng': (Buffer);
  'elapsedMs': (number);
}
