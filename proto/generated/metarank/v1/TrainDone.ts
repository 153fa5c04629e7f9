// Original file: proto/metarank/v1/tree.proto


export interface TrainDone {
  'treeId'?: (string);
  'testAccuracy'?: (number | string);
  'cnnAccuracy'?: (number | string);
  'leaves'?: (number);
  'leavesAfterPruning'?: (number);
  'elapsedMs'?: (number | string);
}

export interface TrainDone__Output {
  'treeId': (string);
  'testAccuracy': (number);
  'cnnAccuracy': (number);
  'leaves': (number);
  'leavesAfterPruning': (number);
  'elapsedMs': (number);
}
