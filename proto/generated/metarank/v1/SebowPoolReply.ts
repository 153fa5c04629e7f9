// Original file: proto/metarank/v1/sebow.proto

import type { SebowPoolImage as _metarank_v1_SebowPoolImage, SebowPoolImage__Output as _metarank_v1_SebowPoolImage__Output } from '../../metarank/v1/SebowPoolImage.ts';

export interface SebowPoolReply {
  'images'?: (_metarank_v1_SebowPoolImage)[];
}

export interface SebowPoolReply__Output {
  'images': (_metarank_v1_SebowPoolImage__Output)[];
}
