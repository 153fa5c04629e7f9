// Original file: proto/metarank/v1/concepts.proto

import type { CustomConcept as _metarank_v1_CustomConcept, CustomConcept__Output as _metarank_v1_CustomConcept__Output } from '../../metarank/v1/CustomConcept.ts';

export interface RunTcavRequest {
  'modelId'?: (string);
  'imageIndex'?: (number);
  'concepts'?: (string)[];
  'layers'?: (string)[];
  'custom'?: (_metarank_v1_CustomConcept)[];
}

export interface RunTcavRequest__Output {
  'modelId': (string);
  'imageIndex': (number);
  'concepts': (string)[];
  'layers': (string)[];
  'custom': (_metarank_v1_CustomConcept__Output)[];
}
