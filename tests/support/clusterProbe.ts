// A group of web processes without the web app (tests/unit/cluster.test.ts): server/cluster.ts's
// primary with two workers that exercise the group's messages and print what they saw, one JSON
// line each. Run: node --import tsx tests/support/clusterProbe.ts
import cluster from "node:cluster";
import { runPrimary, workerGroup } from "../../server/cluster.ts";

const out = (o: Record<string, unknown>) => console.log(JSON.stringify(o));

if (cluster.isPrimary) {
  runPrimary({ processes: 2, port: 0, log: (level, msg, extra) => out({ level, msg, ...extra }) });
} else {
  const group = workerGroup();
  const seen: unknown[] = [];
  group.onCounter((name, value) => seen.push({ counter: name, value }));
  group.onBroadcast((topic, data) => seen.push({ topic, data }));
  if (group.leader) {
    group.serveLeader(async (op, args) => {
      if (op === "fail") throw new Error("refused by the leader");
      return { op, args, by: group.index };
    });
  }
  process.send?.({ mr: "ready" });
  // Worker 1 acts once both are up (the primary relays only to processes it has forked); each
  // prints what it heard a while later and waits for the test to stop the group.
  setTimeout(() => {
    if (group.index !== 1) return;
    void (async () => {
      const start = await group.read("v");
      const first = await group.increment("v");
      const second = await group.increment("v");
      group.broadcast("cancel", 42);
      group.put("progress:k", { done: 3, total: 7 }, 60_000);
      const kept = await group.get("progress:k");
      const call = await group.callLeader("enqueueJob", ["tree", { id: 1 }]);
      const failure = await group.callLeader("fail", []).catch((e: Error) => e.message);
      out({ index: 1, start, first, second, kept, call, failure });
    })();
  }, 1500);
  setTimeout(() => out({ index: group.index, seen }), 3000);
}
