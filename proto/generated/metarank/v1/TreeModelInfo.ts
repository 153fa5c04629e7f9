// Original file: proto/metarank/v1/tree.proto


export interface TreeModelInfo {
  'treeId'?: (string);
  'name'?: (string);
  'category'?: (string);
  'dataset'?: (string);
  'datasetName'?: (string);
  'owner'?: (string);
  'depth'?: (number);
  'protoDim'?: (number);
  'testAccuracy'?: (number | string);
  'cnnAccuracy'?: (number | string);
  'leaves'?: (number);
  'inputHeight'?: (number);
  'inputWidth'?: (number);
  'classNames'?: (string)[];
  'trainedAt'?: (string);
}

export interface TreeModelInfo__Output {
  'treeId': (string);
  'name': (string);
  'category': (string);
  'dataset': (string);
  'datasetName': (string);
  'owner': (string);
  'depth': (number);
  'protoDim': (number);
  'testAccuracy': (number);
  'cnnAccuracy': (number);
  'leaves': (number);
  'inputHeight': (number);
  'inputWidth': (number);
  'classNames': (string)[];
  'trainedAt': (string);
}
