// The committed per-type reports (docs/benchmarks/<type>.json) in every install's catalog, loaded
// once at the API's start (main.ts prepare, the one step every install runs) as what they are:
// published reports, measured on the date, host and commit their document names. The row holds
// the document and what typeReportDerived computes from it, as a report made here does; the
// catalog prefers any report made on this install (TypeReportsRepository). Idempotent: a type
// measured at the same time is the same report, inserted once.
import fs from 'node:fs';
import path from 'node:path';
import { typeReportDerived, typeReportDocumentProblem, type TypeReportDocument } from '@basalt/api-client';
import { STANDARD_SUITES, type StandardSuite } from '@basalt/api-client/rules';
import type { CatalogRepository, TypeReportsRepository } from '@basalt/db';

/** docs/benchmarks of the checkout the API runs from (dist/catalog/ -> the repository's root). */
export const PUBLISHED_REPORTS_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../../docs/benchmarks');

/** Loads every committed report into the catalog; returns the types that got a new one. A file that is not a document with its provenance stops the start. */
export async function loadPublishedReports(catalog: CatalogRepository, reports: TypeReportsRepository, dir = PUBLISHED_REPORTS_DIR): Promise<string[]> {
  if (!fs.existsSync(dir)) return [];
  const loaded: string[] = [];
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const doc = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as TypeReportDocument;
    const problem = typeReportDocumentProblem(doc);
    if (problem) throw new Error(`published report ${path.join(dir, name)}: ${problem}`);
    if (!(await catalog.getInstanceType(doc.instance_type))) throw new Error(`published report ${name}: the catalog has no instance type ${doc.instance_type}`);
    const derived = typeReportDerived(doc);
    const suites = doc.runs.map((r) => r.workload).filter((w): w is StandardSuite => (STANDARD_SUITES as readonly string[]).includes(w));
    const inserted = await reports.insertPublished({
      instanceType: doc.instance_type,
      suites,
      measuredAt: new Date(doc.measured_at),
      document: doc,
      host: doc.host,
      sourceCommit: doc.commit,
      markdown: derived.markdown,
      headline: derived.headline,
      peers: derived.peers,
      engineVersion: derived.engineVersion,
      environment: derived.environment,
    });
    if (inserted) loaded.push(doc.instance_type);
  }
  return loaded;
}
