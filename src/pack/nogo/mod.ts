/**
 * Author no-go table (`base.nogo.json`, spec 禁行区): the public face. `loadNoGoTable` /
 * `parseNoGoTable` read and validate a table, `encodeNoGoTable` writes one, `inAuthorNoGo` is the
 * point test (table.ts).
 * @module
 */
export * from "./table.ts";
