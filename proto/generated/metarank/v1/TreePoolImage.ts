// Original file: proto/metarank/v1/tree.proto


export interface TreePoolImage {
  'sampleId'?: (string);
  'png'?: (Buffer | Uint8Array | string);
  'label'?: (number);
  'labelName'?: (string);
}

export interface TreePoolImage__Output {
  'sampleId': (string);
  'png': (Buffer);
  'label': (number);
  'labelName': (string);
}
