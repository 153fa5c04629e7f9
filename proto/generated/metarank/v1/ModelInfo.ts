// Original file: proto/metarank/v1/inference.proto


export interface ModelInfo {
  'id'?: (string);
  'arch'?: (string);
  'dataset'?: (string);
  'inputHeight'?: (number);
  'inputWidth'?: (number);
  'inputChannels'?: (number);
  'classNames'?: (string)[];
  'testAccuracy'?: (number | string);
  'trainSize'?: (number);
  'testSize'?: (number);
  'epochs'?: (number);
  'trainedAt'?: (string);
  'layers'?: (string)[];
  'defaultCamLayer'?: (string);
}

export interface ModelInfo__Output {
  'id': (string);
  'arch': (string);
  'dataset': (string);
  'inputHeight': (number);
  'inputWidth': (number);
  'inputChannels': (number);
  'classNames': (string)[];
  'testAccuracy': (number);
  'trainSize': (number);
  'testSize': (number);
  'epochs': (number);
  'trainedAt': (string);
  'layers': (string)[];
  'defaultCamLayer': (string);
}
