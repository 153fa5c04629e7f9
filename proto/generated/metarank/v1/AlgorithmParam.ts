// Original file: proto/metarank/v1/inference.proto


export interface AlgorithmParam {
  'name'?: (string);
  'type'?: (string);
  'defaultValue'?: (string);
  'min'?: (number | string);
  'max'?: (number | string);
  'choices'?: (string)[];
  'description'?: (string);
  '_min'?: "min";
  '_max'?: "max";
}

export interface AlgorithmParam__Output {
  'name': (string);
  'type': (string);
  'defaultValue': (string);
  'min'?: (number);
  'max'?: (number);
  'choices': (string)[];
  'description': (string);
  '_min'?: "min";
  '_max'?: "max";
}
