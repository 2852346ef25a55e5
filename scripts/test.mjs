// `npm test`: bootstrap, a PostgreSQL for the tests, then every suite of every part
// (Vitest workspaces, cargo, go, terraform, ansible, e2e), ending with `N passed, N failed`.
// `npm test -- <filter>` runs only the suites whose name contains the filter; `npm test -- --quick`
// only the unit suites (no VM, no platform stack, no compatibility suite), for the edit-test loop.
import path from 'node:path';
import { bootstrap } from './bootstrap.mjs';
import { DATA, toolEnv } from './lib/paths.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { loadSecrets } from './lib/secrets.mjs';
import { allSuites } from './lib/suites.mjs';

async function main() {
  const t0 = Date.now();
  const { filters, quick } = parseArgs(process.argv.slice(2));
  await bootstrap();
  // The tests' own cluster, apart from the one `npm start` uses, so both can run at once.
  const secrets = loadSecrets(DATA);
  const pg = await startPostgres({ dir: path.join(DATA, 'pg-test'), database: 'basalt_test', password: secrets.pgPassword });
  const env = { ...toolEnv(), DATABASE_URL: pg.url, CI: process.env.CI ?? '' };
  const selected = allSuites().filter((suite) => (!filters.length || filters.some((f) => suite.name.includes(f))) && (!quick || suite.quick));
  const results = [];
  try {
    // Each lane's suites one after another, the lanes beside each other; a lane that comes
    // `after` others starts when they are done (scripts/lib/suites.mjs says which suite runs
    // where). Output lines carry their lane's name when more than one lane runs.
    const lanes = new Map();
    for (const suite of selected) lanes.set(laneOf(suite), [...(lanes.get(laneOf(suite)) ?? []), suite]);
    const width = Math.max(...[...lanes.keys()].map((l) => l.length));
    const done = new Map();
    for (const [lane, suites] of lanes) {
      const before = (suites[0].after ?? []).map((l) => done.get(l)).filter(Boolean);
      done.set(lane, Promise.all(before).then(async () => {
        const prefix = lanes.size > 1 ? `${lane.padEnd(width)} │ ` : '';
        for (const suite of suites) results.push(await runSuite(suite, env, { quick, prefix }));
      }));
    }
    await Promise.all(done.values());
  } finally {
    await pg.stop().catch(() => {});
  }
  results.sort((a, b) => selected.indexOf(a.suite) - selected.indexOf(b.suite));
  console.log('\n── summary ──');
  for (const r of results) {
    const mark = r.failed ? 'FAIL' : 'ok  ';
    console.log(`${mark} ${r.name.padEnd(48)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${String(r.skipped).padStart(3)} skipped  ${r.seconds.toFixed(0)} s`);
    for (const n of r.notes) console.log(`     ${n.replace(/\n/g, '\n     ')}`);
  }
  // Where the time of the whole-system suite goes: its files' own seconds, slowest first.
  const files = results.filter((r) => !r.quick).flatMap((r) => r.files ?? []);
  if (files.length) {
    console.log('\n── whole-system files, slowest first ──');
    for (const f of files.sort((a, b) => b.seconds - a.seconds)) console.log(`${f.seconds.toFixed(0).padStart(6)} s  ${f.name}`);
  }
  const passed = results.reduce((a, r) => a + r.passed, 0);
  const failed = results.reduce((a, r) => a + r.failed, 0);
  const skipped = results.reduce((a, r) => a + r.skipped, 0);
  console.log(`\nnpm test took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed || passed === 0 ? 1 : 0);
}

const laneOf = (suite) => suite.lane ?? 'units';

async function runSuite(suite, env, opts) {
  const t = Date.now();
  console.log(`\n${opts.prefix}▶ ${suite.name}`);
  let r;
  try {
    r = await suite.run(env, opts);
  } catch (err) {
    r = { passed: 0, failed: 1, notes: [String(err?.stack ?? err)] };
  }
  console.log(`${opts.prefix}■ ${suite.name}: ${r.passed} passed, ${r.failed} failed in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  return { suite, name: suite.name, quick: suite.quick, seconds: (Date.now() - t) / 1000, skipped: 0, notes: [], ...r };
}

const USAGE = 'usage: npm test [-- [--quick] [suite-filter ...]]';

/** The runner's own arguments: suite filters (words), and --quick. Any other flag is an error. */
function parseArgs(args) {
  const flags = args.filter((a) => a.startsWith('-'));
  const unknown = flags.filter((f) => f !== '--quick');
  if (unknown.length) {
    console.error(`npm test: unknown option ${unknown.join(' ')}\n${USAGE}`);
    process.exit(2);
  }
  return { filters: args.filter((a) => !a.startsWith('-')), quick: flags.includes('--quick') };
}

main().catch((err) => {
  console.error(`npm test: ${err.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
