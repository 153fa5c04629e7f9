// Original file: proto/metarank/v1/tree.proto


export interface TreeEdit {
  'nodeId'?: (string);
  'candidateId'?: (string);
  'favourClass'?: (number);
}

export interface TreeEdit__Output {
  'nodeId': (string);
  'candidateId': (string);
  'favourClass': (number);
}
