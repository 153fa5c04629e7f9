// Original file: proto/metarank/v1/concepts.proto

import type { TcavProgress as _metarank_v1_TcavProgress, TcavProgress__Output as _metarank_v1_TcavProgress__Output } from '../../metarank/v1/TcavProgress.ts';
import type { RunTcavReply as _metarank_v1_RunTcavReply, RunTcavReply__Output as _metarank_v1_RunTcavReply__Output } from '../../metarank/v1/RunTcavReply.ts';

export interface TcavEvent {
  'progress'?: (_metarank_v1_TcavProgress | null);
  'result'?: (_metarank_v1_RunTcavReply | null);
  'event'?: "progress"|"result";
}

export interface TcavEvent__Output {
  'progress'?: (_metarank_v1_TcavProgress__Output | null);
  'result'?: (_metarank_v1_RunTcavReply__Output | null);
  'event'?: "progress"|"result";
}
