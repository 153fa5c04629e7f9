// Original file: proto/metarank/v1/multilabel.proto


export interface MultiLabelModelInfo {
  'id'?: (string);
  'dataset'?: (string);
  'arch'?: (string);
  'classNames'?: (string)[];
  'inputHeight'?: (number);
  'inputWidth'?: (number);
  'inputChannels'?: (number);
  'meanAp'?: (number | string);
  'perClassAp'?: (number | string)[];
  'testSize'?: (number);
  'trainSize'?: (number);
  'trainedAt'?: (string);
  'minPixels'?: (number);
}

export interface MultiLabelModelInfo__Output {
  'id': (string);
  'dataset': (string);
  'arch': (string);
  'classNames': (string)[];
  'inputHeight': (number);
  'inputWidth': (number);
  'inputChannels': (number);
  'meanAp': (number);
  'perClassAp': (number)[];
  'testSize': (number);
  'trainSize': (number);
  'trainedAt': (string);
  'minPixels': (number);
}
