// Original file: proto/metarank/v1/telemetry.proto


export interface GpuStats {
  'index'?: (number);
  'name'?: (string);
  'driverVersion'?: (string);
  'memoryUsedMib'?: (number | string);
  'memoryTotalMib'?: (number | string);
  'memoryFreeMib'?: (number | string);
  'utilizationPercent'?: (number | string);
  'fanPercent'?: (number | string);
  'temperatureC'?: (number | string);
  'performanceState'?: (number);
  'powerW'?: (number | string);
  '_name'?: "name";
  '_driverVersion'?: "driverVersion";
  '_memoryUsedMib'?: "memoryUsedMib";
  '_memoryTotalMib'?: "memoryTotalMib";
  '_memoryFreeMib'?: "memoryFreeMib";
  '_utilizationPercent'?: "utilizationPercent";
  '_fanPercent'?: "fanPercent";
  '_temperatureC'?: "temperatureC";
  '_performanceState'?: "performanceState";
  '_powerW'?: "powerW";
}

export interface GpuStats__Output {
  'index': (number);
  'name'?: (string);
  'driverVersion'?: (string);
  'memoryUsedMib'?: (number);
  'memoryTotalMib'?: (number);
  'memoryFreeMib'?: (number);
  'utilizationPercent'?: (number);
  'fanPercent'?: (number);
  'temperatureC'?: (number);
  'performanceState'?: (number);
  'powerW'?: (number);
  '_name'?: "name";
  '_driverVersion'?: "driverVersion";
  '_memoryUsedMib'?: "memoryUsedMib";
  '_memoryTotalMib'?: "memoryTotalMib";
  '_memoryFreeMib'?: "memoryFreeMib";
  '_utilizationPercent'?: "utilizationPercent";
  '_fanPercent'?: "fanPercent";
  '_temperatureC'?: "temperatureC";
  '_performanceState'?: "performanceState";
  '_powerW'?: "powerW";
}
