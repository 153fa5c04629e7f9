// Original file: proto/metarank/v1/concepts.proto


export interface TcavLayerScore {
  'layer'?: (string);
  'scores'?: (number | string)[];
  'mean'?: (number | string);
  'std'?: (number | string);
  'magnitude'?: (number | string);
  'cavAccuracy'?: (number | string);
  'pValue'?: (number | string);
  'significant'?: (boolean);
  'probe'?: (number | string);
}

export interface TcavLayerScore__Output {
  'layer': (string);
  'scores': (number)[];
  'mean': (number);
  'std': (number);
  'magnitude': (number);
  'cavAccuracy': (number);
  'pValue': (number);
  'significant': (boolean);
  'probe': (number);
}
