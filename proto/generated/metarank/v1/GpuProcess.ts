// Original file: proto/metarank/v1/telemetry.proto


export interface GpuProcess {
  'pid'?: (number);
  'name'?: (string);
  'memoryMib'?: (number | string);
  'gpuIndex'?: (number);
  'gpuUuid'?: (string);
  '_memoryMib'?: "memoryMib";
}

export interface GpuProcess__Output {
  'pid': (number);
  'name': (string);
  'memoryMib'?: (number);
  'gpuIndex': (number);
  'gpuUuid': (string);
  '_memoryMib'?: "memoryMib";
}
