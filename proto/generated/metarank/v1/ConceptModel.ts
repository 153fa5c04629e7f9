// Original file: proto/metarank/v1/concepts.proto


export interface ConceptModel {
  'id'?: (string);
  'dataset'?: (string);
  'layers'?: (string)[];
  'classNames'?: (string)[];
  'testAccuracy'?: (number | string);
}

export interface ConceptModel__Output {
  'id': (string);
  'dataset': (string);
  'layers': (string)[];
  'classNames': (string)[];
  'testAccuracy': (number);
}
