// Original file: proto/metarank/v1/tree.proto

import type { Caller as _metarank_v1_Caller, Caller__Output as _metarank_v1_Caller__Output } from '../../metarank/v1/Caller.ts';

export interface ListTreesRequest {
  'caller'?: (_metarank_v1_Caller | null);
}

export interface ListTreesRequest__Output {
  'caller': (_metarank_v1_Caller__Output | null);
}
