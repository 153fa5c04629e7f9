// Original file: proto/metarank/v1/concepts.proto


export interface TcavProgress {
  'done'?: (number);
  'total'?: (number);
}

export interface TcavProgress__Output {
  'done': (number);
  'total': (number);
}
