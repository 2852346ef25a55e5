// The committed reports (docs/benchmarks) are their JSON and what typeReportFiles makes of it:
// a markdown or a chart edited by hand, or a renderer changed without `node docs/benchmarks/render.mjs`,
// fails here. And every committed document names its provenance, which the loader requires.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeReportDocumentProblem, typeReportFiles, type TypeReportDocument } from '../src/index.js';

const DIR = path.resolve(import.meta.dirname, '../../../docs/benchmarks');
const documents = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

describe('committed reports', () => {
  it('are the two published types', () => {
    expect(documents).toEqual(['kv.standard.large.json', 'kv.standard.small.json']);
  });

  for (const name of documents) {
    it(`${name}: a document with its provenance, and its markdown and charts exactly what it makes`, () => {
      const doc = JSON.parse(fs.readFileSync(path.join(DIR, name), 'utf8')) as TypeReportDocument;
      expect(typeReportDocumentProblem(doc)).toBeNull();
      expect(doc.commit).toMatch(/^[0-9a-f]{7,40}$/);
      const files = typeReportFiles(doc);
      expect(files.filter((f) => f.name.endsWith('.svg')).length).toBeGreaterThanOrEqual(doc.runs.length * 2 - 1);
      const markdown = files.find((f) => f.name.endsWith('.md'))!.content;
      for (const file of files) {
        expect(fs.readFileSync(path.join(DIR, file.name), 'utf8'), `${file.name} differs from what ${name} makes: run node docs/benchmarks/render.mjs`).toBe(file.content);
        if (file.name.endsWith('.svg')) expect(markdown).toContain(`](${file.name})`);
      }
    });
  }
});
