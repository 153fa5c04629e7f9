// Original file: proto/metarank/v1/concepts.proto


export interface PoolImage {
  'index'?: (number);
  'png'?: (Buffer | Uint8Array | string);
  'label'?: (string);
}

export interface PoolImage__Output {
  'index': (number);
  'png': (Buffer);
  'label': (string);
}
