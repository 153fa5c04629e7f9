// Original file: proto/metarank/v1/sebow.proto


export interface SebowPoolRequest {
  'modelId'?: (string);
  'count'?: (number);
  'seed'?: (number);
}

export interface SebowPoolRequest__Output {
  'modelId': (string);
  'count': (number);
  'seed': (number);
}
