/**
 * Bad input to the world baker: each case gives one clear NavscopeError (or, for a link whose
 * end falls off the mesh, a counted warning and a dropped link), never a silently wrong pack,
 * and a failed bake leaves no output or temporary file behind. Also the command's usage errors.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { bakeManifestFile, bakeToDirectory } from "../src/world/bake_world.ts";
import { nonManifoldEdges } from "../src/bake/mesh_checks.ts";
import { run } from "../commands/bake.ts";
import { captureOutput } from "../commands/support/terminal.ts";

/** A 20 × 20 px floor of 2 triangles plus `extra` OBJ lines. */
const FLOOR = "v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 4 3\nf 1 3 2\n";

async function world(
  obj: string | null,
  zone: Record<string, unknown> = {},
): Promise<{ dir: string; manifest: string }> {
  const dir = await Deno.makeTempDir({ prefix: "navscope-bake-bad-" });
  if (obj !== null) await Deno.writeTextFile(`${dir}/m.obj`, obj);
  const manifest = `${dir}/world.json`;
  await Deno.writeTextFile(
    manifest,
    JSON.stringify({
      format: "navscope-world",
      version: 1,
      name: "bad",
      zones: [{ name: "z", size_px: [24, 24], meshes: [{ file: "m.obj" }], ...zone }],
    }),
  );
  return { dir, manifest };
}

async function expectError(
  obj: string | null,
  zone: Record<string, unknown>,
  code: string,
  re: RegExp,
): Promise<void> {
  const w = await world(obj, zone);
  try {
    const e = await assertRejects(bakeManifestFile(w.manifest));
    assert(e instanceof NavscopeError, `NavscopeError, got ${e}`);
    assertEquals(e.code, code, e.message);
    assert(re.test(e.message), `message ${JSON.stringify(e.message)} matches ${re}`);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
}

Deno.test("bake bad input: missing OBJ file names the file", async () => {
  await expectError(null, {}, "io", /m\.obj/);
});

Deno.test("bake bad input: NaN / Inf vertex, bad index, short face name file and line", async () => {
  await expectError(
    "v 0 0 0\nv nan 0 0\nv 0 0 1\nf 1 2 3\n",
    {},
    "bad_value",
    /m\.obj.*line 2|line 2/,
  );
  await expectError("v 0 0 0\nv inf 0 0\nv 0 0 1\nf 1 2 3\n", {}, "bad_value", /line 2/);
  await expectError(FLOOR + "f 1 2 9\n", {}, "offset_out_of_range", /line 7/);
});

Deno.test("bake bad input: a zone whose every triangle is unwalkable", async () => {
  await expectError(
    FLOOR,
    { meshes: [{ file: "m.obj", default_surface: "water" }] },
    "bad_value",
    /walkable/i,
  );
});

Deno.test("bake bad input: degenerate mesh (every triangle zero-area) leaves no triangles", async () => {
  await expectError("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", {}, "bad_value", /no triangles/);
});

Deno.test("bake bad input: non-manifold edge is an error; lenient cuts it with a warning", async () => {
  // Three triangles on edge 1–2 (a fin standing on the floor's diagonal).
  const fin = "v 0 0 0\nv 10 0 10\nv 10 0 0\nv 0 0 10\nv 5 3 5\nv 20 0 5\n" +
    "f 1 2 3\nf 2 1 4\nf 1 2 5\nf 2 3 6\n";
  await expectError(fin, {}, "bad_value", /non-manifold.*1 edges.*--lenient/);
  const w = await world(fin);
  try {
    const a = await bakeManifestFile(w.manifest, { strictManifold: false });
    assertEquals(a.report.zones[0].warnings.filter((x) => x.includes("non-manifold")).length, 1);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
  assertEquals(nonManifoldEdges(Uint32Array.from([0, 1, 2, 1, 0, 3, 0, 1, 4]), 5), {
    count: 1,
    first: [0, 1],
  });
  assertEquals(nonManifoldEdges(Uint32Array.from([0, 1, 2, 1, 0, 3]), 4).count, 0);
});

Deno.test("bake bad input: triangles that share no edge cannot make a pack", async () => {
  await expectError(
    "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 5 0 5\nv 6 0 5\nv 5 0 6\nf 1 3 2\nf 4 6 5\n",
    {},
    "bad_value",
    /share an edge/,
  );
});

Deno.test("bake bad input: a link end off the mesh drops the link with a counted warning", async () => {
  const w = await world(FLOOR, {
    off_mesh_links: [
      { a: [5, 5, 0], b: [15, 15, 0] },
      { a: [5, 5, 0], b: [23, 23, 0] }, // within 16 px of the floor: kept
    ],
  });
  const far = await world(FLOOR, {
    size_px: [200, 200],
    off_mesh_links: [{ a: [5, 5, 0], b: [150, 150, 0] }],
  });
  try {
    const a = await bakeManifestFile(w.manifest);
    assertEquals(a.report.zones[0].links, { kept: 2, dropped: 0 });
    const b = await bakeManifestFile(far.manifest);
    assertEquals(b.report.zones[0].links, { kept: 0, dropped: 1 });
    assertEquals(b.report.warnings, 1);
    assert(
      /off-mesh link 0: end b \[150,150,0\] is off the mesh/.test(b.report.zones[0].warnings[0]),
    );
    assertEquals(b.main.offMeshLinks, []);
    assertEquals(b.sidecar.links, null);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
    await Deno.remove(far.dir, { recursive: true });
  }
});

Deno.test("bake: mesh outside the zone rectangle is baked inside it with a counted warning", async () => {
  const w = await world(FLOOR, { size_px: [10, 10] });
  try {
    const a = await bakeManifestFile(w.manifest);
    const ws = a.report.zones[0].warnings;
    assertEquals(ws.length, 1);
    assert(/2 walkable triangles reach outside the zone rectangle/.test(ws[0]), ws[0]);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("bake: a failed write leaves no pack and no temporaries behind", async () => {
  const w = await world(FLOOR);
  const out = `${w.dir}/out`;
  try {
    await Deno.mkdir(`${out}/base.nogo.json`, { recursive: true }); // a directory in the way
    const e = await assertRejects(bakeToDirectory(w.manifest, out, { workers: 1 }));
    assert(e instanceof NavscopeError && e.code === "io", String(e));
    assertEquals([...Deno.readDirSync(out)].map((d) => d.name), ["base.nogo.json"]);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("bake command: usage errors and a successful run", async () => {
  const usage = async (args: string[], re: RegExp) => {
    const e = await assertRejects(run(args));
    assert(e instanceof NavscopeError && e.code === "usage", String(e));
    assert(re.test(e.message), e.message);
  };
  await usage([], /no manifest/);
  await usage(["m.json"], /--out/);
  await usage(["m.json", "--out", "x", "--workers", "0"], /--workers/);
  await usage(["m.json", "--out", "x", "--workers", "two"], /--workers/);
  await usage(["m.json", "--out", "x", "--bogus"], /bogus/);
  await usage(["m.json", "--out", "x", "--json", "--csv"], /mutually exclusive/);
  const w = await world(FLOOR);
  try {
    const { value: result, out } = await captureOutput(() =>
      run([w.manifest, "--out", `${w.dir}/o`, "--workers", "1", "--json"])
    );
    assertEquals(result, 0);
    const j = JSON.parse(out);
    assertEquals(j.zones[0].triangles, 2);
    assertEquals(j.files.map((f: { role: string }) => f.role), [
      "main",
      "fields",
      "occluder",
      "nogo",
    ]);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});
