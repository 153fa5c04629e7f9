// Original file: proto/metarank/v1/evaluation.proto

import type { TaskLocalisation as _metarank_v1_TaskLocalisation, TaskLocalisation__Output as _metarank_v1_TaskLocalisation__Output } from '../../metarank/v1/TaskLocalisation.ts';

export interface EvaluationResult {
  'morfCsv'?: (string);
  'lerfCsv'?: (string);
  'localisation'?: (_metarank_v1_TaskLocalisation)[];
  'imagesJson'?: (string);
  'paramsJson'?: (string);
  'tasks'?: (string)[];
  'imagesPerTask'?: (number);
  'seconds'?: (number | string);
  'backend'?: (string);
}

export interface EvaluationResult__Output {
  'morfCsv': (string);
  'lerfCsv': (string);
  'localisation': (_metarank_v1_TaskLocalisation__Output)[];
  'imagesJson': (string);
  'paramsJson': (string);
  'tasks': (string)[];
  'imagesPerTask': (number);
  'seconds': (number);
  'backend': (string);
}
