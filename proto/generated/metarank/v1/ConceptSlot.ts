// Original file: proto/metarank/v1/concepts.proto


export interface ConceptSlot {
  'name'?: (string);
  'available'?: (boolean);
  'examples'?: (number);
  'samplePng'?: (Buffer | Uint8Array | string)[];
}

export interface ConceptSlot__Output {
  'name': (string);
  'available': (boolean);
  'examples': (number);
  'samplePng': (Buffer)[];
}
