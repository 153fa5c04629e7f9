// Original file: proto/metarank/v1/evaluation.proto


export interface TaskMaps {
  'task'?: (string);
  'npy'?: (Buffer | Uint8Array | string);
}

export interface TaskMaps__Output {
  'task': (string);
  'npy': (Buffer);
}
