// Original file: proto/metarank/v1/concepts.proto


export interface ConceptCatalogueRequest {
  'samples'?: (number);
}

export interface ConceptCatalogueRequest__Output {
  'samples': (number);
}
