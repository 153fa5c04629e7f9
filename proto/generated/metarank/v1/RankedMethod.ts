// Original file: proto/metarank/v1/metascore.proto


export interface RankedMethod {
  'id'?: (string);
  'metascore'?: (number | string);
  'rank'?: (number);
  'morfMetascore'?: (number | string);
  'morfRank'?: (number);
  'lerfMetascore'?: (number | string);
  'lerfRank'?: (number);
  'metascoreText'?: (string);
}

export interface RankedMethod__Output {
  'id': (string);
  'metascore': (number);
  'rank': (number);
  'morfMetascore': (number);
  'morfRank': (number);
  'lerfMetascore': (number);
  'lerfRank': (number);
  'metascoreText': (string);
}
