// Original file: proto/metarank/v1/tree.proto


export interface TreeJobDone {
  'oldAccuracy'?: (number | string);
  'newAccuracy'?: (number | string);
  'treeId'?: (string);
  'elapsedMs'?: (number | string);
}

export interface TreeJobDone__Output {
  'oldAccuracy': (number);
  'newAccuracy': (number);
  'treeId': (string);
  'elapsedMs': (number);
}
