// Server registry rules that need no database: form validation, online state, colours,
// heartbeat parsing and the Telemetry snapshot → chart data mapping.
import { resources } from "~/i18n/config.ts";
import { describe, expect, it } from "vitest";
import {
  PROCESS_GREENS,
  SERVER_MSG,
  isOnline,
  onlineThresholdMs,
  parseHeartbeat,
  processColour,
  telemetryFromSnapshot,
  validateNewServer,
} from "../../app/.server/servers.server.ts";

describe("new server form", () => {
  it("uses the original site's messages", () => {
    expect(validateNewServer({ username: " ", password: "", password2: "x" })).toEqual({
      username: SERVER_MSG.nameRequired,
      password: SERVER_MSG.passwordRequired,
      password2: SERVER_MSG.passwordMismatch,
    });
    // Message refs whose Chinese texts are the original words (docs/product.md "Administration and servers").
    const zh = resources.zh.admin.msg;
    expect([SERVER_MSG.nameRequired, SERVER_MSG.passwordRequired, SERVER_MSG.passwordMismatch]).toEqual([
      "admin:msg.nameRequired",
      "admin:msg.passwordRequired",
      "admin:msg.passwordMismatch",
    ]);
    expect([zh.nameRequired, zh.passwordRequired, zh.passwordMismatch]).toEqual(["服务器名不得为空", "密码不得为空", "两次密码不一致"]);
    expect(validateNewServer({ username: "gpu-1", password: "p", password2: "p" })).toEqual({});
  });
});

describe("online state", () => {
  it("is online while the last heartbeat is younger than 60 s", () => {
    const now = 1_700_000_000_000;
    expect(onlineThresholdMs({})).toBe(60_000);
    expect(onlineThresholdMs({ SERVER_ONLINE_THRESHOLD_MS: "1500" })).toBe(1500);
    expect(onlineThresholdMs({ SERVER_ONLINE_THRESHOLD_MS: "nonsense" })).toBe(60_000);
    expect(isOnline(new Date(now - 59_999), now, 60_000)).toBe(true);
    expect(isOnline(new Date(now - 60_000), now, 60_000)).toBe(false);
    expect(isOnline(null, now, 60_000)).toBe(false);
  });
});

describe("process colours", () => {
  it("cycle through 10 greens", () => {
    expect(PROCESS_GREENS).toHaveLength(10);
    expect(new Set(PROCESS_GREENS).size).toBe(10);
    expect(processColour(0)).toBe(PROCESS_GREENS[0]);
    expect(processColour(10)).toBe(PROCESS_GREENS[0]);
    expect(processColour(13)).toBe(PROCESS_GREENS[3]);
  });
});

describe("heartbeat body", () => {
  const body = {
    name: "gpu-box-1",
    password: "s3cret",
    grpcAddress: "gpu-box-1:50051",
    gpuIndex: 1,
    freeCompute: 100,
    totalMemoryMiB: 212992,
    driverVersion: "535.161.08",
    cudaVersion: "12.2",
    processes: [{ pid: 21877, name: "/opt/conda/envs/xai/bin/python", memoryMiB: 40110, gpuIndex: 0 }, { pid: "x" }],
  };
  it("keeps the documented fields and drops malformed processes", () => {
    const hb = parseHeartbeat(body)!;
    expect(hb.grpcAddress).toBe("gpu-box-1:50051");
    expect(hb.processes).toEqual([{ pid: 21877, name: "/opt/conda/envs/xai/bin/python", memoryMiB: 40110, gpuIndex: 0 }]);
  });
  it("refuses bodies that cannot be heartbeats", () => {
    expect(parseHeartbeat(null)).toBeNull();
    expect(parseHeartbeat({ ...body, name: 1 })).toBeNull();
    expect(parseHeartbeat({ ...body, grpcAddress: "http://evil/" })).toBeNull();
    expect(parseHeartbeat({ ...body, grpcAddress: "no-port" })).toBeNull();
  });
});

describe("telemetry snapshot → charts", () => {
  it("takes the first GPU of every history sample and keeps unknown values unknown", () => {
    const t = telemetryFromSnapshot({
      driverVersion: "535.161.08",
      cudaVersion: "",
      sampledAtMs: 2000,
      gpus: [
        { index: 1, name: "B" },
        { index: 0, name: "NVIDIA A100" },
      ],
      history: [
        {
          timestampMs: 1000,
          gpus: [{ index: 0, memoryUsedMib: 100, utilizationPercent: 5, temperatureC: 40, performanceState: 0, powerW: 60 }],
          noGpuReason: "",
        },
        { timestampMs: 1500, gpus: [], noGpuReason: "driver failed" },
        {
          timestampMs: 2000,
          gpus: [
            { index: 1, memoryUsedMib: 9 },
            { index: 0, memoryUsedMib: 200, fanPercent: 30 },
          ],
          noGpuReason: "",
        },
      ],
    });
    expect(t.driverVersion).toBe("535.161.08");
    expect(t.cudaVersion).toBeNull();
    expect(t.gpuName).toBe("NVIDIA A100");
    expect(t.samples).toEqual([
      { t: 1000, memoryMiB: 100, utilization: 5, fan: null, temperature: 40, perf: 0, power: 60 },
      { t: 2000, memoryMiB: 200, utilization: null, fan: 30, temperature: null, perf: null, power: null },
    ]);
  });
});

describe("server times", () => {
  it("say their time zone", async () => {
    const { formatDateTime } = await import("../../app/.server/servers.server.ts");
    expect(formatDateTime(new Date(Date.UTC(2026, 10, 22, 18, 5, 9)))).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC[+−]\d\d:\d\d$/);
    expect(formatDateTime(null)).toBeNull();
  });
});
