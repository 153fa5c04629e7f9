// Original file: proto/metarank/v1/metascore.proto

import type { FileProblem as _metarank_v1_FileProblem, FileProblem__Output as _metarank_v1_FileProblem__Output } from '../../metarank/v1/FileProblem.ts';
import type { TaskScore as _metarank_v1_TaskScore, TaskScore__Output as _metarank_v1_TaskScore__Output } from '../../metarank/v1/TaskScore.ts';

export interface ValidateResultFilesResponse {
  'valid'?: (boolean);
  'errors'?: (string)[];
  'problems'?: (_metarank_v1_FileProblem)[];
  'omittedErrors'?: (number);
  'scores'?: (_metarank_v1_TaskScore)[];
}

export interface ValidateResultFilesResponse__Output {
  'valid': (boolean);
  'errors': (string)[];
  'problems': (_metarank_v1_FileProblem__Output)[];
  'omittedErrors': (number);
  'scores': (_metarank_v1_TaskScore__Output)[];
}
