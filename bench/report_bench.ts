/**
 * Report build time and HTML size for 10 000 and 100 000 synthetic plans (testing/plan_lines_synth.ts):
 * `deno bench --allow-read --allow-write --allow-env bench/report_bench.ts`. The page size is
 * printed once per size.
 * @module
 */
import { syntheticLog } from "../testing/plan_lines_synth.ts";
import { reportFromLogs } from "../reports/report_data.ts";
import { reportHtml } from "../reports/report_page.ts";

const dir = Deno.makeTempDirSync({ prefix: "navscope_report_bench_" });
for (const n of [10_000, 100_000]) {
  const log = `${dir}/plans_${n}.log`;
  Deno.writeTextFileSync(log, syntheticLog(n));
  const { data } = await reportFromLogs([log]);
  const html = await reportHtml(data);
  console.log(`report ${n} plans: ${(html.length / 1e6).toFixed(2)} MB HTML`);
  Deno.bench(`report build (parse + aggregate + HTML), ${n} plans`, { n: 3 }, async () => {
    const { data } = await reportFromLogs([log]);
    await reportHtml(data);
  });
}
