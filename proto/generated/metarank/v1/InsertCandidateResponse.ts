// Original file: proto/metarank/v1/metascore.proto

import type { RankedMethod as _metarank_v1_RankedMethod, RankedMethod__Output as _metarank_v1_RankedMethod__Output } from '../../metarank/v1/RankedMethod.ts';

export interface InsertCandidateResponse {
  'original'?: (_metarank_v1_RankedMethod)[];
  'current'?: (_metarank_v1_RankedMethod)[];
  'boardVersion'?: (string);
}

export interface InsertCandidateResponse__Output {
  'original': (_metarank_v1_RankedMethod__Output)[];
  'current': (_metarank_v1_RankedMethod__Output)[];
  'boardVersion': (string);
}
