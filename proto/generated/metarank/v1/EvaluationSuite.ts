// Original file: proto/metarank/v1/evaluation.proto

import type { EvaluationTask as _metarank_v1_EvaluationTask, EvaluationTask__Output as _metarank_v1_EvaluationTask__Output } from '../../metarank/v1/EvaluationTask.ts';

export interface EvaluationSuite {
  'id'?: (string);
  'name'?: (string);
  'tasks'?: (_metarank_v1_EvaluationTask)[];
  'splitImages'?: (number);
  'grid'?: (number | string)[];
  'patchSize'?: (number);
  'baselineParams'?: ({[key: string]: string});
}

export interface EvaluationSuite__Output {
  'id': (string);
  'name': (string);
  'tasks': (_metarank_v1_EvaluationTask__Output)[];
  'splitImages': (number);
  'grid': (number)[];
  'patchSize': (number);
  'baselineParams': ({[key: string]: string});
}
