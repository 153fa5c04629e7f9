// Original file: proto/metarank/v1/metascore.proto

import type { ResultFile as _metarank_v1_ResultFile, ResultFile__Output as _metarank_v1_ResultFile__Output } from '../../metarank/v1/ResultFile.ts';

export interface ValidateResultFilesRequest {
  'tasks'?: (string)[];
  'grid'?: (number | string)[];
  'morf'?: (_metarank_v1_ResultFile | null);
  'lerf'?: (_metarank_v1_ResultFile | null);
}

export interface ValidateResultFilesRequest__Output {
  'tasks': (string)[];
  'grid': (number)[];
  'morf': (_metarank_v1_ResultFile__Output | null);
  'lerf': (_metarank_v1_ResultFile__Output | null);
}
