// Original file: proto/metarank/v1/metascore.proto


export interface ResultFile {
  'name'?: (string);
  'content'?: (Buffer | Uint8Array | string);
}

export interface ResultFile__Output {
  'name': (string);
  'content': (Buffer);
}
