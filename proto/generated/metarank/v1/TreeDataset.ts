// Original file: proto/metarank/v1/tree.proto


export interface TreeDataset {
  'id'?: (string);
  'name'?: (string);
  'classes'?: (number);
  'trainSize'?: (number);
  'testSize'?: (number);
  'platform'?: (boolean);
}

export interface TreeDataset__Output {
  'id': (string);
  'name': (string);
  'classes': (number);
  'trainSize': (number);
  'testSize': (number);
  'platform': (boolean);
}
