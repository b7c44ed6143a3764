// postinstall: applies the upstream fix for postgres.js sending a transaction's BEGIN without
// reserving its connection (porsager/postgres#1189 and #823; fix proposed in #1218, not in a
// release as of 3.4.9). In `execute()`, the hook by which `sql.begin` reserves the connection
// (`onexecute`) was the last term of an `&&` chain after the pipeline-capacity check, so a
// BEGIN that filled the connection's pipeline was sent with the connection left in the pool:
// `sql.begin` failed with UNSAFE_TRANSACTION, or other queries ran inside that transaction.
// Here the hook runs whenever the query was written, and execute() answers as before.
// test/db/postgres-begin.test.ts fails without it. Idempotent; a postgres.js whose code
// differs (a release with the fix) is left alone, with a line saying so.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "node_modules", "postgres");
const copies = ["src", "cjs/src", "cf/src"].map((dir) => path.join(root, dir, "connection.js"));

const before = `      return write(toBuffer(q))
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline
        && (!q.options.onexecute || q.options.onexecute(connection))`;
const after = `      // patched by scripts/patch-postgres.mjs (porsager/postgres#1218): reserve on every write
      const more = write(toBuffer(q))
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline
      q.options.onexecute && q.options.onexecute(connection)
      return more && !q.options.onexecute`;

let patched = 0;
for (const file of copies) {
  if (!existsSync(file)) continue;
  const source = readFileSync(file, "utf8");
  if (source.includes(after)) continue;
  if (!source.includes(before)) {
    console.warn(`patch-postgres: ${path.relative(process.cwd(), file)} differs; not patched`);
    continue;
  }
  writeFileSync(file, source.replace(before, after));
  patched++;
}
if (patched) console.log(`patch-postgres: ${patched} file(s) patched (porsager/postgres#1218)`);
