// Original file: proto/metarank/v1/evaluation.proto


export interface EvaluationProgress {
  'imagesDone'?: (number);
  'imagesTotal'?: (number);
  'etaSeconds'?: (number | string);
  'task'?: (string);
  'taskNumber'?: (number);
  'taskCount'?: (number);
  '_etaSeconds'?: "etaSeconds";
}

export interface EvaluationProgress__Output {
  'imagesDone': (number);
  'imagesTotal': (number);
  'etaSeconds'?: (number);
  'task': (string);
  'taskNumber': (number);
  'taskCount': (number);
  '_etaSeconds'?: "etaSeconds";
}
