// Original file: proto/metarank/v1/inference.proto


export interface PredictReply {
  'predictedClass'?: (number);
  'predictedLabel'?: (string);
  'probabilities'?: (number | string)[];
  'logits'?: (number | string)[];
  'classNames'?: (string)[];
}

export interface PredictReply__Output {
  'predictedClass': (number);
  'predictedLabel': (string);
  'probabilities': (number)[];
  'logits': (number)[];
  'classNames': (string)[];
}
