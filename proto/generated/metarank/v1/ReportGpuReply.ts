// Original file: proto/metarank/v1/inference.proto


export interface ReportGpuReply {
  'gpuIndex'?: (number);
  'device'?: (string);
  'freeCompute'?: (number | string);
  'maxCompute'?: (number);
  'workers'?: (number);
  'busyWorkers'?: (number);
  'queued'?: (number);
  'backend'?: (string);
  'cpuOnly'?: (boolean);
  'noGpuReason'?: (string);
}

export interface ReportGpuReply__Output {
  'gpuIndex': (number);
  'device': (string);
  'freeCompute': (number);
  'maxCompute': (number);
  'workers': (number);
  'busyWorkers': (number);
  'queued': (number);
  'backend': (string);
  'cpuOnly': (boolean);
  'noGpuReason': (string);
}
