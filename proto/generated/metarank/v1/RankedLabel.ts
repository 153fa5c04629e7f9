// Original file: proto/metarank/v1/multilabel.proto


export interface RankedLabel {
  'index'?: (number);
  'name'?: (string);
  'logit'?: (number | string);
  'probability'?: (number | string);
}

export interface RankedLabel__Output {
  'index': (number);
  'name': (string);
  'logit': (number);
  'probability': (number);
}
