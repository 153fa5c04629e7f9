// Original file: proto/metarank/v1/tree.proto

import type { Candidate as _metarank_v1_Candidate, Candidate__Output as _metarank_v1_Candidate__Output } from '../../metarank/v1/Candidate.ts';

export interface CandidatesReply {
  'candidates'?: (_metarank_v1_Candidate)[];
}

export interface CandidatesReply__Output {
  'candidates': (_metarank_v1_Candidate__Output)[];
}
