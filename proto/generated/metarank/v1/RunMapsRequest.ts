// Original file: proto/metarank/v1/evaluation.proto

import type { TaskMaps as _metarank_v1_TaskMaps, TaskMaps__Output as _metarank_v1_TaskMaps__Output } from '../../metarank/v1/TaskMaps.ts';

export interface RunMapsRequest {
  'suiteId'?: (string);
  'maps'?: (_metarank_v1_TaskMaps)[];
  'methodName'?: (string);
}

export interface RunMapsRequest__Output {
  'suiteId': (string);
  'maps': (_metarank_v1_TaskMaps__Output)[];
  'methodName': (string);
}
