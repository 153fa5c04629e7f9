// Original file: proto/metarank/v1/tree.proto

import type { TreeModelInfo as _metarank_v1_TreeModelInfo, TreeModelInfo__Output as _metarank_v1_TreeModelInfo__Output } from '../../metarank/v1/TreeModelInfo.ts';

export interface ListTreesReply {
  'trees'?: (_metarank_v1_TreeModelInfo)[];
}

export interface ListTreesReply__Output {
  'trees': (_metarank_v1_TreeModelInfo__Output)[];
}
