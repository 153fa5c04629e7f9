// Original file: proto/metarank/v1/segmentation.proto


export interface SegmentAttribution {
  'id'?: (number);
  'value'?: (number | string);
}

export interface SegmentAttribution__Output {
  'id': (number);
  'value': (number);
}
