// Original file: proto/metarank/v1/tree.proto

import type { Caller as _metarank_v1_Caller, Caller__Output as _metarank_v1_Caller__Output } from '../../metarank/v1/Caller.ts';

export interface TrainRequest {
  'taskId'?: (string);
  'caller'?: (_metarank_v1_Caller | null);
  'category'?: (string);
  'dataset'?: (string);
  'depth'?: (number);
  'iterations'?: (number);
  'protoDim'?: (number);
  'args'?: ({[key: string]: string});
  'ddpNum'?: (number);
  'modelName'?: (string);
  'seed'?: (number);
}

export interface TrainRequest__Output {
  'taskId': (string);
  'caller': (_metarank_v1_Caller__Output | null);
  'category': (string);
  'dataset': (string);
  'depth': (number);
  'iterations': (number);
  'protoDim': (number);
  'args': ({[key: string]: string});
  'ddpNum': (number);
  'modelName': (string);
  'seed': (number);
}
