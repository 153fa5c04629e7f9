// Original file: proto/metarank/v1/vqa.proto


export interface VqaSynonym {
  'written'?: (string);
  'readsAs'?: (string);
  'language'?: (string);
}

export interface VqaSynonym__Output {
  'written': (string);
  'readsAs': (string);
  'language': (string);
}
