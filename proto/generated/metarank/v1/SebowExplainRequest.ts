// Original file: proto/metarank/v1/sebow.proto


export interface SebowExplainRequest {
  'modelId'?: (string);
  'variant'?: (string);
  'algorithm'?: (string);
  'sampleId'?: (string);
  'imagePng'?: (Buffer | Uint8Array | string);
}

export interface SebowExplainRequest__Output {
  'modelId': (string);
  'variant': (string);
  'algorithm': (string);
  'sampleId': (string);
  'imagePng': (Buffer);
}
