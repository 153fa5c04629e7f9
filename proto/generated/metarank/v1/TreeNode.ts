// Original file: proto/metarank/v1/tree.proto


export interface TreeNode {
  'id'?: (string);
  'name'?: (string);
  'kind'?: (string);
  'children'?: (string)[];
  'imagePng'?: (Buffer | Uint8Array | string);
  'distribution'?: (number | string)[];
  'depth'?: (number);
  'edited'?: (boolean);
}

export interface TreeNode__Output {
  'id': (string);
  'name': (string);
  'kind': (string);
  'children': (string)[];
  'imagePng': (Buffer);
  'distribution': (number)[];
  'depth': (number);
  'edited': (boolean);
}
