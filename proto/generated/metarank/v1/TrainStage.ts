// Original file: proto/metarank/v1/tree.proto


export interface TrainStage {
  'name'?: (string);
  'state'?: (string);
  'startedAt'?: (string);
  'finishedAt'?: (string);
}

export interface TrainStage__Output {
  'name': (string);
  'state': (string);
  'startedAt': (string);
  'finishedAt': (string);
}
