// Original file: proto/metarank/v1/sebow.proto

import type { SebowModelInfo as _metarank_v1_SebowModelInfo, SebowModelInfo__Output as _metarank_v1_SebowModelInfo__Output } from '../../metarank/v1/SebowModelInfo.ts';

export interface SebowListReply {
  'models'?: (_metarank_v1_SebowModelInfo)[];
  'problems'?: (string)[];
}

export interface SebowListReply__Output {
  'models': (_metarank_v1_SebowModelInfo__Output)[];
  'problems': (string)[];
}
