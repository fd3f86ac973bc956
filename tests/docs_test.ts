/**
 * The documents cannot go stale unnoticed: every link and every repository path they name
 * exists; the README's command table names every command and `docs/development.md` every task;
 * the README says what the demo leaves in `out/` for the worlds the demo plans; measured times
 * carry a date; `examples/README.md` is exactly what `gen --readme examples` writes (pack sizes
 * and leg counts included); BENCHMARKS.md stays short and dates every current figure.
 */
import { assert, assertEquals } from "./assert.ts";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "../commands/main.ts";
import { DEMO_WORLDS, help as demoHelp } from "../commands/demo.ts";
import { examplesReadmeOf } from "../src/world/gen_readme.ts";
import { generateWorld } from "../src/world/generator.ts";
import { parseBgrd, readMainPackFile, summarizeBgrd } from "../mod.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The Markdown files the project ships to its readers (repo-relative). */
async function documents(): Promise<string[]> {
  const out = ["README.md", "BENCHMARKS.md", "examples/README.md", "examples/baseline/README.md"];
  for await (const e of Deno.readDir(`${ROOT}docs`)) {
    if (e.isFile && e.name.endsWith(".md")) out.push(`docs/${e.name}`);
  }
  return out.sort();
}

/** The text outside fenced code blocks. */
function prose(md: string): string {
  return md.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

function anchors(md: string): Set<string> {
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6} (.+)$/gm)) out.add(slug(m[1]));
  return out;
}

/** Normalises `a/b/../c` to `a/c`. */
function normalise(path: string): string {
  const parts: string[] = [];
  for (const p of path.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== "." && p !== "") parts.push(p);
  }
  return parts.join("/");
}

Deno.test("docs: every relative link reaches a file (and a heading, when it names one)", async () => {
  const problems: string[] = [];
  let links = 0;
  for (const doc of await documents()) {
    const md = await Deno.readTextFile(ROOT + doc);
    const dir = doc.includes("/") ? doc.slice(0, doc.lastIndexOf("/") + 1) : "";
    for (const m of prose(md).matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1];
      if (/^[a-z]+:/.test(href)) continue;
      links++;
      const [file, anchor] = href.split("#");
      const target = file === "" ? doc : normalise(dir + file);
      if (!await exists(ROOT + target)) {
        problems.push(`${doc}: ${href}: no such file`);
        continue;
      }
      if (anchor && target.endsWith(".md")) {
        const heads = anchors(await Deno.readTextFile(ROOT + target));
        if (!heads.has(anchor)) problems.push(`${doc}: ${href}: no heading #${anchor}`);
      }
    }
  }
  assert(links > 100, `only ${links} links found`);
  assertEquals(problems, []);
});

Deno.test("docs: every repository path in backquotes exists", async () => {
  const problems: string[] = [];
  const re = /`((?:src|reports|commands|tests|bench|examples|docs)\/[a-z0-9_./-]*)`/g;
  for (const doc of await documents()) {
    const md = await Deno.readTextFile(ROOT + doc);
    for (const m of md.matchAll(re)) {
      if (!await exists(ROOT + m[1])) {
        problems.push(`${doc}: ${m[1]}`);
      }
    }
  }
  assertEquals(problems, []);
});

Deno.test("docs: the README's command table names every command", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const rows = new Set([...readme.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1]));
  assertEquals([...rows].filter((c) => c in COMMANDS).sort(), Object.keys(COMMANDS).sort());
});

Deno.test("docs: docs/development.md's task table names every deno.json task", async () => {
  const tasks = Object.keys(JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks);
  const dev = await Deno.readTextFile(`${ROOT}docs/development.md`);
  const rows = new Set([...dev.matchAll(/^\| `([a-z:-]+)` +\|/gm)].map((m) => m[1]));
  // Every task has a row. (A row may name a task a branch of this session adds: `fuzz`.)
  assertEquals(tasks.filter((t: string) => !rows.has(t)), [], "tasks missing from the table");
  assert(rows.size >= tasks.length, `${rows.size} rows for ${tasks.length} tasks`);
});

Deno.test("docs: the README lists what the demo leaves in out/, and the demo's help names its worlds", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const out = readme.slice(
    readme.indexOf("The demo leaves in `out/`"),
    readme.indexOf("## Contents"),
  );
  for (const p of ["out/logs/WORLD.log", "out/replay/replay.log", "out/replay/replay.json"]) {
    assert(out.includes(`\`${p}\``), p);
  }
  assert(out.includes("`out/report.html`"), "out/report.html");
  assert(out.includes("`navscope demo --help` names them"), "where the demo's worlds are named");
  for (const w of DEMO_WORLDS) assert(demoHelp.includes(`examples/${w}`), `demo --help: ${w}`);
  const ex = (await Deno.readTextFile(`${ROOT}examples/README.md`)).replace(/\s+/g, " ");
  assert(ex.includes("`navscope demo` those its `--help` names"), "examples/README.md: the demo");
});

Deno.test("docs: the first screen: set-up commands with dated times, the picture, then contents", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const setup = readme.slice(0, readme.indexOf("## Contents"));
  assert(setup.length > 0 && setup.length < 6000, "the first screen ends at ## Contents");
  for (const task of ["demo", "test"]) {
    const cmd = setup.match(new RegExp(`^npx --yes deno@2\\.9\\.6 task ${task} +# (.+)$`, "m"));
    assert(cmd, `the set-up block lacks "npx --yes deno@2.9.6 task ${task}" with a comment`);
    assert(/\d+ (min \d+ )?s\b/.test(cmd[1]), `no time in the comment of task ${task}: ${cmd[1]}`);
    const item = setup.match(
      new RegExp(`^- \`deno task ${task}\`: \\*\\*[^*]+\\*\\*[\\s\\S]*?(?=\\n- |\\n\\n)`, "m"),
    );
    assert(item, `"The times" has no item for deno task ${task}`);
    assert(/\b20\d\d-\d\d-\d\d\b/.test(item[0]), `the time of deno task ${task} has no date`);
  }
  assert(/2 cores/.test(setup), "the machine the times were taken on");
  assert(setup.includes("](reports/screenshot.png)"), "the first screen shows the report");
  const toc = readme.slice(readme.indexOf("## Contents"));
  for (const m of readme.matchAll(/^## (.+)$/gm)) {
    if (m[1] === "Contents" || m[1].startsWith("Set-up")) continue;
    assert(toc.includes(`(#${m[1].toLowerCase().replace(/ /g, "-")})`), `contents lack ${m[1]}`);
  }
});

Deno.test("docs: examples/README.md is what `gen --readme examples` writes", async () => {
  const text = await examplesReadmeOf(`${ROOT}examples`);
  const fmt = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = fmt.stdin.getWriter();
  await w.write(new TextEncoder().encode(text));
  await w.close();
  const r = await fmt.output();
  assertEquals(r.code, 0, new TextDecoder().decode(r.stderr));
  const want = new TextDecoder().decode(r.stdout);
  const have = await Deno.readTextFile(`${ROOT}examples/README.md`);
  assert(
    have === want,
    "examples/README.md is stale: run `deno task navscope gen --readme examples && deno fmt examples/README.md`",
  );
  assert(/Committed packs: \d[\d ]* B/.test(have), "pack sizes");
});

Deno.test("docs: no code block imports the bare name navscope without the deno.json entry", async () => {
  for (const doc of await documents()) {
    const md = await Deno.readTextFile(ROOT + doc);
    for (const m of md.matchAll(/```ts\n([\s\S]*?)```/g)) {
      assert(!/from "navscope[/"]/.test(m[1]), `${doc}: a snippet imports "navscope"`);
    }
  }
});

Deno.test("docs: BENCHMARKS.md is under 400 lines and dates every current figure", async () => {
  const md = await Deno.readTextFile(`${ROOT}BENCHMARKS.md`);
  const lines = md.split("\n");
  assert(lines.length < 400, `BENCHMARKS.md has ${lines.length} lines`);
  let tables = 0;
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i].split("|").map((c) => c.trim());
    if (!lines[i].startsWith("|") || !head.includes("target") || !head.includes("date")) continue;
    tables++;
    const col = head.indexOf("date");
    for (let j = i + 2; j < lines.length && lines[j].startsWith("|"); j++) {
      const date = lines[j].split("|")[col].trim();
      assert(/^20\d\d-\d\d-\d\d$/.test(date), `BENCHMARKS.md line ${j + 1}: date "${date}"`);
    }
  }
  assert(tables >= 7, `${tables} tables with figure, target and date (one per area)`);
});

/** Digits in groups of three, as the documents write numbers. */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

Deno.test("docs: docs/worlds.md quotes city_small's record count and gen's estimate as they are", async () => {
  const md = await Deno.readTextFile(`${ROOT}docs/worlds.md`);
  const { pack } = await readMainPackFile(`${ROOT}examples/city_small/base.nav.gz`);
  assert(pack.grid, "city_small has no grid section");
  const records = summarizeBgrd(parseBgrd(pack.grid)).total.records;
  const estimate = generateWorld({ seed: 1, scale: 1 }).stats.estimatedRecords;
  assert(md.includes(`has ${grouped(records)} BGRD records`), `records: ${grouped(records)}`);
  assert(md.includes(`${grouped(estimate)} for \`--seed 1 --scale 1\``), `estimate: ${estimate}`);
  const under = ((1 - estimate / records) * 100).toFixed(1);
  assert(md.includes(`${under} % under the bake`), `estimate ${under} % under the bake`);
});
