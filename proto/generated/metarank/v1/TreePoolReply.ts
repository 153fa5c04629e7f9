// Original file: proto/metarank/v1/tree.proto

import type { TreePoolImage as _metarank_v1_TreePoolImage, TreePoolImage__Output as _metarank_v1_TreePoolImage__Output } from '../../metarank/v1/TreePoolImage.ts';

export interface TreePoolReply {
  'images'?: (_metarank_v1_TreePoolImage)[];
}

export interface TreePoolReply__Output {
  'images': (_metarank_v1_TreePoolImage__Output)[];
}
