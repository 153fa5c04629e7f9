// Original file: proto/metarank/v1/tree.proto

import type { TreeArg as _metarank_v1_TreeArg, TreeArg__Output as _metarank_v1_TreeArg__Output } from '../../metarank/v1/TreeArg.ts';
import type { TreeDataset as _metarank_v1_TreeDataset, TreeDataset__Output as _metarank_v1_TreeDataset__Output } from '../../metarank/v1/TreeDataset.ts';

export interface TreeAlgorithm {
  'id'?: (string);
  'args'?: (_metarank_v1_TreeArg)[];
  'isSupportDdp'?: (boolean);
  'datasets'?: (_metarank_v1_TreeDataset)[];
}

export interface TreeAlgorithm__Output {
  'id': (string);
  'args': (_metarank_v1_TreeArg__Output)[];
  'isSupportDdp': (boolean);
  'datasets': (_metarank_v1_TreeDataset__Output)[];
}
