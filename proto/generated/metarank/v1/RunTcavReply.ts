// Original file: proto/metarank/v1/concepts.proto

import type { ConceptModel as _metarank_v1_ConceptModel, ConceptModel__Output as _metarank_v1_ConceptModel__Output } from '../../metarank/v1/ConceptModel.ts';
import type { TcavConceptResult as _metarank_v1_TcavConceptResult, TcavConceptResult__Output as _metarank_v1_TcavConceptResult__Output } from '../../metarank/v1/TcavConceptResult.ts';
import type { TcavRandomBaseline as _metarank_v1_TcavRandomBaseline, TcavRandomBaseline__Output as _metarank_v1_TcavRandomBaseline__Output } from '../../metarank/v1/TcavRandomBaseline.ts';

export interface RunTcavReply {
  'model'?: (_metarank_v1_ConceptModel | null);
  'imageIndex'?: (number);
  'imagePng'?: (Buffer | Uint8Array | string);
  'groundTruth'?: (string);
  'predicted'?: (string);
  'probability'?: (number | string);
  'targetClass'?: (string);
  'classInputs'?: (number);
  'concepts'?: (_metarank_v1_TcavConceptResult)[];
  'random'?: (_metarank_v1_TcavRandomBaseline)[];
  'randomSets'?: (number);
  'cavsTrained'?: (number);
  'cavsReused'?: (number);
  'elapsedMs'?: (number | string);
}

export interface RunTcavReply__Output {
  'model': (_metarank_v1_ConceptModel__Output | null);
  'imageIndex': (number);
  'imagePng': (Buffer);
  'groundTruth': (string);
  'predicted': (string);
  'probability': (number);
  'targetClass': (string);
  'classInputs': (number);
  'concepts': (_metarank_v1_TcavConceptResult__Output)[];
  'random': (_metarank_v1_TcavRandomBaseline__Output)[];
  'randomSets': (number);
  'cavsTrained': (number);
  'cavsReused': (number);
  'elapsedMs': (number);
}
