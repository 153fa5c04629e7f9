// Original file: proto/metarank/v1/segmentation.proto

import type { SegmenterInfo as _metarank_v1_SegmenterInfo, SegmenterInfo__Output as _metarank_v1_SegmenterInfo__Output } from '../../metarank/v1/SegmenterInfo.ts';

export interface ListSegmentersReply {
  'models'?: (_metarank_v1_SegmenterInfo)[];
  'problems'?: (string)[];
}

export interface ListSegmentersReply__Output {
  'models': (_metarank_v1_SegmenterInfo__Output)[];
  'problems': (string)[];
}
