// Original file: proto/metarank/v1/tree.proto


export interface TrainScalar {
  'iteration'?: (number);
  'loss'?: (number | string);
  'trainAccuracy'?: (number | string);
  'testAccuracy'?: (number | string);
}

export interface TrainScalar__Output {
  'iteration': (number);
  'loss': (number);
  'trainAccuracy': (number);
  'testAccuracy': (number);
}
