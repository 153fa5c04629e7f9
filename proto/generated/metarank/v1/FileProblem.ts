// Original file: proto/metarank/v1/metascore.proto


export interface FileProblem {
  'file'?: (string);
  'line'?: (number);
  'column'?: (number);
  'message'?: (string);
  'code'?: (string);
  'args'?: ({[key: string]: string});
}

export interface FileProblem__Output {
  'file': (string);
  'line': (number);
  'column': (number);
  'message': (string);
  'code': (string);
  'args': ({[key: string]: string});
}
