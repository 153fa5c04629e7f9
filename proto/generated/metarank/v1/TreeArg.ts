// Original file: proto/metarank/v1/tree.proto


export interface TreeArg {
  'name'?: (string);
  'description'?: (string);
  'value'?: (string);
  'kind'?: (string);
  'choices'?: (string)[];
  'min'?: (number | string);
  'max'?: (number | string);
}

export interface TreeArg__Output {
  'name': (string);
  'description': (string);
  'value': (string);
  'kind': (string);
  'choices': (string)[];
  'min': (number);
  'max': (number);
}
