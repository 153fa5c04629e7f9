// Original file: proto/metarank/v1/tree.proto

import type { Caller as _metarank_v1_Caller, Caller__Output as _metarank_v1_Caller__Output } from '../../metarank/v1/Caller.ts';
import type { TreeEdit as _metarank_v1_TreeEdit, TreeEdit__Output as _metarank_v1_TreeEdit__Output } from '../../metarank/v1/TreeEdit.ts';

export interface SaveTreeRequest {
  'caller'?: (_metarank_v1_Caller | null);
  'treeId'?: (string);
  'edits'?: (_metarank_v1_TreeEdit)[];
  'name'?: (string);
  'adjust'?: (boolean);
}

export interface SaveTreeRequest__Output {
  'caller': (_metarank_v1_Caller__Output | null);
  'treeId': (string);
  'edits': (_metarank_v1_TreeEdit__Output)[];
  'name': (string);
  'adjust': (boolean);
}
