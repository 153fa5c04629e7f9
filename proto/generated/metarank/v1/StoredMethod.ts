// Original file: proto/metarank/v1/metascore.proto

import type { TaskScore as _metarank_v1_TaskScore, TaskScore__Output as _metarank_v1_TaskScore__Output } from '../../metarank/v1/TaskScore.ts';

export interface StoredMethod {
  'id'?: (string);
  'metascore'?: (number | string);
  'morfMetascore'?: (number | string);
  'lerfMetascore'?: (number | string);
  'scores'?: (_metarank_v1_TaskScore)[];
}

export interface StoredMethod__Output {
  'id': (string);
  'metascore': (number);
  'morfMetascore': (number);
  'lerfMetascore': (number);
  'scores': (_metarank_v1_TaskScore__Output)[];
}
