// What a report's row holds beside its document, each computed from the document alone (the
// worker's report job and the loader of the committed reports both store these): the white
// paper, the catalog's headline, the peers, the engine's version and the environment sentence.
import { renderBenchmarkReport, reportHeadline, type ReportHeadlineFigures } from './benchmark-report.js';
import type { ReportRunSetting, TypeReportDocument } from './type-report-document.js';

export interface TypeReportDerived {
  markdown: string;
  headline: ReportHeadlineFigures;
  peers: { server: 'redis' | 'memcached'; version: string }[];
  engineVersion: string | null;
  environment: string;
}

/** Where the runs went, in one paragraph: the host and its load, the instance, the client and the peers. */
export function reportEnvironmentSentence(doc: TypeReportDocument): string {
  const settings: ReportRunSetting[] = doc.runs.map((r) => r.results);
  const client = settings.find((r) => r.client)?.client;
  const clientPlace = client?.network_namespace ? `in a network namespace of its own on bridge ${client.bridge} (${client.address})` : `on the host itself (${client?.address ?? '?'})`;
  return [
    `A shared host (${doc.host}), not dedicated hardware; ${doc.load}.`,
    `The instance ran in a local VM of ${doc.instance_type} (${doc.type_size}), the client basalt-bench ${clientPlace}, each peer in a network namespace and cgroup of the same size: client, instance and peers all shared the host's cores.`,
    ...(settings.some((r) => r.engines?.placement)
      ? ["encryption-overhead measured engines of the instance's build that its run started beside the instance, one per scenario, in a network namespace and cgroup of the same size (not the instance itself)."]
      : []),
  ].join(' ');
}

export function typeReportDerived(doc: TypeReportDocument): TypeReportDerived {
  const peers = new Map<string, TypeReportDerived['peers'][number]>();
  for (const run of doc.runs) {
    const peer = run.results.peer;
    if (peer) peers.set(`${peer.server} ${peer.version}`, { server: peer.server, version: peer.version });
  }
  return {
    markdown: renderBenchmarkReport(doc),
    headline: reportHeadline(doc.runs),
    peers: [...peers.values()],
    engineVersion: doc.runs.flatMap((r) => r.scenarios).find((s) => s.server === 'basalt')?.engine_version ?? null,
    environment: reportEnvironmentSentence(doc),
  };
}
