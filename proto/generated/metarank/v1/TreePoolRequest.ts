// Original file: proto/metarank/v1/tree.proto

import type { Caller as _metarank_v1_Caller, Caller__Output as _metarank_v1_Caller__Output } from '../../metarank/v1/Caller.ts';

export interface TreePoolRequest {
  'caller'?: (_metarank_v1_Caller | null);
  'treeId'?: (string);
  'count'?: (number);
  'seed'?: (number);
}

export interface TreePoolRequest__Output {
  'caller': (_metarank_v1_Caller__Output | null);
  'treeId': (string);
  'count': (number);
  'seed': (number);
}
