// Original file: proto/metarank/v1/tree.proto

import type { TreeAlgorithm as _metarank_v1_TreeAlgorithm, TreeAlgorithm__Output as _metarank_v1_TreeAlgorithm__Output } from '../../metarank/v1/TreeAlgorithm.ts';

export interface TaskOptionsReply {
  'algorithms'?: (_metarank_v1_TreeAlgorithm)[];
  'depths'?: (number)[];
  'iterations'?: (number)[];
  'protoDims'?: (number)[];
  'maxDdp'?: (number);
}

export interface TaskOptionsReply__Output {
  'algorithms': (_metarank_v1_TreeAlgorithm__Output)[];
  'depths': (number)[];
  'iterations': (number)[];
  'protoDims': (number)[];
  'maxDdp': (number);
}
