/**
 * navscope command-line entry: dispatches to one module per subcommand, imported lazily so a
 * command only loads what it uses. Every command module exports `summary`, `help` and
 * `run(args): Promise<number>` (the exit code).
 * @module
 */
import { NAVSCOPE_VERSION } from "../src/version.ts";
import { NavscopeError } from "../src/errors.ts";
import { parseByteSize, setMaxInflate } from "../src/codec/gzip.ts";

/** The shape every command module has. */
export interface CommandModule {
  /** One line for the command list. */
  summary: string;
  /** Full usage text for `navscope CMD --help`. */
  help: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}

/** Subcommands, in the order `--help` lists them. */
export const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  demo: () => import("./demo.ts"),
  plan: () => import("./plan.ts"),
  inspect: () => import("./inspect.ts"),
  classify: () => import("./classify.ts"),
  stats: () => import("./stats.ts"),
  report: () => import("./report.ts"),
  triage: () => import("./triage.ts"),
  replay: () => import("./replay.ts"),
  merge: () => import("./merge.ts"),
  diff: () => import("./diff.ts"),
  nightly: () => import("./nightly.ts"),
  history: () => import("./history.ts"),
  bisect: () => import("./bisect.ts"),
  bake: () => import("./bake.ts"),
  gen: () => import("./gen.ts"),
  "render-world": () => import("./render_world.ts"),
};

async function usage(): Promise<string> {
  const lines = [`navscope ${NAVSCOPE_VERSION} — voxel-grid NavMesh planner tools`, ""];
  lines.push("usage: navscope <command> [options]   (navscope <command> --help for details)", "");
  for (const [name, load] of Object.entries(COMMANDS)) {
    const m = await load();
    lines.push(`  ${name.padEnd(14)} ${m.summary}`);
  }
  return lines.join("\n");
}

/** Exit code of a refused run: 2 usage, 130 interrupted, 1 any other bad input (docs/exit_codes.md). */
export function exitCodeOf(e: NavscopeError): number {
  return e.code === "usage" ? 2 : e.code === "cancelled" ? 130 : 1;
}

/**
 * The one error line of a refused run: `navscope CMD: error: …`, naming the command once (a
 * message that starts with `CMD: `, as the commands' usage errors do, loses that prefix), and a
 * usage error ends with the `--help` pointer.
 */
export function errorLine(cmd: string, e: NavscopeError): string {
  let text = e.message;
  while (text.startsWith(`${cmd}: `)) text = text.slice(cmd.length + 2);
  if (e.code === "usage" && !text.includes("--help")) text += ` (see navscope ${cmd} --help)`;
  return `navscope ${cmd}: error: ${text}`;
}

/** Runs the CLI with the given arguments and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === "--help" || cmd === "-h" || cmd === "help") {
    console.log(await usage());
    return cmd === undefined ? 2 : 0;
  }
  if (cmd === "--version" || cmd === "-V") {
    console.log(`navscope ${NAVSCOPE_VERSION}`);
    return 0;
  }
  const load = COMMANDS[cmd];
  if (!load) {
    console.error(`navscope: unknown command '${cmd}' (see navscope --help)`);
    return 2;
  }
  const mod = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(mod.help);
    return 0;
  }
  try {
    return await mod.run(takeMaxInflate(rest));
  } catch (e) {
    if (e instanceof NavscopeError) {
      console.error(errorLine(cmd, e));
      return exitCodeOf(e);
    }
    // File-system and permission errors that escaped a command: one line, never Deno's
    // "run again with the --allow-… flag" hint or a stack trace.
    if (e instanceof Error && Object.values(Deno.errors).some((k) => e instanceof k)) {
      const text = e.message.replace(/,? run again with the --allow-\S+ flag/, "");
      console.error(`navscope ${cmd}: error: ${text}`);
      return 1;
    }
    throw e;
  }
}

/**
 * `--max-inflate SIZE` (any command, any position): the cap on a gzip file's decompressed size
 * (src/codec/gzip.ts; default 512 MiB, env NAVSCOPE_MAX_INFLATE). Removed from the arguments the
 * command sees.
 */
function takeMaxInflate(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a !== "--max-inflate" && !a.startsWith("--max-inflate=")) {
      out.push(a);
      continue;
    }
    const text = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++i];
    const v = text === undefined ? null : parseByteSize(text);
    if (v === null) {
      throw new NavscopeError(
        "usage",
        `--max-inflate ${JSON.stringify(text ?? "")} is not a size`,
        {},
        "bytes, or a number with K, M or G (e.g. 2G)",
      );
    }
    setMaxInflate(v);
  }
  return out;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
