// Original file: proto/metarank/v1/segmentation.proto


export interface SegmentClass {
  'id'?: (number);
  'name'?: (string);
  'pixels'?: (number);
  'colour'?: (string);
}

export interface SegmentClass__Output {
  'id': (number);
  'name': (string);
  'pixels': (number);
  'colour': (string);
}
