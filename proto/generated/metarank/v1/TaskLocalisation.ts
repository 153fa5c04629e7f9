// Original file: proto/metarank/v1/evaluation.proto


export interface TaskLocalisation {
  'task'?: (string);
  'share'?: (number | string);
  '_share'?: "share";
}

export interface TaskLocalisation__Output {
  'task': (string);
  'share'?: (number);
  '_share'?: "share";
}
