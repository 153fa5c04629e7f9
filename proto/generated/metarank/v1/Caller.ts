// Original file: proto/metarank/v1/tree.proto


export interface Caller {
  'username'?: (string);
  'admin'?: (boolean);
}

export interface Caller__Output {
  'username': (string);
  'admin': (boolean);
}
