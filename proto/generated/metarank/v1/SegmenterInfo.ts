// Original file: proto/metarank/v1/segmentation.proto


export interface SegmenterInfo {
  'id'?: (string);
  'dataset'?: (string);
  'arch'?: (string);
  'classNames'?: (string)[];
  'inputHeight'?: (number);
  'inputWidth'?: (number);
  'inputChannels'?: (number);
  'meanIou'?: (number | string);
  'perClassIou'?: (number | string)[];
  'testSize'?: (number);
  'trainedAt'?: (string);
  'camLayer'?: (string);
}

export interface SegmenterInfo__Output {
  'id': (string);
  'dataset': (string);
  'arch': (string);
  'classNames': (string)[];
  'inputHeight': (number);
  'inputWidth': (number);
  'inputChannels': (number);
  'meanIou': (number);
  'perClassIou': (number)[];
  'testSize': (number);
  'trainedAt': (string);
  'camLayer': (string);
}
