/**
 * Run-log parser benchmarks.
 *
 * - `deno bench --allow-read --allow-write --allow-env bench/logs_bench.ts`: small in-memory
 *   cases (plan-line format/parse, the line processor on 16 MiB of generated log).
 * - `deno run -A bench/logs_bench.ts --big`: the streaming parser on generated logs of 256 MiB
 *   and 1 GiB (plain) and 256 MiB gzip, each parsed in a fresh process; prints throughput
 *   (wall and per CPU-second) and peak RSS, so memory can be seen flat as the file grows.
 *   The logs are written to /tmp and deleted afterwards.
 * @module
 */
import process from "node:process";
import { generateLog } from "./gen_log.ts";
import { emptyPlanRecord, formatPlanLine, parsePlanLine } from "../src/logs/plan_line.ts";
import { emptyFileReport, LogLineProcessor } from "../src/logs/parser.ts";
import { parseLogs } from "../src/logs/reader.ts";

/** Parses `path` and prints one JSON line of measurements (child-process mode). */
async function measure(path: string): Promise<void> {
  let peak = Deno.memoryUsage().rss;
  let heap = Deno.memoryUsage().heapUsed;
  const sample = () => {
    const m = Deno.memoryUsage();
    peak = Math.max(peak, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const s = parseLogs(path);
  let events = 0;
  for await (const _ of s) {
    if ((++events & 255) === 0) sample();
  }
  const wall = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(c0);
  clearInterval(timer);
  sample();
  const r = s.report;
  console.log(JSON.stringify({
    bytes: r.bytes,
    lines: r.lines,
    legs: r.legs,
    failedLegs: r.failedLegs,
    events,
    wall,
    cpu: (cu.user + cu.system) / 1e6,
    peakRss: peak,
    peakHeap: heap,
  }));
}

async function child(path: string): Promise<Record<string, number>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--measure", path],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`measure ${path} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
}

async function gzipFile(src: string, dst: string): Promise<void> {
  const i = await Deno.open(src);
  const o = await Deno.open(dst, { write: true, create: true, truncate: true });
  await i.readable.pipeThrough(new CompressionStream("gzip")).pipeTo(o.writable);
}

async function big(): Promise<void> {
  const MiB = 1024 * 1024;
  const rows: string[] = [];
  const cases: [string, number, boolean][] = [
    ["plain", 256, false],
    ["plain", 1024, false],
    ["gzip", 256, true],
  ];
  for (const [kind, mib, gz] of cases) {
    const path = `/tmp/navscope_bench_${mib}.log`;
    const gen = await generateLog(path, mib, 1);
    let file = path;
    if (gz) {
      file = path + ".gz";
      await gzipFile(path, file);
      await Deno.remove(path);
    }
    const onDisk = (await Deno.stat(file)).size;
    try {
      const m = await child(file);
      if (m.legs !== gen.legs || m.failedLegs !== gen.failedLegs || m.lines !== gen.lines) {
        throw new Error(
          `counts differ: parsed ${JSON.stringify(m)} generated ${JSON.stringify(gen)}`,
        );
      }
      rows.push(
        `| ${kind} | ${(m.bytes / MiB).toFixed(0)} MiB (${(onDisk / MiB).toFixed(0)} on disk) | ` +
          `${m.lines} | ${m.legs} | ${m.wall.toFixed(2)} s | ${
            (m.bytes / MiB / m.wall).toFixed(0)
          } MB/s | ` +
          `${(m.bytes / MiB / m.cpu).toFixed(0)} MB/s | ${(m.peakRss / MiB).toFixed(0)} MiB | ` +
          `${(m.peakHeap / MiB).toFixed(0)} MiB |`,
      );
    } finally {
      await Deno.remove(file);
    }
  }
  console.log(
    "| input | size (decompressed) | lines | legs | wall | throughput (wall) | per CPU-second " +
      "| peak RSS | peak JS heap |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
}

if (import.meta.main && Deno.args[0] === "--measure") await measure(Deno.args[1]);
else if (import.meta.main && Deno.args.includes("--big")) await big();
else {
  const rec = emptyPlanRecord("map02base", [1252.24, 1744.17], [1369.87, 1533.92]);
  rec.ok = true;
  rec.tier = 1;
  rec.kind = "capped";
  rec.tierNotes = ["walk 断开"];
  rec.window = { x0: 4800, y0: 6000, nx: 1700, ny: 1760, cells: 2992000 };
  rec.timing = {
    window: 120.5,
    topology: 164,
    geometry: 50.25,
    pull: 1.1,
    assemble: 0.01,
    lift: 0.07,
    total: 598,
  };
  const line = formatPlanLine(rec, { time: 1e12 });
  Deno.bench("plan line: format", () => {
    formatPlanLine(rec, { time: 1e12 });
  });
  Deno.bench("plan line: parse", () => {
    parsePlanLine(line);
  });
  const path = await Deno.makeTempFile({ suffix: ".log" });
  await generateLog(path, 16, 3);
  const text = await Deno.readTextFile(path);
  await Deno.remove(path);
  Deno.bench("line processor: 16 MiB generated log (in memory)", () => {
    const p = new LogLineProcessor();
    p.beginFile(emptyFileReport("bench"));
    for (let i = 0; i < text.length; i += 1 << 20) {
      p.push(text.slice(i, i + (1 << 20)));
      p.queue.length = 0;
    }
    p.finish();
  });
}
