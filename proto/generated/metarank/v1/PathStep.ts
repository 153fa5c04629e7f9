// Original file: proto/metarank/v1/tree.proto


export interface PathStep {
  'nodeId'?: (string);
  'nodeName'?: (string);
  'similarity'?: (number | string);
  'direction'?: (string);
  'prototypePng'?: (Buffer | Uint8Array | string);
  'patchPng'?: (Buffer | Uint8Array | string);
  'heatmapPng'?: (Buffer | Uint8Array | string);
}

export interface PathStep__Output {
  'nodeId': (string);
  'nodeName': (string);
  'similarity': (number);
  'direction': (string);
  'prototypePng': (Buffer);
  'patchPng': (Buffer);
  'heatmapPng': (Buffer);
}
