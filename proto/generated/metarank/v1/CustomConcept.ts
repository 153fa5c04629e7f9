// Original file: proto/metarank/v1/concepts.proto


export interface CustomConcept {
  'key'?: (string);
  'name'?: (string);
  'images'?: (Buffer | Uint8Array | string)[];
}

export interface CustomConcept__Output {
  'key': (string);
  'name': (string);
  'images': (Buffer)[];
}
