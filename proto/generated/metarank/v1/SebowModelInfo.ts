// Original file: proto/metarank/v1/sebow.proto


export interface SebowModelInfo {
  'id'?: (string);
  'dataset'?: (string);
  'datasetName'?: (string);
  'classNames'?: (string)[];
  'searchSpaceAccuracy'?: (number | string);
  'treeAccuracy'?: (number | string);
  'treeGreedyAccuracy'?: (number | string);
  'cnnAccuracy'?: (number | string);
  'layers'?: (number);
  'groups'?: (number);
  'leaves'?: (number);
  'trainSize'?: (number);
  'testSize'?: (number);
  'trainedAt'?: (string);
  'inputHeight'?: (number);
  'inputWidth'?: (number);
}

export interface SebowModelInfo__Output {
  'id': (string);
  'dataset': (string);
  'datasetName': (string);
  'classNames': (string)[];
  'searchSpaceAccuracy': (number);
  'treeAccuracy': (number);
  'treeGreedyAccuracy': (number);
  'cnnAccuracy': (number);
  'layers': (number);
  'groups': (number);
  'leaves': (number);
  'trainSize': (number);
  'testSize': (number);
  'trainedAt': (string);
  'inputHeight': (number);
  'inputWidth': (number);
}
