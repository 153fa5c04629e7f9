// Original file: proto/metarank/v1/inference.proto


export interface Tensor {
  'shape'?: (number)[];
  'data'?: (number | string)[];
}

export interface Tensor__Output {
  'shape': (number)[];
  'data': (number)[];
}
