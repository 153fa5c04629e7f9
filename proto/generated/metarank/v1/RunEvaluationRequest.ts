// Original file: proto/metarank/v1/evaluation.proto


export interface RunEvaluationRequest {
  'suiteId'?: (string);
  'method'?: (string);
  'paramsJson'?: (string);
  'limit'?: (number);
  'tasks'?: (string)[];
}

export interface RunEvaluationRequest__Output {
  'suiteId': (string);
  'method': (string);
  'paramsJson': (string);
  'limit': (number);
  'tasks': (string)[];
}
