// One-off, run once on 2026-11-27 (issue 46) and kept to show how the committed JSON was made:
// the reports of kv.standard.small and kv.standard.large were published (commit f835868) as
// markdown only, and the runs they were rendered from went with the publishing test's database.
// This reads each markdown as that commit has it and writes the report's document (<type>.json), checking that
// the renderer makes the same tables and conclusions of it. Nothing reads markdown at runtime;
// from now on the document is what a publish writes and everything else is made from it
// (render.mjs). Usage: node docs/benchmarks/convert-markdown-2026-11-27.mjs (after
// `npm run build -w @basalt/api-client`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ENCRYPTION_VARIANTS, encryptionVariantLabel, memtierCommandOf, ycsbCommandOf } from '@basalt/api-client/rules';
import { reportJson, renderBenchmarkReport, TYPE_REPORT_FORMAT } from '@basalt/api-client';

const DIR = path.dirname(new URL(import.meta.url).pathname);
const TYPES = ['kv.standard.small', 'kv.standard.large'];

const num = (cell) => (cell === '—' ? null : Number(cell.replace(/[,×%+−]/g, '')));
const bytes = (cell) => (cell === 'varies' ? null : cell.endsWith(' KB') ? Number(cell.slice(0, -3)) * 1024 : Number(cell.slice(0, -2)));
const must = (value, what) => {
  if (value === undefined || value === null) throw new Error(`not found: ${what}`);
  return value;
};

/** The suite's sections of a `## Heading`: `### suite` -> its text. */
function subsections(markdown, heading) {
  const body = must(markdown.split(`\n## ${heading}\n`)[1], heading).split('\n## ')[0];
  return new Map(body.split('\n### ').slice(1).map((part) => [part.slice(0, part.indexOf('\n')), part.slice(part.indexOf('\n') + 1)]));
}

const tableRows = (text) => text.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Scenario') && !l.startsWith('| Value')).map((l) => l.slice(2, -2).split(' | '));
const firstBlock = (text) => must(/```sh\n([\s\S]*?)\n```/.exec(text), 'a command block')[1].split('\n');

function workloadOf(suite, name) {
  if (suite === 'memtier-standard') return name.startsWith('write-only') ? 'write-only' : name.startsWith('read-only') ? 'read-only' : 'mixed-1:1';
  if (suite === 'ycsb-standard') return name === 'load' ? 'ycsb-load' : name.endsWith('uniform read') ? 'uniform-read' : name.endsWith('zipfian read') ? 'zipfian-read' : 'uniform-read-update';
  return name === 'canonical: write the key set' ? 'canonical-load' : 'canonical';
}

const unpublished = { p50_latency_ms: null, errors: null, encryption: null, round_ops_per_sec: null };

function convert(type) {
  // The markdown as published, not the one render.mjs has made of the document since.
  const markdown = execFileSync('git', ['-C', DIR, 'show', `f835868:docs/benchmarks/${type}.md`], { encoding: 'utf8' });
  const head = must(/Measured \S+ \((\S+)\) by .*? of `([^`]+)` \(([^)]+)\), engine basalt-server (\S+) \(commit (\w+)\), client ([^.]+\.\d+\.\d+)\./.exec(markdown), 'the header');
  const [, measuredAt, instanceType, typeSize, engine, commit, tool] = head;
  const line = (prefix) => must(markdown.split('\n').find((l) => l.startsWith(prefix)), prefix).slice(prefix.length).replace(/\.$/, '');
  const host = line('- Host: ');
  const load = line('- Load: ');
  const clientAddress = must(/address (\S+) from the region's pool/.exec(line('- Client: ')), 'the client address')[1];
  const bridge = must(/on bridge (\S+) and a cgroup/.exec(line('- Instance: ')), 'the bridge')[1];
  const peerLines = markdown.split('\n').filter((l) => l.startsWith('- Peer: ')).map((l) => l.slice(8).replace(/\.$/, ''));
  const engines = line('- encryption-overhead engines (one per scenario, started and removed by the run): ');
  const scaling = new Map(must(markdown.split('\n## Scaling\n\n')[1], 'Scaling').split('\n\n')[0].split('\n').map((l) => [l.slice(2, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2).replace(/\.$/, '')]));
  const results = subsections(markdown, 'Results');
  const commands = subsections(markdown, 'Commands to rerun');
  const conclusions = must(markdown.split('\n## Conclusions (computed from the tables)\n\n')[1], 'Conclusions').split('\n\n')[0];

  const runs = [...results.entries()].map(([suite, text]) => {
    const lines = firstBlock(must(commands.get(suite), `${suite}'s commands`));
    const inRounds = /each command ran once in each of (\d+) rounds/.exec(commands.get(suite));
    const rounds = inRounds ? Number(inRounds[1]) : 1;
    const client = { address: clientAddress, network_namespace: true, bridge };
    if (suite === 'encryption-overhead') {
      // 24 commands: per value size, the four variants in the suite's order, once per round.
      const rows = tableRows(text);
      const scenarios = rows.map(([value, label, conns, runsCell, , median, range, , p99], i) => {
        const variant = ENCRYPTION_VARIANTS.find((v) => encryptionVariantLabel(v) === label);
        const size = bytes(value);
        const ofSize = lines.filter((l) => l.includes(`--data-size=${size} `));
        const mine = ofSize.filter((_, n) => ENCRYPTION_VARIANTS[n % ENCRYPTION_VARIANTS.length] === variant);
        if (mine.length !== Number(runsCell) || new Set(mine).size !== 1) throw new Error(`${type} ${value} ${label}: ${mine.length} commands`);
        const [low, high] = range.split('–').map(num);
        const command = mine[0];
        return {
          position: i + 1, name: `mixed 1:1 ${value}, ping-pong: ${label}`, server: 'basalt', tool, engine_version: engine,
          command_line: command, memtier_command: memtierCommandOf(command), ycsb_command: null, workload: 'mixed-1:1', value_size: size,
          connections: num(conns), pipeline: 1, requests: null, qps: num(median), avg_latency_ms: null, p99_latency_ms: num(p99), p999_latency_ms: null,
          ...unpublished, encryption: variant, round_ops_per_sec: [low, num(median), high], rounds: Number(runsCell), cold_reads: null,
        };
      });
      return { workload: suite, results: { scaling: [scaling.get(suite)], peer: null, peer_note: must(peerLines.find((p) => p.startsWith('no peer')), 'the no-peer note'), engines: { placement: engines }, client }, scenarios };
    }
    const header = must(text.split('\n').find((l) => l.startsWith('| Scenario')), `${suite}'s table`).slice(2, -2).split(' | ');
    const peerVersion = header[5].replace(/ ops\/s$/, '');
    const server = peerVersion.startsWith('Redis') ? 'redis' : 'memcached';
    const rows = tableRows(text);
    if (rows.length !== lines.length) throw new Error(`${type} ${suite}: ${rows.length} rows, ${lines.length} commands`);
    const scenarios = rows.flatMap(([name, value, conns, pipeline, qps, peerQps, , avg, p99, p999, peerP99, cold], i) => {
      const common = { position: i + 1, name, tool, workload: workloadOf(suite, name), value_size: bytes(value), connections: num(conns), pipeline: num(pipeline), rounds, ...unpublished };
      const fromDisk = suite === 'ycsb-standard' ? new RegExp(`^- ycsb-standard ${common.workload}: .*; [\\d,]+ of its ([\\d,]+) operations`, 'm').exec(conclusions) : null;
      const basalt = {
        ...common, server: 'basalt', engine_version: engine, command_line: lines[i], memtier_command: memtierCommandOf(lines[i]), ycsb_command: ycsbCommandOf(lines[i]),
        requests: fromDisk && name.startsWith('memory:data 1:4') ? num(fromDisk[1]) : null,
        qps: num(qps), avg_latency_ms: num(avg), p99_latency_ms: num(p99), p999_latency_ms: num(p999), cold_reads: cold === undefined ? null : num(cold),
      };
      if (peerQps === '—') return [basalt];
      const peer = { ...common, server, engine_version: peerVersion, command_line: null, memtier_command: null, ycsb_command: null, requests: null, qps: num(peerQps), avg_latency_ms: null, p99_latency_ms: num(peerP99), p999_latency_ms: null, cold_reads: null };
      return [basalt, peer];
    });
    const skipped = rows.filter((r) => r[5] === '—').map((r) => r[0]);
    const note = skipped.length ? must(text.split('\n').find((l) => l.startsWith('No peer figure for ')), `${suite}'s note`) : null;
    const why = note ? note.slice(`No peer figure for ${skipped.join(', ')}: `.length).replace(/\.$/, '') : null;
    return {
      workload: suite,
      results: {
        scaling: [scaling.get(suite)],
        peer: { server, version: peerVersion, placement: must(peerLines.find((p) => p.startsWith(server === 'redis' ? 'Redis' : 'memcached')), `${server}'s placement`) },
        ...(skipped.length ? { peer_skipped: skipped.map((name) => ({ name, why })) } : {}),
        client,
      },
      scenarios,
    };
  });

  const doc = {
    format: TYPE_REPORT_FORMAT,
    instance_type: instanceType,
    type_size: typeSize,
    measured_at: measuredAt,
    host,
    load,
    commit,
    provenance_note:
      `converted once from the markdown this report was published as (docs/benchmarks/${type}.md of commit f835868) by convert-markdown-2026-11-27.mjs; the runs it was rendered from were not kept. Its figures, commands and settings are the markdown's; what the markdown did not print is null (requests but those of ycsb-standard's data-larger-than-memory rows, p50, errors, the peers' average and p99.9 latency and their command lines), and encryption-overhead's rounds are its lowest, median and highest run in that order (the order they ran in was not printed).`,
    runs,
  };
  // The renderer must make the same tables and conclusions of the document as the markdown had.
  const again = renderBenchmarkReport(doc);
  const figures = (text) => text.split('\n').filter((l) => l.startsWith('| ') || (l.startsWith('- ') && /throughput|served/.test(l)));
  const before = figures(markdown);
  const after = figures(again);
  const missing = before.filter((l) => !after.includes(l));
  if (missing.length || before.length !== after.length) throw new Error(`${type}: the document renders other figures:\n${missing.join('\n')}`);
  fs.writeFileSync(path.join(DIR, `${type}.json`), reportJson(doc));
  console.log(`${type}: ${runs.length} runs, ${runs.reduce((n, r) => n + r.scenarios.length, 0)} scenarios, ${before.length} table rows and conclusions rendered the same`);
}

for (const type of TYPES) convert(type);
