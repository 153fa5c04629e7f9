// Original file: proto/metarank/v1/tree.proto


export interface TrainImage {
  'name'?: (string);
  'iteration'?: (number);
  'png'?: (Buffer | Uint8Array | string);
  'caption'?: (string);
}

export interface TrainImage__Output {
  'name': (string);
  'iteration': (number);
  'png': (Buffer);
  'caption': (string);
}
