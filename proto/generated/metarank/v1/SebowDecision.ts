// Original file: proto/metarank/v1/sebow.proto


export interface SebowDecision {
  'nodeId'?: (string);
  'layer'?: (number);
  'group'?: (number);
  'children'?: (string)[];
  'probabilities'?: (number | string)[];
  'chosen'?: (number);
  'reach'?: (number | string);
  'saliencyPng'?: (Buffer | Uint8Array | string);
}

export interface SebowDecision__Output {
  'nodeId': (string);
  'layer': (number);
  'group': (number);
  'children': (string)[];
  'probabilities': (number)[];
  'chosen': (number);
  'reach': (number);
  'saliencyPng': (Buffer);
}
