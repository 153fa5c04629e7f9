// Original file: proto/metarank/v1/sebow.proto


export interface SebowPoolImage {
  'sampleId'?: (string);
  'png'?: (Buffer | Uint8Array | string);
  'label'?: (number);
  'labelName'?: (string);
}

export interface SebowPoolImage__Output {
  'sampleId': (string);
  'png': (Buffer);
  'label': (number);
  'labelName': (string);
}
