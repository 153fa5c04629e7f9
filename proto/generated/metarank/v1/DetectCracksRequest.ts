// Original file: proto/metarank/v1/inspection.proto


export interface DetectCracksRequest {
  'image'?: (Buffer | Uint8Array | string);
  'mmPerPixel'?: (number | string);
}

export interface DetectCracksRequest__Output {
  'image': (Buffer);
  'mmPerPixel': (number);
}
