// Original file: proto/metarank/v1/metascore.proto

import type { TaskScore as _metarank_v1_TaskScore, TaskScore__Output as _metarank_v1_TaskScore__Output } from '../../metarank/v1/TaskScore.ts';

export interface MethodScores {
  'id'?: (string);
  'scores'?: (_metarank_v1_TaskScore)[];
}

export interface MethodScores__Output {
  'id': (string);
  'scores': (_metarank_v1_TaskScore__Output)[];
}
