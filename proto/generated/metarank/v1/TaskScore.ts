// Original file: proto/metarank/v1/metascore.proto


export interface TaskScore {
  'task'?: (string);
  'morf'?: (number | string);
  'lerf'?: (number | string);
}

export interface TaskScore__Output {
  'task': (string);
  'morf': (number);
  'lerf': (number);
}
