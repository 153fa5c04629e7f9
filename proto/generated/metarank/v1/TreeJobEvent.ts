// Original file: proto/metarank/v1/tree.proto

import type { TreeJobDone as _metarank_v1_TreeJobDone, TreeJobDone__Output as _metarank_v1_TreeJobDone__Output } from '../../metarank/v1/TreeJobDone.ts';

export interface TreeJobEvent {
  'progress'?: (number | string);
  'message'?: (string);
  'done'?: (_metarank_v1_TreeJobDone | null);
}

export interface TreeJobEvent__Output {
  'progress': (number);
  'message': (string);
  'done': (_metarank_v1_TreeJobDone__Output | null);
}
