// Original file: proto/metarank/v1/tree.proto


export interface Candidate {
  'candidateId'?: (string);
  'similarity'?: (number | string);
  'png'?: (Buffer | Uint8Array | string);
  'label'?: (number);
  'labelName'?: (string);
}

export interface Candidate__Output {
  'candidateId': (string);
  'similarity': (number);
  'png': (Buffer);
  'label': (number);
  'labelName': (string);
}
