// Original file: proto/metarank/v1/tree.proto

import type { TreeNode as _metarank_v1_TreeNode, TreeNode__Output as _metarank_v1_TreeNode__Output } from '../../metarank/v1/TreeNode.ts';

export interface TreeGraph {
  'treeId'?: (string);
  'root'?: (string);
  'nodes'?: (_metarank_v1_TreeNode)[];
  'classNames'?: (string)[];
  'full'?: (boolean);
}

export interface TreeGraph__Output {
  'treeId': (string);
  'root': (string);
  'nodes': (_metarank_v1_TreeNode__Output)[];
  'classNames': (string)[];
  'full': (boolean);
}
