// Original file: proto/metarank/v1/concepts.proto

import type { ConceptSlot as _metarank_v1_ConceptSlot, ConceptSlot__Output as _metarank_v1_ConceptSlot__Output } from '../../metarank/v1/ConceptSlot.ts';

export interface ConceptCatalogueReply {
  'concepts'?: (_metarank_v1_ConceptSlot)[];
  'randomSets'?: (number);
  'examplesPerSet'?: (number);
  'randomSource'?: (string);
  'conceptSource'?: (string);
}

export interface ConceptCatalogueReply__Output {
  'concepts': (_metarank_v1_ConceptSlot__Output)[];
  'randomSets': (number);
  'examplesPerSet': (number);
  'randomSource': (string);
  'conceptSource': (string);
}
