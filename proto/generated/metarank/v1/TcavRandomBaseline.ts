// Original file: proto/metarank/v1/concepts.proto


export interface TcavRandomBaseline {
  'layer'?: (string);
  'scores'?: (number | string)[];
  'mean'?: (number | string);
  'std'?: (number | string);
}

export interface TcavRandomBaseline__Output {
  'layer': (string);
  'scores': (number)[];
  'mean': (number);
  'std': (number);
}
