// Original file: proto/metarank/v1/metascore.proto

import type { MethodScores as _metarank_v1_MethodScores, MethodScores__Output as _metarank_v1_MethodScores__Output } from '../../metarank/v1/MethodScores.ts';

export interface RankBoardRequest {
  'methods'?: (_metarank_v1_MethodScores)[];
}

export interface RankBoardRequest__Output {
  'methods': (_metarank_v1_MethodScores__Output)[];
}
