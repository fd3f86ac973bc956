/**
 * `navscope bisect`: the first commit where one leg's result changes (src/jobs/bisect.ts).
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NavscopeError } from "../src/errors.ts";
import { bisectLeg } from "../src/jobs/bisect.ts";
import { readTextStrict } from "../src/codec/json_strict.ts";
import { parsePlanLine } from "../src/logs/plan_line.ts";
import { type Leg, parseLegs } from "../src/legs/format.ts";
import { io, parseFlags } from "./support/terminal.ts";

const EXAMPLES = fileURLToPath(new URL("../examples/", import.meta.url));

/** One line for the command list. */
export const summary = "First commit between a good and a bad ref where a leg's result changes";

/** Usage text. */
export const help =
  `navscope bisect (--leg BATTERY/ID [--battery FILE] | --line FILE:N) --good REF --bad REF
                [--pack PACK] [--repo DIR]

Binary search over the commits GOOD..BAD (git rev-list --ancestry-path) for the first commit
where the leg's result — outcome, class (planner code) or route (points, length, drops) —
differs from its result at GOOD. Each probe checks the commit out in a temporary worktree and
plans the leg with that checkout's planner (navscope plan --log); the leg and the pack are
this checkout's. Assumes one change on the path (as git bisect does).

  --leg BATTERY/ID  a battery leg: BATTERY names examples/BATTERY/legs.json, or give --battery
  --battery FILE    the legs.json holding the leg (its pack: base.nav.gz beside it)
  --line FILE:N     a navscope plan line (line N of FILE): its zone, endpoints, floors, decks
                    and discs; the pack is examples/<source>/base.nav.gz unless --pack
  --good REF        a ref where the leg has its old result
  --bad REF         a later ref where it has the new one
  --pack PACK       the main pack to plan on
  --repo DIR        the git checkout (default: this navscope's)

Prints the commit, its subject and the leg's result before and after.
Exit: 0 found, 1 bad input (unknown ref, same result at both ends, a checkout that cannot
plan), 2 usage. Needs --allow-run (deno task bisect grants it).`;

async function lineLeg(spec: string): Promise<{ leg: Leg; battery: string }> {
  const m = /^(.*):(\d+)$/.exec(spec);
  if (!m) throw new NavscopeError("usage", `bisect: --line ${spec} is not FILE:N`);
  const file = m[1], n = Number(m[2]);
  const lines = (await readTextStrict(file)).split("\n");
  if (n < 1 || n > lines.length) {
    throw new NavscopeError("bad_value", `no line ${n}`, { file }, `1..${lines.length}`);
  }
  const { record: r, head } = parsePlanLine(lines[n - 1], { file, line: n });
  const leg: Leg = {
    id: r.leg || `line${n}`,
    zone: r.zone,
    start: r.start,
    goal: r.goal,
    ...(r.startFloorY !== null ? { start_floor_y: r.startFloorY } : {}),
    ...(r.goalFloorY !== null ? { goal_floor_y: r.goalFloorY } : {}),
    ...(r.startDeckY !== null ? { start_deck_y: r.startDeckY } : {}),
    ...(r.goalDeckY !== null ? { goal_deck_y: r.goalDeckY } : {}),
    ...(r.noGoDiscs.length ? { no_go_discs: r.noGoDiscs } : {}),
    // Bisect plans without --check: the expectation is never judged, and "ok" is always a
    // valid one (a logged code may be one the battery format does not list).
    expected: "ok",
    landmarks: [],
    note: `from ${file}:${n}`,
  } as Leg;
  return { leg, battery: head.srcFile };
}

/** Runs bisect. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("bisect", args, {
    leg: { type: "string" },
    battery: { type: "string" },
    line: { type: "string" },
    good: { type: "string" },
    bad: { type: "string" },
    pack: { type: "string" },
    repo: { type: "string" },
  });
  if (positionals.length) {
    throw new NavscopeError("usage", `bisect: unexpected argument ${positionals[0]}`);
  }
  if ((values.leg === undefined) === (values.line === undefined)) {
    throw new NavscopeError(
      "usage",
      "bisect: give exactly one of --leg BATTERY/ID or --line FILE:N",
    );
  }
  if (values.good === undefined || values.bad === undefined) {
    throw new NavscopeError("usage", "bisect: --good REF and --bad REF are both needed");
  }
  let leg: Leg, pack: string;
  if (values.leg !== undefined) {
    const slash = values.leg.lastIndexOf("/");
    const id = slash >= 0 ? values.leg.slice(slash + 1) : values.leg;
    const battery = values.battery ??
      (slash > 0 ? join(EXAMPLES, values.leg.slice(0, slash), "legs.json") : undefined);
    if (!battery) {
      throw new NavscopeError("usage", "bisect: --leg ID needs --battery FILE (or BATTERY/ID)");
    }
    const legs = parseLegs(await readTextStrict(battery), battery);
    const found = legs.find((l) => l.id === id);
    if (!found) {
      throw new NavscopeError("bad_value", `no leg ${JSON.stringify(id)} in the battery`, {
        file: battery,
      }, "the id of one of its legs");
    }
    leg = found;
    pack = values.pack ?? join(battery, "..", "base.nav.gz");
  } else {
    const got = await lineLeg(values.line!);
    leg = got.leg;
    pack = values.pack ?? join(EXAMPLES, got.battery, "base.nav.gz");
  }
  const rep = await bisectLeg({
    root: values.repo,
    good: values.good,
    bad: values.bad,
    leg,
    pack,
    onProgress: (s) => io.err.write(`navscope bisect: ${s}\n`),
  });
  const show = (r: typeof rep.before) => `${r.outcome}${r.route ? ` (route ${r.route})` : ""}`;
  io.out.write(
    [
      `first commit where ${leg.id} changes: ${rep.commit} ${rep.subject}`,
      `  before: ${show(rep.before)}`,
      `  after:  ${show(rep.after)}`,
      `  (${rep.probes} plans over ${rep.commits} commits)`,
    ].join("\n") + "\n",
  );
  return 0;
}
