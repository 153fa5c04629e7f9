// Original file: proto/metarank/v1/concepts.proto

import type { TcavLayerScore as _metarank_v1_TcavLayerScore, TcavLayerScore__Output as _metarank_v1_TcavLayerScore__Output } from '../../metarank/v1/TcavLayerScore.ts';

export interface TcavConceptResult {
  'name'?: (string);
  'layers'?: (_metarank_v1_TcavLayerScore)[];
}

export interface TcavConceptResult__Output {
  'name': (string);
  'layers': (_metarank_v1_TcavLayerScore__Output)[];
}
