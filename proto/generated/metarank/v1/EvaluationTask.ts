// Original file: proto/metarank/v1/evaluation.proto


export interface EvaluationTask {
  'id'?: (string);
  'available'?: (boolean);
  'checkpointId'?: (string);
  'problem'?: (string);
}

export interface EvaluationTask__Output {
  'id': (string);
  'available': (boolean);
  'checkpointId': (string);
  'problem': (string);
}
