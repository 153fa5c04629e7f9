// Original file: proto/metarank/v1/metascore.proto

import type { StoredMethod as _metarank_v1_StoredMethod, StoredMethod__Output as _metarank_v1_StoredMethod__Output } from '../../metarank/v1/StoredMethod.ts';
import type { MethodScores as _metarank_v1_MethodScores, MethodScores__Output as _metarank_v1_MethodScores__Output } from '../../metarank/v1/MethodScores.ts';

export interface InsertCandidateRequest {
  'board'?: (_metarank_v1_StoredMethod)[];
  'candidate'?: (_metarank_v1_MethodScores | null);
  'boardVersion'?: (string);
  'boardOmitted'?: (boolean);
}

export interface InsertCandidateRequest__Output {
  'board': (_metarank_v1_StoredMethod__Output)[];
  'candidate': (_metarank_v1_MethodScores__Output | null);
  'boardVersion': (string);
  'boardOmitted': (boolean);
}
