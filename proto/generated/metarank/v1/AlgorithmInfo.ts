// Original file: proto/metarank/v1/inference.proto

import type { AlgorithmParam as _metarank_v1_AlgorithmParam, AlgorithmParam__Output as _metarank_v1_AlgorithmParam__Output } from '../../metarank/v1/AlgorithmParam.ts';

export interface AlgorithmInfo {
  'name'?: (string);
  'description'?: (string);
  'params'?: (_metarank_v1_AlgorithmParam)[];
  'hasBaseline'?: (boolean);
}

export interface AlgorithmInfo__Output {
  'name': (string);
  'description': (string);
  'params': (_metarank_v1_AlgorithmParam__Output)[];
  'hasBaseline': (boolean);
}
