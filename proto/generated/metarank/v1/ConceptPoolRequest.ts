// Original file: proto/metarank/v1/concepts.proto


export interface ConceptPoolRequest {
  'modelId'?: (string);
  'seed'?: (number);
  'count'?: (number);
}

export interface ConceptPoolRequest__Output {
  'modelId': (string);
  'seed': (number);
  'count': (number);
}
