// Original file: proto/metarank/v1/evaluation.proto


export interface EvaluationMethod {
  'name'?: (string);
  'description'?: (string);
}

export interface EvaluationMethod__Output {
  'name': (string);
  'description': (string);
}
